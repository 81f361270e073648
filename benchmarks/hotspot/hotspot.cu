/* hotspot.cu — hand-written CUDA reference for benchmarks/hotspot/hotspot.c
 * (Rodinia "hotspot": 2-D transient thermal simulation; see hotspot.c for the
 * model, the constants, the sizes and the rate).
 *
 * Temporal blocking ("pyramid"): a 32 x 32 thread block loads a 32 x 32 tile of
 * temperatures (its 28 x 28 output cells plus a halo of PYRAMID cells) into
 * shared memory, advances it PYRAMID steps there (the valid region shrinks by
 * one cell per step) and writes the inner cells. One launch does PYRAMID steps,
 * so global memory is read and written once per PYRAMID steps; the extra halo
 * work is the price. The rate counts the same bytes as hotspot.c (3 arrays per
 * step), so it can exceed the copy bandwidth.
 *
 * Usage: hotspot [n [steps]]   default 4096, 20 steps per repetition.
 */
#include <cmath>
#include <cuda_runtime.h>
#include "../common/bench.h"

#ifndef PYRAMID
#define PYRAMID 2 /* steps per launch (halo width); -DPYRAMID=k to change */
#endif
#define BS 32 /* tile edge = block edge */

#define MAX_PD 3.0e6
#define PRECISION 0.001
#define SPEC_HEAT_SI 1.75e6
#define K_SI 100.0
#define FACTOR_CHIP 0.5
#define T_CHIP 0.0005
#define CHIP_HEIGHT 0.016
#define CHIP_WIDTH 0.016
#define AMB_TEMP 80.0

#define CK(call)                                                                              \
    do {                                                                                      \
        cudaError_t e_ = (call);                                                              \
        if (e_ != cudaSuccess) {                                                              \
            fprintf(stderr, "hotspot: %s: %s (%s:%d)\n", #call, cudaGetErrorString(e_),       \
                    __FILE__, __LINE__);                                                      \
            fail();                                                                           \
        }                                                                                     \
    } while (0)

static char g_size[64] = "?";
static void fail(void)
{
    bench_report("hotspot", g_size, 0.0, 0.0, "GB/s", 0);
    exit(0);
}

