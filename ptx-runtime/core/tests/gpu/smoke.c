/* GPU smoke test of libptxrt + libptxrt-cuda.so with a hand-written PTX kernel
 * (no compiler involved). Run by run.sh on a machine with an NVIDIA GPU:
 *   ./smoke ok          vadd through data_begin/deviceptr/launch/data_end; exit 0
 *   ./smoke declare     declared globals: a copyin global read through its
 *                       device address cell, a link global whose cell follows
 *                       the data region that maps it; exit 0
 *   ./smoke badptx      invalid PTX: fatal error with the JIT log; exit 1
 *   ./smoke notpresent  present() of absent data: fatal error; exit 1
 *   ./smoke badkernel   unknown kernel name: fatal error; exit 1
 * Build: cc -I ptx-runtime/include smoke.c libptxrt.a -ldl -lpthread -lm */
#include <openacc.h>
#include <ptxrt.h>
#include <stdio.h>
#include <string.h>

static const char vadd_ptx[] =
    ".version 7.0\n.target sm_70\n.address_size 64\n"
    ".visible .entry vadd(.param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u32 pn)\n{\n"
    " .reg .pred %p<2>; .reg .b32 %r<6>; .reg .b64 %rd<10>; .reg .f64 %fd<4>;\n"
    " ld.param.u64 %rd1, [pa]; ld.param.u64 %rd2, [pb]; ld.param.u64 %rd3, [pc];\n"
    " ld.param.u32 %r1, [pn];\n"
    " mov.u32 %r2, %ctaid.x; mov.u32 %r3, %ntid.x; mov.u32 %r4, %tid.x;\n"
    " mad.lo.s32 %r5, %r2, %r3, %r4;\n"
    " setp.ge.u32 %p1, %r5, %r1;\n"
    " @%p1 bra DONE;\n"
    " cvta.to.global.u64 %rd4, %rd1; cvta.to.global.u64 %rd5, %rd2; cvta.to.global.u64 %rd6, %rd3;\n"
    " mul.wide.u32 %rd7, %r5, 8;\n"
    " add.s64 %rd8, %rd4, %rd7; ld.global.f64 %fd1, [%rd8];\n"
    " add.s64 %rd8, %rd5, %rd7; ld.global.f64 %fd2, [%rd8];\n"
    " add.f64 %fd3, %fd1, %fd2;\n"
    " add.s64 %rd9, %rd6, %rd7; st.global.f64 [%rd9], %fd3;\n"
    "DONE:\n ret;\n}\n";

static const char bad_ptx[] =
    ".version 7.0\n.target sm_70\n.address_size 64\n"
    ".visible .entry vadd()\n{\n bogus.instruction %r1;\n ret;\n}\n";

/* Two device address cells: g (declare copyin) and lk (declare link). The
 * kernel doubles g into out, and writes i into lk[i] when lk has a device copy. */
static const char declare_ptx[] =
    ".version 7.0\n.target sm_70\n.address_size 64\n"
    ".visible .global .align 8 .u64 cell_g;\n"
    ".visible .global .align 8 .u64 cell_lk;\n"
    ".visible .entry readg(.param .u64 pout, .param .u32 pn)\n{\n"
    " .reg .pred %p<3>; .reg .b32 %r<6>; .reg .b64 %rd<10>; .reg .f64 %fd<3>;\n"
    " ld.param.u64 %rd1, [pout]; ld.param.u32 %r1, [pn];\n"
    " mov.u32 %r2, %ctaid.x; mov.u32 %r3, %ntid.x; mov.u32 %r4, %tid.x;\n"
    " mad.lo.s32 %r5, %r2, %r3, %r4;\n"
    " setp.ge.u32 %p1, %r5, %r1;\n"
    " @%p1 bra DONE;\n"
    " mul.wide.u32 %rd3, %r5, 8;\n"
    " ld.global.u64 %rd2, [cell_g];\n"
    " add.s64 %rd4, %rd2, %rd3; ld.f64 %fd1, [%rd4];\n"
    " add.f64 %fd2, %fd1, %fd1;\n"
    " add.s64 %rd5, %rd1, %rd3; st.f64 [%rd5], %fd2;\n"
    " ld.global.u64 %rd6, [cell_lk];\n"
    " setp.eq.u64 %p2, %rd6, 0;\n"
    " @%p2 bra DONE;\n"
    " add.s64 %rd7, %rd6, %rd3; cvt.rn.f64.u32 %fd1, %r5; st.f64 [%rd7], %fd1;\n"
    "DONE:\n ret;\n}\n";

