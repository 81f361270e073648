/* launch.cu — CUDA reference for launch.c: L back-to-back launches of a
 * kernel adding 1 to n floats, each followed by cudaDeviceSynchronize
 * (`launch_sync`, what a synchronous construct must at least cost), and L
 * launches on one stream with one synchronisation at the end
 * (`launch_async`). Same size, timing and check as launch.c. */
#include "../common/bench.h"
#include <cuda_runtime.h>

__global__ void add_one(float *a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] += 1.0f;
}

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
    float *d;
    if (!a || !ts || !ta || cudaMalloc(&d, sizeof(float) * (size_t)n) != cudaSuccess) {
        fprintf(stderr, "launch: out of memory\n");
        return 1;
    }
    cudaMemset(d, 0, sizeof(float) * (size_t)n);
    cudaStream_t st;
    cudaStreamCreate(&st);
    int block = 256, grid = (n + block - 1) / block;
    for (int r = -warm; r < reps; r++) {
        cudaDeviceSynchronize();
        double t0 = bench_now();
        for (int k = 0; k < l; k++) {
            add_one<<<grid, block>>>(d, n);
            cudaDeviceSynchronize();
        }
        double t1 = bench_now();
        if (r >= 0) ts[r] = t1 - t0;
    }
    for (int r = -warm; r < reps; r++) {
        cudaDeviceSynchronize();
        double t0 = bench_now();
        for (int k = 0; k < l; k++) add_one<<<grid, block, 0, st>>>(d, n);
        cudaStreamSynchronize(st);
        double t1 = bench_now();
        if (r >= 0) ta[r] = t1 - t0;
    }
    cudaMemcpy(a, d, sizeof(float) * (size_t)n, cudaMemcpyDeviceToHost);
    float want = (float)(2.0 * (double)l * (double)(reps + warm));
    int pass = cudaGetLastError() == cudaSuccess;
    for (int i = 0; i < n && pass; i++)
        if (a[i] != want) {
            fprintf(stderr, "launch: a[%d] = %.1f, want %.1f\n", i, a[i], want);
            pass = 0;
        }
    char size[48];
    snprintf(size, sizeof size, "%dx%d", l, n);
    double s = bench_median(ts, reps), as = bench_median(ta, reps);
    bench_report("launch_sync", size, s, 1e-3 * l / s, "kconstr/s", pass);
    bench_report("launch_async", size, as, 1e-3 * l / as, "kconstr/s", pass);
    return 0;
}
