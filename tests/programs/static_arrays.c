// Fixed-size arrays named whole in data clauses (no section): a file-scope static
// float array, a global double array, a static int array, and a local array on the
// stack.
#include <stdio.h>

#define N 4099
#define M 100

static float x[N];
double g[N];
static int counts[M];

int main(void)
{
    int local[256];
    int i;

    for (i = 0; i < N; i++) {
        x[i] = (float)(i % 50) - 10.0f;
        g[i] = (double)i * 0.125;
    }
    for (i = 0; i < M; i++)
        counts[i] = -1;
    for (i = 0; i < 256; i++)
        local[i] = i;

    /* x*0.5f is exact, so the result is exact with or without fma */
#pragma acc parallel loop copy(x) copyin(g)
    for (i = 0; i < N; i++)
        x[i] = x[i] * 0.5f + (float)g[i];

#pragma acc kernels loop copyout(counts)
    for (i = 0; i < M; i++)
        counts[i] = i * i - 50;

#pragma acc parallel loop copy(local)
    for (i = 0; i < 256; i++)
        local[i] = local[i] * 7 % 256;

    int errors = 0;
    double sx = 0.0;
    long sc = 0, sl = 0;
    for (i = 0; i < N; i++) {
        float want = ((float)(i % 50) - 10.0f) * 0.5f + (float)((double)i * 0.125);
        if (x[i] != want)
            errors++;
        sx += x[i];
    }
    for (i = 0; i < M; i++) {
        if (counts[i] != i * i - 50)
            errors++;
        sc += counts[i];
    }
    for (i = 0; i < 256; i++) {
        if (local[i] != i * 7 % 256)
            errors++;
        sl += (long)local[i] * (i + 1);
    }
    printf("x[1] %.6e x[N-1] %.6e\n", x[1], x[N - 1]);
    printf("sums %.6e %ld %ld\n", sx, sc, sl);
    printf("errors %d\n", errors);
    printf("%s\n", errors == 0 ? "PASS" : "FAIL");
    return errors != 0;
}
