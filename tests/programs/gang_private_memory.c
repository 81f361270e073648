// Arrays and structs private to a gang (declared in the gang loop's body, or
// named in its private clause), written by the gang's code outside its
// vector loop and read inside it: every thread of the gang keeps its own
// copy, so each must perform those stores (not only the thread that
// performs the gang's stores to shared memory).
#include <stdio.h>

#define NJ 10
#define NI 100

typedef struct { double lo, hi; int k; } band;

static double r[NJ][NI], q[NJ][NI], p[NJ][NI];

int main(void)
{
    int i, j;
    double w[3];

#pragma acc parallel loop gang copyout(r)
    for (j = 0; j < NJ; j++) {
        double v[2];
        band b;
        v[0] = j;
        v[1] = 2 * j;
        v[1] += 0.5;
        b.lo = -j;
        b.hi = j * 3;
        b.k = j % 3;
#pragma acc loop vector
        for (i = 0; i < NI; i++)
            r[j][i] = v[i % 2] + (i % 3 == b.k ? b.hi : b.lo);
    }

#pragma acc parallel loop gang private(w) copyout(q)
    for (j = 0; j < NJ; j++) {
        w[0] = j;
        w[1] = 1.5;
        w[2] = -j;
#pragma acc loop vector
        for (i = 0; i < NI; i++)
            q[j][i] = w[i % 3] * (i + 1);
    }

#pragma acc parallel num_gangs(NJ) vector_length(32) copyout(p)
    {
        band s[2];
#pragma acc loop gang
        for (j = 0; j < NJ; j++) {
            s[j % 2].lo = j;
            s[j % 2].k = 7;
            s[1 - j % 2].lo = 100;
            s[1 - j % 2].k = -1;
#pragma acc loop vector
            for (i = 0; i < NI; i++)
                p[j][i] = s[i % 2].lo * s[i % 2].k;
        }
    }

    double sr = 0, sq = 0, sp = 0;
    for (j = 0; j < NJ; j++)
        for (i = 0; i < NI; i++) {
            sr += r[j][i] * (i % 7 + 1);
            sq += q[j][i] * (j + 1);
            sp += p[j][i] * (i % 5 + 1);
        }
    printf("%.6e %.6e %.6e\n", sr, sq, sp);
    printf("%g %g %g %g %g %g\n", r[3][1], r[3][2], q[4][2], q[4][31], p[5][6], p[5][7]);
    printf("PASS\n");
    return 0;
}
