/* reduction.cu — hand-written CUDA reference for reduction.c: the sum of n doubles
 * (argv[1], default 2^26). Two passes: a grid-stride kernel (16-byte double2 loads,
 * two independent accumulators, warp shuffles, one partial per block through shared
 * memory) sized to fill the device, then one block sums the partials; the 8-byte
 * result is copied back to the host inside the timed repetition, as in the OpenACC
 * version. GB/s = 8 bytes x n / time. RESULT name: reduction_sum. */
#include <cuda_runtime.h>
#include "../common/bench.h"

static char size_str[32];

static void fail(const char *what, cudaError_t e)
{
    fprintf(stderr, "reduction.cu: %s: %s\n", what, cudaGetErrorString(e));
    bench_report("reduction_sum", size_str, 0.0, 0.0, "GB/s", 0);
    exit(0);
}
#define CK(call)                                                                                   \
    do {                                                                                           \
        cudaError_t e_ = (call);                                                                   \
        if (e_ != cudaSuccess)                                                                     \
            fail(#call, e_);                                                                       \
    } while (0)

#define BLOCK 512

/* Sum over the block; the result is valid in thread 0. */
__device__ double block_sum(double v)
{
    __shared__ double warp_sums[BLOCK / 32];
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, o);
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    if (lane == 0)
        warp_sums[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = lane < (int)(blockDim.x >> 5) ? warp_sums[lane] : 0.0;
        for (int o = 16; o > 0; o >>= 1)
            v += __shfl_down_sync(0xffffffffu, v, o);
    }
    return v;
}

__global__ void __launch_bounds__(BLOCK) partial_sums(const double *__restrict__ x, long n,
                                                      double *__restrict__ partial)
{
    const double2 *x2 = reinterpret_cast<const double2 *>(x);
    long n2 = n / 2, stride = (long)gridDim.x * blockDim.x;
    double s0 = 0.0, s1 = 0.0;
    for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n2; i += stride) {
        double2 v = __ldg(&x2[i]);
        s0 += v.x;
        s1 += v.y;
    }
    if (n & 1 && blockIdx.x == 0 && threadIdx.x == 0)
        s0 += x[n - 1];
    double s = block_sum(s0 + s1);
    if (threadIdx.x == 0)
        partial[blockIdx.x] = s;
}

__global__ void __launch_bounds__(BLOCK) final_sum(const double *__restrict__ partial, int m,
                                                   double *__restrict__ out)
{
    double s = 0.0;
    for (int i = threadIdx.x; i < m; i += blockDim.x)
        s += partial[i];
    s = block_sum(s);
    if (threadIdx.x == 0)
        *out = s;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1 << 26;
    if (n < 1) {
        fprintf(stderr, "usage: %s [n]\n", argv[0]);
        return 1;
    }
    snprintf(size_str, sizeof size_str, "%d", n);
    double *x = (double *)malloc((size_t)n * sizeof(double));
    int warmup = bench_warmup(), reps = bench_reps();
    double *t = (double *)malloc((size_t)reps * sizeof(double));
    if (!x || !t) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    for (int i = 0; i < n; i++)
        x[i] = bench_rand(i, 7) - 0.25;

    int dev, sms, maxthr;
    CK(cudaGetDevice(&dev));
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    CK(cudaDeviceGetAttribute(&maxthr, cudaDevAttrMaxThreadsPerMultiProcessor, dev));
    long want = ((long)n / 2 + BLOCK - 1) / BLOCK;
    long full = (long)sms * (maxthr / BLOCK);
    int grid = (int)(want < 1 ? 1 : want < full ? want : full);

    double *dx, *dpartial, *dsum;
    CK(cudaMalloc(&dx, (size_t)n * sizeof(double)));
    CK(cudaMalloc(&dpartial, (size_t)grid * sizeof(double)));
    CK(cudaMalloc(&dsum, sizeof(double)));
    CK(cudaMemcpy(dx, x, (size_t)n * sizeof(double), cudaMemcpyHostToDevice));

    double sum = 0.0;
    for (int r = -warmup; r < reps; r++) {
        double t0 = bench_now();
        partial_sums<<<grid, BLOCK>>>(dx, n, dpartial);
        CK(cudaGetLastError());
        final_sum<<<1, BLOCK>>>(dpartial, grid, dsum);
        CK(cudaGetLastError());
        CK(cudaMemcpy(&sum, dsum, sizeof(double), cudaMemcpyDeviceToHost));
        double t1 = bench_now();
        if (r >= 0)
            t[r] = t1 - t0;
    }
    CK(cudaFree(dx));
    CK(cudaFree(dpartial));
    CK(cudaFree(dsum));

    double ref = 0.0, comp = 0.0;
    for (int i = 0; i < n; i++) {
        double y = x[i] - comp;
        double s = ref + y;
        comp = (s - ref) - y;
        ref = s;
    }
    int pass = bench_close(sum, ref, 1e-10);
    if (!pass)
        fprintf(stderr, "reduction.cu: got %.17g, want %.17g\n", sum, ref);
    double sec = bench_median(t, reps);
    bench_report("reduction_sum", size_str, sec, 8.0 * (double)n / sec * 1e-9, "GB/s", pass);
    free(x);
    free(t);
    return 0;
}
