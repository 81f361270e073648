/* The host half of the relocatable-image check (tests/rdc.rs, see
 * tests/README.md). tests/rdc.rs appends the device image of kernel.ptx
 * (made by accc's embed::write_c) to this file, as accc appends a unit's
 * image to its host code; add_one.ptx becomes the image of a second unit.
 * The kernel rdc_add_one calls add_one, so it runs only when the runtime has
 * linked the two images.
 *
 * On a device: out[i] = add_one(i) for N values, checked here; prints one
 * PASS line (exit 0) or a FAIL line (exit 1). On the host (no device, or
 * ACC_DEVICE_TYPE=host): prints that nothing ran and exits 0. */
#include <stdio.h>
#include <ptxrt.h>
static struct __ptxrt_image __accc_image;

#define N 1000

int main(void) {
  static int out[N];
  for (int i = 0; i < N; i++)
    out[i] = -1;
  if (!__ptxrt_use_device(1)) {
    printf("rdc_link: no device, the linked kernel did not run\n");
    return 0;
  }
  static const struct __ptxrt_loc loc = {"tests/rdc/main.c", __LINE__, 1, "parallel loop"};
  struct __ptxrt_map map = {"out[0:N]", out, sizeof out, PTXRT_MAP_COPYOUT, 0};
  void *region = __ptxrt_data_begin(&loc, &map, 1, NULL);
  void *dout = __ptxrt_deviceptr(&loc, "out", out, out, 0);
  unsigned n = N;
  void *args[2] = {&dout, &n};
  __ptxrt_launch(&loc, &__accc_image, "rdc_add_one", (N + 127) / 128, 1, 1, 128, 1, 1, 0, args, PTXRT_ASYNC_NONE);
  __ptxrt_data_end(region);
  int bad = 0;
  for (int i = 0; i < N; i++)
    bad += out[i] != i + 1;
  if (bad) {
    printf("FAIL rdc_link: %d of %d values wrong (out[0]=%d, out[%d]=%d)\n", bad, N, out[0], N - 1,
           out[N - 1]);
    return 1;
  }
  printf("PASS rdc_link: rdc_add_one ran with add_one linked from another image, %d values right\n",
         N);
  return 0;
}