#define N 1000
static double a[N], b[N], c[N];
static double g[N], lk[N], out[N];
static const struct __ptxrt_cell cells[2] = {{"cell_g", g}, {"cell_lk", lk}};
static const struct __ptxrt_code declare_code[] = {
    {PTXRT_CODE_PTX, NULL, (const unsigned char *)declare_ptx, sizeof declare_ptx - 1}};
static struct __ptxrt_image declared = {PTXRT_ABI_VERSION, 0, 0, "declare.c", declare_code, 1,
                                        NULL, NULL, cells, 2};
static const struct __ptxrt_declare decl_g = {"g", g, sizeof g, PTXRT_MAP_COPYIN,
                                              {"smoke.c", 1, 1, "declare"}};
static const struct __ptxrt_declare decl_lk = {"lk", lk, sizeof lk, PTXRT_DECLARE_LINK,
                                               {"smoke.c", 2, 1, "declare"}};

static const struct __ptxrt_code good_code[] = {
    {PTXRT_CODE_PTX, NULL, (const unsigned char *)vadd_ptx, sizeof vadd_ptx - 1}};
static const struct __ptxrt_code bad_code[] = {
    {PTXRT_CODE_PTX, NULL, (const unsigned char *)bad_ptx, sizeof bad_ptx - 1}};
static struct __ptxrt_image good = {PTXRT_ABI_VERSION, 0, 0, "smoke.c", good_code, 1,
                                    NULL, NULL, NULL, 0};
static struct __ptxrt_image bad = {PTXRT_ABI_VERSION, 0, 0, "bad.c", bad_code, 1,
                                   NULL, NULL, NULL, 0};

__attribute__((constructor)) static void reg(void) {
  __ptxrt_register_image(&good);
  __ptxrt_register_image(&bad);
  __ptxrt_register_image(&declared);
  __ptxrt_register_declare(&decl_g);
  __ptxrt_register_declare(&decl_lk);
  __ptxrt_register_declare(&decl_g); /* a second translation unit naming it */
}

/* Declared globals: g is copied in when the device opens; lk's cell is 0
 * until a data region maps lk. */
