// `continue` in the body of gang and vector loops (and of collapsed and
// tiled ones): it ends the iteration; the thread goes on to its next one.
#include <stdio.h>

#define NJ 12
#define NI 40

static double a[NJ][NI], b[NJ][NI], c[NJ][NI];
static int d[NI * NJ];

int main(void)
{
    int i, j;
    for (j = 0; j < NJ; j++)
        for (i = 0; i < NI; i++)
            a[j][i] = b[j][i] = c[j][i] = -1;

#pragma acc parallel loop gang copy(a)
    for (j = 0; j < NJ; j++) {
        if (j == 3)
            continue;
#pragma acc loop vector
        for (i = 0; i < NI; i++) {
            if (i == 0 || i == NI - 1 || j == 0 || j == NJ - 1) {
                a[j][i] = 0;
                continue;
            }
            a[j][i] = i * 0.5 + j;
        }
    }

#pragma acc parallel loop collapse(2) copy(b)
    for (j = 0; j < NJ; j++)
        for (i = 0; i < NI; i++) {
            if ((i + j) % 3 == 0)
                continue;
            b[j][i] = i - j;
        }

#pragma acc parallel loop tile(4, 8) copy(c)
    for (j = 0; j < NJ; j++)
        for (i = 0; i < NI; i++) {
            if (i % 5 == 1)
                continue;
            c[j][i] = i * j;
        }

    int n = NI * NJ;
#pragma acc parallel loop copyout(d)
    for (i = 0; i < n; i++) {
        int k, s = 0;
        d[i] = 0;
        if (i % 7 == 0)
            continue;
        for (k = 0; k < i % 11; k++) {
            if (k % 2)
                continue;
            s += k;
        }
        d[i] = s;
    }

    double sa = 0, sb = 0, sc = 0;
    long sd = 0;
    for (j = 0; j < NJ; j++)
        for (i = 0; i < NI; i++) {
            sa += a[j][i] * (i + 1);
            sb += b[j][i] * (j + 1);
            sc += c[j][i];
        }
    for (i = 0; i < n; i++)
        sd += (long)d[i] * (i % 13);
    printf("%.6e %.6e %.6e %ld\n", sa, sb, sc, sd);
    printf("%g %g %g %g\n", a[3][5], a[0][5], a[4][0], a[4][5]);
    printf("PASS\n");
    return 0;
}
