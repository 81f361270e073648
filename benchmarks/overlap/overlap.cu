/* overlap.cu — hand-written CUDA reference for overlap.c: the same chunk
 * pipeline (copy chunk k in, kernel on chunk k, copy chunk k out), written as
 * a CUDA programmer would: host arrays in pinned memory (cudaMallocHost),
 * cudaMemcpyAsync, one stream per queue (chunk k on stream k % Q), one
 * cudaDeviceSynchronize at the end. Same arguments (n floats, chunks, iter),
 * kernel (iter dependent v = v * 0.5f + x per element, nvcc fuses them into
 * FMAs), timing (median of BENCH_REPS after BENCH_WARMUP), checks and RESULT /
 * OVERLAP lines as overlap.c:
 *   overlap_copy      per chunk cudaMemcpy in, cudaMemcpy out (synchronous)
 *   overlap_compute   per chunk a kernel, synchronized after each (as a
 *                     synchronous OpenACC compute construct)
 *   overlap_sync      per chunk cudaMemcpy, kernel, cudaMemcpy
 *   overlap_asyncQ    Q = 2, 3, 4 streams
 *   overlap_clauses4  device memory per chunk, as the data clauses on the
 *                     compute construct: cudaMallocAsync / cudaFreeAsync on
 *                     the chunk's stream (the stream-ordered pool), 4 streams
 * Pinned host memory is the bus's best case: the accc and GCC rows copy from
 * pageable memory, which their runtimes must stage to overlap. */
#include <cuda_runtime.h>
#include "../common/bench.h"

enum { V_COPY, V_COMPUTE, V_SYNC, V_ASYNC2, V_ASYNC3, V_ASYNC4, V_CLAUSES4, NV };
static const char *names[NV] = {"overlap_copy",   "overlap_compute", "overlap_sync",
                                "overlap_async2", "overlap_async3",  "overlap_async4",
                                "overlap_clauses4"};
static char size_str[64];

