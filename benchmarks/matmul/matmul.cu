/* matmul.cu — hand-written CUDA reference for matmul.c: single-precision C = A * B,
 * square n x n (argv[1], default 1024; runs also 4096), flat row-major float arrays.
 * The classic register-blocked shared-memory SGEMM (FP32 CUDA cores, no tensor cores,
 * no cuBLAS): a 256-thread block computes a 128 x 128 tile of C, staging 128 x 8 tiles
 * of A (transposed) and 8 x 128 tiles of B in shared memory with float4 loads, each
 * thread accumulating an 8 x 8 sub-tile in registers. Sizes that are not a multiple
 * of 128 use a plain 16 x 16 shared-memory tiled kernel. Same inputs, timing,
 * verification (64 sampled entries in double) and RESULT line (matmul_<n>,
 * GFLOP/s = 2 n^3 / time) as the OpenACC version. */
#include <cuda_runtime.h>
#include "../common/bench.h"

static char name_str[32], size_str[32];

static void fail(const char *what, cudaError_t e)
{
    fprintf(stderr, "matmul.cu: %s: %s\n", what, cudaGetErrorString(e));
    bench_report(name_str, size_str, 0.0, 0.0, "GFLOP/s", 0);
    exit(0);
}
#define CK(call)                                                                                   \
    do {                                                                                           \
        cudaError_t e_ = (call);                                                                   \
        if (e_ != cudaSuccess)                                                                     \
            fail(#call, e_);                                                                       \
    } while (0)

#define BM 128
#define BN 128
#define BK 8
#define TM 8
#define TN 8
#define THREADS 256 /* (BM / TM) * (BN / TN) */

/* Requires n % 128 == 0 (so every float4 access is aligned and in bounds). */
__global__ void __launch_bounds__(THREADS) sgemm_128x128(const float *__restrict__ A,
                                                         const float *__restrict__ B,
                                                         float *__restrict__ C, int n)
{
    __shared__ __align__(16) float As[BK][BM]; /* A tile, transposed: As[k][row] */
    __shared__ __align__(16) float Bs[BK][BN];
    const int tid = threadIdx.x;
    const int tx = tid % (BN / TN), ty = tid / (BN / TN);
    const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    /* Load assignments: A tile 128 rows x 8 cols = 2 float4 per row; B tile 8 rows x 128
     * cols = 32 float4 per row. One float4 of each per thread. */
    const int a_row = tid / 2, a_col = (tid % 2) * 4;
    const int b_row = tid / 32, b_col = (tid % 32) * 4;
    const float *Ap = A + (size_t)(row0 + a_row) * n + a_col;
    const float *Bp = B + (size_t)b_row * n + col0 + b_col;

    float acc[TM][TN];
#pragma unroll
    for (int m = 0; m < TM; m++)
#pragma unroll
        for (int j = 0; j < TN; j++)
            acc[m][j] = 0.0f;

    for (int k0 = 0; k0 < n; k0 += BK) {
        float4 av = *reinterpret_cast<const float4 *>(Ap + k0);
        float4 bv = *reinterpret_cast<const float4 *>(Bp + (size_t)k0 * n);
        As[a_col + 0][a_row] = av.x;
        As[a_col + 1][a_row] = av.y;
        As[a_col + 2][a_row] = av.z;
        As[a_col + 3][a_row] = av.w;
        *reinterpret_cast<float4 *>(&Bs[b_row][b_col]) = bv;
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < BK; kk++) {
            float ra[TM], rb[TN];
            float4 t0 = *reinterpret_cast<const float4 *>(&As[kk][ty * TM]);
            float4 t1 = *reinterpret_cast<const float4 *>(&As[kk][ty * TM + 4]);
            float4 u0 = *reinterpret_cast<const float4 *>(&Bs[kk][tx * 4]);
            float4 u1 = *reinterpret_cast<const float4 *>(&Bs[kk][tx * 4 + BN / 2]);
            ra[0] = t0.x, ra[1] = t0.y, ra[2] = t0.z, ra[3] = t0.w;
            ra[4] = t1.x, ra[5] = t1.y, ra[6] = t1.z, ra[7] = t1.w;
            rb[0] = u0.x, rb[1] = u0.y, rb[2] = u0.z, rb[3] = u0.w;
            rb[4] = u1.x, rb[5] = u1.y, rb[6] = u1.z, rb[7] = u1.w;
#pragma unroll
            for (int m = 0; m < TM; m++)
#pragma unroll
                for (int j = 0; j < TN; j++)
                    acc[m][j] = fmaf(ra[m], rb[j], acc[m][j]);
        }
        __syncthreads();
    }
    /* Thread (ty, tx) owns rows row0 + ty*8 .. +7 and the two column groups
     * col0 + tx*4 .. +3 and col0 + 64 + tx*4 .. +3 (conflict-free shared reads). */
#pragma unroll
    for (int m = 0; m < TM; m++) {
        float *Cp = C + (size_t)(row0 + ty * TM + m) * n + col0 + tx * 4;
        *reinterpret_cast<float4 *>(Cp) = make_float4(acc[m][0], acc[m][1], acc[m][2], acc[m][3]);
        *reinterpret_cast<float4 *>(Cp + BN / 2) =
            make_float4(acc[m][4], acc[m][5], acc[m][6], acc[m][7]);
    }
}

