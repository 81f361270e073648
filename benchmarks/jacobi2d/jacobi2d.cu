/* jacobi2d.cu — hand-written CUDA reference for jacobi2d.c: 2-D Jacobi relaxation
 * (5-point stencil) on an (n+2) x (n+2) double grid with fixed boundary values
 * (n = argv[1], default 4096), 100 iterations per repetition from the same initial
 * grid (an untimed device-to-device copy restores it). Each iteration is the same
 * two steps as the OpenACC version (stencil into Anew, copy Anew back into A), so the
 * traffic counted is the same: 4 x 8 bytes x n^2 per iteration. 2-D thread blocks of
 * 32 x 8 (a warp reads 32 consecutive doubles of a row; the row above and below come
 * from L1/L2). Same inputs, timing, verification and RESULT line (jacobi2d, GB/s). */
#include <cuda_runtime.h>
#include "../common/bench.h"

#define ITERS 100

static char size_str[32];

static void fail(const char *what, cudaError_t e)
{
    fprintf(stderr, "jacobi2d.cu: %s: %s\n", what, cudaGetErrorString(e));
    bench_report("jacobi2d", size_str, 0.0, 0.0, "GB/s", 0);
    exit(0);
}
#define CK(call)                                                                                   \
    do {                                                                                           \
        cudaError_t e_ = (call);                                                                   \
        if (e_ != cudaSuccess)                                                                     \
            fail(#call, e_);                                                                       \
    } while (0)

__global__ void stencil(const double *__restrict__ A, double *__restrict__ Anew, int n, int m)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x + 1;
    int j = blockIdx.y * blockDim.y + threadIdx.y + 1;
    if (i <= n && j <= n) {
        size_t k = (size_t)j * m + i;
        Anew[k] = 0.25 * (A[k + 1] + A[k - 1] + A[k - m] + A[k + m]);
    }
}

__global__ void copy_back(double *__restrict__ A, const double *__restrict__ Anew, int n, int m)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x + 1;
    int j = blockIdx.y * blockDim.y + threadIdx.y + 1;
    if (i <= n && j <= n) {
        size_t k = (size_t)j * m + i;
        A[k] = Anew[k];
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 4096;
    if (n < 1) {
        fprintf(stderr, "usage: %s [n]\n", argv[0]);
        return 1;
    }
    snprintf(size_str, sizeof size_str, "%d", n);
    int m = n + 2;
    size_t size = (size_t)m * m, bytes = size * sizeof(double);
    double *A0 = (double *)malloc(bytes), *A = (double *)malloc(bytes);
    int warmup = bench_warmup(), reps = bench_reps();
    double *t = (double *)malloc((size_t)reps * sizeof(double));
    if (!A0 || !A || !t) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    for (int j = 0; j < m; j++) {
        for (int i = 0; i < m; i++) {
            double v;
            if (j == 0)
                v = 1.0;
            else if (j == m - 1)
                v = 0.0;
            else if (i == 0 || i == m - 1)
                v = 1.0 - (double)j / (m - 1);
            else
                v = 0.5 * bench_rand((unsigned long long)j * m + i, 21);
            A0[(size_t)j * m + i] = v;
        }
    }

    double *dA0, *dA, *dAnew;
    CK(cudaMalloc(&dA0, bytes));
    CK(cudaMalloc(&dA, bytes));
    CK(cudaMalloc(&dAnew, bytes));
    CK(cudaMemcpy(dA0, A0, bytes, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dAnew, A0, bytes, cudaMemcpyHostToDevice)); /* Anew's boundary */

    dim3 block(32, 8);
    dim3 grid((n + block.x - 1) / block.x, (n + block.y - 1) / block.y);
    for (int r = -warmup; r < reps; r++) {
        CK(cudaMemcpy(dA, dA0, bytes, cudaMemcpyDeviceToDevice));
        CK(cudaDeviceSynchronize());
        double t0 = bench_now();
        for (int iter = 0; iter < ITERS; iter++) {
            stencil<<<grid, block>>>(dA, dAnew, n, m);
            CK(cudaGetLastError());
            copy_back<<<grid, block>>>(dA, dAnew, n, m);
            CK(cudaGetLastError());
        }
        CK(cudaDeviceSynchronize());
        double t1 = bench_now();
        if (r >= 0)
            t[r] = t1 - t0;
    }
    CK(cudaMemcpy(A, dA, bytes, cudaMemcpyDeviceToHost));
    CK(cudaFree(dA0));
    CK(cudaFree(dA));
    CK(cudaFree(dAnew));

    double *R = (double *)malloc(bytes), *Rnew = (double *)malloc(bytes);
    if (!R || !Rnew) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    memcpy(R, A0, bytes);
    memcpy(Rnew, A0, bytes);
    for (int iter = 0; iter < ITERS; iter++) {
        for (int j = 1; j <= n; j++)
            for (int i = 1; i <= n; i++) {
                size_t k = (size_t)j * m + i;
                Rnew[k] = 0.25 * (R[k + 1] + R[k - 1] + R[k - m] + R[k + m]);
            }
        double *s = R;
        R = Rnew;
        Rnew = s;
    }
    int pass = 1;
    for (size_t k = 0; k < size && pass; k++) {
        if (!bench_close(A[k], R[k], 1e-12)) {
            fprintf(stderr, "jacobi2d.cu: point (%zu, %zu) = %.17g, want %.17g\n", k / m, k % m, A[k], R[k]);
            pass = 0;
        }
    }
    double sec = bench_median(t, reps);
    bench_report("jacobi2d", size_str, sec, 4.0 * 8.0 * (double)n * n * ITERS / sec * 1e-9, "GB/s", pass);
    free(A0);
    free(A);
    free(R);
    free(Rnew);
    free(t);
    return 0;
}
