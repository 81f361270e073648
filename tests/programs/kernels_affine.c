// kernels loops the dependence test proves independent from affine
// subscripts (issue 16: the test runs on the IR, not on C text): writes
// and reads of one array that never meet across iterations (GCD: even vs
// odd elements; bounds: two halves; a row's neighbours inside a row; a
// store through pointer arithmetic). Each must give the sequential answer,
// and the loops that do carry a dependence (the inner `j` loop, the shifted
// copy) must stay sequential. Integer results: exact.
#include <stdio.h>

#define N 64
long m[N][N], v[4 * N], w[2 * N], z[N];

int main(void)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            m[i][j] = (i * 31 + j * 7) % 97;
    for (int i = 0; i < 4 * N; i++)
        v[i] = (i * 13) % 29;
    for (int i = 0; i < 2 * N; i++)
        w[i] = i % 11;
#pragma acc kernels copy(m, v, w, z)
    {
        // Rows are independent; inside a row each element takes its right
        // neighbour's old value (a dependence carried by j only).
        for (int i = 0; i < N; i++)
            for (int j = 0; j < N - 1; j++)
                m[i][j] = m[i][j + 1] + i;
        // Even elements from odd ones: never the same element (GCD).
        for (int i = 0; i < 2 * N; i++)
            v[2 * i] = v[2 * i + 1] * 3;
        // The upper half from the lower half: the ranges never meet.
        for (int i = 0; i < N; i++)
            w[i + N] = w[i] + 5;
        // A shifted copy inside one range: a real dependence.
        for (int i = 0; i < N; i++)
            w[i + 1] = w[i] + 1;
        // Pointer arithmetic on an array: `*(z + i)` is z[i].
        for (int i = 0; i < N; i++)
            *(z + i) = i * 3;
    }
    long sum = 0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            sum += m[i][j] * (j + 1);
    long sv = 0, sw = 0, sz = 0;
    for (int i = 0; i < 4 * N; i++)
        sv += v[i] * (i % 5 + 1);
    for (int i = 0; i < 2 * N; i++)
        sw += w[i] * (i % 3 + 1);
    for (int i = 0; i < N; i++)
        sz += z[i];
    printf("m %ld\nv %ld\nw %ld\nz %ld\n", sum, sv, sw, sz);
    printf("%s\n", sum > 0 && sv > 0 && sw > 0 && sz == 3 * N * (N - 1) / 2 ? "PASS" : "FAIL");
    return 0;
}
