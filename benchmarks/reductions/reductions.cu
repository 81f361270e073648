/* reductions.cu — hand-written CUDA reference for reductions.c: the same seven
 * cases (argv[1] = n, default 2^20; 64 n doubles), the same results from the
 * same input, written the way one would in CUDA rather than as the OpenACC
 * nest: each case is one kernel over the whole device, whatever the loop
 * arrangement of the OpenACC version.
 *   row sums (vector: 64 rows of n; worker_vector: 2 rows of 32 n;
 *   gang_worker_vector and same_line: 1 row of 64 n): a 2-D grid, blockIdx.y =
 *   row, the row's blocks read 16-byte double2 values grid-stride with two
 *   accumulators, reduce with warp shuffles and shared memory, and the row's
 *   last block to finish (a counter per row, __threadfence) adds the blocks'
 *   partial sums in a fixed order and the row's start value.
 *   copy + strided sum (gang: t = x and the sum of every 64th element;
 *   gang_worker: every 32nd; worker: every 32nd per half, 2 results): the
 *   same kernel shape, each thread copying double2 values and adding the
 *   first element of those that start a stride.
 * One repetition = one kernel; a scalar result is copied to the host inside
 * the timed repetition (as the OpenACC reduction's implied copy is), per-row
 * results stay on the device (the repetition ends with a synchronize).
 * Verification and RESULT lines as in reductions.c. */
#include <cuda_runtime.h>
#include "../common/bench.h"

#define NCASES 7
#define SMALL 2
#define WIDE 32
#define BLOCK 512
#define MAXROWS (SMALL * WIDE)

static const char *names[NCASES] = {
    "reductions_gang",          "reductions_worker",
    "reductions_vector",        "reductions_gang_worker",
    "reductions_worker_vector", "reductions_gang_worker_vector",
    "reductions_same_line",
};
static char sizes[NCASES][48];

