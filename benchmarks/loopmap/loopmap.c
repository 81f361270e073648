/* loopmap.c — the loop-mapping study of the OpenUH paper
 * (shared/seeds/openuh-loop-mapping-runtime.txt §5) on accc: six kernels, each
 * run in a kernels construct with every applicable gang/vector mapping given by
 * clauses, and with no clauses (`loop auto`: accc's own choice).
 *   double nests: Jacobi 2048^2 (one 5-point sweep), DGEMM 2048^2, Gaussblur
 *                 1024^2 (5x5), each as Map2_1 (g-v), Map2_2 (gv-v), Map2_3 (g-gv),
 *                 Map2_4 (gv-gv), auto;
 *   triple nests: Stencil 512x512x64 (7 points, the contiguous index on the
 *                 OUTER loop), Laplacian 128^3 (7 points), Wave13pt 128^3 (13
 *                 points), each as Map3_1 (g-gv-v), Map3_2 (v-gv-gv), Map3_3
 *                 (v-gv-g), gv-gv-gv, auto.
 * One RESULT line per (kernel, mapping): <kernel>_<mapping>, the median time of
 * one application, GB/s of its minimal traffic (each input read once, the output
 * written once; GFLOP/s for DGEMM). Every mapping's output is checked against a
 * serial computation (DGEMM: 64 sampled entries). */
#include <math.h>
#include "../common/bench.h"

#define PRAGMA(x) _Pragma(#x)

#define JN 2048
#define DN 2048
#define GN 1024
#define SX 512
#define SY 512
#define SZ 64
#define LN 128

static double ja[JN][JN], jb[JN][JN], jref[JN][JN];
static double da[DN][DN], db[DN][DN], dc[DN][DN];
static double ga[GN][GN], gb[GN][GN], gref[GN][GN];
static double sa[SZ][SY][SX], sb[SZ][SY][SX], sref[SZ][SY][SX];
static double la[LN][LN][LN], lb[LN][LN][LN], lref[LN][LN][LN];
static double wu[LN][LN][LN], wv[LN][LN][LN], wb[LN][LN][LN], wref[LN][LN][LN];
static const double gw[5][5] = { { 1, 4, 6, 4, 1 }, { 4, 16, 24, 16, 4 }, { 6, 24, 36, 24, 6 },
                                 { 4, 16, 24, 16, 4 }, { 1, 4, 6, 4, 1 } };

/* The loop bodies, shared by every mapping. */
#define JACOBI_BODY ja[i][j] = 0.25 * (jb[i - 1][j] + jb[i + 1][j] + jb[i][j - 1] + jb[i][j + 1])
#define DGEMM_BODY                      \
    {                                   \
        double s = 0;                   \
        for (int k = 0; k < DN; k++)    \
            s += da[i][k] * db[k][j];   \
        dc[i][j] = s;                   \
    }
#define GAUSS_BODY                                            \
    {                                                         \
        double s = 0;                                         \
        for (int p = -2; p <= 2; p++)                         \
            for (int q = -2; q <= 2; q++)                     \
                s += (1.0 / 256) * gw[p + 2][q + 2] * ga[i + p][j + q]; \
        gb[i][j] = s;                                         \
    }
/* Stencil: loops x (outer, contiguous), y, z (inner). */
#define STENCIL_BODY                                                                         \
    sb[z][y][x] = 0.5 * sa[z][y][x] + (1.0 / 12) * (sa[z - 1][y][x] + sa[z + 1][y][x] +     \
                                                   sa[z][y - 1][x] + sa[z][y + 1][x] +     \
                                                   sa[z][y][x - 1] + sa[z][y][x + 1])
#define LAPLACE_BODY                                                                        \
    lb[i][j][k] = la[i - 1][j][k] + la[i + 1][j][k] + la[i][j - 1][k] + la[i][j + 1][k] +   \
                  la[i][j][k - 1] + la[i][j][k + 1] - 6.0 * la[i][j][k]
#define WAVE_BODY                                                                           \
    wb[i][j][k] = 2.0 * wu[i][j][k] - wv[i][j][k] +                                         \
                  0.1 * (-7.5 * wu[i][j][k] + (4.0 / 3) * (wu[i - 1][j][k] + wu[i + 1][j][k] + \
                                                          wu[i][j - 1][k] + wu[i][j + 1][k] + \
                                                          wu[i][j][k - 1] + wu[i][j][k + 1]) - \
                         (1.0 / 12) * (wu[i - 2][j][k] + wu[i + 2][j][k] + wu[i][j - 2][k] + \
                                      wu[i][j + 2][k] + wu[i][j][k - 2] + wu[i][j][k + 2]))

