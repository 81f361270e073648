// A reduction on a gang loop (or on the construct) whose inner worker and
// vector loops add to the variable without a reduction clause of their own,
// as real code writes it (an RMS norm over a 3-D grid, a sum and a max in
// one loop nest): OpenACC asks for the clause on each loop; accc supplies it,
// as nvc and GCC do, so every worker's and every lane's contribution counts
// (without it only one thread's partial per gang survived: norms 10x small).
#include <stdio.h>

#define NZ 18
#define NY 33
#define NX 70

static double u[NZ][NY][NX];

int main(void)
{
    int i, j, k, failures = 0;
    double s0 = 0, s1 = 0, big = -1.0, c = 0;
    long long cnt = 0;
    for (k = 0; k < NZ; k++)
        for (j = 0; j < NY; j++)
            for (i = 0; i < NX; i++)
                u[k][j][i] = (double)((k * 31 + j * 7 + i) % 19) - 9.0;
#pragma acc data copyin(u)
    {
#pragma acc parallel loop gang reduction(+:s0, s1) reduction(max:big) num_gangs(NZ - 2) num_workers(8) vector_length(32)
        for (k = 1; k < NZ - 1; k++) {
#pragma acc loop worker
            for (j = 1; j < NY - 1; j++) {
#pragma acc loop vector
                for (i = 1; i < NX - 1; i++) {
                    s0 = s0 + u[k][j][i] * u[k][j][i];
                    s1 += u[k][j][i];
                    double a = u[k][j][i] < 0 ? -u[k][j][i] : u[k][j][i];
                    big = big > a ? big : a;
                }
            }
        }
#pragma acc parallel num_gangs(4) vector_length(64) reduction(+:c, cnt)
        {
#pragma acc loop gang vector
            for (i = 0; i < NX; i++) {
                c += u[1][1][i];
                cnt++;
            }
        }
    }
    double w0 = 0, w1 = 0, wbig = -1.0, wc = 0;
    for (k = 1; k < NZ - 1; k++)
        for (j = 1; j < NY - 1; j++)
            for (i = 1; i < NX - 1; i++) {
                w0 += u[k][j][i] * u[k][j][i];
                w1 += u[k][j][i];
                double a = u[k][j][i] < 0 ? -u[k][j][i] : u[k][j][i];
                wbig = wbig > a ? wbig : a;
            }
    for (i = 0; i < NX; i++)
        wc += u[1][1][i];
    printf("%.15e %.15e %.15e %.15e %lld\n", s0, s1, big, c, cnt);
    if (s0 != w0 || s1 != w1 || big != wbig || c != wc || cnt != NX)
        failures++;
    printf("%s\n", failures ? "FAIL" : "PASS");
    return failures != 0;
}
