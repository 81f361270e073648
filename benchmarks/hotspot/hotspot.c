/* hotspot — 2-D transient thermal simulation of a chip (Rodinia "hotspot").
 *
 * A grid of n x n cells holds temperatures T and power densities P. Each time
 * step computes every cell's new temperature from its own temperature, its 4
 * neighbours (a neighbour outside the chip is replaced by the cell itself), its
 * power and the ambient temperature, through the chip's thermal capacitance and
 * its lateral (Rx, Ry) and vertical (Rz) thermal resistances:
 *
 *   T' = T + dt/Cap * (P + (T_N + T_S - 2T)/Ry + (T_E + T_W - 2T)/Rx + (T_amb - T)/Rz)
 *
 * The chip constants are Rodinia's (16 mm x 16 mm silicon die, 0.5 mm thick);
 * the time step is Rodinia's PRECISION / max_slope, limited to what keeps the
 * explicit scheme stable on the requested grid (on fine grids the unlimited
 * step diverges). Two buffers are used ping-pong: one time-loop iteration does
 * two steps (T -> tmp -> T), so the step count is even.
 *
 * Usage: hotspot [n [steps]]   default 4096 x 4096 floats, 20 steps per repetition.
 * One repetition = `steps` steps from the same initial temperatures (the
 * working grid is reset, untimed, before each repetition).
 * Rate: GB/s counting, per step, one read of T, one read of P and one write of
 * the new T: steps * 3 * n*n * 4 bytes.
 * Check: the whole grid against a double-precision serial reference.
 */
#include <math.h>
#include "../common/bench.h"

/* Rodinia's chip constants. */
#define MAX_PD 3.0e6        /* maximum power density (W/m^2) */
#define PRECISION 0.001     /* required temperature precision */
#define SPEC_HEAT_SI 1.75e6 /* specific heat of silicon (J/(m^3 K)) */
#define K_SI 100.0          /* thermal conductivity of silicon (W/(m K)) */
#define FACTOR_CHIP 0.5     /* capacitance fitting factor */
#define T_CHIP 0.0005       /* chip thickness (m) */
#define CHIP_HEIGHT 0.016   /* chip height (m) */
#define CHIP_WIDTH 0.016    /* chip width (m) */
#define AMB_TEMP 80.0       /* ambient temperature */

/* One time step: dst = step(src). */
static void hotspot_step(float *restrict dst, const float *restrict src, const float *restrict power,
                         int n, float cap1, float rx1, float ry1, float rz1, float amb)
{
#pragma acc parallel loop gang present(dst[0:n*n], src[0:n*n], power[0:n*n])
    for (int i = 0; i < n; i++) {
#pragma acc loop vector
        for (int j = 0; j < n; j++) {
            int c = i * n + j;
            float t = src[c];
            float tn = i > 0 ? src[c - n] : t;
            float ts = i < n - 1 ? src[c + n] : t;
            float tw = j > 0 ? src[c - 1] : t;
            float te = j < n - 1 ? src[c + 1] : t;
            dst[c] = t + cap1 * (power[c] + (tn + ts - 2.0f * t) * ry1 + (te + tw - 2.0f * t) * rx1 +
                                 (amb - t) * rz1);
        }
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 4096;
    int steps = argc > 2 ? atoi(argv[2]) : 20;
    if (n < 2 || n > 46340 || steps < 1) {
        fprintf(stderr, "usage: hotspot [n (2..46340) [steps]]\n");
        return 1;
    }
    steps += steps % 2; /* two steps per time-loop iteration */
    int nn = n * n;

    /* Rodinia's derived constants for an n x n grid. */
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

    float *t0 = malloc((size_t)nn * sizeof(float));
    float *power = malloc((size_t)nn * sizeof(float));
    float *t = malloc((size_t)nn * sizeof(float));
    float *tmp = malloc((size_t)nn * sizeof(float));
    if (!t0 || !power || !t || !tmp) {
        fprintf(stderr, "hotspot: out of memory\n");
        return 1;
    }
    for (int i = 0; i < nn; i++) {
        t0[i] = (float)(320.0 + 20.0 * bench_rand(i, 1));
        power[i] = (float)(0.01 * bench_rand(i, 2));
    }

    int warmup = bench_warmup(), reps = bench_reps();
    double *times = malloc((size_t)reps * sizeof(double));

#pragma acc data copyin(t0[0:nn], power[0:nn]) create(tmp[0:nn]) copyout(t[0:nn])
    {
        for (int r = 0; r < warmup + reps; r++) {
#pragma acc parallel loop present(t[0:nn], t0[0:nn])
            for (int i = 0; i < nn; i++)
                t[i] = t0[i];

            double start = bench_now();
            for (int s = 0; s < steps; s += 2) {
                hotspot_step(tmp, t, power, n, cap1, rx1, ry1, rz1, amb);
                hotspot_step(t, tmp, power, n, cap1, rx1, ry1, rz1, amb);
            }
            double end = bench_now();
            if (r >= warmup)
                times[r - warmup] = end - start;
        }
    }

    /* Serial reference in double precision. */
    double *ref = malloc((size_t)nn * sizeof(double));
    double *ref2 = malloc((size_t)nn * sizeof(double));
    for (int i = 0; i < nn; i++)
        ref[i] = t0[i];
    for (int s = 0; s < steps; s++) {
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                int c = i * n + j;
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
    for (int i = 0; i < nn; i++) {
        if (!bench_close(t[i], ref[i], 1e-5)) {
            if (pass)
                fprintf(stderr, "hotspot: mismatch at %d: %.9g vs %.9g\n", i, t[i], ref[i]);
            pass = 0;
        }
    }

    double sec = bench_median(times, reps);
    double bytes = (double)steps * 3.0 * nn * sizeof(float);
    char size[64];
    snprintf(size, sizeof size, "%dx%d,%dsteps", n, n, steps);
    bench_report("hotspot", size, sec, bytes / sec * 1e-9, "GB/s", pass);

    free(t0);
    free(power);
    free(t);
    free(tmp);
    free(ref);
    free(ref2);
    free(times);
    return 0;
}