/* A double nest with mapping clauses P1 (outer), P2 (inner). */
#define NEST2(NAME, PRESENT, P1, LO1, HI1, P2, LO2, HI2, BODY) \
    static void NAME(void)                                      \
    {                                                           \
        PRAGMA(acc kernels present PRESENT)                     \
        {                                                       \
            PRAGMA(acc loop P1)                                 \
            for (int i = LO1; i < HI1; i++) {                   \
                PRAGMA(acc loop P2)                             \
                for (int j = LO2; j < HI2; j++)                 \
                    BODY;                                       \
            }                                                   \
        }                                                       \
    }
#define NEST3(NAME, PRESENT, V1, P1, LO1, HI1, V2, P2, LO2, HI2, V3, P3, LO3, HI3, BODY) \
    static void NAME(void)                                                             \
    {                                                                                  \
        PRAGMA(acc kernels present PRESENT)                                            \
        {                                                                              \
            PRAGMA(acc loop P1)                                                        \
            for (int V1 = LO1; V1 < HI1; V1++) {                                       \
                PRAGMA(acc loop P2)                                                    \
                for (int V2 = LO2; V2 < HI2; V2++) {                                   \
                    PRAGMA(acc loop P3)                                                \
                    for (int V3 = LO3; V3 < HI3; V3++)                                 \
                        BODY;                                                          \
                }                                                                      \
            }                                                                          \
        }                                                                              \
    }

#define JP (ja, jb)
NEST2(jacobi_map2_1, JP, gang, 1, JN - 1, vector(128), 1, JN - 1, JACOBI_BODY)
NEST2(jacobi_map2_2, JP, gang vector(2), 1, JN - 1, vector(128), 1, JN - 1, JACOBI_BODY)
NEST2(jacobi_map2_3, JP, gang, 1, JN - 1, gang vector(128), 1, JN - 1, JACOBI_BODY)
NEST2(jacobi_map2_4, JP, gang vector(2), 1, JN - 1, gang vector(128), 1, JN - 1, JACOBI_BODY)
NEST2(jacobi_auto, JP, auto, 1, JN - 1, auto, 1, JN - 1, JACOBI_BODY)
#define DP (da, db, dc)
NEST2(dgemm_map2_1, DP, gang, 0, DN, vector(128), 0, DN, DGEMM_BODY)
NEST2(dgemm_map2_2, DP, gang vector(2), 0, DN, vector(128), 0, DN, DGEMM_BODY)
NEST2(dgemm_map2_3, DP, gang, 0, DN, gang vector(128), 0, DN, DGEMM_BODY)
NEST2(dgemm_map2_4, DP, gang vector(2), 0, DN, gang vector(128), 0, DN, DGEMM_BODY)
NEST2(dgemm_auto, DP, auto, 0, DN, auto, 0, DN, DGEMM_BODY)
#define GP (ga, gb)
NEST2(gauss_map2_1, GP, gang, 2, GN - 2, vector(128), 2, GN - 2, GAUSS_BODY)
NEST2(gauss_map2_2, GP, gang vector(2), 2, GN - 2, vector(128), 2, GN - 2, GAUSS_BODY)
NEST2(gauss_map2_3, GP, gang, 2, GN - 2, gang vector(128), 2, GN - 2, GAUSS_BODY)
NEST2(gauss_map2_4, GP, gang vector(2), 2, GN - 2, gang vector(128), 2, GN - 2, GAUSS_BODY)
NEST2(gauss_auto, GP, auto, 2, GN - 2, auto, 2, GN - 2, GAUSS_BODY)
#define SP (sa, sb)
NEST3(stencil_map3_1, SP, x, gang, 1, SX - 1, y, gang vector(2), 1, SY - 1, z, vector(64), 1, SZ - 1, STENCIL_BODY)
NEST3(stencil_map3_2, SP, x, vector(2), 1, SX - 1, y, gang vector(4), 1, SY - 1, z, gang vector(16), 1, SZ - 1, STENCIL_BODY)
NEST3(stencil_map3_3, SP, x, vector(128), 1, SX - 1, y, gang vector(2), 1, SY - 1, z, gang, 1, SZ - 1, STENCIL_BODY)
NEST3(stencil_gv3, SP, x, gang vector(64), 1, SX - 1, y, gang vector(4), 1, SY - 1, z, gang vector(2), 1, SZ - 1, STENCIL_BODY)
NEST3(stencil_auto, SP, x, auto, 1, SX - 1, y, auto, 1, SY - 1, z, auto, 1, SZ - 1, STENCIL_BODY)
#define LP (la, lb)
NEST3(laplace_map3_1, LP, i, gang, 1, LN - 1, j, gang vector(2), 1, LN - 1, k, vector(128), 1, LN - 1, LAPLACE_BODY)
NEST3(laplace_map3_2, LP, i, vector(2), 1, LN - 1, j, gang vector(4), 1, LN - 1, k, gang vector(64), 1, LN - 1, LAPLACE_BODY)
NEST3(laplace_map3_3, LP, i, vector(128), 1, LN - 1, j, gang vector(2), 1, LN - 1, k, gang, 1, LN - 1, LAPLACE_BODY)
NEST3(laplace_gv3, LP, i, gang vector(2), 1, LN - 1, j, gang vector(4), 1, LN - 1, k, gang vector(64), 1, LN - 1, LAPLACE_BODY)
NEST3(laplace_auto, LP, i, auto, 1, LN - 1, j, auto, 1, LN - 1, k, auto, 1, LN - 1, LAPLACE_BODY)
#define WP (wu, wv, wb)
NEST3(wave_map3_1, WP, i, gang, 2, LN - 2, j, gang vector(2), 2, LN - 2, k, vector(128), 2, LN - 2, WAVE_BODY)
NEST3(wave_map3_2, WP, i, vector(2), 2, LN - 2, j, gang vector(4), 2, LN - 2, k, gang vector(64), 2, LN - 2, WAVE_BODY)
NEST3(wave_map3_3, WP, i, vector(128), 2, LN - 2, j, gang vector(2), 2, LN - 2, k, gang, 2, LN - 2, WAVE_BODY)
NEST3(wave_gv3, WP, i, gang vector(2), 2, LN - 2, j, gang vector(4), 2, LN - 2, k, gang vector(64), 2, LN - 2, WAVE_BODY)
NEST3(wave_auto, WP, i, auto, 2, LN - 2, j, auto, 2, LN - 2, k, auto, 2, LN - 2, WAVE_BODY)

