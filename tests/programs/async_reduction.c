// Reductions on async compute constructs (OpenACC 3.3: the reduction clause
// of compute constructs and loops, 2.16.1 async). A reduction clause on a
// compute construct implies a copy clause for its variable, so with async
// the result reaches
// the host variable when the queue gets there: the host reads it only after a
// wait. Tested:
//   1  six reductions at once on four queues (parallel, kernels and serial
//      loops; + * max min; int, float, double), read after `#pragma acc wait`;
//      each variable's initial value takes part in its result;
//   2  a reduction whose result a later async region on the same queue uses
//      on the device: the variable is present (enter data copyin), so the
//      implied copy uses the device copy, the reduction stores its result
//      there, the next region reads it through `present`, and update self
//      async brings it back (a firstprivate copy would have been taken when
//      the second region was launched, before the reduction finished);
//   3  the same inside a structured data region (`data copy(t)`), with the
//      consumer on another queue ordered by `wait`.
// Every value is exact in every summation order (integers, multiples of 1/8,
// powers of two), so the output is the same on any device and any schedule.
#include <stdio.h>
#include <stdlib.h>

#define N (1 << 18)

static int failures;

static void check(const char *what, long long got, long long want)
{
    printf("%s %lld\n", what, got);
    if (got != want) {
        failures++;
        fprintf(stderr, "%s: got %lld, want %lld\n", what, got, want);
    }
}

static void checkd(const char *what, double got, double want)
{
    printf("%s %.15e\n", what, got);
    if (got != want) {
        failures++;
        fprintf(stderr, "%s: got %.17g, want %.17g\n", what, got, want);
    }
}

static unsigned hash(unsigned v)
{
    v ^= v >> 16;
    v *= 0x7feb352dU;
    v ^= v >> 15;
    v *= 0x846ca68bU;
    v ^= v >> 16;
    return v;
}

int main(void)
{
    const int n = N;
    int *x = malloc(n * sizeof(int));
    float *f = malloc(n * sizeof(float));
    double *d = malloc(n * sizeof(double));
    int *y = malloc(n * sizeof(int));
    for (int i = 0; i < n; i++) {
        unsigned h = hash((unsigned)i);
        x[i] = (int)(h % 201) - 100;                  /* [-100, 100] */
        f[i] = (float)((int)(h >> 8) % 17 - 8) / 8.0f; /* k/8, |k| <= 8 */
        d[i] = (double)((int)(h >> 12) % 1601 - 800) / 8.0;
        if (i % 20011 == 7)
            d[i] = 2.0; /* the factors of the product */
        y[i] = 0;
    }
    /* Serial reference. */
    long long want_si = 10, want_im = 1000;
    float want_fm = -50.0f, want_fs = 0.5f;
    double want_ds = -3.0, want_dp = 1.5;
    for (int i = 0; i < n; i++) {
        want_si += x[i];
        want_im = x[i] < want_im ? x[i] : want_im;
        want_fm = f[i] > want_fm ? f[i] : want_fm;
        want_fs += f[i];
        want_ds += d[i];
        if (i % 20011 == 7)
            want_dp *= d[i];
    }

#pragma acc enter data copyin(x[0:n], f[0:n], d[0:n])

    /* 1: six reductions in flight at once. */
    int si = 10, im = 1000;
    float fm = -50.0f, fs = 0.5f;
    double ds = -3.0, dp = 1.5;
#pragma acc parallel loop present(x[0:n]) reduction(+:si) async(1)
    for (int i = 0; i < n; i++)
        si += x[i];
#pragma acc parallel loop present(f[0:n]) reduction(max:fm) async(2)
    for (int i = 0; i < n; i++)
        fm = f[i] > fm ? f[i] : fm;
#pragma acc kernels loop present(d[0:n]) reduction(+:ds) async(3)
    for (int i = 0; i < n; i++)
        ds += d[i];
#pragma acc parallel loop present(x[0:n]) reduction(min:im) async(4)
    for (int i = 0; i < n; i++)
        im = x[i] < im ? x[i] : im;
#pragma acc serial loop present(d[0:n]) reduction(*:dp) async(1)
    for (int i = 7; i < n; i += 20011)
        dp *= d[i];
#pragma acc parallel loop present(f[0:n]) reduction(+:fs) async(2)
    for (int i = 0; i < n; i++)
        fs += f[i];
#pragma acc wait
    check("p1_int_sum", si, want_si);
    check("p1_int_min", im, want_im);
    checkd("p1_float_max", fm, want_fm);
    checkd("p1_float_sum", fs, want_fs);
    checkd("p1_double_sum", ds, want_ds);
    checkd("p1_double_prod", dp, want_dp);

    /* 2: the result stays on the device for the next region of queue 1. */
    int total = 10;
#pragma acc enter data copyin(total) create(y[0:n])
#pragma acc parallel loop present(x[0:n]) reduction(+:total) async(1)
    for (int i = 0; i < n; i++)
        total += x[i];
#pragma acc parallel loop present(x[0:n], y[0:n], total) async(1)
    for (int i = 0; i < n; i++)
        y[i] = x[i] - total;
#pragma acc update self(total, y[0:n]) async(1)
#pragma acc wait(1)
    check("p2_total", total, want_si);
    {
        long long bad = 0;
        for (int i = 0; i < n; i++)
            bad += y[i] != x[i] - (int)want_si;
        check("p2_y_bad", bad, 0);
    }
#pragma acc exit data delete(total)

    /* 3: a data region keeps t on the device; the reduction on queue 2 and
       the consumer on queue 3 (after queue 2), both inside the region. */
    double t = 0.25;
    long long bad3 = -1;
#pragma acc data copy(t)
    {
#pragma acc kernels loop present(d[0:n]) reduction(+:t) async(2)
        for (int i = 0; i < n; i++)
            t += d[i];
#pragma acc parallel loop present(d[0:n], y[0:n], t) async(3) wait(2)
        for (int i = 0; i < n; i++)
            y[i] = (int)(8.0 * (d[i] - t));
#pragma acc update self(y[0:n]) async(3)
#pragma acc wait(3)
        bad3 = 0;
        for (int i = 0; i < n; i++)
            bad3 += y[i] != (int)(8.0 * (d[i] - (want_ds + 3.25)));
    }
    checkd("p3_t", t, want_ds + 3.25);
    check("p3_y_bad", bad3, 0);
#pragma acc exit data delete(x[0:n], f[0:n], d[0:n], y[0:n])

    printf("%s\n", failures == 0 ? "PASS" : "FAIL");
    free(x);
    free(f);
    free(d);
    free(y);
    return failures != 0;
}
