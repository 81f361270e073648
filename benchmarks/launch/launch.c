/* launch.c — the cost of a compute construct whose kernel is tiny: L
 * back-to-back `parallel loop`s over n floats (default 20000 x 1024), each
 * adding 1 to every element, synchronous (`launch_sync`) and on one async
 * queue with one wait at the end (`launch_async`). This is what a
 * launch-bound program pays per construct (NPB LU's wavefront launches one
 * small kernel per hyperplane).
 *
 * Size: argv[1] = L constructs per repetition, argv[2] = n.
 * Timed: the L constructs (median of BENCH_REPS repetitions); bench_now
 * waits for the device, so the last kernel is inside the time.
 * Rate: constructs per second, in thousands (1000 / rate = microseconds per
 * construct).
 * Check: every element equals the number of constructs run on it. */
#include "../common/bench.h"

int main(int argc, char **argv)
{
    int l = argc > 1 ? atoi(argv[1]) : 20000;
    int n = argc > 2 ? atoi(argv[2]) : 1024;
    if (l < 1 || n < 1 || n > (1 << 24)) {
        fprintf(stderr, "launch: need L >= 1 and 1 <= n <= 2^24\n");
        return 1;
    }
    int reps = bench_reps(), warm = bench_warmup();
    float *a = (float *)malloc(sizeof(float) * (size_t)n);
    double *ts = (double *)malloc(sizeof(double) * reps);
    double *ta = (double *)malloc(sizeof(double) * reps);
    if (!a || !ts || !ta) {
        fprintf(stderr, "launch: out of memory\n");
        return 1;
    }
    for (int i = 0; i < n; i++) a[i] = 0.0f;

#pragma acc data copy(a[0:n])
    {
        for (int r = -warm; r < reps; r++) {
            double t0 = bench_now();
            for (int k = 0; k < l; k++) {
#pragma acc parallel loop present(a[0:n])
                for (int i = 0; i < n; i++) a[i] += 1.0f;
            }
            double t1 = bench_now();
            if (r >= 0) ts[r] = t1 - t0;
        }
        for (int r = -warm; r < reps; r++) {
            double t0 = bench_now();
            for (int k = 0; k < l; k++) {
#pragma acc parallel loop present(a[0:n]) async(1)
                for (int i = 0; i < n; i++) a[i] += 1.0f;
            }
#pragma acc wait(1)
            double t1 = bench_now();
            if (r >= 0) ta[r] = t1 - t0;
        }
    }

    /* Exact in float while the count stays below 2^24. */
    float want = (float)(2.0 * (double)l * (double)(reps + warm));
    int pass = 1;
    for (int i = 0; i < n; i++)
        if (a[i] != want) {
            fprintf(stderr, "launch: a[%d] = %.1f, want %.1f\n", i, a[i], want);
            pass = 0;
            break;
        }
    char size[48];
    snprintf(size, sizeof size, "%dx%d", l, n);
    double s = bench_median(ts, reps), as = bench_median(ta, reps);
    bench_report("launch_sync", size, s, 1e-3 * l / s, "kconstr/s", pass);
    bench_report("launch_async", size, as, 1e-3 * l / as, "kconstr/s", pass);
    return 0;
}
