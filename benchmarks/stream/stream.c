/* stream.c — the four STREAM kernels (after McCalpin's STREAM benchmark) in OpenACC:
 *   copy  c = a           scale b = s*c
 *   add   c = a + b       triad a = b + s*c
 * on double arrays of n elements (argv[1], default 2^26 = 67108864, 512 MiB each).
 * Each kernel is timed on its own; one RESULT line per kernel (stream_copy,
 * stream_scale, stream_add, stream_triad). GB/s counts the minimal traffic:
 * copy and scale 2 arrays x 8 bytes x n, add and triad 3 arrays x 8 bytes x n.
 * The arrays stay on the device for all repetitions (one data region). The scalar
 * is sqrt(2)-1 (the root of s^2 + 2s = 1), so that one pass of the four kernels maps
 * a to (s^2 + 2s) a = a and the values stay bounded for any number of repetitions.
 * Verification: every element is recomputed on the host by the same recurrence. */
#include <math.h>
#include "../common/bench.h"

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1 << 26;
    if (n < 1) {
        fprintf(stderr, "usage: %s [n]\n", argv[0]);
        return 1;
    }
    const double scalar = 0.41421356237309504880; /* sqrt(2) - 1 */
    double *a = malloc((size_t)n * sizeof(double));
    double *b = malloc((size_t)n * sizeof(double));
    double *c = malloc((size_t)n * sizeof(double));
    if (!a || !b || !c) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    for (int i = 0; i < n; i++) {
        a[i] = 1.0 + bench_rand(i, 1);
        b[i] = 1.0 + bench_rand(i, 2);
        c[i] = 0.0;
    }

    int warmup = bench_warmup(), reps = bench_reps();
    double *t = malloc(4 * (size_t)reps * sizeof(double));
    if (!t) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }

#pragma acc data copy(a[0:n], b[0:n], c[0:n])
    {
        for (int r = -warmup; r < reps; r++) {
            double t0 = bench_now();
#pragma acc parallel loop present(a[0:n], c[0:n])
            for (int i = 0; i < n; i++)
                c[i] = a[i];
            double t1 = bench_now();
#pragma acc parallel loop present(b[0:n], c[0:n])
            for (int i = 0; i < n; i++)
                b[i] = scalar * c[i];
            double t2 = bench_now();
#pragma acc parallel loop present(a[0:n], b[0:n], c[0:n])
            for (int i = 0; i < n; i++)
                c[i] = a[i] + b[i];
            double t3 = bench_now();
#pragma acc parallel loop present(a[0:n], b[0:n], c[0:n])
            for (int i = 0; i < n; i++)
                a[i] = b[i] + scalar * c[i];
            double t4 = bench_now();
            if (r >= 0) {
                t[0 * reps + r] = t1 - t0;
                t[1 * reps + r] = t2 - t1;
                t[2 * reps + r] = t3 - t2;
                t[3 * reps + r] = t4 - t3;
            }
        }
    }

    /* Serial reference: the same recurrence per element, all elements. */
    int pass = 1;
    for (int i = 0; i < n && pass; i++) {
        double ra = 1.0 + bench_rand(i, 1), rb = 1.0 + bench_rand(i, 2), rc = 0.0;
        for (int r = -warmup; r < reps; r++) {
            rc = ra;
            rb = scalar * rc;
            rc = ra + rb;
            ra = rb + scalar * rc;
        }
        if (!bench_close(a[i], ra, 1e-12) || !bench_close(b[i], rb, 1e-12) ||
            !bench_close(c[i], rc, 1e-12)) {
            fprintf(stderr, "stream: mismatch at %d: got %.17g %.17g %.17g, want %.17g %.17g %.17g\n",
                    i, a[i], b[i], c[i], ra, rb, rc);
            pass = 0;
        }
    }

    static const char *names[4] = {"stream_copy", "stream_scale", "stream_add", "stream_triad"};
    static const double arrays[4] = {2, 2, 3, 3};
    char size[32];
    snprintf(size, sizeof size, "%d", n);
    for (int k = 0; k < 4; k++) {
        double sec = bench_median(t + (size_t)k * reps, reps);
        bench_report(names[k], size, sec, arrays[k] * 8.0 * (double)n / sec * 1e-9, "GB/s", pass);
    }
    free(a);
    free(b);
    free(c);
    free(t);
    return 0;
}
