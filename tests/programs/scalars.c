// A kernel reading scalars of type int, long, float and double (passed by value),
// writing arrays of the same four types. Every value computed is exact.
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    int n = 5000;
    int k = -17;
    long big = 3000000000L;
    float f = 0.25f;
    double d = 1.5;
    int *oi = malloc(n * sizeof(int));
    long *ol = malloc(n * sizeof(long));
    float *of = malloc(n * sizeof(float));
    double *od = malloc(n * sizeof(double));

#pragma acc parallel loop copyout(oi[0:n], ol[0:n], of[0:n], od[0:n])
    for (int i = 0; i < n; i++) {
        oi[i] = i * k + 5;
        ol[i] = big + (long)i * k;
        of[i] = f * (float)i - (float)k;
        od[i] = d * (double)i + f;
    }

    long si = 0, sl = 0;
    double sf = 0.0, sd = 0.0;
    int errors = 0;
    for (int i = 0; i < n; i++) {
        if (oi[i] != i * k + 5 || ol[i] != big + (long)i * k)
            errors++;
        if (of[i] != f * (float)i - (float)k || od[i] != d * (double)i + f)
            errors++;
        si += oi[i];
        sl += ol[i] % 1000003;
        sf += of[i];
        sd += od[i];
    }
    printf("ol[n-1] %ld\n", ol[n - 1]);
    printf("sums %ld %ld %.6e %.6e\n", si, sl, sf, sd);
    printf("errors %d\n", errors);
    printf("%s\n", errors == 0 ? "PASS" : "FAIL");
    free(oi);
    free(ol);
    free(of);
    free(od);
    return errors != 0;
}
