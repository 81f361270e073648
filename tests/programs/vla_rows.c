// tolerance: 1e-9
// The shape of NPB SP's line solves (adi.c x_solve): the coefficient rows
// of a pentadiagonal system are the rows of variable-length arrays,
// `lhs[5][nz + 1][NI][NJ]`, whose row distance is computed at run time.
// One thread per line (k, j) walks i in sequence (Thomas algorithm),
// storing to lhs[3][k][i][j] and reading it back after storing to
// lhs[4][k][i][j]: the back end keeps the rows apart (analysis/parts.rs)
// and the value in a register. A row chosen by a variable (`rhs[m]`)
// stays an ordinary access. Printed: checksums of the solution and the
// factored coefficients (tolerance for fma contraction on the device),
// and PASS when they agree with the same sweep run on the host (`if`).
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#define NI 24
#define NJ 20

static void solve(int nz, int on_device, double out[2])
{
    double lhs[5][nz + 1][NI][NJ];
    double rhs[3][nz + 1][NI][NJ];
    for (int k = 0; k <= nz; k++)
        for (int i = 0; i < NI; i++)
            for (int j = 0; j < NJ; j++) {
                lhs[0][k][i][j] = 0.05 * ((i + j + k) % 7);
                lhs[1][k][i][j] = -0.5 - 0.01 * ((i * 3 + j) % 5);
                lhs[2][k][i][j] = 4.0 + 0.1 * ((j + k) % 3);
                lhs[3][k][i][j] = -0.5 + 0.02 * ((i + 2 * k) % 4);
                lhs[4][k][i][j] = 0.05 * ((i + k * j) % 6);
                for (int m = 0; m < 3; m++)
                    rhs[m][k][i][j] = 1.0 + 0.001 * (m + i + j * 2 + k * 3);
            }
#pragma acc data copy(lhs, rhs) if(on_device)
    {
#pragma acc parallel loop gang num_gangs(nz) num_workers(4) vector_length(32) if(on_device)
        for (int k = 1; k <= nz; k++) {
#pragma acc loop worker vector
            for (int j = 0; j < NJ; j++) {
                for (int i = 0; i < NI - 2; i++) {
                    int i1 = i + 1, i2 = i + 2;
                    double fac1 = 1.0 / lhs[2][k][i][j];
                    lhs[3][k][i][j] = fac1 * lhs[3][k][i][j];
                    lhs[4][k][i][j] = fac1 * lhs[4][k][i][j];
                    for (int m = 0; m < 3; m++)
                        rhs[m][k][i][j] = fac1 * rhs[m][k][i][j];
                    lhs[2][k][i1][j] = lhs[2][k][i1][j] - lhs[1][k][i1][j] * lhs[3][k][i][j];
                    lhs[3][k][i1][j] = lhs[3][k][i1][j] - lhs[1][k][i1][j] * lhs[4][k][i][j];
                    for (int m = 0; m < 3; m++)
                        rhs[m][k][i1][j] = rhs[m][k][i1][j] - lhs[1][k][i1][j] * rhs[m][k][i][j];
                    lhs[1][k][i2][j] = lhs[1][k][i2][j] - lhs[0][k][i2][j] * lhs[3][k][i][j];
                    lhs[2][k][i2][j] = lhs[2][k][i2][j] - lhs[0][k][i2][j] * lhs[4][k][i][j];
                    for (int m = 0; m < 3; m++)
                        rhs[m][k][i2][j] = rhs[m][k][i2][j] - lhs[0][k][i2][j] * rhs[m][k][i][j];
                }
                for (int i = NI - 3; i >= 0; i--)
                    for (int m = 0; m < 3; m++)
                        rhs[m][k][i][j] = rhs[m][k][i][j] - lhs[3][k][i][j] * rhs[m][k][i + 1][j]
                                          - lhs[4][k][i][j] * rhs[m][k][i + 2][j];
            }
        }
    }
    double s = 0, t = 0;
    for (int k = 1; k <= nz; k++)
        for (int i = 0; i < NI; i++)
            for (int j = 0; j < NJ; j++) {
                for (int m = 0; m < 3; m++)
                    s += rhs[m][k][i][j] * (1 + (i + j + k + m) % 5);
                for (int m = 0; m < 5; m++)
                    t += lhs[m][k][i][j] * (1 + (i * j + m) % 3);
            }
    out[0] = s;
    out[1] = t;
}

int main(int argc, char **argv)
{
    int nz = argc > 1 ? atoi(argv[1]) : 9;
    double r[2], h[2];
    solve(nz, 1, r);
    solve(nz, 0, h); /* the same sweep on the host: the check */
    printf("solution checksum %.10f\n", r[0]);
    printf("factors checksum %.10f\n", r[1]);
    int ok = 1;
    for (int q = 0; q < 2; q++)
        ok &= fabs(r[q] - h[q]) <= 1e-9 * fabs(h[q]);
    printf("%s\n", ok ? "PASS" : "FAIL");
    return 0;
}