/* Times `f` (median of the repetitions after the warm-up) and checks its
 * output with `check` (which first fetches the output from the device). */
static void measure(const char *name, const char *size, void (*f)(void), int (*check)(void),
                    double bytes, double flops)
{
    int warmup = bench_warmup(), reps = bench_reps();
    double t[64];
    if (reps > 64)
        reps = 64;
    for (int r = -warmup; r < reps; r++) {
        double t0 = bench_now();
        f();
        double t1 = bench_now();
        if (r >= 0)
            t[r] = t1 - t0;
    }
    double sec = bench_median(t, reps);
    int pass = check();
    if (flops > 0)
        bench_report(name, size, sec, flops / sec * 1e-9, "GFLOP/s", pass);
    else
        bench_report(name, size, sec, bytes / sec * 1e-9, "GB/s", pass);
}

/* Checks: fetch the output, compare with the serial reference, clear it. */
static int check_jacobi(void)
{
#pragma acc update self(ja)
    int ok = 1;
    for (int i = 1; i < JN - 1 && ok; i++)
        for (int j = 1; j < JN - 1; j++)
            if (!bench_close(ja[i][j], jref[i][j], 1e-12)) {
                fprintf(stderr, "jacobi: [%d][%d] = %g, want %g\n", i, j, ja[i][j], jref[i][j]);
                ok = 0;
                break;
            }
    memset(ja, 0, sizeof ja);
#pragma acc update device(ja)
    return ok;
}

static int check_dgemm(void)
{
#pragma acc update self(dc)
    int ok = 1;
    for (int s = 0; s < 64; s++) {
        int i = (int)(bench_rand(s, 21) * DN), j = (int)(bench_rand(s, 22) * DN);
        double ref = 0;
        for (int k = 0; k < DN; k++)
            ref += da[i][k] * db[k][j];
        if (!bench_close(dc[i][j], ref, 1e-10)) {
            fprintf(stderr, "dgemm: [%d][%d] = %g, want %g\n", i, j, dc[i][j], ref);
            ok = 0;
        }
    }
    memset(dc, 0, sizeof dc);
#pragma acc update device(dc)
    return ok;
}

