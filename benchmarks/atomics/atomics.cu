// atomics.cu — the CUDA reference of atomics.c: the same three histograms
// with atomicAdd (float and int) and an atomicCAS loop for the product, one
// thread per update, 256-thread blocks; same RESULT lines.
#include "../common/bench.h"
#include <cuda_runtime.h>

__global__ void fadd(const int *key, const float *w, float *hist, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&hist[key[i]], w[i]);
}

__global__ void iinc(const int *key, int *count, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&count[key[i]], 1);
}

__global__ void casmul(const int *key, float *prod, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        float s = i % 3 == 0 ? -1.0f : 1.0f;
        unsigned *p = (unsigned *)&prod[key[i]];
        unsigned old = *p, assumed;
        do {
            assumed = old;
            old = atomicCAS(p, assumed, __float_as_uint(__uint_as_float(assumed) * s));
        } while (old != assumed);
    }
}

__global__ void reset(float *hist, int *count, float *prod, int bins)
{
    int b = blockIdx.x * blockDim.x + threadIdx.x;
    if (b < bins) {
        hist[b] = 0;
        count[b] = 0;
        prod[b] = 1;
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1 << 24;
    int bins = argc > 2 ? atoi(argv[2]) : 64;
    int *key = (int *)malloc((size_t)n * sizeof(int));
    float *w = (float *)malloc((size_t)n * sizeof(float));
    float *hist = (float *)calloc(bins, sizeof(float));
    int *count = (int *)calloc(bins, sizeof(int));
    float *prod = (float *)malloc(bins * sizeof(float));
    int warmup = bench_warmup(), reps = bench_reps();
    double *tf = (double *)malloc(reps * sizeof(double));
    double *ti = (double *)malloc(reps * sizeof(double));
    double *tc = (double *)malloc(reps * sizeof(double));
    for (int i = 0; i < n; i++) {
        key[i] = (int)(bench_rand(i, 3) * bins) % bins;
        w[i] = (float)((int)(bench_rand(i, 5) * 64)) / 64.0f;
    }
    int *dkey, *dcount;
    float *dw, *dhist, *dprod;
    cudaMalloc(&dkey, (size_t)n * sizeof(int));
    cudaMalloc(&dw, (size_t)n * sizeof(float));
    cudaMalloc(&dhist, bins * sizeof(float));
    cudaMalloc(&dcount, bins * sizeof(int));
    cudaMalloc(&dprod, bins * sizeof(float));
    cudaMemcpy(dkey, key, (size_t)n * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(dw, w, (size_t)n * sizeof(float), cudaMemcpyHostToDevice);
    int sms = 0;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    int grid = sms * 8, block = 256;
    for (int r = -warmup; r < reps; r++) {
        reset<<<(bins + 255) / 256, 256>>>(dhist, dcount, dprod, bins);
        cudaDeviceSynchronize();
        double t0 = bench_now();
        fadd<<<grid, block>>>(dkey, dw, dhist, n);
        cudaDeviceSynchronize();
        double t1 = bench_now();
        iinc<<<grid, block>>>(dkey, dcount, n);
        cudaDeviceSynchronize();
        double t2 = bench_now();
        casmul<<<grid, block>>>(dkey, dprod, n);
        cudaDeviceSynchronize();
        double t3 = bench_now();
        if (r >= 0) {
            tf[r] = t1 - t0;
            ti[r] = t2 - t1;
            tc[r] = t3 - t2;
        }
    }
    cudaMemcpy(hist, dhist, bins * sizeof(float), cudaMemcpyDeviceToHost);
    cudaMemcpy(count, dcount, bins * sizeof(int), cudaMemcpyDeviceToHost);
    cudaMemcpy(prod, dprod, bins * sizeof(float), cudaMemcpyDeviceToHost);
    double *ref = (double *)calloc(bins, sizeof(double));
    int *rc = (int *)calloc(bins, sizeof(int));
    int *neg = (int *)calloc(bins, sizeof(int));
    for (int i = 0; i < n; i++) {
        ref[key[i]] += w[i];
        rc[key[i]]++;
        neg[key[i]] ^= i % 3 == 0;
    }
    int pf = 1, pi = 1, pc = 1;
    for (int b = 0; b < bins; b++) {
        pf &= bench_close(hist[b], ref[b], 1e-6);
        pi &= count[b] == rc[b];
        pc &= prod[b] == (neg[b] ? -1.0f : 1.0f);
    }
    char size[48];
    snprintf(size, sizeof size, "%dx%dbins", n, bins);
    double s;
    s = bench_median(tf, reps);
    bench_report("atomics_float_add", size, s, n / s * 1e-6, "Mupd/s", pf);
    s = bench_median(ti, reps);
    bench_report("atomics_int_inc", size, s, n / s * 1e-6, "Mupd/s", pi);
    s = bench_median(tc, reps);
    bench_report("atomics_cas_mul", size, s, n / s * 1e-6, "Mupd/s", pc);
    return 0;
}
