// collapse(force:n) (OpenACC 3.3 2.9.1): loops that are not tightly nested
// are collapsed anyway, the code around an inner loop running in every
// iteration of the collapsed loop (a row's weight read before the column
// loop, a plane's offset before the row loop). Without force: that nest is
// an error (tests/errors/collapse_not_tight.c).
#include <stdio.h>

#define P 6
#define R 40
#define C 50

static double a[P][R][C], b[R][C], wt[R];

int main(void)
{
    int p, i, j, failures = 0;
    for (i = 0; i < R; i++) {
        wt[i] = 0.5 + (i % 7);
        for (j = 0; j < C; j++)
            b[i][j] = (double)((i * 5 + j) % 9);
    }
#pragma acc parallel loop collapse(force:2) copyin(b, wt) copyout(a[0:1])
    for (i = 0; i < R; i++) {
        double w = wt[i];
        for (j = 0; j < C; j++)
            a[0][i][j] = w * b[i][j];
    }
#pragma acc parallel loop gang vector collapse(force:3) copyin(b, wt) copy(a[1:P-1])
    for (p = 1; p < P; p++) {
        int off = p * 3;
        for (i = 0; i < R; i++) {
            double w = wt[i] + off;
            for (j = 0; j < C; j++)
                a[p][i][j] = w + b[i][j];
        }
    }
    double sum = 0;
    for (p = 0; p < P; p++)
        for (i = 0; i < R; i++)
            for (j = 0; j < C; j++) {
                double want = p == 0 ? wt[i] * b[i][j] : wt[i] + p * 3 + b[i][j];
                if (a[p][i][j] != want)
                    failures++;
                sum += a[p][i][j] * (j + 1);
            }
    printf("%.15e\n", sum);
    printf("%s\n", failures ? "FAIL" : "PASS");
    return failures != 0;
}
