// nn.cu — hand-written CUDA reference for nn.c (Rodinia "nn"): distances from
// a query position to N (lat, lng) float records, then the k = 10 nearest on
// the host. Same inputs, sizes, timing (the distance kernel only), check and
// RESULT line as nn.c. Rate: GB/s = (8 read + 4 written) bytes * N / time.
// Kernel: grid-stride loop, each thread handles two records per step with one
// 16-byte load (float4 = two records) and one 8-byte store (float2).
#include "../common/bench.h"
#include <cuda_runtime.h>
#include <math.h>

#define K 10

static int check(cudaError_t e, const char *what)
{
    if (e != cudaSuccess) {
        fprintf(stderr, "nn: %s: %s\n", what, cudaGetErrorString(e));
        return 0;
    }
    return 1;
}

__global__ void distances(const float *__restrict__ loc, float *__restrict__ dist, int n, float qlat, float qlng)
{
    const float4 *loc2 = (const float4 *)loc; // two records per 16-byte load (cudaMalloc aligns)
    float2 *dist2 = (float2 *)dist;
    int half = n / 2;
    int stride = gridDim.x * blockDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < half; i += stride) {
        float4 p = loc2[i];
        float a = p.x - qlat, b = p.y - qlng, c = p.z - qlat, d = p.w - qlng;
        dist2[i] = make_float2(sqrtf(a * a + b * b), sqrtf(c * c + d * d));
    }
    if (blockIdx.x == 0 && threadIdx.x == 0 && (n & 1)) {
        float a = loc[2 * (n - 1)] - qlat, b = loc[2 * (n - 1) + 1] - qlng;
        dist[n - 1] = sqrtf(a * a + b * b);
    }
}

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
    char size[32];
    snprintf(size, sizeof size, "%d", n);
    if (n < K || n > (1 << 29)) {
        fprintf(stderr, "nn: N must be in [%d, 2^29]\n", K);
        return 1;
    }
    float *loc = (float *)malloc(sizeof(float) * 2 * (size_t)n);
    float *dist = (float *)malloc(sizeof(float) * (size_t)n);
    int reps = bench_reps(), warm = bench_warmup(), ok = 1;
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

    int dev = 0, sms = 0, maxthr = 0;
    ok &= check(cudaGetDevice(&dev), "cudaGetDevice");
    ok &= check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev), "attribute");
    ok &= check(cudaDeviceGetAttribute(&maxthr, cudaDevAttrMaxThreadsPerMultiProcessor, dev), "attribute");
    float *d_loc = 0, *d_dist = 0;
    ok &= check(cudaMalloc(&d_loc, sizeof(float) * 2 * (size_t)n), "cudaMalloc");
    ok &= check(cudaMalloc(&d_dist, sizeof(float) * (size_t)n), "cudaMalloc");
    if (!ok) {
        bench_report("nn", size, 0, 0, "GB/s", 0);
        return 0;
    }
    ok &= check(cudaMemcpy(d_loc, loc, sizeof(float) * 2 * (size_t)n, cudaMemcpyHostToDevice), "copy in");

    const int block = 256;
    int blocks = (n / 2 + block - 1) / block, cap = sms * (maxthr / block);
    if (blocks > cap) blocks = cap;
    if (blocks < 1) blocks = 1;
    for (int r = -warm; r < reps && ok; r++) {
        double t0 = bench_now();
        distances<<<blocks, block>>>(d_loc, d_dist, n, qlat, qlng);
        ok &= check(cudaGetLastError(), "launch");
        ok &= check(cudaDeviceSynchronize(), "kernel");
        double t1 = bench_now();
        if (r >= 0) t[r] = t1 - t0;
    }
    ok &= check(cudaMemcpy(dist, d_dist, sizeof(float) * (size_t)n, cudaMemcpyDeviceToHost), "copy out");
    cudaFree(d_loc);
    cudaFree(d_dist);

    double bestd[K], refd[K];
    int besti[K], refi[K], nb = 0, nr = 0, pass = ok, bad = 0;
    if (ok) {
        for (int i = 0; i < n; i++) keep_nearest(bestd, besti, &nb, dist[i], i);
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
    }
    double s = ok ? bench_median(t, reps) : 0;
    bench_report("nn", size, s, s > 0 ? 12.0 * n / s * 1e-9 : 0, "GB/s", pass);
    free(loc);
    free(dist);
    free(t);
    return 0;
}
