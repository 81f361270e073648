/* srad — speckle-reducing anisotropic diffusion of an image (Rodinia "srad").
 *
 * An image J (rows x cols floats, positive; here exp of uniform noise, the
 * log-compressed form Rodinia feeds it) is smoothed by a nonlinear diffusion
 * PDE. Each iteration:
 *   1. statistics of the region of interest (here the whole image, as Rodinia's
 *      srad_v1): sum and sum of squares, a reduction; q0^2 = var / mean^2;
 *   2. for every pixel, the 4 directional differences dN, dS, dW, dE (a
 *      neighbour outside the image is the pixel itself), the normalised gradient
 *      G^2 = (dN^2+dS^2+dW^2+dE^2)/J^2 and Laplacian L = (dN+dS+dW+dE)/J, the
 *      instantaneous coefficient of variation q^2 = (G^2/2 - L^2/16)/(1+L/4)^2
 *      and the diffusion coefficient c = 1/(1 + (q^2-q0^2)/(q0^2(1+q0^2))),
 *      clamped to [0, 1];
 *   3. for every pixel, the divergence D = c*dN + c_S*dS + c*dW + c_E*dE and
 *      the update J += lambda/4 * D (lambda = 0.5).
 *
 * Usage: srad [n [iterations]]   default 4096 x 4096 floats, 10 iterations per
 * repetition (each repetition starts from the same image; the reset is untimed).
 * Rate: GB/s counting, per iteration, the arrays each pass reads and writes:
 * statistics read J (1); coefficients read J, write dN dS dW dE c (6); update
 * reads dN dS dW dE c J, writes J (7): iterations * 14 * n*n * 4 bytes.
 * Check: the whole image against a double-precision serial reference.
 */
#include <math.h>
#include "../common/bench.h"

#define LAMBDA 0.5f

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 4096;
    int iters = argc > 2 ? atoi(argv[2]) : 10;
    if (n < 2 || n > 46340 || iters < 1) {
        fprintf(stderr, "usage: srad [n (2..46340) [iterations]]\n");
        return 1;
    }
    int rows = n, cols = n, nn = n * n;

    float *j0 = malloc((size_t)nn * sizeof(float));
    float *J = malloc((size_t)nn * sizeof(float));
    float *c = malloc((size_t)nn * sizeof(float));
    float *dN = malloc((size_t)nn * sizeof(float));
    float *dS = malloc((size_t)nn * sizeof(float));
    float *dW = malloc((size_t)nn * sizeof(float));
    float *dE = malloc((size_t)nn * sizeof(float));
    if (!j0 || !J || !c || !dN || !dS || !dW || !dE) {
        fprintf(stderr, "srad: out of memory\n");
        return 1;
    }
    for (int k = 0; k < nn; k++)
        j0[k] = (float)exp(bench_rand(k, 4));

    int warmup = bench_warmup(), reps = bench_reps();
    double *times = malloc((size_t)reps * sizeof(double));

