// Asynchronous updates of array sections (OpenACC 3.3: the update directive
// with async and wait clauses; acc_update_device/self_async;
// acc_memcpy_to/from_device_async), interleaved with async
// kernels on the same queue (ordered by the queue) and on other queues
// (ordered by wait clauses or acc_wait_async):
//   1  four queues, each: update device of its quarter of a, a kernel on that
//      quarter, update self of its quarter of b;
//   2  a kernels region on queue 5 that waits for queues 1-4, then update self
//      of two partial sections of a on queues 6 and 7, each `wait(5)`; one of
//      them straddles two quarters;
//   3  acc_update_device_async / kernel / acc_update_self_async on queue 8,
//      and a partial acc_update_self_async on queue 9 after
//      acc_wait_async(8, 9);
//   4  acc_memcpy_to_device_async into acc_malloc'ed memory, a deviceptr
//      kernel and acc_memcpy_from_device_async on queue 10; then
//      acc_memcpy_to_device_async into a present array (acc_deviceptr + an
//      offset) on queue 11, a kernel on queue 12 `wait(11)` and update self;
//   5  round trips of the same host memory on one queue, nothing waited for
//      in between: update self async(13), then update device async(13) of
//      the same section, a kernel adding r, repeated 8 times; each update
//      device must send what the update self before it brought back (the
//      queue orders them), so the increments accumulate.
// The host writes an array only when no queued operation uses it and reads
// only what an update self or a copy brought back after a wait that covers
// it, so the answers are the same with separate or shared memory and with or
// without real asynchrony. Values are small integers in float: exact.
#include <openacc.h>
#include <stdio.h>
#include <stdlib.h>

#define N (1 << 18)
#define L (N / 4)

static int failures;

static void check(const char *what, long long got, long long want)
{
    printf("%s %lld\n", what, got);
    if (got != want) {
        failures++;
        fprintf(stderr, "%s: got %lld, want %lld\n", what, got, want);
    }
}

static float in0(int i) { return (float)(i % 1000); }

/* Mismatches of x[lo:len] against want(i), printed with the sum of x[lo:len]. */
static void check_section(const char *what, const float *x, int lo, int len, float (*want)(int))
{
    long long bad = 0;
    double s = 0, ws = 0;
    for (int i = lo; i < lo + len; i++) {
        bad += x[i] != want(i);
        s += x[i];
        ws += want(i);
    }
    char name[64];
    snprintf(name, sizeof name, "%s_bad", what);
    check(name, bad, 0);
    snprintf(name, sizeof name, "%s_sum", what);
    check(name, (long long)s, (long long)ws);
}

static float b1(int i) { return 2.0f * in0(i) + (float)(i / L); }  /* part 1 */
static float a2(int i) { return in0(i) + (float)(i / L); }         /* part 2 */
static float b3(int i) { return 21.0f + (float)(i % 5); }          /* part 3 */
static float h4(int i) { return 2.0f * (float)(i % 300) + 1.0f; }   /* part 4 */
static float b4(int i) { return (float)(i % 300) - 5.0f; }         /* part 4 */
static float a5(int i) { return (float)(i % 1000) + 36.0f; }       /* part 5 */

int main(void)
{
    const int n = N;
    float *a = malloc(n * sizeof(float)), *b = malloc(n * sizeof(float));
    float *h = malloc(L * sizeof(float)), *h2 = malloc(L * sizeof(float));
    for (int i = 0; i < n; i++) {
        a[i] = in0(i);
        b[i] = -1.0f;
    }
#pragma acc enter data create(a[0:n], b[0:n])

    /* 1: per queue s + 1, quarter s: update device, kernel, update self. */
    for (int s = 0; s < 4; s++) {
        const int lo = s * L;
#pragma acc update device(a[lo:L]) async(s + 1)
#pragma acc parallel loop present(a[0:n], b[0:n]) async(s + 1)
        for (int i = lo; i < lo + L; i++)
            b[i] = 2.0f * a[i] + (float)s;
#pragma acc update self(b[lo:L]) async(s + 1)
    }

    /* 2: queue 5 after all four; two partial sections back on queues 6, 7. */
#pragma acc kernels loop present(a[0:n], b[0:n]) async(5) wait(1, 2, 3, 4)
    for (int i = 0; i < n; i++)
        a[i] = b[i] - a[i];
    const int lo2 = L - 2500, len2 = 5000;
#pragma acc update self(a[lo2:len2]) async(6) wait(5)
#pragma acc update self(a[n/2:n/2]) async(7) wait(5)

#pragma acc wait(1, 2, 3, 4)
    check_section("p1_b", b, 0, n, b1);
#pragma acc wait(6, 7)
    check_section("p2_a_straddle", a, lo2, len2, a2);
    check_section("p2_a_half", a, n / 2, n / 2, a2);

    /* 3: the routines (queues 6 and 7 were after queue 5, the last user of a,
       so the host may write a). */
    for (int i = 0; i < L; i++)
        a[i] = (float)(7 + i % 5);
    acc_update_device_async(a, L * sizeof(float), 8);
#pragma acc parallel loop present(a[0:n], b[0:n]) async(8)
    for (int i = 0; i < L; i++)
        b[i] = 3.0f * a[i] - 2.0f * (float)(i % 5);
    acc_update_self_async(b + L / 2, (L / 2) * sizeof(float), 8);
    acc_wait_async(8, 9);
    acc_update_self_async(b, (L / 2) * sizeof(float), 9);
    acc_wait(8);
    acc_wait(9);
    check_section("p3_b", b, 0, L, b3);

    /* 4: memcpy routines: device memory of its own, then a present array. */
    for (int i = 0; i < L; i++) {
        h[i] = (float)(i % 300);
        h2[i] = -1.0f;
    }
    float *dv = acc_malloc(L * sizeof(float));
    acc_memcpy_to_device_async(dv, h, L * sizeof(float), 10);
#pragma acc parallel loop deviceptr(dv) async(10)
    for (int i = 0; i < L; i++)
        dv[i] = 2.0f * dv[i] + 1.0f;
    acc_memcpy_from_device_async(h2, dv, L * sizeof(float), 10);
    float *bdev = acc_deviceptr(b);
    acc_memcpy_to_device_async(bdev + L, h, L * sizeof(float), 11);
#pragma acc parallel loop present(b[0:n]) async(12) wait(11)
    for (int i = L; i < 2 * L; i++)
        b[i] = b[i] - 5.0f;
#pragma acc update self(b[L:L]) async(12)
    acc_wait(10);
    check_section("p4_memcpy", h2, 0, L, h4);
    acc_wait(12);
    {
        long long bad = 0;
        for (int i = 0; i < L; i++)
            bad += b[L + i] != b4(i);
        check("p4_present_bad", bad, 0);
    }
    acc_free(dv);

    /* 5: round trips on queue 13 (nothing is queued on a now). */
    for (int i = 0; i < n; i++)
        a[i] = in0(i);
#pragma acc update device(a[0:n]) async(13)
    for (int r = 1; r <= 8; r++) {
#pragma acc parallel loop present(a[0:n]) async(13)
        for (int i = 0; i < n; i++)
            a[i] += (float)r;
#pragma acc update self(a[0:n]) async(13)
#pragma acc update device(a[0:n]) async(13)
    }
#pragma acc wait(13)
    check_section("p5_roundtrip", a, 0, n, a5);
#pragma acc exit data delete(a[0:n], b[0:n])

    printf("%s\n", failures == 0 ? "PASS" : "FAIL");
    free(a);
    free(b);
    free(h);
    free(h2);
    return failures != 0;
}
