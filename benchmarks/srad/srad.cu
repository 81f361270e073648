/* srad.cu — hand-written CUDA reference for benchmarks/srad/srad.c (Rodinia
 * "srad": speckle-reducing anisotropic diffusion; see srad.c for the formulas,
 * sizes and the rate).
 *
 * Same result, leaner data flow: the coefficient kernel writes only c (the 4
 * differences are recomputed by the update kernel from J, bit for bit the
 * same), the update writes a second image buffer (ping-pong) and also sums the
 * new image and its squares for the next iteration's statistics (double, warp
 * shuffles, one atomicAdd per block), so only the first iteration has a
 * separate reduction pass and q0^2 never leaves the GPU. Per iteration global
 * memory sees J read twice, c written once and read once, J written once,
 * against the 14 arrays srad.c's passes move (the rate counts those 14, so it
 * can exceed the copy bandwidth). Kernels stride blocks over rows, threads
 * over columns (coalesced); the grid is sized from the SM count and occupancy.
 *
 * Usage: srad [n [iterations]]   default 4096 x 4096, 10 iterations.
 */
#include <cmath>
#include <cuda_runtime.h>
#include "../common/bench.h"

#define LAMBDA 0.5f
#define THREADS 256

#define CK(call)                                                                              \
    do {                                                                                      \
        cudaError_t e_ = (call);                                                              \
        if (e_ != cudaSuccess) {                                                              \
            fprintf(stderr, "srad: %s: %s (%s:%d)\n", #call, cudaGetErrorString(e_), __FILE__, \
                    __LINE__);                                                                \
            fail();                                                                           \
        }                                                                                     \
    } while (0)

static char g_size[64] = "?";
static void fail(void)
{
    bench_report("srad", g_size, 0.0, 0.0, "GB/s", 0);
    exit(0);
}

/* Adds the block's (s, s2) to out[0], out[1]. */
__device__ __forceinline__ void block_sum2(double s, double s2, double *out)
{
    __shared__ double part[2][THREADS / 32];
    for (int o = 16; o > 0; o >>= 1) {
        s += __shfl_down_sync(0xffffffffu, s, o);
        s2 += __shfl_down_sync(0xffffffffu, s2, o);
    }
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    if (lane == 0) {
        part[0][warp] = s;
        part[1][warp] = s2;
    }
    __syncthreads();
    if (warp == 0) {
        s = lane < THREADS / 32 ? part[0][lane] : 0.0;
        s2 = lane < THREADS / 32 ? part[1][lane] : 0.0;
        for (int o = 16; o > 0; o >>= 1) {
            s += __shfl_down_sync(0xffffffffu, s, o);
            s2 += __shfl_down_sync(0xffffffffu, s2, o);
        }
        if (lane == 0) {
            atomicAdd(&out[0], s);
            atomicAdd(&out[1], s2);
        }
    }
}

/* Sum and sum of squares of J (the first iteration's statistics). */
__global__ void __launch_bounds__(THREADS) srad_stats(const float *__restrict__ J, size_t nn, double *out)
{
    double s = 0.0, s2 = 0.0;
    for (size_t k = (size_t)blockIdx.x * THREADS + threadIdx.x; k < nn; k += (size_t)gridDim.x * THREADS) {
        double v = J[k];
        s += v;
        s2 += v * v;
    }
    block_sum2(s, s2, out);
}

/* Diffusion coefficients from J and the statistics stats[0..1]. */
__global__ void __launch_bounds__(THREADS)
srad_coef(const float *__restrict__ J, float *__restrict__ c, int rows, int cols, const double *stats)
{
    double nn = (double)rows * cols;
    double mean = stats[0] / nn;
    double var = stats[1] / nn - mean * mean;
    float q0sqr = (float)(var / (mean * mean));
    float qden = q0sqr * (1.0f + q0sqr);
    for (int i = blockIdx.x; i < rows; i += gridDim.x) {
        const float *r = J + (size_t)i * cols;
        for (int j = threadIdx.x; j < cols; j += THREADS) {
            float jc = r[j];
            float n_ = i > 0 ? r[j - cols] - jc : 0.0f;
            float s_ = i < rows - 1 ? r[j + cols] - jc : 0.0f;
            float w_ = j > 0 ? r[j - 1] - jc : 0.0f;
            float e_ = j < cols - 1 ? r[j + 1] - jc : 0.0f;
            float g2 = (n_ * n_ + s_ * s_ + w_ * w_ + e_ * e_) / (jc * jc);
            float l = (n_ + s_ + w_ + e_) / jc;
            float num = 0.5f * g2 - 0.0625f * l * l;
            float den = 1.0f + 0.25f * l;
            float qsqr = num / (den * den);
            den = (qsqr - q0sqr) / qden;
            float cc = 1.0f / (1.0f + den);
            c[(size_t)i * cols + j] = fminf(fmaxf(cc, 0.0f), 1.0f);
        }
    }
}

