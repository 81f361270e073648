// A reduction across gangs inside another loop of the region: OpenACC 3.3
// 2.9.11 stores a gang reduction's result in the variable at the end of the
// region, so each gang accumulates every run of the loop and the gangs are
// combined once, when the region ends (accc used to reject it). And a
// worker-level reduction into a gang-private variable whose result every
// worker of the gang then uses (a row's mean, subtracted by every worker).
#include <stdio.h>

#define R 64
#define C 100
#define T 3

static double m[R][C], d[R][C];

int main(void)
{
    int i, j, t, failures = 0;
    double s = 1.0;
    long long hits = 0;
    for (i = 0; i < R; i++)
        for (j = 0; j < C; j++)
            m[i][j] = (double)((i * 3 + j * 7) % 13);
#pragma acc data copyin(m) copyout(d)
    {
#pragma acc parallel num_gangs(8) vector_length(32)
        {
            for (t = 0; t < T; t++) {
#pragma acc loop gang vector reduction(+:s, hits)
                for (i = 0; i < R; i++) {
                    s += m[i][t];
                    hits++;
                }
            }
        }
        double avg;
#pragma acc parallel loop gang private(avg) num_workers(4) vector_length(32)
        for (i = 0; i < R; i++) {
            avg = 0;
#pragma acc loop worker reduction(+:avg)
            for (j = 0; j < C; j++)
                avg += m[i][j];
            avg /= C;
#pragma acc loop worker vector
            for (j = 0; j < C; j++)
                d[i][j] = m[i][j] - avg;
        }
    }
    double ws = 1.0;
    for (t = 0; t < T; t++)
        for (i = 0; i < R; i++)
            ws += m[i][t];
    printf("%.15e %lld\n", s, hits);
    if (s != ws || hits != (long long)T * R)
        failures++;
    double cd = 0;
    for (i = 0; i < R; i++) {
        double a = 0;
        for (j = 0; j < C; j++)
            a += m[i][j];
        a /= C;
        for (j = 0; j < C; j++) {
            if (d[i][j] != m[i][j] - a)
                failures++;
            cd += d[i][j] * (j + 1);
        }
    }
    printf("%.15e\n", cd);
    printf("%s\n", failures ? "FAIL" : "PASS");
    return failures != 0;
}