static void fail(const char *what, cudaError_t e)
{
    fprintf(stderr, "overlap.cu: %s: %s\n", what, cudaGetErrorString(e));
    for (int v = 0; v < NV; v++)
        bench_report(names[v], size_str, 0.0, 0.0, "GB/s", 0);
    exit(0);
}
#define CK(call)                                                                                   \
    do {                                                                                           \
        cudaError_t e_ = (call);                                                                   \
        if (e_ != cudaSuccess)                                                                     \
            fail(#call, e_);                                                                       \
    } while (0)

__global__ void kern(const float *__restrict__ in, float *__restrict__ out, long len, int iter)
{
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (i < len) {
        float x = in[i], v = x;
        for (int j = 0; j < iter; j++)
            v = v * 0.5f + x;
        out[i] = v;
    }
}

static float *in, *out, *ref, *d_in, *d_out;
static long n, chunk;
static int nchunks, iter;
static cudaStream_t streams[4];
static const int block = 256;

static void chunk_range(int k, long *off, long *len)
{
    *off = (long)k * chunk;
    *len = k == nchunks - 1 ? n - *off : chunk;
}

static void launch(const float *src, float *dst, long len, cudaStream_t s)
{
    kern<<<(unsigned)((len + block - 1) / block), block, 0, s>>>(src, dst, len, iter);
    CK(cudaGetLastError());
}

static void run_pass(int v)
{
    size_t f = sizeof(float);
    int nq = v == V_ASYNC2 ? 2 : v == V_ASYNC3 ? 3 : 4;
    for (int k = 0; k < nchunks; k++) {
        long off, len;
        chunk_range(k, &off, &len);
        cudaStream_t s = streams[k % nq];
        switch (v) {
        case V_COPY:
            CK(cudaMemcpy(d_in + off, in + off, len * f, cudaMemcpyHostToDevice));
            CK(cudaMemcpy(out + off, d_out + off, len * f, cudaMemcpyDeviceToHost));
            break;
        case V_COMPUTE:
            launch(d_in + off, d_out + off, len, 0);
            CK(cudaDeviceSynchronize());
            break;
        case V_SYNC:
            CK(cudaMemcpy(d_in + off, in + off, len * f, cudaMemcpyHostToDevice));
            launch(d_in + off, d_out + off, len, 0);
            CK(cudaMemcpy(out + off, d_out + off, len * f, cudaMemcpyDeviceToHost));
            break;
        case V_CLAUSES4: {
            float *ci, *co;
            CK(cudaMallocAsync((void **)&ci, len * f, s));
            CK(cudaMallocAsync((void **)&co, len * f, s));
            CK(cudaMemcpyAsync(ci, in + off, len * f, cudaMemcpyHostToDevice, s));
            launch(ci, co, len, s);
            CK(cudaMemcpyAsync(out + off, co, len * f, cudaMemcpyDeviceToHost, s));
            CK(cudaFreeAsync(ci, s));
            CK(cudaFreeAsync(co, s));
            break;
        }
        default:
            CK(cudaMemcpyAsync(d_in + off, in + off, len * f, cudaMemcpyHostToDevice, s));
            launch(d_in + off, d_out + off, len, s);
            CK(cudaMemcpyAsync(out + off, d_out + off, len * f, cudaMemcpyDeviceToHost, s));
            break;
        }
    }
    if (v >= V_ASYNC2)
        CK(cudaDeviceSynchronize());
}

static double time_variant(int v)
{
    int warmup = bench_warmup(), reps = bench_reps();
    double *t = (double *)malloc((size_t)reps * sizeof(double));
    for (int r = -warmup; r < reps; r++) {
        double t0 = bench_now();
        run_pass(v);
        double t1 = bench_now();
        if (r >= 0)
            t[r] = t1 - t0;
    }
    double s = bench_median(t, reps);
    free(t);
    return s;
}

static int check_out(const char *what)
{
    for (long i = 0; i < n; i++) {
        if (out[i] != ref[i]) {
            fprintf(stderr, "%s: out[%ld] = %.9g, want %.9g\n", what, i, out[i], ref[i]);
            return 0;
        }
    }
    return 1;
}

int main(int argc, char **argv)
{
    n = argc > 1 ? atol(argv[1]) : 1L << 27;
    nchunks = argc > 2 ? atoi(argv[2]) : 16;
    iter = argc > 3 ? atoi(argv[3]) : 4096;
    if (n < 1 || nchunks < 1 || nchunks > n || iter < 0) {
        fprintf(stderr, "usage: %s [n] [chunks] [iter]\n", argv[0]);
        return 1;
    }
    chunk = n / nchunks;
    snprintf(size_str, sizeof size_str, "%ldx%d,iter%d", n, nchunks, iter);
    size_t bytes = (size_t)n * sizeof(float);
    ref = (float *)malloc(bytes);
    if (!ref) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    CK(cudaMallocHost((void **)&in, bytes));
    CK(cudaMallocHost((void **)&out, bytes));
    CK(cudaMalloc((void **)&d_in, bytes));
    CK(cudaMalloc((void **)&d_out, bytes));
    for (int q = 0; q < 4; q++)
        CK(cudaStreamCreateWithFlags(&streams[q], cudaStreamNonBlocking));
    for (long i = 0; i < n; i++) {
        in[i] = (float)(1.0 + bench_rand((unsigned long long)i, 7));
        out[i] = 0.0f;
        float x = in[i], v = x;
        for (int j = 0; j < iter; j++) {
            float w = v * 0.5f + x;
            if (w == v)
                break;
            v = w;
        }
        ref[i] = v;
    }

    double sec[NV];
    int pass[NV];
    CK(cudaMemset(d_out, 0, bytes));
    CK(cudaMemcpy(d_in, in, bytes, cudaMemcpyHostToDevice));
    sec[V_COMPUTE] = time_variant(V_COMPUTE);
    CK(cudaMemcpy(out, d_out, bytes, cudaMemcpyDeviceToHost));
    pass[V_COMPUTE] = check_out(names[V_COMPUTE]);
    memset(out, 0, bytes);
    sec[V_COPY] = time_variant(V_COPY);
    pass[V_COPY] = check_out(names[V_COPY]);
    for (int v = V_SYNC; v <= V_CLAUSES4; v++) {
        CK(cudaMemset(d_in, 0, bytes));
        CK(cudaMemset(d_out, 0, bytes));
        memset(out, 0, bytes);
        sec[v] = time_variant(v);
        pass[v] = check_out(names[v]);
    }

    double moved = 2.0 * (double)bytes;
    for (int v = 0; v < NV; v++)
        bench_report(names[v], size_str, sec[v], moved / sec[v] * 1e-9, "GB/s", pass[v]);
    double ideal = sec[V_COPY] > sec[V_COMPUTE] ? sec[V_COPY] : sec[V_COMPUTE];
    for (int v = V_ASYNC2; v <= V_CLAUSES4; v++)
        printf("OVERLAP %s speedup=%.2fx ideal=%.0f%%\n", names[v], sec[V_SYNC] / sec[v],
               ideal / sec[v] * 100.0);
    for (int q = 0; q < 4; q++)
        CK(cudaStreamDestroy(streams[q]));
    CK(cudaFree(d_in));
    CK(cudaFree(d_out));
    CK(cudaFreeHost(in));
    CK(cudaFreeHost(out));
    free(ref);
    return 0;
}
