/* nbody.cu — hand-written CUDA reference for nbody.c: all-pairs gravitational N-body,
 * single precision, N bodies (argv[1], default 32768), one time step per repetition
 * (kick and drift with the current accelerations, then the accelerations at the new
 * positions, Plummer softening eps^2 = 1e-4). Bodies are kept as float4 (x, y, z, m).
 * The force kernel: a block of 256 threads serves 64 bodies, 4 threads per body each
 * summing a quarter of the j range (so that N = 32768 still gives ~30 warps per SM);
 * each group of 64 threads stages 64 bodies of its quarter in shared memory per step
 * (broadcast reads), rsqrtf for the inverse distance, the 4 partial sums combined in
 * shared memory. Same inputs, timing, verification (64 sampled bodies in double) and
 * RESULT line (nbody, GFLOP/s = 20 flops per interaction x N^2 / time). */
#include <math.h>
#include <cuda_runtime.h>
#include "../common/bench.h"

#define SOFTENING2 1e-4f
#define DT 1e-4f
#define BODIES 64 /* bodies per block (threadIdx.x) */
#define SLICES 4  /* threads per body (threadIdx.y), each a quarter of the j range */

static char size_str[32];

static void fail(const char *what, cudaError_t e)
{
    fprintf(stderr, "nbody.cu: %s: %s\n", what, cudaGetErrorString(e));
    bench_report("nbody", size_str, 0.0, 0.0, "GFLOP/s", 0);
    exit(0);
}
#define CK(call)                                                                                   \
    do {                                                                                           \
        cudaError_t e_ = (call);                                                                   \
        if (e_ != cudaSuccess)                                                                     \
            fail(#call, e_);                                                                       \
    } while (0)

__global__ void kick_drift(float4 *__restrict__ pos, float4 *__restrict__ vel,
                           const float4 *__restrict__ acc, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        float4 p = pos[i], v = vel[i], a = acc[i];
        v.x += a.x * DT;
        v.y += a.y * DT;
        v.z += a.z * DT;
        p.x += v.x * DT;
        p.y += v.y * DT;
        p.z += v.z * DT;
        pos[i] = p;
        vel[i] = v;
    }
}

