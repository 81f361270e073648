// tolerance: 1e-9
// The shape of NPB BT's line solves (x_solve.c): one thread per grid line
// (j, k) walks the line in sequence, factoring a block-tridiagonal system
// of 5x5 blocks A(i) B(i) C(i) and solving it, with the block routines
// (binvcrhs, matmul_sub, matvec_sub) as `routine seq` functions called on
// the global arrays and on per-thread private 5x5 arrays. The global
// arrays are distinct C objects (the back end may mark them noalias); the
// private arrays are the thread's own. Printed: checksums of the solution
// and of the factored blocks, with a tolerance for fma contraction on the
// device.
#include <stdio.h>
#include <math.h>

#define NJ 12
#define NK 16
#define NI 20

static double lhs[3][NI][NJ][NK][5][5]; /* A, B, C blocks of each point */
static double rhs[NI][NJ][NK][5];

#pragma acc routine seq
static void matvec_sub(const double a[5][5], const double *v, double *r)
{
    for (int m = 0; m < 5; m++)
        r[m] = r[m] - a[m][0] * v[0] - a[m][1] * v[1] - a[m][2] * v[2] - a[m][3] * v[3]
               - a[m][4] * v[4];
}

#pragma acc routine seq
static void matmul_sub(const double a[5][5], const double b[5][5], double c[5][5])
{
    for (int m = 0; m < 5; m++)
        for (int n = 0; n < 5; n++) {
            double s = c[n][m];
            for (int l = 0; l < 5; l++)
                s -= a[n][l] * b[l][m];
            c[n][m] = s;
        }
}

/* Gauss-Jordan on the private copy p of B: B^-1 C into c, B^-1 r into r. */
#pragma acc routine seq
static void binvcrhs(double p[5][5], double c[5][5], double r[5])
{
    for (int n = 0; n < 5; n++) {
        double pivot = 1.0 / p[n][n];
        for (int m = n + 1; m < 5; m++)
            p[n][m] *= pivot;
        for (int m = 0; m < 5; m++)
            c[n][m] *= pivot;
        r[n] *= pivot;
        for (int q = 0; q < 5; q++) {
            if (q == n)
                continue;
            double coeff = p[q][n];
            for (int m = n + 1; m < 5; m++)
                p[q][m] -= coeff * p[n][m];
            for (int m = 0; m < 5; m++)
                c[q][m] -= coeff * c[n][m];
            r[q] -= coeff * r[n];
        }
    }
}

int main(void)
{
    for (int i = 0; i < NI; i++)
        for (int j = 0; j < NJ; j++)
            for (int k = 0; k < NK; k++)
                for (int m = 0; m < 5; m++) {
                    rhs[i][j][k][m] = 1.0 + ((i * 7 + j * 3 + k * 5 + m) % 11) * 0.125;
                    for (int n = 0; n < 5; n++) {
                        double off = ((i + 2 * j + 3 * k + 5 * m + 7 * n) % 9 - 4) * 0.03125;
                        lhs[0][i][j][k][m][n] = off;
                        lhs[2][i][j][k][m][n] = -off * 0.5;
                        lhs[1][i][j][k][m][n] = (m == n ? 4.0 + (k % 3) * 0.25 : off * 0.25);
                    }
                }

#pragma acc parallel loop gang num_gangs(NJ) num_workers(2) vector_length(8) copy(lhs, rhs)
    for (int j = 0; j < NJ; j++) {
#pragma acc loop worker vector
        for (int k = 0; k < NK; k++) {
            double p[5][5]; /* private: the pivot block */
            for (int i = 0; i < NI; i++) {
                if (i > 0) {
                    /* r(i) -= A(i) r(i-1); B(i) -= A(i) C(i-1) */
                    matvec_sub(lhs[0][i][j][k], rhs[i - 1][j][k], rhs[i][j][k]);
                    matmul_sub(lhs[0][i][j][k], lhs[2][i - 1][j][k], lhs[1][i][j][k]);
                }
                for (int m = 0; m < 5; m++)
                    for (int n = 0; n < 5; n++)
                        p[m][n] = lhs[1][i][j][k][m][n];
                binvcrhs(p, lhs[2][i][j][k], rhs[i][j][k]);
                for (int m = 0; m < 5; m++)
                    lhs[1][i][j][k][m][m] = p[m][m];
            }
            /* back substitution: r(i) -= C(i) r(i+1) */
            for (int i = NI - 2; i >= 0; i--)
                for (int m = 0; m < 5; m++)
                    for (int n = 0; n < 5; n++)
                        rhs[i][j][k][m] -= lhs[2][i][j][k][m][n] * rhs[i + 1][j][k][n];
        }
    }

    double sr = 0, sa = 0, sc = 0, worst = 0;
    for (int i = 0; i < NI; i++)
        for (int j = 0; j < NJ; j++)
            for (int k = 0; k < NK; k++)
                for (int m = 0; m < 5; m++) {
                    sr += rhs[i][j][k][m] * (1 + (i + j + k + m) % 4);
                    sa += fabs(rhs[i][j][k][m]);
                    sc += lhs[2][i][j][k][m][(m + 1) % 5] + lhs[1][i][j][k][m][m];
                    if (!(fabs(rhs[i][j][k][m]) < 10.0))
                        worst = rhs[i][j][k][m];
                }
    printf("solution %.15e\n", sr);
    printf("abs %.15e\n", sa);
    printf("factors %.15e\n", sc);
    printf("%s\n", worst == 0 && sa > 1.0 ? "PASS" : "FAIL");
    return 0;
}
