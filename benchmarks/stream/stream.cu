/* stream.cu — hand-written CUDA reference for stream.c: the four STREAM kernels
 *   copy  c = a           scale b = s*c
 *   add   c = a + b       triad a = b + s*c
 * on double arrays of n elements (argv[1], default 2^26). Same inputs, scalar
 * (sqrt(2)-1), timing (host clock around each kernel, synchronized), verification
 * and RESULT lines (stream_copy/scale/add/triad, GB/s of 2 or 3 arrays x 8 B x n)
 * as the OpenACC version. Grid-stride kernels, grid sized from the device's SM
 * count and resident-thread limit. */
#include <math.h>
#include <cuda_runtime.h>
#include "../common/bench.h"

static const char *names[4] = {"stream_copy", "stream_scale", "stream_add", "stream_triad"};
static char size_str[32];

static void fail(const char *what, cudaError_t e)
{
    fprintf(stderr, "stream.cu: %s: %s\n", what, cudaGetErrorString(e));
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
#define CKLAUNCH(what) CK(cudaGetLastError())

__global__ void k_copy(const double *__restrict__ a, double *__restrict__ c, long n)
{
    for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n; i += (long)gridDim.x * blockDim.x)
        c[i] = a[i];
}
__global__ void k_scale(double *__restrict__ b, const double *__restrict__ c, double s, long n)
{
    for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n; i += (long)gridDim.x * blockDim.x)
        b[i] = s * c[i];
}
__global__ void k_add(const double *__restrict__ a, const double *__restrict__ b, double *__restrict__ c,
                      long n)
{
    for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n; i += (long)gridDim.x * blockDim.x)
        c[i] = a[i] + b[i];
}
__global__ void k_triad(double *__restrict__ a, const double *__restrict__ b, const double *__restrict__ c,
                        double s, long n)
{
    for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n; i += (long)gridDim.x * blockDim.x)
        a[i] = b[i] + s * c[i];
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1 << 26;
    if (n < 1) {
        fprintf(stderr, "usage: %s [n]\n", argv[0]);
        return 1;
    }
    snprintf(size_str, sizeof size_str, "%d", n);
    const double scalar = 0.41421356237309504880; /* sqrt(2) - 1 */
    size_t bytes = (size_t)n * sizeof(double);
    double *a = (double *)malloc(bytes), *b = (double *)malloc(bytes), *c = (double *)malloc(bytes);
    int warmup = bench_warmup(), reps = bench_reps();
    double *t = (double *)malloc(4 * (size_t)reps * sizeof(double));
    if (!a || !b || !c || !t) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    for (int i = 0; i < n; i++) {
        a[i] = 1.0 + bench_rand(i, 1);
        b[i] = 1.0 + bench_rand(i, 2);
        c[i] = 0.0;
    }

    int dev, sms, maxthr;
    CK(cudaGetDevice(&dev));
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    CK(cudaDeviceGetAttribute(&maxthr, cudaDevAttrMaxThreadsPerMultiProcessor, dev));
    const int block = 256;
    long want = ((long)n + block - 1) / block;
    long full = (long)sms * (maxthr / block);
    int grid = (int)(want < full ? want : full);

    double *da, *db, *dc;
    CK(cudaMalloc(&da, bytes));
    CK(cudaMalloc(&db, bytes));
    CK(cudaMalloc(&dc, bytes));
    CK(cudaMemcpy(da, a, bytes, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(db, b, bytes, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dc, c, bytes, cudaMemcpyHostToDevice));

    for (int r = -warmup; r < reps; r++) {
        double t0 = bench_now();
        k_copy<<<grid, block>>>(da, dc, n);
        CKLAUNCH("copy");
        CK(cudaDeviceSynchronize());
        double t1 = bench_now();
        k_scale<<<grid, block>>>(db, dc, scalar, n);
        CKLAUNCH("scale");
        CK(cudaDeviceSynchronize());
        double t2 = bench_now();
        k_add<<<grid, block>>>(da, db, dc, n);
        CKLAUNCH("add");
        CK(cudaDeviceSynchronize());
        double t3 = bench_now();
        k_triad<<<grid, block>>>(da, db, dc, scalar, n);
        CKLAUNCH("triad");
        CK(cudaDeviceSynchronize());
        double t4 = bench_now();
        if (r >= 0) {
            t[0 * reps + r] = t1 - t0;
            t[1 * reps + r] = t2 - t1;
            t[2 * reps + r] = t3 - t2;
            t[3 * reps + r] = t4 - t3;
        }
    }
    CK(cudaMemcpy(a, da, bytes, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(b, db, bytes, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(c, dc, bytes, cudaMemcpyDeviceToHost));
    CK(cudaFree(da));
    CK(cudaFree(db));
    CK(cudaFree(dc));

    int pass = 1;
    for (int i = 0; i < n && pass; i++) {
        double ra = 1.0 + bench_rand(i, 1), rb = 1.0 + bench_rand(i, 2), rc = 0.0;
        for (int r = -warmup; r < reps; r++) {
            rc = ra;
            rb = scalar * rc;
            rc = ra + rb;
            ra = rb + scalar * rc;
        }
        if (!bench_close(a[i], ra, 1e-12) || !bench_close(b[i], rb, 1e-12) ||
            !bench_close(c[i], rc, 1e-12)) {
            fprintf(stderr, "stream.cu: mismatch at %d: got %.17g %.17g %.17g, want %.17g %.17g %.17g\n",
                    i, a[i], b[i], c[i], ra, rb, rc);
            pass = 0;
        }
    }
    static const double arrays[4] = {2, 2, 3, 3};
    for (int k = 0; k < 4; k++) {
        double sec = bench_median(t + (size_t)k * reps, reps);
        bench_report(names[k], size_str, sec, arrays[k] * 8.0 * (double)n / sec * 1e-9, "GB/s", pass);
    }
    free(a);
    free(b);
    free(c);
    free(t);
    return 0;
}
