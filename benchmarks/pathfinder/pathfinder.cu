/* pathfinder.cu — hand-written CUDA reference for benchmarks/pathfinder/pathfinder.c
 * (Rodinia "pathfinder": row-by-row dynamic programming, cost = own weight + min
 * of the 3 neighbours in the previous row; see pathfinder.c for sizes and rate).
 *
 * Temporal blocking ("pyramid"): a block of BS threads owns BS columns, keeps
 * the cost row in shared memory and advances it up to HEIGHT rows per launch
 * (the valid part shrinks by one column on each side per row), writing the
 * inner BS - 2*HEIGHT columns. Each thread loads its HEIGHT weights up front
 * (many loads in flight). Row 0 is read straight from the weights. Global
 * memory sees one cost row read and written per HEIGHT rows; the weights are
 * read once (plus the halo overlap).
 *
 * Usage: pathfinder [cols [rows]]   default 1,000,000 x 100.
 */
#include <climits>
#include <cuda_runtime.h>
#include "../common/bench.h"

#define BS 512     /* threads (columns) per block */
#define HEIGHT 20  /* rows per launch */

#define CK(call)                                                                              \
    do {                                                                                      \
        cudaError_t e_ = (call);                                                              \
        if (e_ != cudaSuccess) {                                                              \
            fprintf(stderr, "pathfinder: %s: %s (%s:%d)\n", #call, cudaGetErrorString(e_),    \
                    __FILE__, __LINE__);                                                      \
            fail();                                                                           \
        }                                                                                     \
    } while (0)

static char g_size[64] = "?";
static void fail(void)
{
    bench_report("pathfinder", g_size, 0.0, 0.0, "GB/s", 0);
    exit(0);
}

/* Rows r0+1 .. r0+kk (kk <= HEIGHT) from the cost row src (row r0) into dst. */
__global__ void __launch_bounds__(BS, 2048 / BS) /* full occupancy */
pathfinder_pyramid(int *__restrict__ dst, const int *__restrict__ src, const int *__restrict__ wall,
                   int cols, int r0, int kk)
{
    __shared__ int buf[2][BS];
    int tx = threadIdx.x;
    int stride = BS - 2 * kk;
    long gc = (long)blockIdx.x * stride + tx - kk;
    bool inside = gc >= 0 && gc < cols;
    int w[HEIGHT];
#pragma unroll
    for (int k = 0; k < HEIGHT; k++)
        w[k] = (inside && k < kk) ? __ldg(&wall[(size_t)(r0 + 1 + k) * cols + gc]) : 0;
    buf[0][tx] = inside ? src[gc] : INT_MAX;
    __syncthreads();
    int cur = 0;
#pragma unroll
    for (int k = 0; k < HEIGHT; k++) {
        if (k < kk) { /* uniform over the block */
            int m = buf[cur][tx];
            if (tx > 0 && gc > 0)
                m = min(m, buf[cur][tx - 1]);
            if (tx < BS - 1 && gc < cols - 1)
                m = min(m, buf[cur][tx + 1]);
            buf[cur ^ 1][tx] = w[k] + m;
            cur ^= 1;
            __syncthreads();
        }
    }
    if (inside && tx >= kk && tx < BS - kk)
        dst[gc] = buf[cur][tx];
}

int main(int argc, char **argv)
{
    int cols = argc > 1 ? atoi(argv[1]) : 1000000;
    int rows = argc > 2 ? atoi(argv[2]) : 100;
    if (cols < 1 || rows < 1) {
        fprintf(stderr, "usage: pathfinder [cols [rows]]\n");
        return 1;
    }
    snprintf(g_size, sizeof g_size, "%dx%d", cols, rows);
    size_t nw = (size_t)rows * cols;
    int *wall = (int *)malloc(nw * sizeof(int));
    int *out = (int *)malloc((size_t)cols * sizeof(int));
    if (!wall || !out) {
        fprintf(stderr, "pathfinder: out of memory\n");
        return 1;
    }
    for (size_t i = 0; i < nw; i++)
        wall[i] = (int)(10.0 * bench_rand(i, 3));

    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    if (prop.maxThreadsPerBlock < BS) {
        fprintf(stderr, "pathfinder: device allows only %d threads per block\n", prop.maxThreadsPerBlock);
        fail();
    }

    int *d_wall, *d_a, *d_b;
    CK(cudaMalloc(&d_wall, nw * sizeof(int)));
    CK(cudaMalloc(&d_a, (size_t)cols * sizeof(int)));
    CK(cudaMalloc(&d_b, (size_t)cols * sizeof(int)));
    CK(cudaMemcpy(d_wall, wall, nw * sizeof(int), cudaMemcpyHostToDevice));

    int warmup = bench_warmup(), reps = bench_reps();
    double *times = (double *)malloc((size_t)reps * sizeof(double));
    const int *result = d_wall; /* rows == 1: the answer is row 0 */
    for (int rep = 0; rep < warmup + reps; rep++) {
        CK(cudaDeviceSynchronize());
        double start = bench_now();
        const int *src = d_wall; /* row 0 */
        int *dst = d_a, *other = d_b;
        for (int r0 = 0; r0 < rows - 1; r0 += HEIGHT) {
            int kk = rows - 1 - r0 < HEIGHT ? rows - 1 - r0 : HEIGHT;
            int stride = BS - 2 * kk;
            int blocks = (int)(((long)cols + stride - 1) / stride);
            pathfinder_pyramid<<<blocks, BS>>>(dst, src, d_wall, cols, r0, kk);
            CK(cudaGetLastError());
            src = dst;
            int *sw = dst;
            dst = other;
            other = sw;
        }
        CK(cudaDeviceSynchronize());
        double end = bench_now();
        result = src;
        if (rep >= warmup)
            times[rep - warmup] = end - start;
    }
    CK(cudaMemcpy(out, result, (size_t)cols * sizeof(int), cudaMemcpyDeviceToHost));

    /* Serial reference (as pathfinder.c). */
    int *ref = (int *)malloc((size_t)cols * sizeof(int));
    int *ref2 = (int *)malloc((size_t)cols * sizeof(int));
    for (int c = 0; c < cols; c++)
        ref[c] = wall[c];
    for (int r = 1; r < rows; r++) {
        const int *w = wall + (size_t)r * cols;
        for (int c = 0; c < cols; c++) {
            int m = ref[c];
            if (c > 0 && ref[c - 1] < m)
                m = ref[c - 1];
            if (c < cols - 1 && ref[c + 1] < m)
                m = ref[c + 1];
            ref2[c] = w[c] + m;
        }
        int *sw = ref;
        ref = ref2;
        ref2 = sw;
    }
    int pass = 1;
    for (int c = 0; c < cols; c++) {
        if (out[c] != ref[c]) {
            if (pass)
                fprintf(stderr, "pathfinder: mismatch at %d: %d vs %d\n", c, out[c], ref[c]);
            pass = 0;
        }
    }

    double sec = bench_median(times, reps);
    double bytes = (double)(rows - 1) * 3.0 * cols * sizeof(int);
    bench_report("pathfinder", g_size, sec, bytes / sec * 1e-9, "GB/s", pass);

    cudaFree(d_wall);
    cudaFree(d_a);
    cudaFree(d_b);
    free(wall);
    free(out);
    free(ref);
    free(ref2);
    free(times);
    return 0;
}
