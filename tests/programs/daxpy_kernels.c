// tolerance: 1e-12
// Doubles are printed with %.15e; the device may contract a*x+y into an fma.
// daxpy with `kernels loop` on doubles; the compiler chooses the schedule
// (restrict pointers: accc may prove the loop independent).
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    int n = 300007;
    double alpha = -0.75;
    double *restrict x = malloc(n * sizeof(double));
    double *restrict y = malloc(n * sizeof(double));
    double *ref = malloc(n * sizeof(double));

    for (int i = 0; i < n; i++) {
        x[i] = (double)(i % 4096) / 64.0;
        y[i] = 1.0 / (double)(i % 17 + 1);
        ref[i] = alpha * x[i] + y[i];
    }

#pragma acc kernels loop copyin(x[0:n]) copy(y[0:n])
    for (int i = 0; i < n; i++)
        y[i] = alpha * x[i] + y[i];

    double checksum = 0.0;
    int errors = 0;
    for (int i = 0; i < n; i++) {
        double d = y[i] - ref[i];
        double m = ref[i] < 0 ? -ref[i] : ref[i];
        if (d < 0)
            d = -d;
        if (d > 1e-13 * m + 1e-300)
            errors++;
        checksum += y[i] * (double)(i % 5 + 1);
    }
    printf("y[0] %.15e\n", y[0]);
    printf("y[n-1] %.15e\n", y[n - 1]);
    printf("checksum %.15e\n", checksum);
    printf("errors %d\n", errors);
    printf("%s\n", errors == 0 ? "PASS" : "FAIL");
    free(x);
    free(y);
    free(ref);
    return errors != 0;
}
