/* nn.c — nearest neighbour (Rodinia "nn"; the "nearest." benchmark of the
 * IPMACC paper): the Euclidean distance from a query position (lat, lng) to
 * each of N records of (lat, lng) floats is computed on the device, then the
 * k = 10 nearest records are selected on the host from the distance array.
 *
 * Size: argv[1] = N records (default 2^25). Records are interleaved
 * (lat, lng) pairs in one flat float array, as Rodinia's record struct.
 * Timed: the distance kernel only (median of BENCH_REPS repetitions).
 * Rate: GB/s = (8 bytes read + 4 bytes written) * N / time.
 * Check: every distance against a double-precision reference, and the 10
 * nearest distances against the reference's 10 nearest. */
#include "../common/bench.h"
#include <math.h>

#define K 10

/* Inserts (d, i) into the sorted list best[0..*cnt-1] of at most K entries. */
static void keep_nearest(double *bestd, int *besti, int *cnt, double d, int i)
{
    int p = *cnt < K ? (*cnt)++ : K;
    if (p == K && d >= bestd[K - 1]) return;
    if (p == K) p = K - 1;
    while (p > 0 && bestd[p - 1] > d) {
        bestd[p] = bestd[p - 1];
        besti[p] = besti[p - 1];
        p--;
    }
    bestd[p] = d;
    besti[p] = i;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1 << 25;
    if (n < K || n > (1 << 29)) {
        fprintf(stderr, "nn: N must be in [%d, 2^29]\n", K);
        return 1;
    }
    float *loc = (float *)malloc(sizeof(float) * 2 * (size_t)n);
    float *dist = (float *)malloc(sizeof(float) * (size_t)n);
    int reps = bench_reps(), warm = bench_warmup();
    double *t = (double *)malloc(sizeof(double) * reps);
    if (!loc || !dist || !t) {
        fprintf(stderr, "nn: out of memory\n");
        return 1;
    }
    for (int i = 0; i < n; i++) {
        loc[2 * i] = (float)(180.0 * bench_rand(i, 1) - 90.0);
        loc[2 * i + 1] = (float)(360.0 * bench_rand(i, 2) - 180.0);
    }
    float qlat = 30.0f, qlng = 90.0f;

#pragma acc data copyin(loc[0:2*n]) copyout(dist[0:n])
    {
        for (int r = -warm; r < reps; r++) {
            double t0 = bench_now();
#pragma acc parallel loop present(loc[0:2*n], dist[0:n])
            for (int i = 0; i < n; i++) {
                float dlat = loc[2 * i] - qlat;
                float dlng = loc[2 * i + 1] - qlng;
                dist[i] = sqrtf(dlat * dlat + dlng * dlng);
            }
            double t1 = bench_now();
            if (r >= 0) t[r] = t1 - t0;
        }
    }

    /* The k nearest, on the host (as Rodinia does). */
    double bestd[K], refd[K];
    int besti[K], refi[K], nb = 0, nr = 0, pass = 1, bad = 0;
    for (int i = 0; i < n; i++) keep_nearest(bestd, besti, &nb, dist[i], i);

    /* Verification against a double-precision reference. */
    for (int i = 0; i < n; i++) {
        double dla = (double)loc[2 * i] - qlat, dln = (double)loc[2 * i + 1] - qlng;
        double d = sqrt(dla * dla + dln * dln);
        keep_nearest(refd, refi, &nr, d, i);
        if (!bench_close(dist[i], d, 1e-5)) {
            if (bad++ < 5) fprintf(stderr, "nn: dist[%d] = %.7g, expected %.7g\n", i, dist[i], d);
            pass = 0;
        }
    }
    for (int k = 0; k < K; k++)
        if (!bench_close(bestd[k], refd[k], 1e-5)) {
            fprintf(stderr, "nn: nearest #%d: %.7g (record %d), expected %.7g (record %d)\n", k, bestd[k],
                    besti[k], refd[k], refi[k]);
            pass = 0;
        }

    double s = bench_median(t, reps);
    char size[32];
    snprintf(size, sizeof size, "%d", n);
    bench_report("nn", size, s, 12.0 * n / s * 1e-9, "GB/s", pass);
    free(loc);
    free(dist);
    free(t);
    return 0;
}
