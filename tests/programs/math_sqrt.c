// tolerance: 1e-5
// Math library calls in a kernel (sqrtf, sqrt): on the device these come from
// libdevice. The only test program that calls libm.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    int n = 100003;
    float *x = malloc(n * sizeof(float));
    float *y = malloc(n * sizeof(float));
    double *z = malloc(n * sizeof(double));

    for (int i = 0; i < n; i++)
        x[i] = (float)(i % 10000) * 0.01f;

#pragma acc parallel loop copyin(x[0:n]) copyout(y[0:n], z[0:n])
    for (int i = 0; i < n; i++) {
        y[i] = sqrtf(x[i]) + 1.0f;
        z[i] = sqrt((double)i + 0.5) * 2.0;
    }

    int errors = 0;
    double sy = 0.0, sz = 0.0;
    for (int i = 0; i < n; i++) {
        double wy = sqrtf(x[i]) + 1.0f;
        double wz = sqrt((double)i + 0.5) * 2.0;
        if (fabs(y[i] - wy) > 1e-6 * wy || fabs(z[i] - wz) > 1e-12 * wz)
            errors++;
        sy += y[i];
        sz += z[i];
    }
    printf("y[2] %.6e z[n-1] %.6e\n", y[2], z[n - 1]);
    printf("sums %.6e %.6e\n", sy, sz);
    printf("errors %d\n", errors);
    printf("%s\n", errors == 0 ? "PASS" : "FAIL");
    free(x);
    free(y);
    free(z);
    return errors != 0;
}
