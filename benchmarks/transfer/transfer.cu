/* transfer.cu — CUDA reference for transfer.c: cudaMemcpy of n doubles
 * (argv[1], default 2^27 = 1 GiB) host -> device and device -> host, from
 * pageable memory (malloc: transfer_copyin / transfer_copyout, what the
 * OpenACC data region copies) and from pinned memory (cudaMallocHost:
 * transfer_copyin_pinned / transfer_copyout_pinned, the bus's ceiling). Same
 * timing (median of BENCH_REPS after BENCH_WARMUP) and RESULT lines (GB/s =
 * bytes / seconds) as transfer.c; each copy is checked. */
#include <cuda_runtime.h>
#include "../common/bench.h"

static char size_str[32];
static const char *names[4] = {"transfer_copyin", "transfer_copyout", "transfer_copyin_pinned",
                               "transfer_copyout_pinned"};

static void fail(const char *what, cudaError_t e)
{
    fprintf(stderr, "transfer.cu: %s: %s\n", what, cudaGetErrorString(e));
    for (int k = 0; k < 4; k++)
        bench_report(names[k], size_str, 0.0, 0.0, "GB/s", 0);
    exit(0);
}
#define CK(call)                                                                                   \
    do {                                                                                           \
        cudaError_t e_ = (call);                                                                   \
        if (e_ != cudaSuccess)                                                                     \
            fail(#call, e_);                                                                       \
    } while (0)

/* Median seconds of copying `bytes` from src to dst (kind) over the repetitions. */
static double time_copy(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind)
{
    int warmup = bench_warmup(), reps = bench_reps();
    double *t = (double *)malloc((size_t)reps * sizeof(double));
    for (int r = -warmup; r < reps; r++) {
        double t0 = bench_now();
        CK(cudaMemcpy(dst, src, bytes, kind));
        double t1 = bench_now();
        if (r >= 0)
            t[r] = t1 - t0;
    }
    double s = bench_median(t, reps);
    free(t);
    return s;
}

static int check(const double *a, long n, double add)
{
    for (long i = 0; i < n; i++)
        if (a[i] != (double)(i % 1000) + add)
            return 0;
    return 1;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 1L << 27;
    if (n < 1) {
        fprintf(stderr, "usage: %s [n]\n", argv[0]);
        return 1;
    }
    size_t bytes = (size_t)n * sizeof(double);
    snprintf(size_str, sizeof size_str, "%zu", bytes);
    double *pageable = (double *)malloc(bytes), *pinned, *d;
    if (!pageable) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    CK(cudaMallocHost((void **)&pinned, bytes));
    CK(cudaMalloc((void **)&d, bytes));
    for (long i = 0; i < n; i++)
        pageable[i] = pinned[i] = (double)(i % 1000);

    double s[4];
    s[0] = time_copy(d, pageable, bytes, cudaMemcpyHostToDevice);
    memset(pageable, 0, bytes);
    s[1] = time_copy(pageable, d, bytes, cudaMemcpyDeviceToHost);
    int ok_pageable = check(pageable, n, 0);
    s[2] = time_copy(d, pinned, bytes, cudaMemcpyHostToDevice);
    memset(pinned, 0, bytes);
    s[3] = time_copy(pinned, d, bytes, cudaMemcpyDeviceToHost);
    int ok_pinned = check(pinned, n, 0);
    for (int k = 0; k < 4; k++)
        bench_report(names[k], size_str, s[k], (double)bytes / s[k] * 1e-9, "GB/s",
                     k < 2 ? ok_pageable : ok_pinned);
    CK(cudaFree(d));
    CK(cudaFreeHost(pinned));
    free(pageable);
    return 0;
}
