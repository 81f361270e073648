// Loop scheduling in kernels constructs: the OpenUH mappings chosen with
// gang/vector clauses (g-v, gv-v, g-gv, gv-gv for two loops; g-gv-v,
// v-gv-gv, v-gv-g, gv-gv-gv for three), sizes given by gang(n)/vector(n),
// loops the compiler parallelises by itself (and one it must not: a
// recurrence), and several loop nests in one kernels region (one kernel
// each, launched in order). Bounds are not multiples of the block sizes.
#include <stdio.h>

#define X 67
#define Y 45
#define Z 29

static double sum3(double (*a)[Y][Z])
{
    double s = 0;
    for (int i = 0; i < X; i++)
        for (int j = 0; j < Y; j++)
            for (int k = 0; k < Z; k++)
                s += a[i][j][k] * ((i + 2 * j + 3 * k) % 5 + 1);
    return s;
}

static double sum2(double (*a)[Y])
{
    double s = 0;
    for (int i = 0; i < X; i++)
        for (int j = 0; j < Y; j++)
            s += a[i][j] * ((i * 7 + j) % 11 + 1);
    return s;
}

int main(void)
{
    static double m2[8][X][Y], m3[8][X][Y][Z], r[X];
    // two loops
#pragma acc kernels copyout(m2)
    {
#pragma acc loop gang
        for (int i = 0; i < X; i++)
#pragma acc loop vector(32)
            for (int j = 0; j < Y; j++)
                m2[0][i][j] = i + 0.5 * j;
#pragma acc loop gang vector(4)
        for (int i = 0; i < X; i++)
#pragma acc loop vector(32)
            for (int j = 0; j < Y; j++)
                m2[1][i][j] = i - 0.25 * j;
#pragma acc loop gang(11)
        for (int i = 0; i < X; i++)
#pragma acc loop gang(3) vector(16)
            for (int j = 0; j < Y; j++)
                m2[2][i][j] = i * j;
#pragma acc loop gang vector(8)
        for (int i = 0; i < X; i++)
#pragma acc loop gang vector(16)
            for (int j = 0; j < Y; j++)
                m2[3][i][j] = (i + 1.0) / (j + 1.0);
        // no clauses: the compiler's choice (coalescing on j)
        for (int i = 0; i < X; i++)
            for (int j = 0; j < Y; j++)
                m2[4][i][j] = 2.0 * i + j;
        // no clauses, the contiguous index outermost (Stencil/Map3_3 lesson)
        for (int j = 0; j < Y; j++)
            for (int i = 0; i < X; i++)
                m2[5][i][j] = i - 3.0 * j;
    }
    // three loops
#pragma acc kernels copyout(m3)
    {
#pragma acc loop gang
        for (int i = 0; i < X; i++)
#pragma acc loop gang vector(4)
            for (int j = 0; j < Y; j++)
#pragma acc loop vector(32)
                for (int k = 0; k < Z; k++)
                    m3[0][i][j][k] = i + j * 0.5 + k * 0.25;
#pragma acc loop vector(2)
        for (int i = 0; i < X; i++)
#pragma acc loop gang vector(4)
            for (int j = 0; j < Y; j++)
#pragma acc loop gang vector(32)
                for (int k = 0; k < Z; k++)
                    m3[1][i][j][k] = i * 0.5 - j + k;
#pragma acc loop vector(32)
        for (int k = 0; k < Z; k++)
#pragma acc loop gang vector(4)
            for (int j = 0; j < Y; j++)
#pragma acc loop gang
                for (int i = 0; i < X; i++)
                    m3[2][i][j][k] = i * j + k;
#pragma acc loop gang vector(2)
        for (int i = 0; i < X; i++)
#pragma acc loop gang vector(4)
            for (int j = 0; j < Y; j++)
#pragma acc loop gang vector(32)
                for (int k = 0; k < Z; k++)
                    m3[3][i][j][k] = (i + j + k) % 7;
        for (int i = 0; i < X; i++)
            for (int j = 0; j < Y; j++)
                for (int k = 0; k < Z; k++)
                    m3[4][i][j][k] = i - j - k;
    }
    // a recurrence the dependence test must leave sequential
    r[0] = 1.0;
#pragma acc kernels copy(r)
    for (int i = 1; i < X; i++)
        r[i] = r[i - 1] * 1.01 + i;

    for (int v = 0; v < 6; v++)
        printf("m2[%d] %.6e\n", v, sum2(m2[v]));
    for (int v = 0; v < 5; v++)
        printf("m3[%d] %.6e\n", v, sum3(m3[v]));
    printf("r %.10e\nPASS\n", r[X - 1]);
    return 0;
}
