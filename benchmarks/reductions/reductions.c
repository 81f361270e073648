/* reductions.c — the reduction micro-benchmark of the OpenUH reductions paper
 * (shared/seeds/openuh-nested-loops-reductions-rodc.txt, section 5 and Table IV)
 * in OpenACC: a sum reduction in each position of a gang/worker/vector nest.
 * As in the paper, the nest is triple: gang loop k (outer), worker loop j,
 * vector loop i (inner); the reducing loop has n iterations (argv[1], default
 * 2^20 = 1048576) and the two others have 2 (the outer one) and 32 (the inner
 * one), so every case covers 64 n doubles (512 MiB at the default n):
 *   reductions_gang               k=n j=2 i=32  `loop gang reduction`; the worker
 *                                 and vector loops copy x to t, the gang adds
 *                                 x[k][0][0] (paper Fig. 11c)
 *   reductions_worker             k=2 j=n i=32  j_sum = k, `loop worker
 *                                 reduction`; the vector loop copies x to t, the
 *                                 worker adds x[k][j][0] (Fig. 11b)
 *   reductions_vector             k=2 j=32 i=n  i_sum = j, `loop vector
 *                                 reduction` over x[k][j][:] (Fig. 11a)
 *   reductions_gang_worker        k=n j=2 i=32  clause on the gang and worker
 *                                 loops; the vector loop copies, the worker adds
 *                                 x[k][j][0]
 *   reductions_worker_vector      k=2 j=n i=32  s = k, clause on the worker and
 *                                 vector loops, s += x[k][j][i] (Fig. 14a)
 *   reductions_gang_worker_vector k=n j=2 i=32  clause on all three loops, the
 *                                 sum of all of x
 *   reductions_same_line          one `gang worker vector` loop over all 64 n
 *                                 elements (Fig. 14b; reduction/ is the same sum
 *                                 with the compiler's choice of levels)
 * The variables of the inner reductions live in the enclosing loop's body, with
 * the paper's start values, and are stored per gang (worker) iteration; every
 * loop a reduction spans carries the clause, as OpenACC 3.3 2.9.11 requires.
 * The cases whose gang loop has 2 iterations run on two gangs: they measure the
 * reduction inside a gang, not the device's bandwidth.
 * One repetition = one compute region; scalar results come back to the host in
 * it (the reduction's implied copy), per-gang results stay on the device (a
 * data region). GB/s counts the minimal traffic: x read once (8 bytes x 64 n),
 * plus t written once (8 bytes x 64 n) in the three cases that copy.
 * Verification: every result against a compensated (Kahan) serial sum,
 * relative tolerance 1e-10, and every element of t after each copying case. */
#include "../common/bench.h"

#define NCASES 7
#define SMALL 2 /* the outer loop that does not reduce */
#define WIDE 32 /* the inner loop that does not reduce */

static const char *names[NCASES] = {
    "reductions_gang",          "reductions_worker",
    "reductions_vector",        "reductions_gang_worker",
    "reductions_worker_vector", "reductions_gang_worker_vector",
    "reductions_same_line",
};

