// declare in a function: the variables get device copies from the
// directive to the end of the block (copy: copied back at the end, also
// when the function returns early).
// gpu-stdout: inside: host w[2] = 2
// gpu-stdout: after: w[2] = 12
// gpu-stdout: early: 7 17
// gpu-stdout: PASS
#include <stdio.h>

static void early(int k, int *v)
{
#pragma acc declare copy(v[0:2])
#pragma acc parallel loop
    for (int i = 0; i < 2; i++)
        v[i] += 10 * i;
    if (k > 0)
        return;   // v is copied back on the way out
    v[0] = -1;
}

static void scoped(double *out)
{
    double w[4] = { 0, 1, 2, 3 };
    {
#pragma acc declare copy(w)
#pragma acc parallel loop
        for (int i = 0; i < 4; i++)
            w[i] += 10;
        printf("inside: host w[2] = %g\n", w[2]);
    }
    printf("after: w[2] = %g\n", w[2]);
    *out = w[0];
}

int main(void)
{
    double o;
    scoped(&o);
    int v[2] = { 7, 7 };
    early(7, v);
    printf("early: %d %d\n", v[0], v[1]);
    printf("PASS\n");
    return 0;
}