static int check_gauss(void)
{
#pragma acc update self(gb)
    int ok = 1;
    for (int i = 2; i < GN - 2 && ok; i++)
        for (int j = 2; j < GN - 2; j++)
            if (!bench_close(gb[i][j], gref[i][j], 1e-12)) {
                fprintf(stderr, "gauss: [%d][%d] = %g, want %g\n", i, j, gb[i][j], gref[i][j]);
                ok = 0;
                break;
            }
    memset(gb, 0, sizeof gb);
#pragma acc update device(gb)
    return ok;
}

#define CHECK3(NAME, OUT, REF, D0, D1, D2, B)                                                  \
    static int NAME(void)                                                                      \
    {                                                                                          \
        PRAGMA(acc update self(OUT))                                                           \
        int ok = 1;                                                                            \
        for (int a = B; a < D0 - B && ok; a++)                                                 \
            for (int b = B; b < D1 - B && ok; b++)                                             \
                for (int c = B; c < D2 - B; c++)                                               \
                    if (!bench_close(OUT[a][b][c], REF[a][b][c], 1e-12)) {                     \
                        fprintf(stderr, #NAME ": [%d][%d][%d] = %g, want %g\n", a, b, c,       \
                                OUT[a][b][c], REF[a][b][c]);                                    \
                        ok = 0;                                                                \
                        break;                                                                 \
                    }                                                                          \
        memset(OUT, 0, sizeof OUT);                                                            \
        PRAGMA(acc update device(OUT))                                                         \
        return ok;                                                                             \
    }
CHECK3(check_stencil, sb, sref, SZ, SY, SX, 1)
CHECK3(check_laplace, lb, lref, LN, LN, LN, 1)
CHECK3(check_wave, wb, wref, LN, LN, LN, 2)