/* slice: length of each thread's j range, a multiple of BODIES. */
__global__ void __launch_bounds__(BODIES *SLICES) forces(const float4 *__restrict__ pos,
                                                         float4 *__restrict__ acc, int n, int slice)
{
    __shared__ float4 tile[SLICES][BODIES];
    __shared__ float3 part[SLICES][BODIES];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int i = blockIdx.x * BODIES + tx;
    float4 pi = i < n ? pos[i] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    float sx = 0.0f, sy = 0.0f, sz = 0.0f;
    const int j0 = ty * slice;
    for (int t = 0; t < slice; t += BODIES) {
        int j = j0 + t + tx;
        tile[ty][tx] = j < n ? pos[j] : make_float4(0.0f, 0.0f, 0.0f, 0.0f); /* mass 0: no force */
        __syncthreads();
#pragma unroll 16
        for (int k = 0; k < BODIES; k++) {
            float4 pj = tile[ty][k];
            float dx = pj.x - pi.x, dy = pj.y - pi.y, dz = pj.z - pi.z;
            float d2 = fmaf(dx, dx, fmaf(dy, dy, fmaf(dz, dz, SOFTENING2)));
            float inv = rsqrtf(d2);
            float s = pj.w * inv * inv * inv;
            sx = fmaf(dx, s, sx);
            sy = fmaf(dy, s, sy);
            sz = fmaf(dz, s, sz);
        }
        __syncthreads();
    }
    part[ty][tx] = make_float3(sx, sy, sz);
    __syncthreads();
    if (ty == 0 && i < n) {
        float3 s = part[0][tx];
        for (int q = 1; q < SLICES; q++) {
            s.x += part[q][tx].x;
            s.y += part[q][tx].y;
            s.z += part[q][tx].z;
        }
        acc[i] = make_float4(s.x, s.y, s.z, 0.0f);
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 32768;
    if (n < 1) {
        fprintf(stderr, "usage: %s [n]\n", argv[0]);
        return 1;
    }
    snprintf(size_str, sizeof size_str, "%d", n);
    size_t bytes4 = (size_t)n * sizeof(float4);
    float4 *pos = (float4 *)malloc(bytes4), *vel = (float4 *)malloc(bytes4), *acc = (float4 *)malloc(bytes4);
    int warmup = bench_warmup(), reps = bench_reps();
    double *t = (double *)malloc((size_t)reps * sizeof(double));
    if (!pos || !vel || !acc || !t) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    for (int i = 0; i < n; i++) {
        pos[i] = make_float4((float)bench_rand(i, 31), (float)bench_rand(i, 32), (float)bench_rand(i, 33),
                             (float)((0.5 + bench_rand(i, 37)) / n));
        vel[i] = make_float4((float)(bench_rand(i, 34) - 0.5), (float)(bench_rand(i, 35) - 0.5),
                             (float)(bench_rand(i, 36) - 0.5), 0.0f);
        acc[i] = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    }

    int dev, sms;
    CK(cudaGetDevice(&dev));
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    int upd_block = 256, upd_grid = (n + upd_block - 1) / upd_block;
    if (upd_grid > sms * 8)
        upd_grid = sms * 8;
    int slice = ((n + SLICES - 1) / SLICES + BODIES - 1) / BODIES * BODIES;
    dim3 fblock(BODIES, SLICES), fgrid((n + BODIES - 1) / BODIES);

    float4 *dpos, *dvel, *dacc;
    CK(cudaMalloc(&dpos, bytes4));
    CK(cudaMalloc(&dvel, bytes4));
    CK(cudaMalloc(&dacc, bytes4));
    CK(cudaMemcpy(dpos, pos, bytes4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dvel, vel, bytes4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dacc, acc, bytes4, cudaMemcpyHostToDevice));

    for (int r = -warmup; r < reps; r++) {
        double t0 = bench_now();
        kick_drift<<<upd_grid, upd_block>>>(dpos, dvel, dacc, n);
        CK(cudaGetLastError());
        forces<<<fgrid, fblock>>>(dpos, dacc, n, slice);
        CK(cudaGetLastError());
        CK(cudaDeviceSynchronize());
        double t1 = bench_now();
        if (r >= 0)
            t[r] = t1 - t0;
    }
    CK(cudaMemcpy(pos, dpos, bytes4, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(acc, dacc, bytes4, cudaMemcpyDeviceToHost));
    CK(cudaFree(dpos));
    CK(cudaFree(dvel));
    CK(cudaFree(dacc));

    int pass = 1;
    for (int s = 0; s < 64; s++) {
        int i = (int)(bench_rand(s, 38) * n);
        double rx = 0, ry = 0, rz = 0, scale = 0;
        for (int j = 0; j < n; j++) {
            double dx = (double)pos[j].x - pos[i].x, dy = (double)pos[j].y - pos[i].y,
                   dz = (double)pos[j].z - pos[i].z;
            double d2 = dx * dx + dy * dy + dz * dz + (double)SOFTENING2;
            double f = pos[j].w / (d2 * sqrt(d2));
            rx += dx * f;
            ry += dy * f;
            rz += dz * f;
            scale += sqrt(dx * dx + dy * dy + dz * dz) * f;
        }
        double tol = 1e-4 * scale;
        if (fabs(acc[i].x - rx) > tol || fabs(acc[i].y - ry) > tol || fabs(acc[i].z - rz) > tol) {
            fprintf(stderr, "nbody.cu: a[%d] = (%.9g, %.9g, %.9g), want (%.9g, %.9g, %.9g)\n", i, acc[i].x,
                    acc[i].y, acc[i].z, rx, ry, rz);
            pass = 0;
        }
    }
    double sec = bench_median(t, reps);
    bench_report("nbody", size_str, sec, 20.0 * (double)n * n / sec * 1e-9, "GFLOP/s", pass);
    free(pos);
    free(vel);
    free(acc);
    free(t);
    return 0;
}
