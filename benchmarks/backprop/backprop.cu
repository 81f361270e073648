// backprop.cu — hand-written CUDA reference for backprop.c (Rodinia
// "backprop"): one training step of a perceptron with IN inputs, HID = 16
// hidden units and one output (unit 0 of each layer = bias), same inputs,
// sizes, timing (one repetition = one step), check and RESULT line as
// backprop.c. Rate: GB/s counting the (IN+1) x 17 weight matrix read once in
// the forward pass and, with oldw1, read and written in the weight adjust
// (5 matrix passes), plus x read twice.
// Kernels per step:
//   forward: the matrix as a flat array, read coalesced by blocks of 17*32
//     threads in a grid-stride loop whose stride is a multiple of 17, so each
//     thread keeps a fixed column; per-block column sums go through shared
//     memory to a partial-sum array (no atomics: deterministic);
//   finish: one block sums the partials per column (a warp per column, warp
//     shuffles) and does the tiny stages (squash, hidden -> output, errors,
//     hidden -> output weight adjust);
//   adjust: flat, coalesced grid-stride pass over w1 / oldw1 (delta_h in
//     shared memory).
#include "../common/bench.h"
#include <cuda_runtime.h>
#include <math.h>

#define HID 16
#define OUT 1
#define N2 (HID + 1)
#define N3 (OUT + 1)
#define ETA 0.3f
#define MOMENTUM 0.3f
#define FWD_BLOCK (N2 * 32)

static int check(cudaError_t e, const char *what)
{
    if (e != cudaSuccess) {
        fprintf(stderr, "backprop: %s: %s\n", what, cudaGetErrorString(e));
        return 0;
    }
    return 1;
}

static double maxabs_err(const float *a, const double *b, long n, double *scale)
{
    double e = 0, m = 0;
    for (long i = 0; i < n; i++) {
        double d = fabs(a[i] - b[i]);
        if (d > e) e = d;
        if (fabs(b[i]) > m) m = fabs(b[i]);
    }
    *scale = m;
    return e;
}

__global__ void __launch_bounds__(FWD_BLOCK) forward(const float *__restrict__ w1, const float *__restrict__ x, long m1,
                                                     float *__restrict__ partial)
{
    __shared__ float col[FWD_BLOCK];
    int t = threadIdx.x;
    long e = (long)blockIdx.x * FWD_BLOCK + t, stride = (long)gridDim.x * FWD_BLOCK;
    long k = e / N2, kstride = stride / N2; // the column e % N2 == t % N2 stays fixed
    float acc0 = 0.0f, acc1 = 0.0f, acc2 = 0.0f, acc3 = 0.0f;
    for (; e + 3 * stride < m1; e += 4 * stride, k += 4 * kstride) { // four independent loads in flight
        acc0 += w1[e] * x[k];
        acc1 += w1[e + stride] * x[k + kstride];
        acc2 += w1[e + 2 * stride] * x[k + 2 * kstride];
        acc3 += w1[e + 3 * stride] * x[k + 3 * kstride];
    }
    for (; e < m1; e += stride, k += kstride) acc0 += w1[e] * x[k];
    col[t] = (acc0 + acc1) + (acc2 + acc3);
    __syncthreads();
    if (t < N2) {
        float s = 0.0f;
        for (int i = 0; i < 32; i++) s += col[t + N2 * i];
        partial[(long)blockIdx.x * N2 + t] = s;
    }
}

