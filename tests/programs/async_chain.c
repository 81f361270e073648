// A chain of dependent asynchronous operations across queues 1..5 (OpenACC 3.3
// 2.16 asynchronous behavior: the async clause, the wait clause, the wait
// directive; the async runtime routines). Each step reads what an earlier step
// wrote on another queue, and the dependence is expressed only through the
// queues:
//   A  enter data copyin/create async(1), parallel loop async(1)
//   B  kernels loop async(2) wait(1)
//   C  `wait(2) async(3)` (queue 3 waits for queue 2 without blocking the
//      host), then parallel loop async(3) with copyout(d) on the construct
//   D  serial async(4) wait(3) with a copy clause (a small table)
//   E  acc_wait_async(4, 1), then parallel loop async(1) and
//      exit data copyout async(1): waiting for queue 1 alone must also cover
//      queue 4's copy-back, which queue 1 waits for
//   F  update device async(2) wait(1) / update self async(3) wait(2) of sections
//   G  `async` without argument (the default queue, acc_async_noval) for a
//      compute construct and an update, covered by `#pragma acc wait` (the
//      last statement of a block)
//   H  `#pragma acc wait` (all queues) and `#pragma acc wait(1, 2)`; exit data
//      async(1) wait(2).
// (acc_set_default_async is in async_default.c: GCC 12, the oracle, lacks it.)
// The host reads only after a wait covering the queue that produced the data
// and writes host arrays only when no queued operation uses them, so the
// program is correct whether the queues run asynchronously (GPU) or not (host
// fallback, GCC host-only oracle). The arrays are large (2^20 floats) and, on a
// device, the first kernel of each chain spins (SPIN_DEVICE dependent steps
// per element that give back the element: 1000 - (1000 - v) = v), so a missing
// dependence shows on a GPU; on the host the spin is 2 steps, to stay fast.
// Every value is a small integer or half-integer in float: exact everywhere.
#include <openacc.h>
#include <stdio.h>
#include <stdlib.h>

#define N (1 << 20)
#define SPIN_DEVICE 20000 /* even */

static int failures;

static void check(const char *what, long long got, long long want)
{
    printf("%s %lld\n", what, got);
    if (got != want) {
        failures++;
        fprintf(stderr, "%s: got %lld, want %lld\n", what, got, want);
    }
}

/* Checks x[0:n] against want(i) element by element; prints the number of
   mismatches and twice the sum (the values are half-integers). */
static void check_array(const char *what, const float *x, int n, float (*want)(int))
{
    long long bad = 0;
    double s = 0, ws = 0;
    for (int i = 0; i < n; i++) {
        bad += x[i] != want(i);
        s += x[i];
        ws += want(i);
    }
    char name[64];
    snprintf(name, sizeof name, "%s_bad", what);
    check(name, bad, 0);
    snprintf(name, sizeof name, "%s_sum2", what);
    check(name, (long long)(2.0 * s), (long long)(2.0 * ws));
}

static float a0(int i) { return (float)(i % 1000); }
static float b0(int i) { return 2.0f * a0(i) + 1.0f; }           /* A */
static float c0(int i) { return 3.0f * b0(i) - a0(i); }          /* B */
static float d0(int i) { return c0(i) + 0.5f; }                  /* C */
static float b1(int i) { return b0(i) + c0(i) - 7.0f; }          /* E */
static float a1(int i) { return (float)(i % 7) - 3.0f; }         /* F: new host a */
static float e1(int i) { return c0(i) * a1(i); }                 /* F */
static float c2(int i) { return 2.0f * c0(i) + 1.0f; }           /* G */
static float dh(int i) { return a1(i) + (i < N / 2 ? 10.0f : 20.0f); } /* H */
static float eh(int i) { return i < N / 2 ? 10.0f : 20.0f; }     /* H */

