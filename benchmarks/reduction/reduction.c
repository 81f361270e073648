/* reduction.c — a large sum reduction in OpenACC: sum of n doubles
 * (argv[1], default 2^26 = 67108864, 512 MiB) with `reduction(+:sum)`.
 * One repetition = one reduction, the result back on the host. GB/s counts the
 * minimal traffic: 8 bytes x n (each input read once). RESULT name: reduction_sum.
 * Verification: the last repetition's sum against a compensated (Kahan) serial sum,
 * relative tolerance 1e-10. */
#include "../common/bench.h"

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1 << 26;
    if (n < 1) {
        fprintf(stderr, "usage: %s [n]\n", argv[0]);
        return 1;
    }
    double *x = malloc((size_t)n * sizeof(double));
    int warmup = bench_warmup(), reps = bench_reps();
    double *t = malloc((size_t)reps * sizeof(double));
    if (!x || !t) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    for (int i = 0; i < n; i++)
        x[i] = bench_rand(i, 7) - 0.25;

    double sum = 0.0;
#pragma acc data copyin(x[0:n])
    {
        for (int r = -warmup; r < reps; r++) {
            double t0 = bench_now();
            sum = 0.0;
#pragma acc parallel loop reduction(+:sum) present(x[0:n])
            for (int i = 0; i < n; i++)
                sum += x[i];
            double t1 = bench_now();
            if (r >= 0)
                t[r] = t1 - t0;
        }
    }

    /* Serial reference: Kahan summation. */
    double ref = 0.0, comp = 0.0;
    for (int i = 0; i < n; i++) {
        double y = x[i] - comp;
        double s = ref + y;
        comp = (s - ref) - y;
        ref = s;
    }
    int pass = bench_close(sum, ref, 1e-10);
    if (!pass)
        fprintf(stderr, "reduction: got %.17g, want %.17g\n", sum, ref);

    char size[32];
    snprintf(size, sizeof size, "%d", n);
    double sec = bench_median(t, reps);
    bench_report("reduction_sum", size, sec, 8.0 * (double)n / sec * 1e-9, "GB/s", pass);
    free(x);
    free(t);
    return 0;
}
