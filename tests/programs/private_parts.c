// Sub-arrays and elements of arrays in private clauses, as NPB-style code
// writes them (`private(tmp[0:5])`): the whole array is private to each gang
// (on the construct) or each thread (on a vector loop).
#include <stdio.h>

#define N 24
#define NC 5

static double u[N][N][NC], r[N][N];

int main(void)
{
    int i, j, m;
    double tmp[NC], w[3];
    for (j = 0; j < N; j++)
        for (i = 0; i < N; i++)
            for (m = 0; m < NC; m++)
                u[j][i][m] = (j * 7 + i * 3 + m * 5) % 13 - 6;

#pragma acc parallel loop gang copyin(u) copyout(r) private(w[0:3])
    for (j = 0; j < N; j++) {
        w[0] = j;
        w[1] = 2 * j;
        w[2] = 0.5;
#pragma acc loop vector private(tmp[0:NC], m)
        for (i = 0; i < N; i++) {
            for (m = 0; m < NC; m++)
                tmp[m] = u[j][i][m] * w[2];
            r[j][i] = tmp[0] * tmp[4] - tmp[1] + w[(i + j) % 2];
        }
    }

    double s = 0;
    for (j = 0; j < N; j++)
        for (i = 0; i < N; i++)
            s += r[j][i] * (1 + (i + j) % 3);
    printf("%.6e %.6e %.6e\n", s, r[3][5], r[N - 1][N - 1]);

#pragma acc parallel loop copyin(u) copyout(r) private(tmp[1])
    for (j = 0; j < N; j++) {
        tmp[1] = u[j][j][1];
        r[j][0] = tmp[1] * 2;
    }
    printf("%.6e %.6e\n", r[2][0], r[N - 1][0]);
    printf("PASS\n");
    return 0;
}
