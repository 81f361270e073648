// tolerance: 1e-5
// saxpy: y = a*x + y on floats; the scalar a is read inside the kernel.
// The device may contract a*x+y into an fma, hence the tolerance.
#include <stdio.h>
#include <stdlib.h>

static int close_enough(float got, float want)
{
    float d = got - want;
    if (d < 0)
        d = -d;
    float m = want < 0 ? -want : want;
    return d <= 1e-5f * m + 1e-30f;
}

int main(void)
{
    int n = 200000;
    float a = 2.5f;
    float *x = malloc(n * sizeof(float));
    float *y = malloc(n * sizeof(float));
    float *ref = malloc(n * sizeof(float));

    for (int i = 0; i < n; i++) {
        x[i] = (float)(i % 1000) * 0.001f;
        y[i] = (float)(i % 37) - 18.25f;
        ref[i] = a * x[i] + y[i];
    }

#pragma acc parallel loop copyin(x[0:n]) copy(y[0:n])
    for (int i = 0; i < n; i++)
        y[i] = a * x[i] + y[i];

    double checksum = 0.0;
    int errors = 0;
    for (int i = 0; i < n; i++) {
        if (!close_enough(y[i], ref[i]))
            errors++;
        checksum += y[i] * (double)(i % 3 + 1);
    }
    printf("y[1] %.6e\n", y[1]);
    printf("y[n-1] %.6e\n", y[n - 1]);
    printf("checksum %.6e\n", checksum);
    printf("errors %d\n", errors);
    printf("%s\n", errors == 0 ? "PASS" : "FAIL");
    free(x);
    free(y);
    free(ref);
    return errors != 0;
}