/* Any n: 16 x 16 tiles. */
#define TS 16
__global__ void sgemm_tiled16(const float *__restrict__ A, const float *__restrict__ B,
                              float *__restrict__ C, int n)
{
    __shared__ float As[TS][TS], Bs[TS][TS + 1];
    int row = blockIdx.y * TS + threadIdx.y, col = blockIdx.x * TS + threadIdx.x;
    float sum = 0.0f;
    for (int k0 = 0; k0 < n; k0 += TS) {
        int ka = k0 + threadIdx.x, kb = k0 + threadIdx.y;
        As[threadIdx.y][threadIdx.x] = row < n && ka < n ? A[(size_t)row * n + ka] : 0.0f;
        Bs[threadIdx.y][threadIdx.x] = kb < n && col < n ? B[(size_t)kb * n + col] : 0.0f;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TS; k++)
            sum = fmaf(As[threadIdx.y][k], Bs[k][threadIdx.x], sum);
        __syncthreads();
    }
    if (row < n && col < n)
        C[(size_t)row * n + col] = sum;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1024;
    if (n < 1) {
        fprintf(stderr, "usage: %s [n]\n", argv[0]);
        return 1;
    }
    snprintf(name_str, sizeof name_str, "matmul_%d", n);
    snprintf(size_str, sizeof size_str, "%d", n);
    size_t nn = (size_t)n * n, bytes = nn * sizeof(float);
    float *a = (float *)malloc(bytes), *b = (float *)malloc(bytes), *c = (float *)malloc(bytes);
    int warmup = bench_warmup(), reps = bench_reps();
    double *t = (double *)malloc((size_t)reps * sizeof(double));
    if (!a || !b || !c || !t) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    for (size_t i = 0; i < nn; i++) {
        a[i] = (float)bench_rand(i, 11);
        b[i] = (float)bench_rand(i, 12);
    }

    float *da, *db, *dc;
    CK(cudaMalloc(&da, bytes));
    CK(cudaMalloc(&db, bytes));
    CK(cudaMalloc(&dc, bytes));
    CK(cudaMemcpy(da, a, bytes, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(db, b, bytes, cudaMemcpyHostToDevice));

    const bool big = n % BM == 0;
    for (int r = -warmup; r < reps; r++) {
        double t0 = bench_now();
        if (big) {
            sgemm_128x128<<<dim3(n / BN, n / BM), THREADS>>>(da, db, dc, n);
        } else {
            sgemm_tiled16<<<dim3((n + TS - 1) / TS, (n + TS - 1) / TS), dim3(TS, TS)>>>(da, db, dc, n);
        }
        CK(cudaGetLastError());
        CK(cudaDeviceSynchronize());
        double t1 = bench_now();
        if (r >= 0)
            t[r] = t1 - t0;
    }
    CK(cudaMemcpy(c, dc, bytes, cudaMemcpyDeviceToHost));
    CK(cudaFree(da));
    CK(cudaFree(db));
    CK(cudaFree(dc));

    int pass = 1;
    for (int s = 0; s < 64; s++) {
        int i = (int)(bench_rand(s, 13) * n), j = (int)(bench_rand(s, 14) * n);
        double ref = 0.0;
        for (int k = 0; k < n; k++)
            ref += (double)a[(size_t)i * n + k] * (double)b[(size_t)k * n + j];
        if (!bench_close(c[(size_t)i * n + j], ref, 1e-4)) {
            fprintf(stderr, "matmul.cu: C[%d][%d] = %.9g, want %.9g\n", i, j, c[(size_t)i * n + j], ref);
            pass = 0;
        }
    }
    double sec = bench_median(t, reps);
    bench_report(name_str, size_str, sec, 2.0 * (double)n * n * n / sec * 1e-9, "GFLOP/s", pass);
    free(a);
    free(b);
    free(c);
    free(t);
    return 0;
}
