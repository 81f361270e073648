// devcopy.cu — the bandwidth ceiling every benchmark is compared with: a large
// device-to-device copy (cudaMemcpy between two 1 GiB buffers), measured in
// the same run. GB/s counts bytes read plus bytes written.
#include "bench.h"
#include <cuda_runtime.h>

static int check(cudaError_t e, const char *what)
{
    if (e != cudaSuccess) {
        fprintf(stderr, "devcopy: %s: %s\n", what, cudaGetErrorString(e));
        return 0;
    }
    return 1;
}

int main(void)
{
    size_t bytes = (size_t)1 << 30;
    char *a = 0, *b = 0;
    if (!check(cudaMalloc(&a, bytes), "cudaMalloc") || !check(cudaMalloc(&b, bytes), "cudaMalloc") ||
        !check(cudaMemset(a, 1, bytes), "cudaMemset")) {
        bench_report("devcopy", "1GiB", 0, 0, "GB/s", 0);
        return 0;
    }
    int reps = bench_reps(), ok = 1;
    double *t = (double *)malloc(sizeof(double) * reps);
    for (int r = -bench_warmup(); r < reps; r++) {
        ok &= check(cudaDeviceSynchronize(), "sync");
        double t0 = bench_now();
        ok &= check(cudaMemcpy(b, a, bytes, cudaMemcpyDeviceToDevice), "cudaMemcpy");
        ok &= check(cudaDeviceSynchronize(), "sync");
        if (r >= 0) t[r] = bench_now() - t0;
    }
    double s = bench_median(t, reps);
    bench_report("devcopy", "1GiB", s, 2.0 * bytes / s * 1e-9, "GB/s", ok);
    return 0;
}
