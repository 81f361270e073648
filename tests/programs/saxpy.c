// tolerance: 1e-5
// saxpy: y = a*x + y on floats; the scalar a is read inside the kernel.
// The device contracts a*x+y into an fma (one rounding) and the host does
// not, hence the tolerance: |fma - (a*x rounded) + y| <= ulp(a*x)/2, so the
// check is relative to |a*x| + |y|, not to the result (which cancels to
// nearly 0 where a*x ~ -y).
#include <stdio.h>
#include <stdlib.h>

static float absf(float v)
{
    return v < 0 ? -v : v;
}

static int close_enough(float got, float want, float scale)
{
    return absf(got - want) <= 1e-5f * scale + 1e-30f;
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
        float y0 = (float)(i % 37) - 18.25f;
        if (!close_enough(y[i], ref[i], absf(a * x[i]) + absf(y0)))
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