// One block of 32 * HID threads: warp j-1 reduces column j of the partials.
__global__ void finish(const float *__restrict__ partial, int nblocks, float *hidden, float *output, float *delta_h,
                       float *delta_o, const float *target, float *w2, float *oldw2)
{
    __shared__ float h[N2], dout[N3];
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32, j = warp + 1;
    float s = 0.0f;
    for (int b = lane; b < nblocks; b += 32) s += partial[(long)b * N2 + j];
    for (int o = 16; o > 0; o /= 2) s += __shfl_xor_sync(0xffffffffu, s, o);
    if (lane == 0) h[j] = 1.0f / (1.0f + expf(-s));
    if (threadIdx.x == 0) h[0] = 1.0f;
    __syncthreads();
    if (threadIdx.x == 0) {
        for (int jo = 1; jo < N3; jo++) {
            float so = 0.0f;
            for (int kk = 0; kk < N2; kk++) so += w2[kk * N3 + jo] * h[kk];
            float o = 1.0f / (1.0f + expf(-so));
            output[jo] = o;
            dout[jo] = o * (1.0f - o) * (target[jo] - o);
            delta_o[jo] = dout[jo];
        }
        for (int jh = 1; jh < N2; jh++) {
            float sh = 0.0f;
            for (int kk = 1; kk < N3; kk++) sh += dout[kk] * w2[jh * N3 + kk];
            delta_h[jh] = h[jh] * (1.0f - h[jh]) * sh;
            hidden[jh] = h[jh];
        }
        for (int kk = 0; kk < N2; kk++)
            for (int jo = 1; jo < N3; jo++) {
                float dw = ETA * dout[jo] * h[kk] + MOMENTUM * oldw2[kk * N3 + jo];
                w2[kk * N3 + jo] += dw;
                oldw2[kk * N3 + jo] = dw;
            }
    }
}

__global__ void adjust(float *__restrict__ w1, float *__restrict__ oldw1, const float *__restrict__ x,
                       const float *__restrict__ delta_h, long m1)
{
    __shared__ float dh[N2];
    if (threadIdx.x < N2) dh[threadIdx.x] = ETA * delta_h[threadIdx.x];
    __syncthreads();
    // m1 < 2^31 (IN <= 2^26): 32-bit indices make e / N2 a cheap multiply-shift.
    unsigned stride = gridDim.x * blockDim.x, m = (unsigned)m1;
    for (unsigned e = blockIdx.x * blockDim.x + threadIdx.x; e < m; e += stride) {
        unsigned k = e / N2;
        int j = (int)(e - k * N2);
        if (j == 0) continue;
        float dw = dh[j] * x[k] + MOMENTUM * oldw1[e];
        w1[e] += dw;
        oldw1[e] = dw;
    }
}

