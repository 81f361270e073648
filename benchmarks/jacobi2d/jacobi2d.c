/* jacobi2d.c — 2-D Jacobi relaxation (5-point stencil) in OpenACC, on an
 * (n+2) x (n+2) double grid with fixed boundary values (n = argv[1], default 4096),
 * written the way the classic OpenACC Laplace/Jacobi example is: per iteration one
 * loop nest computes Anew from A over the interior, a second loop nest copies Anew
 * back into A. One repetition = ITERS = 100 iterations from the same initial grid
 * (an untimed device loop restores A from A0 before each repetition).
 * GB/s counts per iteration each interior point read once and written once in both
 * nests: 4 x 8 bytes x n^2 per iteration. RESULT name: jacobi2d.
 * Verification: the full final grid against a serial run of the same 100 iterations
 * (the same arithmetic, so the tolerance 1e-12 is only for contraction differences). */
#include "../common/bench.h"

#define ITERS 100

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 4096;
    if (n < 1) {
        fprintf(stderr, "usage: %s [n]\n", argv[0]);
        return 1;
    }
    int m = n + 2;    /* row length, with the boundary */
    int size = m * m; /* grid points */
    double *A0 = malloc((size_t)size * sizeof(double));
    double *A = malloc((size_t)size * sizeof(double));
    double *Anew = malloc((size_t)size * sizeof(double));
    int warmup = bench_warmup(), reps = bench_reps();
    double *t = malloc((size_t)reps * sizeof(double));
    if (!A0 || !A || !Anew || !t) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    /* Boundary: a hot top edge and a smooth profile on the sides; interior: noise. */
    for (int j = 0; j < m; j++) {
        for (int i = 0; i < m; i++) {
            double v;
            if (j == 0)
                v = 1.0;
            else if (j == m - 1)
                v = 0.0;
            else if (i == 0 || i == m - 1)
                v = 1.0 - (double)j / (m - 1);
            else
                v = 0.5 * bench_rand((unsigned long long)j * m + i, 21);
            A0[j * m + i] = v;
            A[j * m + i] = v;
            Anew[j * m + i] = v;
        }
    }

#pragma acc data copyin(A0[0:size]) copy(A[0:size], Anew[0:size])
    {
        for (int r = -warmup; r < reps; r++) {
            /* Untimed: start every repetition from the initial grid. */
#pragma acc parallel loop present(A0[0:size], A[0:size])
            for (int k = 0; k < size; k++)
                A[k] = A0[k];

            double t0 = bench_now();
            for (int iter = 0; iter < ITERS; iter++) {
#pragma acc parallel loop gang present(A[0:size], Anew[0:size])
                for (int j = 1; j <= n; j++) {
#pragma acc loop vector
                    for (int i = 1; i <= n; i++)
                        Anew[j * m + i] = 0.25 * (A[j * m + i + 1] + A[j * m + i - 1] +
                                                  A[(j - 1) * m + i] + A[(j + 1) * m + i]);
                }
#pragma acc parallel loop gang present(A[0:size], Anew[0:size])
                for (int j = 1; j <= n; j++) {
#pragma acc loop vector
                    for (int i = 1; i <= n; i++)
                        A[j * m + i] = Anew[j * m + i];
                }
            }
            double t1 = bench_now();
            if (r >= 0)
                t[r] = t1 - t0;
        }
    }

    /* Serial reference: the same ITERS iterations from A0 (Anew's boundary is A0's). */
    double *R = malloc((size_t)size * sizeof(double));
    double *Rnew = malloc((size_t)size * sizeof(double));
    if (!R || !Rnew) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    memcpy(R, A0, (size_t)size * sizeof(double));
    memcpy(Rnew, A0, (size_t)size * sizeof(double));
    for (int iter = 0; iter < ITERS; iter++) {
        for (int j = 1; j <= n; j++)
            for (int i = 1; i <= n; i++)
                Rnew[j * m + i] = 0.25 * (R[j * m + i + 1] + R[j * m + i - 1] + R[(j - 1) * m + i] +
                                          R[(j + 1) * m + i]);
        double *s = R;
        R = Rnew;
        Rnew = s;
    }
    int pass = 1;
    for (int k = 0; k < size && pass; k++) {
        if (!bench_close(A[k], R[k], 1e-12)) {
            fprintf(stderr, "jacobi2d: point (%d, %d) = %.17g, want %.17g\n", k / m, k % m, A[k], R[k]);
            pass = 0;
        }
    }

    char sz[32];
    snprintf(sz, sizeof sz, "%d", n);
    double sec = bench_median(t, reps);
    bench_report("jacobi2d", sz, sec, 4.0 * 8.0 * (double)n * n * ITERS / sec * 1e-9, "GB/s", pass);
    free(A0);
    free(A);
    free(Anew);
    free(R);
    free(Rnew);
    free(t);
    return 0;
}