static void fail(const char *what, cudaError_t e)
{
    fprintf(stderr, "reductions.cu: %s: %s\n", what, cudaGetErrorString(e));
    for (int c = 0; c < NCASES; c++)
        bench_report(names[c], sizes[c], 0.0, 0.0, "GB/s", 0);
    exit(0);
}
#define CK(call)                                                                                   \
    do {                                                                                           \
        cudaError_t e_ = (call);                                                                   \
        if (e_ != cudaSuccess)                                                                     \
            fail(#call, e_);                                                                       \
    } while (0)

/* Sum over the block; the result is valid in thread 0. Every thread calls it. */
__device__ double block_sum(double v)
{
    __shared__ double warp_sums[BLOCK / 32];
    __syncthreads(); /* warp_sums may still be read by an earlier call */
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

/* Reduces v over the block into partial[blockIdx.x]; the last of the row's
 * gridDim.x blocks sums the row's partials (in block order: deterministic),
 * adds init and writes *out, then rearms the row's counter. */
__device__ void finish_row(double v, double *partial, unsigned int *counter, double init, double *out)
{
    __shared__ bool last;
    double s = block_sum(v);
    if (threadIdx.x == 0) {
        partial[blockIdx.x] = s;
        __threadfence(); /* the partial is visible before the count says so */
        unsigned int done = atomicAdd(counter, 1u);
        last = done == gridDim.x - 1;
    }
    __syncthreads();
    if (last) {
        __threadfence();
        const volatile double *p = partial;
        double a = 0.0;
        for (unsigned int b = threadIdx.x; b < gridDim.x; b += blockDim.x)
            a += p[b];
        a = block_sum(a);
        if (threadIdx.x == 0) {
            *out = init + a;
            *counter = 0;
        }
    }
}

/* out[row] = (row % init_mod) + sum of x[row * len .. row * len + len). */
__global__ void __launch_bounds__(BLOCK) row_sums(const double *__restrict__ x, long len, double *partial,
                                                  unsigned int *counters, double *out, int init_mod)
{
    int row = blockIdx.y;
    const double *xr = x + (long)row * len;
    long tid = (long)blockIdx.x * blockDim.x + threadIdx.x, stride = (long)gridDim.x * blockDim.x;
    double s0 = 0.0, s1 = 0.0;
    if ((len & 1) == 0) { /* rows start 16-byte aligned */
        const double2 *x2 = reinterpret_cast<const double2 *>(xr);
        long len2 = len / 2;
        for (long p = tid; p < len2; p += stride) {
            double2 v = __ldg(&x2[p]);
            s0 += v.x;
            s1 += v.y;
        }
    } else {
        for (long e = tid; e < len; e += stride)
            s0 += __ldg(&xr[e]);
    }
    finish_row(s0 + s1, partial + (long)row * gridDim.x, counters + row, (double)(row % init_mod), out + row);
}

/* t = x over rows of len (even) elements; out[row] = (row % init_mod) + the sum
 * of the row's elements whose index is a multiple of step (a power of two >= 2). */
__global__ void __launch_bounds__(BLOCK) copy_strided_sums(const double *__restrict__ x, double *__restrict__ t,
                                                           long len, int step, double *partial,
                                                           unsigned int *counters, double *out, int init_mod)
{
    int row = blockIdx.y;
    const double2 *x2 = reinterpret_cast<const double2 *>(x + (long)row * len);
    double2 *t2 = reinterpret_cast<double2 *>(t + (long)row * len);
    long tid = (long)blockIdx.x * blockDim.x + threadIdx.x, stride = (long)gridDim.x * blockDim.x;
    long len2 = len / 2, mask = step / 2 - 1;
    double s = 0.0;
    for (long p = tid; p < len2; p += stride) {
        double2 v = __ldg(&x2[p]);
        __stcs(&t2[p], v); /* streaming store: t is not read again */
        if ((p & mask) == 0)
            s += v.x;
    }
    finish_row(s, partial + (long)row * gridDim.x, counters + row, (double)(row % init_mod), out + row);
}

static double kahan(const double *x, long start, long count, long stride)
{
    double s = 0.0, c = 0.0;
    for (long e = 0; e < count; e++) {
        double y = x[start + e * stride] - c;
        double u = s + y;
        c = (u - s) - y;
        s = u;
    }
    return s;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1 << 20;
    if (n < 1 || n > (1 << 25)) {
        fprintf(stderr, "usage: %s [n (1..2^25)]\n", argv[0]);
        return 1;
    }
    long m = 64L * n;
    snprintf(sizes[0], sizeof sizes[0], "%dx%dx%d", n, SMALL, WIDE);
    snprintf(sizes[1], sizeof sizes[1], "%dx%dx%d", SMALL, n, WIDE);
    snprintf(sizes[2], sizeof sizes[2], "%dx%dx%d", SMALL, WIDE, n);
    snprintf(sizes[3], sizeof sizes[3], "%s", sizes[0]);
    snprintf(sizes[4], sizeof sizes[4], "%s", sizes[1]);
    snprintf(sizes[5], sizeof sizes[5], "%s", sizes[0]);
    snprintf(sizes[6], sizeof sizes[6], "%ld", m);

    double *x = (double *)malloc((size_t)m * sizeof(double));
    double *t = (double *)malloc((size_t)m * sizeof(double));
    int warmup = bench_warmup(), reps = bench_reps();
    double *times = (double *)malloc((size_t)NCASES * reps * sizeof(double));
    if (!x || !t || !times) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    for (long e = 0; e < m; e++)
        x[e] = bench_rand(e, 11) - 0.25;

    int dev, sms, maxthr;
    CK(cudaGetDevice(&dev));
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    CK(cudaDeviceGetAttribute(&maxthr, cudaDevAttrMaxThreadsPerMultiProcessor, dev));
    long full = (long)sms * (maxthr / BLOCK); /* resident blocks of the whole device */

    double *dx, *dt, *dpartial, *dout;
    unsigned int *dcounters;
    CK(cudaMalloc(&dx, (size_t)m * sizeof(double)));
    CK(cudaMalloc(&dt, (size_t)m * sizeof(double)));
    CK(cudaMalloc(&dpartial, (size_t)(full + MAXROWS) * sizeof(double)));
    CK(cudaMalloc(&dout, MAXROWS * sizeof(double)));
    CK(cudaMalloc(&dcounters, MAXROWS * sizeof(unsigned int)));
    CK(cudaMemset(dcounters, 0, MAXROWS * sizeof(unsigned int)));
    CK(cudaMemcpy(dx, x, (size_t)m * sizeof(double), cudaMemcpyHostToDevice));

    /* Per case: rows, row length, init_mod, the copy's step (0: no copy). */
    static const int rows_of[NCASES] = {1, SMALL, SMALL * WIDE, 1, SMALL, 1, 1};
    static const int init_of[NCASES] = {1, SMALL, WIDE, 1, SMALL, 1, 1};
    static const int step_of[NCASES] = {SMALL * WIDE, WIDE, 0, WIDE, 0, 0, 0};
    double res[NCASES][MAXROWS];
    int copy_ok[NCASES] = {1, 1, 1, 1, 1, 1, 1};

    for (int c = 0; c < NCASES; c++) {
        int rows = rows_of[c];
        long len = m / rows;
        long want = (len / 2 + BLOCK - 1) / BLOCK; /* blocks one row can use */
        long per_row = full / rows;
        if (per_row > want)
            per_row = want;
        if (per_row < 1)
            per_row = 1;
        dim3 grid((unsigned)per_row, (unsigned)rows);
        if (step_of[c])
            CK(cudaMemset(dt, 0xff, (size_t)m * sizeof(double))); /* NaN: unwritten elements show */
        for (int r = -warmup; r < reps; r++) {
            double t0 = bench_now();
            if (step_of[c])
                copy_strided_sums<<<grid, BLOCK>>>(dx, dt, len, step_of[c], dpartial, dcounters, dout,
                                                   init_of[c]);
            else
                row_sums<<<grid, BLOCK>>>(dx, len, dpartial, dcounters, dout, init_of[c]);
            CK(cudaGetLastError());
            if (rows == 1)
                CK(cudaMemcpy(res[c], dout, sizeof(double), cudaMemcpyDeviceToHost));
            else
                CK(cudaDeviceSynchronize());
            double t1 = bench_now();
            if (r >= 0)
                times[c * reps + r] = t1 - t0;
        }
        CK(cudaMemcpy(res[c], dout, rows * sizeof(double), cudaMemcpyDeviceToHost));
        if (step_of[c]) {
            CK(cudaMemcpy(t, dt, (size_t)m * sizeof(double), cudaMemcpyDeviceToHost));
            for (long e = 0; e < m && copy_ok[c]; e++)
                if (!(t[e] == x[e])) {
                    fprintf(stderr, "%s: t[%ld] = %.17g, want %.17g\n", names[c], e, t[e], x[e]);
                    copy_ok[c] = 0;
                }
        }
    }
    CK(cudaFree(dx));
    CK(cudaFree(dt));
    CK(cudaFree(dpartial));
    CK(cudaFree(dout));
    CK(cudaFree(dcounters));

    int pass[NCASES];
    pass[0] = copy_ok[0] && bench_close(res[0][0], kahan(x, 0, n, SMALL * WIDE), 1e-10);
    pass[1] = copy_ok[1];
    pass[4] = 1;
    for (int k = 0; k < SMALL; k++) {
        pass[1] &= bench_close(res[1][k], k + kahan(x, (long)k * n * WIDE, n, WIDE), 1e-10);
        pass[4] &= bench_close(res[4][k], k + kahan(x, (long)k * n * WIDE, (long)n * WIDE, 1), 1e-10);
    }
    pass[2] = 1;
    for (int k = 0; k < SMALL; k++)
        for (int j = 0; j < WIDE; j++)
            pass[2] &= bench_close(res[2][k * WIDE + j], j + kahan(x, ((long)k * WIDE + j) * n, n, 1), 1e-10);
    pass[3] = copy_ok[3] && bench_close(res[3][0], kahan(x, 0, (long)n * SMALL, WIDE), 1e-10);
    double all = kahan(x, 0, m, 1);
    pass[5] = bench_close(res[5][0], all, 1e-10);
    pass[6] = bench_close(res[6][0], all, 1e-10);
    for (int c = 0; c < NCASES; c++) {
        if (!pass[c])
            fprintf(stderr, "reductions.cu: %s: wrong result\n", names[c]);
        double sec = bench_median(times + (size_t)c * reps, reps);
        double bytes = (step_of[c] ? 16.0 : 8.0) * (double)m;
        bench_report(names[c], sizes[c], sec, bytes / sec * 1e-9, "GB/s", pass[c]);
    }
    free(x);
    free(t);
    free(times);
    return 0;
}