int main(void)
{
    for (int i = 0; i < JN; i++)
        for (int j = 0; j < JN; j++)
            jb[i][j] = bench_rand((unsigned long long)i * JN + j, 1);
    for (int i = 0; i < DN; i++)
        for (int j = 0; j < DN; j++) {
            da[i][j] = bench_rand((unsigned long long)i * DN + j, 2) - 0.5;
            db[i][j] = bench_rand((unsigned long long)i * DN + j, 3) - 0.5;
        }
    for (int i = 0; i < GN; i++)
        for (int j = 0; j < GN; j++)
            ga[i][j] = bench_rand((unsigned long long)i * GN + j, 4);
    for (int z = 0; z < SZ; z++)
        for (int y = 0; y < SY; y++)
            for (int x = 0; x < SX; x++)
                sa[z][y][x] = bench_rand(((unsigned long long)z * SY + y) * SX + x, 5);
    for (int i = 0; i < LN; i++)
        for (int j = 0; j < LN; j++)
            for (int k = 0; k < LN; k++) {
                unsigned long long n = ((unsigned long long)i * LN + j) * LN + k;
                la[i][j][k] = bench_rand(n, 6);
                wu[i][j][k] = bench_rand(n, 7);
                wv[i][j][k] = bench_rand(n, 8);
            }
    /* Serial references: the same bodies, run once. */
    for (int i = 1; i < JN - 1; i++)
        for (int j = 1; j < JN - 1; j++)
            jref[i][j] = 0.25 * (jb[i - 1][j] + jb[i + 1][j] + jb[i][j - 1] + jb[i][j + 1]);
    for (int i = 2; i < GN - 2; i++)
        for (int j = 2; j < GN - 2; j++) {
            double s = 0;
            for (int p = -2; p <= 2; p++)
                for (int q = -2; q <= 2; q++)
                    s += (1.0 / 256) * gw[p + 2][q + 2] * ga[i + p][j + q];
            gref[i][j] = s;
        }
    for (int x = 1; x < SX - 1; x++)
        for (int y = 1; y < SY - 1; y++)
            for (int z = 1; z < SZ - 1; z++) {
                double *out = &sref[z][y][x];
                *out = 0.5 * sa[z][y][x] + (1.0 / 12) * (sa[z - 1][y][x] + sa[z + 1][y][x] + sa[z][y - 1][x] +
                                                         sa[z][y + 1][x] + sa[z][y][x - 1] + sa[z][y][x + 1]);
            }
    for (int i = 1; i < LN - 1; i++)
        for (int j = 1; j < LN - 1; j++)
            for (int k = 1; k < LN - 1; k++)
                lref[i][j][k] = la[i - 1][j][k] + la[i + 1][j][k] + la[i][j - 1][k] + la[i][j + 1][k] +
                                la[i][j][k - 1] + la[i][j][k + 1] - 6.0 * la[i][j][k];
    for (int i = 2; i < LN - 2; i++)
        for (int j = 2; j < LN - 2; j++)
            for (int k = 2; k < LN - 2; k++) {
                double *out = &wref[i][j][k];
                *out = 2.0 * wu[i][j][k] - wv[i][j][k] +
                       0.1 * (-7.5 * wu[i][j][k] +
                              (4.0 / 3) * (wu[i - 1][j][k] + wu[i + 1][j][k] + wu[i][j - 1][k] + wu[i][j + 1][k] +
                                           wu[i][j][k - 1] + wu[i][j][k + 1]) -
                              (1.0 / 12) * (wu[i - 2][j][k] + wu[i + 2][j][k] + wu[i][j - 2][k] + wu[i][j + 2][k] +
                                            wu[i][j][k - 2] + wu[i][j][k + 2]));
            }

    double j2 = 2.0 * 8 * (double)(JN - 2) * (JN - 2), d2 = 2.0 * DN * (double)DN * DN;
    double g2 = 2.0 * 8 * (double)(GN - 4) * (GN - 4);
    double s3 = 2.0 * 8 * (double)(SX - 2) * (SY - 2) * (SZ - 2);
    double l3 = 2.0 * 8 * (double)(LN - 2) * (LN - 2) * (LN - 2);
    double w3 = 3.0 * 8 * (double)(LN - 4) * (LN - 4) * (LN - 4);
#pragma acc data copyin(jb, da, db, ga, sa, la, wu, wv) copy(ja, dc, gb, sb, lb, wb)
    {
        measure("jacobi_map2_1", "2048^2", jacobi_map2_1, check_jacobi, j2, 0);
        measure("jacobi_map2_2", "2048^2", jacobi_map2_2, check_jacobi, j2, 0);
        measure("jacobi_map2_3", "2048^2", jacobi_map2_3, check_jacobi, j2, 0);
        measure("jacobi_map2_4", "2048^2", jacobi_map2_4, check_jacobi, j2, 0);
        measure("jacobi_auto", "2048^2", jacobi_auto, check_jacobi, j2, 0);
        measure("dgemm_map2_1", "2048^2", dgemm_map2_1, check_dgemm, 0, d2);
        measure("dgemm_map2_2", "2048^2", dgemm_map2_2, check_dgemm, 0, d2);
        measure("dgemm_map2_3", "2048^2", dgemm_map2_3, check_dgemm, 0, d2);
        measure("dgemm_map2_4", "2048^2", dgemm_map2_4, check_dgemm, 0, d2);
        measure("dgemm_auto", "2048^2", dgemm_auto, check_dgemm, 0, d2);
        measure("gauss_map2_1", "1024^2", gauss_map2_1, check_gauss, g2, 0);
        measure("gauss_map2_2", "1024^2", gauss_map2_2, check_gauss, g2, 0);
        measure("gauss_map2_3", "1024^2", gauss_map2_3, check_gauss, g2, 0);
        measure("gauss_map2_4", "1024^2", gauss_map2_4, check_gauss, g2, 0);
        measure("gauss_auto", "1024^2", gauss_auto, check_gauss, g2, 0);
        measure("stencil_map3_1", "512x512x64", stencil_map3_1, check_stencil, s3, 0);
        measure("stencil_map3_2", "512x512x64", stencil_map3_2, check_stencil, s3, 0);
        measure("stencil_map3_3", "512x512x64", stencil_map3_3, check_stencil, s3, 0);
        measure("stencil_gv3", "512x512x64", stencil_gv3, check_stencil, s3, 0);
        measure("stencil_auto", "512x512x64", stencil_auto, check_stencil, s3, 0);
        measure("laplace_map3_1", "128^3", laplace_map3_1, check_laplace, l3, 0);
        measure("laplace_map3_2", "128^3", laplace_map3_2, check_laplace, l3, 0);
        measure("laplace_map3_3", "128^3", laplace_map3_3, check_laplace, l3, 0);
        measure("laplace_gv3", "128^3", laplace_gv3, check_laplace, l3, 0);
        measure("laplace_auto", "128^3", laplace_auto, check_laplace, l3, 0);
        measure("wave_map3_1", "128^3", wave_map3_1, check_wave, w3, 0);
        measure("wave_map3_2", "128^3", wave_map3_2, check_wave, w3, 0);
        measure("wave_map3_3", "128^3", wave_map3_3, check_wave, w3, 0);
        measure("wave_gv3", "128^3", wave_gv3, check_wave, w3, 0);
        measure("wave_auto", "128^3", wave_auto, check_wave, w3, 0);
    }
    return 0;
}
