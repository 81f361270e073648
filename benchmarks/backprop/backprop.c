/* backprop.c — one training step of a two-layer perceptron (Rodinia
 * "backprop"; "backpro." in the IPMACC paper): IN input units, HID = 16
 * hidden units, one output unit, unit 0 of each layer being the bias (= 1).
 * The six stages of a step, in order, all on the device:
 *   1. forward input -> hidden: hidden[j] = squash(sum_k w1[k][j] * x[k])
 *   2. forward hidden -> output      3. output error      4. hidden error
 *   5. adjust hidden -> output weights
 *   6. adjust input -> hidden weights: dw = ETA*delta_h[j]*x[k] + MOMENTUM*oldw1[k][j];
 *      w1[k][j] += dw; oldw1[k][j] = dw
 * Stages 1 and 6 over the (IN+1) x (HID+1) matrix dominate; 2-5 are tiny.
 * Weights are flat row-major arrays: w1[k*(HID+1)+j].
 * Size: argv[1] = IN (default 2^20). One repetition = one training step
 * (the weights keep training from step to step; the check replays all steps).
 * Rate: GB/s counting the whole weight matrix (column 0 included: it lies in
 * the same rows) read once in stage 1 and, with oldw1, read and written in
 * stage 6 (5 matrix passes), plus x read twice.
 * Inputs: x in [0, 1/sqrt(IN)) (normalised), weights in [-0.5, 0.5), target 0.1.
 * Check: all steps replayed on the host in double precision; hidden, output,
 * deltas and a sample of rows of w1 / oldw1 compared (w1 with a tolerance of
 * one float rounding per step plus 1e-3 of the total change). */
#include "../common/bench.h"
#include <math.h>

#define HID 16
#define OUT 1
#define ETA 0.3f
#define MOMENTUM 0.3f

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

int main(int argc, char **argv)
{
    int in = argc > 1 ? atoi(argv[1]) : 1 << 20;
    if (in < 1 || in > (1 << 26)) {
        fprintf(stderr, "backprop: IN must be in [1, 2^26]\n");
        return 1;
    }
    int n1 = in + 1, n2 = HID + 1, n3 = OUT + 1;
    long m1 = (long)n1 * n2, m2 = (long)n2 * n3;
    float *x = (float *)malloc(sizeof(float) * n1);
    float *w1 = (float *)malloc(sizeof(float) * m1);
    float *oldw1 = (float *)calloc(m1, sizeof(float));
    float *w2 = (float *)malloc(sizeof(float) * m2);
    float *oldw2 = (float *)calloc(m2, sizeof(float));
    float hidden[HID + 1], output[OUT + 1], delta_h[HID + 1], delta_o[OUT + 1], target[OUT + 1];
    int reps = bench_reps(), warm = bench_warmup();
    double *t = (double *)malloc(sizeof(double) * reps);
    if (!x || !w1 || !oldw1 || !w2 || !oldw2 || !t) {
        fprintf(stderr, "backprop: out of memory\n");
        return 1;
    }
    /* Inputs in [0, 1/sqrt(IN)) (a normalised input vector) keep the hidden
     * sums O(1) and the training step stable at any IN. */
    x[0] = 1.0f;
    for (int k = 1; k < n1; k++) x[k] = (float)(bench_rand(k, 1) / sqrt((double)in));
    for (long i = 0; i < m1; i++) w1[i] = (float)(bench_rand(i, 2) - 0.5);
    for (long i = 0; i < m2; i++) w2[i] = (float)(bench_rand(i, 3) - 0.5);
    for (int j = 0; j < n2; j++) hidden[j] = delta_h[j] = 0.0f;
    for (int j = 0; j < n3; j++) output[j] = delta_o[j] = target[j] = 0.0f;
    hidden[0] = 1.0f;
    target[1] = 0.1f;

#pragma acc data copyin(x[0:n1], target[0:n3]) copy(w1[0:m1], oldw1[0:m1], w2[0:m2], oldw2[0:m2], \
                                                       hidden[0:n2], output[0:n3], delta_h[0:n2], delta_o[0:n3])
    {
        for (int r = -warm; r < reps; r++) {
            double t0 = bench_now();
            /* 1. forward, input -> hidden */
#pragma acc parallel loop gang present(w1[0:m1], x[0:n1], hidden[0:n2])
            for (int j = 1; j < n2; j++) {
                float sum = 0.0f;
#pragma acc loop vector reduction(+:sum)
                for (int k = 0; k < n1; k++) sum += w1[k * n2 + j] * x[k];
                hidden[j] = 1.0f / (1.0f + expf(-sum));
            }
            /* 2. forward, hidden -> output */
#pragma acc parallel loop present(w2[0:m2], hidden[0:n2], output[0:n3])
            for (int j = 1; j < n3; j++) {
                float sum = 0.0f;
                for (int k = 0; k < n2; k++) sum += w2[k * n3 + j] * hidden[k];
                output[j] = 1.0f / (1.0f + expf(-sum));
            }
            /* 3. output error */
#pragma acc parallel loop present(output[0:n3], target[0:n3], delta_o[0:n3])
            for (int j = 1; j < n3; j++) {
                float o = output[j];
                delta_o[j] = o * (1.0f - o) * (target[j] - o);
            }
            /* 4. hidden error */
#pragma acc parallel loop present(hidden[0:n2], w2[0:m2], delta_o[0:n3], delta_h[0:n2])
            for (int j = 1; j < n2; j++) {
                float h = hidden[j], sum = 0.0f;
                for (int k = 1; k < n3; k++) sum += delta_o[k] * w2[j * n3 + k];
                delta_h[j] = h * (1.0f - h) * sum;
            }
            /* 5. adjust hidden -> output weights */
#pragma acc parallel loop present(w2[0:m2], oldw2[0:m2], delta_o[0:n3], hidden[0:n2])
            for (int k = 0; k < n2; k++)
                for (int j = 1; j < n3; j++) {
                    float dw = ETA * delta_o[j] * hidden[k] + MOMENTUM * oldw2[k * n3 + j];
                    w2[k * n3 + j] += dw;
                    oldw2[k * n3 + j] = dw;
                }
            /* 6. adjust input -> hidden weights */
#pragma acc parallel loop present(w1[0:m1], oldw1[0:m1], delta_h[0:n2], x[0:n1])
            for (int k = 0; k < n1; k++)
                for (int j = 1; j < n2; j++) {
                    float dw = ETA * delta_h[j] * x[k] + MOMENTUM * oldw1[k * n2 + j];
                    w1[k * n2 + j] += dw;
                    oldw1[k * n2 + j] = dw;
                }
            double t1 = bench_now();
            if (r >= 0) t[r] = t1 - t0;
        }
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
    int pass = 1;
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
    char size[32];
    snprintf(size, sizeof size, "%d", in);
    bench_report("backprop", size, s, bytes / s * 1e-9, "GB/s", pass);
    free(x), free(w1), free(oldw1), free(w2), free(oldw2), free(t), free(rw1), free(rold1);
    return 0;
}
