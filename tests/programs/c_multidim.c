// The data layouts real codes use: multi-dimensional arrays with constant
// sizes as globals, file statics, function statics and locals
// (NPB-style u[K][J][I][5]); pointer-to-array parameters
// (double (*rhs)[J][I][5]); C99 variable-length array parameters
// (double a[n][m]); typedefs for all of them; sub-arrays on several
// dimensions in data clauses (a[0:n][0:m], u[1:k], a[i][0:m]); an extern
// global defined later in the file.
#include <stdio.h>
#include <stdlib.h>

#define K 6
#define J 7
#define I 9
typedef double field_t[K][J][I][5];

field_t u;                       // global
static double rhs_s[K][J][I][5]; // file static
extern int coef[5];              // declared extern, defined below

static void compute_rhs(double (*rhs)[J][I][5], int k0, int k1)
{
#pragma acc parallel loop gang copyin(u[k0:k1 - k0]) copyout(rhs[k0:k1 - k0])
    for (int k = k0; k < k1; k++)
#pragma acc loop worker
        for (int j = 0; j < J; j++)
#pragma acc loop vector
            for (int i = 0; i < I; i++)
                for (int m = 0; m < 5; m++)
                    rhs[k][j][i][m] = u[k][j][i][m] * coef[m] - (i > 0 ? u[k][j][i - 1][m] : 0.0);
}

static void vla_stencil(int n, int m, const double a[n][m], double b[n][m])
{
#pragma acc parallel loop copyin(a[0:n][0:m]) copyout(b[1:n - 2][0:m])
    for (int i = 1; i < n - 1; i++)
        for (int j = 0; j < m; j++)
            b[i][j] = a[i - 1][j] + a[i + 1][j] - 2.0 * a[i][j] + (double)sizeof(a[0]) / m;
}

static void row_only(int n, int m, double a[n][m], int row)
{
#pragma acc parallel loop copy(a[row][0:m])
    for (int j = 0; j < m; j++)
        a[row][j] = -a[row][j];
}

#pragma acc routine seq
static double weighted_trace(int n, int m, const double a[n][m])   // a VLA parameter of a routine
{
    double t = 0;
    for (int i = 0; i < n && i < m; i++)
        t += a[i][i] * (i + 1) + a[n - 1 - i][0];
    return t;
}

int coef[5] = { 1, 2, 3, 4, 5 };

int main(void)
{
    static float fstat[3][40];          // function static
    int local3[4][5][6];                // local
    for (int k = 0; k < K; k++)
        for (int j = 0; j < J; j++)
            for (int i = 0; i < I; i++)
                for (int m = 0; m < 5; m++)
                    u[k][j][i][m] = k * 1000 + j * 100 + i * 10 + m;
    for (int a = 0; a < 4; a++)
        for (int b = 0; b < 5; b++)
            for (int c = 0; c < 6; c++)
                local3[a][b][c] = a - b + c;

    compute_rhs(rhs_s, 0, 3);
    compute_rhs(rhs_s, 3, K);

#pragma acc parallel loop copy(fstat, local3)
    for (int r = 0; r < 3; r++) {
        for (int c = 0; c < 40; c++)
            fstat[r][c] = r * 0.5f + c;
        for (int b = 0; b < 5; b++)
            local3[r][b][r] += local3[r + 1][b][5 - r];
    }

    int n = 11, m = 13;
    double (*a)[m] = malloc(sizeof(double[n][m]));
    double (*b)[m] = malloc(sizeof(double[n][m]));
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) {
            a[i][j] = (i * 31 + j * 17) % 23;
            b[i][j] = 0;
        }
    vla_stencil(n, m, (const double (*)[m])a, b);
    row_only(n, m, a, 4);
    double traces[3];
#pragma acc parallel loop copyin(a[0:n][0:m]) copyout(traces)
    for (int q = 0; q < 3; q++)
        traces[q] = weighted_trace(n - q, m, (const double (*)[m])a) + q;

    double s = 0;
    long t = 0;
    for (int k = 0; k < K; k++)
        for (int j = 0; j < J; j++)
            for (int i = 0; i < I; i++)
                for (int q = 0; q < 5; q++)
                    s += rhs_s[k][j][i][q] * (q + 1);
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 40; c++)
            s += fstat[r][c];
    for (int x = 0; x < 4; x++)
        for (int y = 0; y < 5; y++)
            for (int z = 0; z < 6; z++)
                t += local3[x][y][z] * (x + y + z);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            s += a[i][j] * 3 + b[i][j];
    s += traces[0] + traces[1] * 2 + traces[2] * 3;
    printf("%.10e %ld\n", s, t);
    free(a);
    free(b);
    printf("PASS\n");
    return 0;
}