/* k steps (k <= PYRAMID) of the tile at block (x, y); halo width k. */
__global__ void __launch_bounds__(BS * BS)
hotspot_pyramid(float *__restrict__ dst, const float *__restrict__ src, const float *__restrict__ power,
                int n, int k, float cap1, float rx1, float ry1, float rz1, float amb)
{
    __shared__ float tile[2][BS][BS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int stride = BS - 2 * k;
    int gx = blockIdx.x * stride + tx - k; /* column */
    int gy = blockIdx.y * stride + ty - k; /* row */
    bool inside = gx >= 0 && gx < n && gy >= 0 && gy < n;
    size_t c = (size_t)gy * n + gx;
    float p = 0.0f, t = 0.0f;
    if (inside) {
        t = src[c];
        p = power[c];
    }
    tile[0][ty][tx] = t;
    __syncthreads();
    int cur = 0;
    for (int s = 0; s < k; s++) {
        /* A neighbour off the chip is the cell itself; one off the tile is never
         * needed by a cell that is still valid after this step. */
        float tc = tile[cur][ty][tx];
        float tn = (gy > 0 && ty > 0) ? tile[cur][ty - 1][tx] : tc;
        float ts = (gy < n - 1 && ty < BS - 1) ? tile[cur][ty + 1][tx] : tc;
        float tw = (gx > 0 && tx > 0) ? tile[cur][ty][tx - 1] : tc;
        float te = (gx < n - 1 && tx < BS - 1) ? tile[cur][ty][tx + 1] : tc;
        tile[cur ^ 1][ty][tx] =
            tc + cap1 * (p + (tn + ts - 2.0f * tc) * ry1 + (te + tw - 2.0f * tc) * rx1 + (amb - tc) * rz1);
        cur ^= 1;
        __syncthreads();
    }
    if (inside && tx >= k && tx < BS - k && ty >= k && ty < BS - k)
        dst[c] = tile[cur][ty][tx];
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 4096;
    int steps = argc > 2 ? atoi(argv[2]) : 20;
    if (n < 2 || n > 46340 || steps < 1) {
        fprintf(stderr, "usage: hotspot [n (2..46340) [steps]]\n");
        return 1;
    }
    steps += steps % 2; /* as hotspot.c */
    size_t nn = (size_t)n * n;
    snprintf(g_size, sizeof g_size, "%dx%d,%dsteps", n, n, steps);

    double gw = CHIP_WIDTH / n, gh = CHIP_HEIGHT / n;
    double cap = FACTOR_CHIP * SPEC_HEAT_SI * T_CHIP * gw * gh;
    double rx = gw / (2.0 * K_SI * T_CHIP * gh);
    double ry = gh / (2.0 * K_SI * T_CHIP * gw);
    double rz = T_CHIP / (K_SI * gh * gw);
    double max_slope = MAX_PD / (FACTOR_CHIP * T_CHIP * SPEC_HEAT_SI);
    double dt = PRECISION / max_slope;
    double dt_stable = 0.5 * cap / (2.0 / rx + 2.0 / ry + 1.0 / rz);
    if (dt > dt_stable)
        dt = dt_stable;
    double cap1_d = dt / cap, rx1_d = 1.0 / rx, ry1_d = 1.0 / ry, rz1_d = 1.0 / rz;
    float cap1 = (float)cap1_d, rx1 = (float)rx1_d, ry1 = (float)ry1_d, rz1 = (float)rz1_d;
    float amb = (float)AMB_TEMP;

    float *t0 = (float *)malloc(nn * sizeof(float));
    float *power = (float *)malloc(nn * sizeof(float));
    float *t = (float *)malloc(nn * sizeof(float));
    if (!t0 || !power || !t) {
        fprintf(stderr, "hotspot: out of memory\n");
        return 1;
    }
    for (size_t i = 0; i < nn; i++) {
        t0[i] = (float)(320.0 + 20.0 * bench_rand(i, 1));
        power[i] = (float)(0.01 * bench_rand(i, 2));
    }

    float *d_t0, *d_p, *d_a, *d_b;
    CK(cudaMalloc(&d_t0, nn * sizeof(float)));
    CK(cudaMalloc(&d_p, nn * sizeof(float)));
    CK(cudaMalloc(&d_a, nn * sizeof(float)));
    CK(cudaMalloc(&d_b, nn * sizeof(float)));
    CK(cudaMemcpy(d_t0, t0, nn * sizeof(float), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_p, power, nn * sizeof(float), cudaMemcpyHostToDevice));

    int warmup = bench_warmup(), reps = bench_reps();
    double *times = (double *)malloc((size_t)reps * sizeof(double));
    float *result = d_a;
    for (int r = 0; r < warmup + reps; r++) {
        CK(cudaMemcpy(d_a, d_t0, nn * sizeof(float), cudaMemcpyDeviceToDevice));
        CK(cudaDeviceSynchronize());
        double start = bench_now();
        float *src = d_a, *dst = d_b;
        for (int s = 0; s < steps; s += PYRAMID) {
            int k = steps - s < PYRAMID ? steps - s : PYRAMID;
            int stride = BS - 2 * k;
            dim3 grid((n + stride - 1) / stride, (n + stride - 1) / stride), block(BS, BS);
            hotspot_pyramid<<<grid, block>>>(dst, src, d_p, n, k, cap1, rx1, ry1, rz1, amb);
            CK(cudaGetLastError());
            float *sw = src;
            src = dst;
            dst = sw;
        }
        CK(cudaDeviceSynchronize());
        double end = bench_now();
        result = src;
        if (r >= warmup)
            times[r - warmup] = end - start;
    }
    CK(cudaMemcpy(t, result, nn * sizeof(float), cudaMemcpyDeviceToHost));

    /* Serial reference in double precision (as hotspot.c). */
    double *ref = (double *)malloc(nn * sizeof(double));
    double *ref2 = (double *)malloc(nn * sizeof(double));
    for (size_t i = 0; i < nn; i++)
        ref[i] = t0[i];
    for (int s = 0; s < steps; s++) {
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                size_t c = (size_t)i * n + j;
                double tc = ref[c];
                double tn = i > 0 ? ref[c - n] : tc;
                double ts = i < n - 1 ? ref[c + n] : tc;
                double tw = j > 0 ? ref[c - 1] : tc;
                double te = j < n - 1 ? ref[c + 1] : tc;
                ref2[c] = tc + cap1_d * ((double)power[c] + (tn + ts - 2.0 * tc) * ry1_d +
                                         (te + tw - 2.0 * tc) * rx1_d + (AMB_TEMP - tc) * rz1_d);
            }
        }
        double *sw = ref;
        ref = ref2;
        ref2 = sw;
    }
    int pass = 1;
    for (size_t i = 0; i < nn; i++) {
        if (!bench_close(t[i], ref[i], 1e-5)) {
            if (pass)
                fprintf(stderr, "hotspot: mismatch at %zu: %.9g vs %.9g\n", i, t[i], ref[i]);
            pass = 0;
        }
    }

    double sec = bench_median(times, reps);
    double bytes = (double)steps * 3.0 * (double)nn * sizeof(float);
    bench_report("hotspot", g_size, sec, bytes / sec * 1e-9, "GB/s", pass);

    cudaFree(d_t0);
    cudaFree(d_p);
    cudaFree(d_a);
    cudaFree(d_b);
    free(t0);
    free(power);
    free(t);
    free(ref);
    free(ref2);
    free(times);
    return 0;
}
