/* matmul.c — dense single-precision matrix multiply C = A * B in OpenACC, square
 * n x n matrices (argv[1], default 1024; the runs file also uses 4096) stored as flat
 * row-major float arrays. The textbook formulation: a gang per row i, vector lanes
 * over the columns j, a sequential inner product over k. One repetition = one
 * multiply. GFLOP/s = 2 n^3 / time. RESULT name: matmul_<n>.
 * Verification: 64 deterministically sampled entries of C recomputed in double,
 * relative tolerance 1e-4 (float accumulation over n terms in [0,1)). */
#include "../common/bench.h"

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1024;
    if (n < 1) {
        fprintf(stderr, "usage: %s [n]\n", argv[0]);
        return 1;
    }
    int nn = n * n;
    float *a = malloc((size_t)nn * sizeof(float));
    float *b = malloc((size_t)nn * sizeof(float));
    float *c = malloc((size_t)nn * sizeof(float));
    int warmup = bench_warmup(), reps = bench_reps();
    double *t = malloc((size_t)reps * sizeof(double));
    if (!a || !b || !c || !t) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    for (int i = 0; i < nn; i++) {
        a[i] = (float)bench_rand(i, 11);
        b[i] = (float)bench_rand(i, 12);
        c[i] = 0.0f;
    }

#pragma acc data copyin(a[0:nn], b[0:nn]) copyout(c[0:nn])
    {
        for (int r = -warmup; r < reps; r++) {
            double t0 = bench_now();
#pragma acc parallel loop gang present(a[0:nn], b[0:nn], c[0:nn])
            for (int i = 0; i < n; i++) {
#pragma acc loop vector
                for (int j = 0; j < n; j++) {
                    float sum = 0.0f;
                    for (int k = 0; k < n; k++)
                        sum += a[i * n + k] * b[k * n + j];
                    c[i * n + j] = sum;
                }
            }
            double t1 = bench_now();
            if (r >= 0)
                t[r] = t1 - t0;
        }
    }

    /* Serial reference for 64 sampled entries, in double. */
    int pass = 1;
    for (int s = 0; s < 64; s++) {
        int i = (int)(bench_rand(s, 13) * n), j = (int)(bench_rand(s, 14) * n);
        double ref = 0.0;
        for (int k = 0; k < n; k++)
            ref += (double)a[i * n + k] * (double)b[k * n + j];
        if (!bench_close(c[i * n + j], ref, 1e-4)) {
            fprintf(stderr, "matmul: C[%d][%d] = %.9g, want %.9g\n", i, j, c[i * n + j], ref);
            pass = 0;
        }
    }

    char name[32], size[32];
    snprintf(name, sizeof name, "matmul_%d", n);
    snprintf(size, sizeof size, "%d", n);
    double sec = bench_median(t, reps);
    bench_report(name, size, sec, 2.0 * (double)n * n * n / sec * 1e-9, "GFLOP/s", pass);
    free(a);
    free(b);
    free(c);
    free(t);
    return 0;
}
