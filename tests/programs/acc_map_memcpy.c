// acc_malloc / acc_free, acc_map_data / acc_unmap_data and the acc_memcpy
// routines (OpenACC 3.3 3.2.14-3.2.15, 3.2.21-3.2.22, 3.2.26-3.2.27): device
// memory the program allocates is filled with acc_memcpy_to_device, mapped to
// a host array so a compute construct finds it present, read back with
// acc_memcpy_from_device, and unmapped (never freed by the runtime: the
// program frees it). On a shared-memory device (the host fallback, GCC's
// host-only build) device memory is host memory, so the host array itself is
// "mapped"; the printed answers are the same on both.
#include <openacc.h>
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    int n = 4096;
    size_t bytes = n * sizeof(double);
    acc_init(acc_device_default);
    int shared = acc_get_device_type() == acc_device_host;
    double *h = malloc(bytes), *back = malloc(bytes), *src = malloc(bytes);
    for (int i = 0; i < n; i++) {
        h[i] = 0;
        back[i] = -1;
        src[i] = 0.5 * i;
    }
    double *d = shared ? h : acc_malloc(bytes);
    printf("acc_malloc %d\n", d != NULL);
    acc_memcpy_to_device(d, src, bytes);
    acc_map_data(h, d, bytes);
    printf("mapped %d %d\n", acc_is_present(h, bytes), acc_deviceptr(h + 3) == (void *)(d + 3));
    printf("hostptr %d\n", acc_hostptr(d + 5) == (void *)(h + 5));

#pragma acc parallel loop present(h[0:n])
    for (int i = 0; i < n; i++)
        h[i] = 2 * h[i] + 1;

    /* A data region on mapped data counts a reference and copies nothing. */
#pragma acc data copy(h[0:n])
    {
#pragma acc parallel loop present(h[0:n])
        for (int i = 0; i < n; i++)
            h[i] += 1;
    }

    acc_memcpy_from_device(back, d, bytes);
    printf("back[0] %.1f back[10] %.1f back[n-1] %.1f\n", back[0], back[10], back[n - 1]);
    acc_unmap_data(h);
    acc_memcpy_from_device(back + 1, d + 1, sizeof(double));
    printf("still there after unmap %.1f\n", back[1]);
    if (!shared)
        acc_free(d);
    acc_free(acc_malloc(0)); /* null: no action */

    int errors = 0;
    for (int i = 0; i < n; i++)
        errors += back[i] != 2 * (0.5 * i) + 2;
    printf("%s\n", errors == 0 ? "PASS" : "FAIL");
    free(h);
    free(back);
    free(src);
    return 0;
}