#pragma acc data copyin(j0[0:nn]) copyout(J[0:nn]) create(c[0:nn], dN[0:nn], dS[0:nn], dW[0:nn], dE[0:nn])
    {
        for (int rep = 0; rep < warmup + reps; rep++) {
#pragma acc parallel loop present(J[0:nn], j0[0:nn])
            for (int k = 0; k < nn; k++)
                J[k] = j0[k];

            double start = bench_now();
            for (int it = 0; it < iters; it++) {
                /* 1. statistics of the region of interest */
                double sum = 0.0, sum2 = 0.0;
#pragma acc parallel loop reduction(+:sum, sum2) present(J[0:nn])
                for (int k = 0; k < nn; k++) {
                    double v = J[k];
                    sum += v;
                    sum2 += v * v;
                }
                double mean = sum / nn;
                double var = sum2 / nn - mean * mean;
                float q0sqr = (float)(var / (mean * mean));

                /* 2. differences and diffusion coefficients */
#pragma acc parallel loop gang present(J[0:nn], c[0:nn], dN[0:nn], dS[0:nn], dW[0:nn], dE[0:nn])
                for (int i = 0; i < rows; i++) {
#pragma acc loop vector
                    for (int j = 0; j < cols; j++) {
                        int k = i * cols + j;
                        float jc = J[k];
                        float n_ = i > 0 ? J[k - cols] - jc : 0.0f;
                        float s_ = i < rows - 1 ? J[k + cols] - jc : 0.0f;
                        float w_ = j > 0 ? J[k - 1] - jc : 0.0f;
                        float e_ = j < cols - 1 ? J[k + 1] - jc : 0.0f;
                        float g2 = (n_ * n_ + s_ * s_ + w_ * w_ + e_ * e_) / (jc * jc);
                        float l = (n_ + s_ + w_ + e_) / jc;
                        float num = 0.5f * g2 - 0.0625f * l * l;
                        float den = 1.0f + 0.25f * l;
                        float qsqr = num / (den * den);
                        den = (qsqr - q0sqr) / (q0sqr * (1.0f + q0sqr));
                        float cc = 1.0f / (1.0f + den);
                        if (cc < 0.0f)
                            cc = 0.0f;
                        else if (cc > 1.0f)
                            cc = 1.0f;
                        dN[k] = n_;
                        dS[k] = s_;
                        dW[k] = w_;
                        dE[k] = e_;
                        c[k] = cc;
                    }
                }

                /* 3. divergence and update */
#pragma acc parallel loop gang present(J[0:nn], c[0:nn], dN[0:nn], dS[0:nn], dW[0:nn], dE[0:nn])
                for (int i = 0; i < rows; i++) {
#pragma acc loop vector
                    for (int j = 0; j < cols; j++) {
                        int k = i * cols + j;
                        float cn = c[k];
                        float cs = i < rows - 1 ? c[k + cols] : cn;
                        float cw = c[k];
                        float ce = j < cols - 1 ? c[k + 1] : cn;
                        float d = cn * dN[k] + cs * dS[k] + cw * dW[k] + ce * dE[k];
                        J[k] = J[k] + 0.25f * LAMBDA * d;
                    }
                }
            }
            double end = bench_now();
            if (rep >= warmup)
                times[rep - warmup] = end - start;
        }
    }

    /* Serial reference in double precision (same formulas). */
    double *rj = malloc((size_t)nn * sizeof(double));
    double *rc = malloc((size_t)nn * sizeof(double));
    double *rn = malloc((size_t)nn * sizeof(double));
    double *rs = malloc((size_t)nn * sizeof(double));
    double *rw = malloc((size_t)nn * sizeof(double));
    double *re = malloc((size_t)nn * sizeof(double));
    for (int k = 0; k < nn; k++)
        rj[k] = j0[k];
    for (int it = 0; it < iters; it++) {
        double sum = 0.0, sum2 = 0.0;
        for (int k = 0; k < nn; k++) {
            sum += rj[k];
            sum2 += rj[k] * rj[k];
        }
        double mean = sum / nn;
        double var = sum2 / nn - mean * mean;
        double q0sqr = var / (mean * mean);
        for (int i = 0; i < rows; i++) {
            for (int j = 0; j < cols; j++) {
                int k = i * cols + j;
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
                int k = i * cols + j;
                double cs = i < rows - 1 ? rc[k + cols] : rc[k];
                double ce = j < cols - 1 ? rc[k + 1] : rc[k];
                rj[k] += 0.25 * LAMBDA * (rc[k] * rn[k] + cs * rs[k] + rc[k] * rw[k] + ce * re[k]);
            }
        }
    }
    int pass = 1;
    for (int k = 0; k < nn; k++) {
        if (!bench_close(J[k], rj[k], 1e-4)) {
            if (pass)
                fprintf(stderr, "srad: mismatch at %d: %.9g vs %.9g\n", k, J[k], rj[k]);
            pass = 0;
        }
    }

    double sec = bench_median(times, reps);
    double bytes = (double)iters * 14.0 * nn * sizeof(float);
    char size[64];
    snprintf(size, sizeof size, "%dx%d,%diters", n, n, iters);
    bench_report("srad", size, sec, bytes / sec * 1e-9, "GB/s", pass);

    free(j0);
    free(J);
    free(c);
    free(dN);
    free(dS);
    free(dW);
    free(dE);
    free(rj);
    free(rc);
    free(rn);
    free(rs);
    free(rw);
    free(re);
    free(times);
    return 0;
}