int main(int argc, char **argv)
{
    int in = argc > 1 ? atoi(argv[1]) : 1 << 20;
    if (in < 1 || in > (1 << 26)) {
        fprintf(stderr, "backprop: IN must be in [1, 2^26]\n");
        return 1;
    }
    char size[32];
    snprintf(size, sizeof size, "%d", in);
    int n1 = in + 1, n2 = N2, n3 = N3;
    long m1 = (long)n1 * n2, m2 = (long)n2 * n3;
    float *x = (float *)malloc(sizeof(float) * n1);
    float *w1 = (float *)malloc(sizeof(float) * m1);
    float *oldw1 = (float *)calloc(m1, sizeof(float));
    float *w2 = (float *)malloc(sizeof(float) * m2);
    float *oldw2 = (float *)calloc(m2, sizeof(float));
    float hidden[N2], output[N3], delta_h[N2], delta_o[N3], target[N3];
    int reps = bench_reps(), warm = bench_warmup(), ok = 1;
    double *t = (double *)malloc(sizeof(double) * reps);
    if (!x || !w1 || !oldw1 || !w2 || !oldw2 || !t) {
        fprintf(stderr, "backprop: out of memory\n");
        return 1;
    }
    x[0] = 1.0f;
    for (int k = 1; k < n1; k++) x[k] = (float)(bench_rand(k, 1) / sqrt((double)in));
    for (long i = 0; i < m1; i++) w1[i] = (float)(bench_rand(i, 2) - 0.5);
    for (long i = 0; i < m2; i++) w2[i] = (float)(bench_rand(i, 3) - 0.5);
    for (int j = 0; j < n2; j++) hidden[j] = delta_h[j] = 0.0f;
    for (int j = 0; j < n3; j++) output[j] = delta_o[j] = target[j] = 0.0f;
    hidden[0] = 1.0f;
    target[1] = 0.1f;

    int dev = 0, sms = 0, maxthr = 0;
    ok &= check(cudaGetDevice(&dev), "cudaGetDevice");
    ok &= check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev), "attribute");
    ok &= check(cudaDeviceGetAttribute(&maxthr, cudaDevAttrMaxThreadsPerMultiProcessor, dev), "attribute");
    int fwd_blocks = sms * (maxthr / FWD_BLOCK);
    long fwd_need = (m1 + FWD_BLOCK - 1) / FWD_BLOCK;
    if (fwd_blocks > fwd_need) fwd_blocks = (int)fwd_need;
    if (fwd_blocks < 1) fwd_blocks = 1;
    const int adj_block = 256;
    int adj_blocks = sms * (maxthr / adj_block);
    long adj_need = (m1 + adj_block - 1) / adj_block;
    if (adj_blocks > adj_need) adj_blocks = (int)adj_need;

    float *d_x = 0, *d_w1 = 0, *d_oldw1 = 0, *d_w2 = 0, *d_oldw2 = 0, *d_partial = 0;
    float *d_hidden = 0, *d_output = 0, *d_delta_h = 0, *d_delta_o = 0, *d_target = 0;
    ok &= check(cudaMalloc(&d_x, sizeof(float) * n1), "cudaMalloc");
    ok &= check(cudaMalloc(&d_w1, sizeof(float) * m1), "cudaMalloc");
    ok &= check(cudaMalloc(&d_oldw1, sizeof(float) * m1), "cudaMalloc");
    ok &= check(cudaMalloc(&d_w2, sizeof(float) * m2), "cudaMalloc");
    ok &= check(cudaMalloc(&d_oldw2, sizeof(float) * m2), "cudaMalloc");
    ok &= check(cudaMalloc(&d_partial, sizeof(float) * N2 * (size_t)fwd_blocks), "cudaMalloc");
    ok &= check(cudaMalloc(&d_hidden, sizeof(float) * N2), "cudaMalloc");
    ok &= check(cudaMalloc(&d_output, sizeof(float) * N3), "cudaMalloc");
    ok &= check(cudaMalloc(&d_delta_h, sizeof(float) * N2), "cudaMalloc");
    ok &= check(cudaMalloc(&d_delta_o, sizeof(float) * N3), "cudaMalloc");
    ok &= check(cudaMalloc(&d_target, sizeof(float) * N3), "cudaMalloc");
    if (!ok) {
        bench_report("backprop", size, 0, 0, "GB/s", 0);
        return 0;
    }
    ok &= check(cudaMemcpy(d_x, x, sizeof(float) * n1, cudaMemcpyHostToDevice), "copy in");
    ok &= check(cudaMemcpy(d_w1, w1, sizeof(float) * m1, cudaMemcpyHostToDevice), "copy in");
    ok &= check(cudaMemcpy(d_oldw1, oldw1, sizeof(float) * m1, cudaMemcpyHostToDevice), "copy in");
    ok &= check(cudaMemcpy(d_w2, w2, sizeof(float) * m2, cudaMemcpyHostToDevice), "copy in");
    ok &= check(cudaMemcpy(d_oldw2, oldw2, sizeof(float) * m2, cudaMemcpyHostToDevice), "copy in");
    ok &= check(cudaMemcpy(d_hidden, hidden, sizeof(float) * N2, cudaMemcpyHostToDevice), "copy in");
    ok &= check(cudaMemcpy(d_output, output, sizeof(float) * N3, cudaMemcpyHostToDevice), "copy in");
    ok &= check(cudaMemcpy(d_delta_h, delta_h, sizeof(float) * N2, cudaMemcpyHostToDevice), "copy in");
    ok &= check(cudaMemcpy(d_delta_o, delta_o, sizeof(float) * N3, cudaMemcpyHostToDevice), "copy in");
    ok &= check(cudaMemcpy(d_target, target, sizeof(float) * N3, cudaMemcpyHostToDevice), "copy in");

    for (int r = -warm; r < reps && ok; r++) {
        double t0 = bench_now();
        forward<<<fwd_blocks, FWD_BLOCK>>>(d_w1, d_x, m1, d_partial);
        ok &= check(cudaGetLastError(), "forward launch");
        finish<<<1, 32 * HID>>>(d_partial, fwd_blocks, d_hidden, d_output, d_delta_h, d_delta_o, d_target, d_w2,
                                d_oldw2);
        ok &= check(cudaGetLastError(), "finish launch");
        adjust<<<adj_blocks, adj_block>>>(d_w1, d_oldw1, d_x, d_delta_h, m1);
        ok &= check(cudaGetLastError(), "adjust launch");
        ok &= check(cudaDeviceSynchronize(), "step");
        double t1 = bench_now();
        if (r >= 0) t[r] = t1 - t0;
    }
    ok &= check(cudaMemcpy(w1, d_w1, sizeof(float) * m1, cudaMemcpyDeviceToHost), "copy out");
    ok &= check(cudaMemcpy(oldw1, d_oldw1, sizeof(float) * m1, cudaMemcpyDeviceToHost), "copy out");
    ok &= check(cudaMemcpy(w2, d_w2, sizeof(float) * m2, cudaMemcpyDeviceToHost), "copy out");
    ok &= check(cudaMemcpy(oldw2, d_oldw2, sizeof(float) * m2, cudaMemcpyDeviceToHost), "copy out");
    ok &= check(cudaMemcpy(hidden, d_hidden, sizeof(float) * N2, cudaMemcpyDeviceToHost), "copy out");
    ok &= check(cudaMemcpy(output, d_output, sizeof(float) * N3, cudaMemcpyDeviceToHost), "copy out");
    ok &= check(cudaMemcpy(delta_h, d_delta_h, sizeof(float) * N2, cudaMemcpyDeviceToHost), "copy out");
    ok &= check(cudaMemcpy(delta_o, d_delta_o, sizeof(float) * N3, cudaMemcpyDeviceToHost), "copy out");
    cudaFree(d_x), cudaFree(d_w1), cudaFree(d_oldw1), cudaFree(d_w2), cudaFree(d_oldw2), cudaFree(d_partial);
    cudaFree(d_hidden), cudaFree(d_output), cudaFree(d_delta_h), cudaFree(d_delta_o), cudaFree(d_target);
    if (!ok) {
        bench_report("backprop", size, 0, 0, "GB/s", 0);
        return 0;
    }

    /* Reference: the same warm + reps steps in double precision. Only the rows
     * k % 61 == 0 of w1 / oldw1 are compared, but all are trained. */
    double *rw1 = (double *)malloc(sizeof(double) * m1), *rold1 = (double *)calloc(m1, sizeof(double));
    double rw2[(HID + 1) * (OUT + 1)], rold2[(HID + 1) * (OUT + 1)], sum[HID + 1];
    double rh[HID + 1], ro[OUT + 1], rdh[HID + 1], rdo[OUT + 1];
    if (!rw1 || !rold1) {
        fprintf(stderr, "backprop: out of memory\n");
        return 1;
    }
    for (long i = 0; i < m1; i++) rw1[i] = (float)(bench_rand(i, 2) - 0.5);
    for (long i = 0; i < m2; i++) {
        rw2[i] = (float)(bench_rand(i, 3) - 0.5);
        rold2[i] = 0;
    }
    for (int j = 0; j < n2; j++) rh[j] = rdh[j] = 0;
    for (int j = 0; j < n3; j++) ro[j] = rdo[j] = 0;
    rh[0] = 1;
    for (int step = 0; step < warm + reps; step++) {
        for (int j = 0; j < n2; j++) sum[j] = 0;
        for (long k = 0; k < n1; k++)
            for (int j = 1; j < n2; j++) sum[j] += rw1[k * n2 + j] * x[k];
        for (int j = 1; j < n2; j++) rh[j] = 1 / (1 + exp(-sum[j]));
        for (int j = 1; j < n3; j++) {
            double s = 0;
            for (int k = 0; k < n2; k++) s += rw2[k * n3 + j] * rh[k];
            ro[j] = 1 / (1 + exp(-s));
            rdo[j] = ro[j] * (1 - ro[j]) * (target[j] - ro[j]);
        }
        for (int j = 1; j < n2; j++) {
            double s = 0;
            for (int k = 1; k < n3; k++) s += rdo[k] * rw2[j * n3 + k];
            rdh[j] = rh[j] * (1 - rh[j]) * s;
        }
        for (int k = 0; k < n2; k++)
            for (int j = 1; j < n3; j++) {
                double dw = (double)ETA * rdo[j] * rh[k] + (double)MOMENTUM * rold2[k * n3 + j];
                rw2[k * n3 + j] += dw;
                rold2[k * n3 + j] = dw;
            }
        for (long k = 0; k < n1; k++)
            for (int j = 1; j < n2; j++) {
                double dw = (double)ETA * rdh[j] * x[k] + (double)MOMENTUM * rold1[k * n2 + j];
                rw1[k * n2 + j] += dw;
                rold1[k * n2 + j] = dw;
            }
    }
    double e, sc;
    int pass = ok;
    e = maxabs_err(hidden, rh, n2, &sc);
    if (e > 1e-4 * sc) pass = 0, fprintf(stderr, "backprop: hidden error %.3g (scale %.3g)\n", e, sc);
    e = maxabs_err(output, ro, n3, &sc);
    if (e > 1e-4 * sc) pass = 0, fprintf(stderr, "backprop: output error %.3g (scale %.3g)\n", e, sc);
    e = maxabs_err(delta_o, rdo, n3, &sc);
    if (e > 1e-3 * sc) pass = 0, fprintf(stderr, "backprop: delta_o error %.3g (scale %.3g)\n", e, sc);
    e = maxabs_err(delta_h, rdh, n2, &sc);
    if (e > 1e-3 * sc) pass = 0, fprintf(stderr, "backprop: delta_h error %.3g (scale %.3g)\n", e, sc);
    /* Sampled rows of w1 / oldw1, element by element: w1 within one float
     * rounding per step plus 1e-3 of its total change; oldw1 (the last step's
     * change) within 1e-3. */
    double ew = 0, eo = 0, so = 0;
    long nbad = 0;
    for (long i = 0; i < m1; i++)
        if (fabs(rold1[i]) > so) so = fabs(rold1[i]);
    for (long k = 0; k < n1; k += 61)
        for (int j = 1; j < n2; j++) {
            long i = k * n2 + j;
            double c = fabs(rw1[i] - (float)(bench_rand(i, 2) - 0.5));
            double dw = fabs(w1[i] - rw1[i]), dold = fabs(oldw1[i] - rold1[i]);
            if (dw > ew) ew = dw;
            if (dold > eo) eo = dold;
            if (dw > (warm + reps) * 6e-8 * fabs(rw1[i]) + 1e-3 * c + 1e-12 ||
                dold > 1e-3 * fabs(rold1[i]) + 1e-6 * so) {
                if (nbad++ < 5)
                    fprintf(stderr, "backprop: w1[%ld][%d] = %.9g (expected %.9g), oldw1 %.6g (expected %.6g)\n", k, j,
                            w1[i], rw1[i], oldw1[i], rold1[i]);
                pass = 0;
            }
        }
    if (getenv("BACKPROP_VERBOSE"))
        fprintf(stderr, "backprop: w1 err %.3g oldw1 err %.3g/%.3g out %.6f h1 %.6f/%.6f dh1 %.3g/%.3g\n", ew, eo, so,
                output[1], hidden[1], rh[1], delta_h[1], rdh[1]);

    double s = bench_median(t, reps);
    double bytes = 5.0 * 4.0 * (double)m1 + 2.0 * 4.0 * n1;
    bench_report("backprop", size, s, bytes / s * 1e-9, "GB/s", pass);
    free(x), free(w1), free(oldw1), free(w2), free(oldw2), free(t), free(rw1), free(rold1);
    return 0;
}