int main(void)
{
    const int n = N;
    float *a = malloc(n * sizeof(float)), *b = malloc(n * sizeof(float));
    float *c = malloc(n * sizeof(float)), *d = malloc(n * sizeof(float));
    float *e = malloc(n * sizeof(float));
    int table[4] = {0, 0, 0, 0};
    const int spin = acc_get_device_type() == acc_device_host ? 2 : SPIN_DEVICE;
    for (int i = 0; i < n; i++) {
        a[i] = a0(i);
        b[i] = c[i] = d[i] = e[i] = -1.0f;
    }

    /* A: data and a parallel region on queue 1. */
#pragma acc enter data create(b[0:n], c[0:n]) async(1)
#pragma acc enter data copyin(a[0:n]) async(1)
#pragma acc parallel loop present(a[0:n], b[0:n]) async(1)
    for (int i = 0; i < n; i++) {
        float v = a[i];
        for (int k = 0; k < spin; k++)
            v = 1000.0f - v;
        b[i] = 2.0f * v + 1.0f;
    }

    /* B: kernels on queue 2 after queue 1. */
#pragma acc kernels loop present(a[0:n], b[0:n], c[0:n]) async(2) wait(1)
    for (int i = 0; i < n; i++)
        c[i] = 3.0f * b[i] - a[i];

    /* C: queue 3 waits for queue 2 (the host does not block), then computes d,
       copied out on queue 3 at the end of the region. */
#pragma acc wait(2) async(3)
#pragma acc parallel loop present(c[0:n]) copyout(d[0:n]) async(3)
    for (int i = 0; i < n; i++)
        d[i] = c[i] + 0.5f;

    /* D: a serial region on queue 4 after queue 3 fills a small table. */
#pragma acc serial present(c[0:n]) copy(table[0:4]) async(4) wait(3)
    {
        table[0] = (int)c[0];
        table[1] = (int)c[1];
        int s = 0;
        for (int i = 0; i < n; i += 4096)
            s += (int)c[i];
        table[2] = s;
        table[3] = (int)c[n - 1];
    }

    /* E: queue 1 waits for queue 4; its region uses the same c, and b goes
       back to the host on queue 1. */
    acc_wait_async(4, 1);
#pragma acc parallel loop present(b[0:n], c[0:n]) async(1)
    for (int i = 0; i < n; i++)
        b[i] = b[i] + c[i] - 7.0f;
#pragma acc exit data copyout(b[0:n]) async(1)

    /* Queue 1 covers queue 4 (table) through acc_wait_async; queue 3 (d). */
#pragma acc wait(1, 3)
    check("table0", table[0], (long long)c0(0));
    check("table1", table[1], (long long)c0(1));
    {
        long long s = 0;
        for (int i = 0; i < n; i += 4096)
            s += (long long)c0(i);
        check("table2", table[2], s);
    }
    check("table3", table[3], (long long)c0(n - 1));
    check_array("b", b, n, b1);
    check_array("d", d, n, d0);

    /* F: new host values of a go to the device on queue 2 once queue 1 (the
       last user of a) is done; e = c * a on queue 2; parts of e come back on
       queue 3 after queue 2. Nothing is queued now, so the host may write a. */
    for (int i = 0; i < n; i++)
        a[i] = a1(i);
#pragma acc enter data create(e[0:n]) async(2)
#pragma acc update device(a[0:n]) async(2) wait(1)
#pragma acc parallel loop present(a[0:n], c[0:n], e[0:n]) async(2)
    for (int i = 0; i < n; i++)
        e[i] = c[i] * a[i];
#pragma acc update self(e[0:n/2]) async(3) wait(2)
#pragma acc update self(e[n/2:n-n/2]) async(4) wait(2)
#pragma acc wait(3, 4)
    check_array("e", e, n, e1);

    /* G: the default queue (async without argument); the wait ends the block. */
    {
#pragma acc parallel loop present(c[0:n]) async
        for (int i = 0; i < n; i++)
            c[i] = 2.0f * c[i] + 1.0f;
#pragma acc update self(c[0:n]) async
#pragma acc wait
    }
    check_array("c", c, n, c2);

    /* H: several queues in flight, then one wait for all of them. */
    for (int i = 0; i < n; i++)
        d[i] = -1.0f;
#pragma acc enter data create(d[0:n]) async(1)
#pragma acc parallel loop present(a[0:n], d[0:n]) async(1)
    for (int i = 0; i < n / 2; i++) {
        float v = a[i];
        for (int k = 0; k < spin; k++)
            v = 1000.0f - v;
        d[i] = v + 10.0f;
    }
#pragma acc parallel loop present(a[0:n], d[0:n]) async(2) wait(1)
    for (int i = n / 2; i < n; i++)
        d[i] = a[i] + 20.0f;
#pragma acc update self(d[0:n/2]) async(1)
#pragma acc update self(d[n/2:n-n/2]) async(2)
#pragma acc wait
    check_array("h", d, n, dh);

    /* `wait(1, 2)` after work on both queues, then delete everything. */
#pragma acc parallel loop present(a[0:n], d[0:n], e[0:n]) async(2)
    for (int i = 0; i < n; i++)
        e[i] = d[i] - a[i];
#pragma acc exit data copyout(e[0:n]) delete(d[0:n]) async(2)
#pragma acc exit data delete(a[0:n], c[0:n]) async(1) wait(2)
#pragma acc wait(1, 2)
    check_array("w12", e, n, eh);

    printf("%s\n", failures == 0 ? "PASS" : "FAIL");
    free(a);
    free(b);
    free(c);
    free(d);
    free(e);
    return failures != 0;
}