static int declare_mode(void) {
  for (int i = 0; i < N; i++) { g[i] = i + 0.5; lk[i] = -1; out[i] = 0; }
  if (!__ptxrt_use_device(1)) { printf("no device\n"); return 2; }
  struct __ptxrt_loc loc = {"smoke.c", 90, 1, "parallel loop"};
  unsigned n = N, grid = __ptxrt_default_gangs(N, 128);
  struct __ptxrt_map mo = {"out[0:N]", out, sizeof out, PTXRT_MAP_COPYOUT, 0};
  struct __ptxrt_map ml = {"lk[0:N]", lk, sizeof lk, PTXRT_MAP_COPYOUT, 0};
  for (int round = 0; round < 3; round++) {
    void *r = __ptxrt_data_begin(&loc, &mo, 1, NULL);
    void *rl = round == 1 ? __ptxrt_data_begin(&loc, &ml, 1, NULL) : NULL;
    void *dout = __ptxrt_deviceptr(&loc, "out", out, NULL, 0);
    void *args[2] = {&dout, &n};
    __ptxrt_launch(&loc, &declared, "readg", grid, 1, 1, 128, 1, 1, 0, args, PTXRT_ASYNC_NONE);
    if (rl) __ptxrt_data_end(rl);
    __ptxrt_data_end(r);
  }
  int bad = 0;
  for (int i = 0; i < N; i++) bad += out[i] != 2 * i + 1 || lk[i] != i;
  printf("declare: g read through its cell, lk written only while mapped: mismatches=%d\n", bad);
  printf(bad ? "FAILED\n" : "OK\n");
  return bad != 0;
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "ok";
  if (strcmp(mode, "declare") == 0) return declare_mode();
  if (!__ptxrt_use_device(1)) {
    printf("no device (acc_get_num_devices=%d)\n", acc_get_num_devices(acc_device_nvidia));
    return 2;
  }
  printf("devices: %d\n", acc_get_num_devices(acc_device_nvidia));
  for (int i = 0; i < N; i++) { a[i] = i; b[i] = 2.0 * i; c[i] = -1; }
  struct __ptxrt_loc loc = {"smoke.c", 60, 1, "parallel loop"};
  unsigned n = N, block = 128, grid = __ptxrt_default_gangs(N, 128);
  if (strcmp(mode, "notpresent") == 0) {
    struct __ptxrt_map m = {"c[0:N]", c, sizeof c, PTXRT_MAP_PRESENT, 0};
    __ptxrt_data_begin(&loc, &m, 1, NULL);
    return 0;
  }
  /* Outer data region holds c; the inner compute construct's copy(c) only counts. */
  struct __ptxrt_map outer[1] = {{"c[0:N]", c, sizeof c, PTXRT_MAP_COPYOUT, 0}};
  void *ro = __ptxrt_data_begin(&loc, outer, 1, NULL);
  struct __ptxrt_map maps[4] = {{"a[0:N]", a, sizeof a, PTXRT_MAP_COPYIN, 0},
                                {"b[0:N]", b, sizeof b, PTXRT_MAP_COPYIN, 0},
                                {"c[0:N]", c, sizeof c, PTXRT_MAP_COPY, 0},
                                {"b[5:0]", b + 5, 0, PTXRT_MAP_COPYIN, 0}};
  void *r = __ptxrt_data_begin(&loc, maps, 4, NULL);
  void *da = __ptxrt_deviceptr(&loc, "a", a, a, 0);
  void *db = __ptxrt_deviceptr(&loc, "b", b + 10, b, 0); /* interior pointer */
  void *dc = __ptxrt_deviceptr(&loc, "c", c, NULL, 0);
  if ((char *)db - (char *)__ptxrt_deviceptr(&loc, "b", b, NULL, 0) != 10 * sizeof(double)) {
    printf("FAIL: interior translation\n");
    return 1;
  }
  db = __ptxrt_deviceptr(&loc, "b", b, NULL, 0);
  void *args[4] = {&da, &db, &dc, &n};
  struct __ptxrt_image *img = &good;
  const char *kernel = "vadd";
  if (strcmp(mode, "badptx") == 0) img = &bad;
  if (strcmp(mode, "badkernel") == 0) kernel = "no_such_kernel";
  __ptxrt_launch(&loc, img, kernel, grid, 1, 1, block, 1, 1, 0, args, PTXRT_ASYNC_NONE);
  __ptxrt_data_end(r);
  if (c[7] != -1) { printf("FAIL: c copied out while the outer region holds it\n"); return 1; }
  __ptxrt_data_end(ro);
  int bad_count = 0;
  for (int i = 0; i < N; i++)
    if (c[i] != 3.0 * i) bad_count++;
  printf("grid=%u mismatches=%d\n", grid, bad_count);
  acc_shutdown(acc_device_nvidia);
  /* Runs again after shutdown (re-initialises). */
  if (!__ptxrt_use_device(1)) { printf("FAIL: no device after shutdown\n"); return 1; }
  printf(bad_count ? "FAILED\n" : "OK\n");
  return bad_count != 0;
}
