/* nbody.c — all-pairs gravitational N-body in OpenACC, single precision, N bodies
 * (argv[1], default 32768) in structure-of-arrays form. One repetition = one time
 * step: kick and drift with the current accelerations (v += a dt, x += v dt), then
 * the accelerations at the new positions, all pairs with Plummer softening:
 *   a_i = sum_j m_j (x_j - x_i) / (|x_j - x_i|^2 + eps^2)^(3/2)
 * (j = i contributes nothing: its difference vector is zero).
 * GFLOP/s = 20 flops per interaction x N^2 / time (the conventional count of GPU
 * n-body codes: 3 differences, 6 for the softened squared distance, 4 for the
 * reciprocal square root and its cube, 1 for the mass, 6 to accumulate; the O(N)
 * update is not counted).
 * RESULT name: nbody. Verification: the accelerations of 64 sampled bodies at the
 * final positions, recomputed in double; each component must be within 1e-4 x S,
 * S = sum_j m_j r_ij / (r_ij^2 + eps^2)^(3/2), the sum of the magnitudes of the
 * terms (the scale of the float rounding error, whatever the cancellation).
 */
#include <math.h>
#include "../common/bench.h"

#define SOFTENING2 1e-4f /* eps^2, eps = 0.01 */
#define DT 1e-4f

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 32768;
    if (n < 1) {
        fprintf(stderr, "usage: %s [n]\n", argv[0]);
        return 1;
    }
    size_t bytes = (size_t)n * sizeof(float);
    float *x = malloc(bytes), *y = malloc(bytes), *z = malloc(bytes);
    float *vx = malloc(bytes), *vy = malloc(bytes), *vz = malloc(bytes);
    float *ax = malloc(bytes), *ay = malloc(bytes), *az = malloc(bytes);
    float *mass = malloc(bytes);
    int warmup = bench_warmup(), reps = bench_reps();
    double *t = malloc((size_t)reps * sizeof(double));
    if (!x || !y || !z || !vx || !vy || !vz || !ax || !ay || !az || !mass || !t) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    /* Bodies uniform in the unit cube, small random velocities, total mass about 1. */
    for (int i = 0; i < n; i++) {
        x[i] = (float)bench_rand(i, 31);
        y[i] = (float)bench_rand(i, 32);
        z[i] = (float)bench_rand(i, 33);
        vx[i] = (float)(bench_rand(i, 34) - 0.5);
        vy[i] = (float)(bench_rand(i, 35) - 0.5);
        vz[i] = (float)(bench_rand(i, 36) - 0.5);
        mass[i] = (float)((0.5 + bench_rand(i, 37)) / n);
        ax[i] = ay[i] = az[i] = 0.0f;
    }

#pragma acc data copyin(mass[0:n]) copy(x[0:n], y[0:n], z[0:n], vx[0:n], vy[0:n], vz[0:n], \
                                        ax[0:n], ay[0:n], az[0:n])
    {
        for (int r = -warmup; r < reps; r++) {
            double t0 = bench_now();
#pragma acc parallel loop present(x[0:n], y[0:n], z[0:n], vx[0:n], vy[0:n], vz[0:n], \
                                  ax[0:n], ay[0:n], az[0:n])
            for (int i = 0; i < n; i++) {
                vx[i] += ax[i] * DT;
                vy[i] += ay[i] * DT;
                vz[i] += az[i] * DT;
                x[i] += vx[i] * DT;
                y[i] += vy[i] * DT;
                z[i] += vz[i] * DT;
            }
#pragma acc parallel loop gang vector present(x[0:n], y[0:n], z[0:n], mass[0:n], \
                                              ax[0:n], ay[0:n], az[0:n])
            for (int i = 0; i < n; i++) {
                float xi = x[i], yi = y[i], zi = z[i];
                float sx = 0.0f, sy = 0.0f, sz = 0.0f;
                for (int j = 0; j < n; j++) {
                    float dx = x[j] - xi, dy = y[j] - yi, dz = z[j] - zi;
                    float d2 = dx * dx + dy * dy + dz * dz + SOFTENING2;
                    float inv = 1.0f / sqrtf(d2);
                    float s = mass[j] * inv * inv * inv;
                    sx += dx * s;
                    sy += dy * s;
                    sz += dz * s;
                }
                ax[i] = sx;
                ay[i] = sy;
                az[i] = sz;
            }
            double t1 = bench_now();
            if (r >= 0)
                t[r] = t1 - t0;
        }
    }

    /* Serial reference at the final positions, in double, for 64 sampled bodies. */
    int pass = 1;
    for (int s = 0; s < 64; s++) {
        int i = (int)(bench_rand(s, 38) * n);
        double rx = 0, ry = 0, rz = 0, scale = 0;
        for (int j = 0; j < n; j++) {
            double dx = (double)x[j] - x[i], dy = (double)y[j] - y[i], dz = (double)z[j] - z[i];
            double d2 = dx * dx + dy * dy + dz * dz + (double)SOFTENING2;
            double f = mass[j] / (d2 * sqrt(d2));
            rx += dx * f;
            ry += dy * f;
            rz += dz * f;
            scale += sqrt(dx * dx + dy * dy + dz * dz) * f;
        }
        double tol = 1e-4 * scale;
        if (fabs(ax[i] - rx) > tol || fabs(ay[i] - ry) > tol || fabs(az[i] - rz) > tol) {
            fprintf(stderr, "nbody: a[%d] = (%.9g, %.9g, %.9g), want (%.9g, %.9g, %.9g)\n", i, ax[i],
                    ay[i], az[i], rx, ry, rz);
            pass = 0;
        }
    }

    char size[32];
    snprintf(size, sizeof size, "%d", n);
    double sec = bench_median(t, reps);
    bench_report("nbody", size, sec, 20.0 * (double)n * n / sec * 1e-9, "GFLOP/s", pass);
    free(x);
    free(y);
    free(z);
    free(vx);
    free(vy);
    free(vz);
    free(ax);
    free(ay);
    free(az);
    free(mass);
    free(t);
    return 0;
}