/* Jout = J + lambda/4 * div(c grad J); sums Jout and Jout^2 into next[0..1]. */
__global__ void __launch_bounds__(THREADS)
srad_update(const float *__restrict__ J, const float *__restrict__ c, float *__restrict__ Jout, int rows,
            int cols, double *next)
{
    double s = 0.0, s2 = 0.0;
    for (int i = blockIdx.x; i < rows; i += gridDim.x) {
        size_t base = (size_t)i * cols;
        const float *r = J + base, *cr = c + base;
        for (int j = threadIdx.x; j < cols; j += THREADS) {
            float jc = r[j];
            float n_ = i > 0 ? r[j - cols] - jc : 0.0f;
            float s_ = i < rows - 1 ? r[j + cols] - jc : 0.0f;
            float w_ = j > 0 ? r[j - 1] - jc : 0.0f;
            float e_ = j < cols - 1 ? r[j + 1] - jc : 0.0f;
            float cn = cr[j];
            float cs = i < rows - 1 ? cr[j + cols] : cn;
            float ce = j < cols - 1 ? cr[j + 1] : cn;
            float d = cn * n_ + cs * s_ + cn * w_ + ce * e_;
            float v = jc + 0.25f * LAMBDA * d;
            Jout[base + j] = v;
            s += (double)v;
            s2 += (double)v * (double)v;
        }
    }
    block_sum2(s, s2, next);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 4096;
    int iters = argc > 2 ? atoi(argv[2]) : 10;
    if (n < 2 || n > 46340 || iters < 1) {
        fprintf(stderr, "usage: srad [n (2..46340) [iterations]]\n");
        return 1;
    }
    snprintf(g_size, sizeof g_size, "%dx%d,%diters", n, n, iters);
    int rows = n, cols = n;
    size_t nn = (size_t)n * n;

    float *j0 = (float *)malloc(nn * sizeof(float));
    float *J = (float *)malloc(nn * sizeof(float));
    if (!j0 || !J) {
        fprintf(stderr, "srad: out of memory\n");
        return 1;
    }
    for (size_t k = 0; k < nn; k++)
        j0[k] = (float)exp(bench_rand(k, 4));

    int sms = 0, per_sm_stats = 0, per_sm_coef = 0, per_sm_upd = 0;
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm_stats, srad_stats, THREADS, 0));
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm_coef, srad_coef, THREADS, 0));
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm_upd, srad_update, THREADS, 0));
    int g_stats = sms * (per_sm_stats > 0 ? per_sm_stats : 1);
    int g_coef = sms * (per_sm_coef > 0 ? per_sm_coef : 1);
    int g_upd = sms * (per_sm_upd > 0 ? per_sm_upd : 1);
    if (g_coef > rows)
        g_coef = rows;
    if (g_upd > rows)
        g_upd = rows;

    float *d_j0, *d_a, *d_b, *d_c;
    double *d_stats;
    CK(cudaMalloc(&d_j0, nn * sizeof(float)));
    CK(cudaMalloc(&d_a, nn * sizeof(float)));
    CK(cudaMalloc(&d_b, nn * sizeof(float)));
    CK(cudaMalloc(&d_c, nn * sizeof(float)));
    CK(cudaMalloc(&d_stats, (size_t)(iters + 1) * 2 * sizeof(double)));
    CK(cudaMemcpy(d_j0, j0, nn * sizeof(float), cudaMemcpyHostToDevice));

    int warmup = bench_warmup(), reps = bench_reps();
    double *times = (double *)malloc((size_t)reps * sizeof(double));
    float *result = d_a;
    for (int rep = 0; rep < warmup + reps; rep++) {
        CK(cudaMemcpy(d_a, d_j0, nn * sizeof(float), cudaMemcpyDeviceToDevice));
        CK(cudaDeviceSynchronize());
        double start = bench_now();
        CK(cudaMemsetAsync(d_stats, 0, (size_t)(iters + 1) * 2 * sizeof(double)));
        float *cur = d_a, *nxt = d_b;
        srad_stats<<<g_stats, THREADS>>>(cur, nn, d_stats);
        CK(cudaGetLastError());
        for (int it = 0; it < iters; it++) {
            srad_coef<<<g_coef, THREADS>>>(cur, d_c, rows, cols, d_stats + 2 * it);
            CK(cudaGetLastError());
            srad_update<<<g_upd, THREADS>>>(cur, d_c, nxt, rows, cols, d_stats + 2 * (it + 1));
            CK(cudaGetLastError());
            float *sw = cur;
            cur = nxt;
            nxt = sw;
        }
        CK(cudaDeviceSynchronize());
        double end = bench_now();
        result = cur;
        if (rep >= warmup)
            times[rep - warmup] = end - start;
    }
    CK(cudaMemcpy(J, result, nn * sizeof(float), cudaMemcpyDeviceToHost));

    /* Serial reference in double precision (as srad.c). */
    double *rj = (double *)malloc(nn * sizeof(double));
    double *rc = (double *)malloc(nn * sizeof(double));
    double *rn = (double *)malloc(nn * sizeof(double));
    double *rs = (double *)malloc(nn * sizeof(double));
    double *rw = (double *)malloc(nn * sizeof(double));
    double *re = (double *)malloc(nn * sizeof(double));
    for (size_t k = 0; k < nn; k++)
        rj[k] = j0[k];
    for (int it = 0; it < iters; it++) {
        double sum = 0.0, sum2 = 0.0;
        for (size_t k = 0; k < nn; k++) {
            sum += rj[k];
            sum2 += rj[k] * rj[k];
        }
        double mean = sum / (double)nn;
        double var = sum2 / (double)nn - mean * mean;
        double q0sqr = var / (mean * mean);
        for (int i = 0; i < rows; i++) {
            for (int j = 0; j < cols; j++) {
                size_t k = (size_t)i * cols + j;
                double jc = rj[k];
                double n_ = i > 0 ? rj[k - cols] - jc : 0.0;
                double s_ = i < rows - 1 ? rj[k + cols] - jc : 0.0;
                double w_ = j > 0 ? rj[k - 1] - jc : 0.0;
                double e_ = j < cols - 1 ? rj[k + 1] - jc : 0.0;
                double g2 = (n_ * n_ + s_ * s_ + w_ * w_ + e_ * e_) / (jc * jc);
                double l = (n_ + s_ + w_ + e_) / jc;
                double num = 0.5 * g2 - 0.0625 * l * l;
                double den = 1.0 + 0.25 * l;
                double qsqr = num / (den * den);
                den = (qsqr - q0sqr) / (q0sqr * (1.0 + q0sqr));
                double cc = 1.0 / (1.0 + den);
                rc[k] = cc < 0.0 ? 0.0 : cc > 1.0 ? 1.0 : cc;
                rn[k] = n_;
                rs[k] = s_;
                rw[k] = w_;
                re[k] = e_;
            }
        }
        for (int i = 0; i < rows; i++) {
            for (int j = 0; j < cols; j++) {
                size_t k = (size_t)i * cols + j;
                double cs = i < rows - 1 ? rc[k + cols] : rc[k];
                double ce = j < cols - 1 ? rc[k + 1] : rc[k];
                rj[k] += 0.25 * LAMBDA * (rc[k] * rn[k] + cs * rs[k] + rc[k] * rw[k] + ce * re[k]);
            }
        }
    }
    int pass = 1;
    for (size_t k = 0; k < nn; k++) {
        if (!bench_close(J[k], rj[k], 1e-4)) {
            if (pass)
                fprintf(stderr, "srad: mismatch at %zu: %.9g vs %.9g\n", k, J[k], rj[k]);
            pass = 0;
        }
    }

    double sec = bench_median(times, reps);
    double bytes = (double)iters * 14.0 * (double)nn * sizeof(float);
    bench_report("srad", g_size, sec, bytes / sec * 1e-9, "GB/s", pass);

    cudaFree(d_j0);
    cudaFree(d_a);
    cudaFree(d_b);
    cudaFree(d_c);
    cudaFree(d_stats);
    free(j0);
    free(J);
    free(rj);
    free(rc);
    free(rn);
    free(rs);
    free(rw);
    free(re);
    free(times);
    return 0;
}