/* Kahan sum of count values of x starting at start, stride apart. */
static double kahan(const double *x, long start, long count, long stride)
{
    double s = 0.0, c = 0.0;
    for (long e = 0; e < count; e++) {
        double y = x[start + e * stride] - c;
        double u = s + y;
        c = (u - s) - y;
        s = u;
    }
    return s;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1 << 20;
    if (n < 1 || n > (1 << 25)) {
        fprintf(stderr, "usage: %s [n (1..2^25)]\n", argv[0]);
        return 1;
    }
    long m = 64L * n;
    double *x = malloc((size_t)m * sizeof(double));
    double *t = malloc((size_t)m * sizeof(double));
    int warmup = bench_warmup(), reps = bench_reps();
    double *times = malloc((size_t)NCASES * reps * sizeof(double));
    if (!x || !t || !times) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    for (long e = 0; e < m; e++) {
        x[e] = bench_rand(e, 11) - 0.25;
        t[e] = 0.0;
    }

    static double res_w[SMALL], res_v[SMALL * WIDE], res_wv[SMALL];
    double sum_g = 0, sum_gw = 0, sum_gwv = 0, sum_line = 0;
    int copy_ok[NCASES] = {1, 1, 1, 1, 1, 1, 1};
    int k, j, i;

#pragma acc data copyin(x[0:m]) create(t[0:m]) copyout(res_w, res_v, res_wv)
    {
        for (int c = 0; c < NCASES; c++) {
            int copies = c == 0 || c == 1 || c == 3;
            if (copies) { /* untimed: t must be written by the case itself */
#pragma acc parallel loop present(t[0:m])
                for (long e = 0; e < m; e++)
                    t[e] = -1.0;
            }
            for (int r = -warmup; r < reps; r++) {
                double t0 = bench_now();
                switch (c) {
                case 0: { /* gang: k=n, j=2, i=32 */
                    double sum = 0.0;
#pragma acc parallel loop gang reduction(+:sum) present(x[0:m], t[0:m])
                    for (k = 0; k < n; k++) {
#pragma acc loop worker
                        for (j = 0; j < SMALL; j++) {
#pragma acc loop vector
                            for (i = 0; i < WIDE; i++)
                                t[((long)k * SMALL + j) * WIDE + i] = x[((long)k * SMALL + j) * WIDE + i];
                        }
                        sum += x[(long)k * SMALL * WIDE];
                    }
                    sum_g = sum;
                    break;
                }
                case 1: /* worker: k=2, j=n, i=32 */
#pragma acc parallel loop gang present(x[0:m], t[0:m], res_w)
                    for (k = 0; k < SMALL; k++) {
                        double j_sum = k;
#pragma acc loop worker reduction(+:j_sum)
                        for (j = 0; j < n; j++) {
#pragma acc loop vector
                            for (i = 0; i < WIDE; i++)
                                t[((long)k * n + j) * WIDE + i] = x[((long)k * n + j) * WIDE + i];
                            j_sum += x[((long)k * n + j) * WIDE];
                        }
                        res_w[k] = j_sum;
                    }
                    break;
                case 2: /* vector: k=2, j=32, i=n */
#pragma acc parallel loop gang present(x[0:m], res_v)
                    for (k = 0; k < SMALL; k++) {
#pragma acc loop worker
                        for (j = 0; j < WIDE; j++) {
                            double i_sum = j;
#pragma acc loop vector reduction(+:i_sum)
                            for (i = 0; i < n; i++)
                                i_sum += x[((long)k * WIDE + j) * n + i];
                            res_v[k * WIDE + j] = i_sum;
                        }
                    }
                    break;
                case 3: { /* gang worker: k=n, j=2, i=32 */
                    double sum = 0.0;
#pragma acc parallel loop gang reduction(+:sum) present(x[0:m], t[0:m])
                    for (k = 0; k < n; k++) {
#pragma acc loop worker reduction(+:sum)
                        for (j = 0; j < SMALL; j++) {
#pragma acc loop vector
                            for (i = 0; i < WIDE; i++)
                                t[((long)k * SMALL + j) * WIDE + i] = x[((long)k * SMALL + j) * WIDE + i];
                            sum += x[((long)k * SMALL + j) * WIDE];
                        }
                    }
                    sum_gw = sum;
                    break;
                }
                case 4: /* worker vector: k=2, j=n, i=32 */
#pragma acc parallel loop gang present(x[0:m], res_wv)
                    for (k = 0; k < SMALL; k++) {
                        double s = k;
#pragma acc loop worker reduction(+:s)
                        for (j = 0; j < n; j++) {
#pragma acc loop vector reduction(+:s)
                            for (i = 0; i < WIDE; i++)
                                s += x[((long)k * n + j) * WIDE + i];
                        }
                        res_wv[k] = s;
                    }
                    break;
                case 5: { /* gang worker vector: k=n, j=2, i=32 */
                    double sum = 0.0;
#pragma acc parallel loop gang reduction(+:sum) present(x[0:m])
                    for (k = 0; k < n; k++) {
#pragma acc loop worker reduction(+:sum)
                        for (j = 0; j < SMALL; j++) {
#pragma acc loop vector reduction(+:sum)
                            for (i = 0; i < WIDE; i++)
                                sum += x[((long)k * SMALL + j) * WIDE + i];
                        }
                    }
                    sum_gwv = sum;
                    break;
                }
                default: { /* gang worker vector on one loop */
                    double sum = 0.0;
#pragma acc parallel loop gang worker vector reduction(+:sum) present(x[0:m])
                    for (long e = 0; e < m; e++)
                        sum += x[e];
                    sum_line = sum;
                    break;
                }
                }
                double t1 = bench_now();
                if (r >= 0)
                    times[c * reps + r] = t1 - t0;
            }
            if (copies) { /* untimed: the copy is checked, whole */
#pragma acc update self(t[0:m])
                for (long e = 0; e < m && copy_ok[c]; e++)
                    if (t[e] != x[e]) {
                        fprintf(stderr, "%s: t[%ld] = %.17g, want %.17g\n", names[c], e, t[e], x[e]);
                        copy_ok[c] = 0;
                    }
            }
        }
    }

    /* Serial references (Kahan) and checks. */
    int pass[NCASES];
    pass[0] = copy_ok[0] && bench_close(sum_g, kahan(x, 0, n, SMALL * WIDE), 1e-10);
    pass[1] = copy_ok[1];
    pass[4] = 1;
    for (k = 0; k < SMALL; k++) {
        pass[1] &= bench_close(res_w[k], k + kahan(x, (long)k * n * WIDE, n, WIDE), 1e-10);
        pass[4] &= bench_close(res_wv[k], k + kahan(x, (long)k * n * WIDE, (long)n * WIDE, 1), 1e-10);
    }
    pass[2] = 1;
    for (k = 0; k < SMALL; k++)
        for (j = 0; j < WIDE; j++)
            pass[2] &= bench_close(res_v[k * WIDE + j], j + kahan(x, ((long)k * WIDE + j) * n, n, 1), 1e-10);
    pass[3] = copy_ok[3] && bench_close(sum_gw, kahan(x, 0, (long)n * SMALL, WIDE), 1e-10);
    double all = kahan(x, 0, m, 1);
    pass[5] = bench_close(sum_gwv, all, 1e-10);
    pass[6] = bench_close(sum_line, all, 1e-10);
    for (int c = 0; c < NCASES; c++)
        if (!pass[c])
            fprintf(stderr, "reductions: %s: wrong result\n", names[c]);

    char shape[3][48], flat[32];
    snprintf(shape[0], sizeof shape[0], "%dx%dx%d", n, SMALL, WIDE);
    snprintf(shape[1], sizeof shape[1], "%dx%dx%d", SMALL, n, WIDE);
    snprintf(shape[2], sizeof shape[2], "%dx%dx%d", SMALL, WIDE, n);
    snprintf(flat, sizeof flat, "%ld", m);
    const char *sizes[NCASES] = {shape[0], shape[1], shape[2], shape[0], shape[1], shape[0], flat};
    for (int c = 0; c < NCASES; c++) {
        int copies = c == 0 || c == 1 || c == 3;
        double sec = bench_median(times + (size_t)c * reps, reps);
        double bytes = (copies ? 16.0 : 8.0) * (double)m;
        bench_report(names[c], sizes[c], sec, bytes / sec * 1e-9, "GB/s", pass[c]);
    }
    free(x);
    free(t);
    free(times);
    return 0;
}
