// Vector add on float arrays from malloc, n = 1000003 (prime, not a multiple of 128).
// A single IEEE add is exact to reproduce, so the output must match bit for bit.
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    int n = 1000003;
    float *a = malloc(n * sizeof(float));
    float *b = malloc(n * sizeof(float));
    float *c = malloc(n * sizeof(float));

    for (int i = 0; i < n; i++) {
        a[i] = (float)i * 0.5f;
        b[i] = 1.0f / (float)(i % 1000 + 1);
        c[i] = -1.0f;
    }

#pragma acc parallel loop copyin(a[0:n], b[0:n]) copyout(c[0:n])
    for (int i = 0; i < n; i++)
        c[i] = a[i] + b[i];

    double checksum = 0.0;
    int errors = 0;
    for (int i = 0; i < n; i++) {
        if (c[i] != a[i] + b[i])
            errors++;
        checksum += c[i];
    }
    printf("c[0] %.6e\n", c[0]);
    printf("c[12345] %.6e\n", c[12345]);
    printf("c[n-1] %.6e\n", c[n - 1]);
    printf("checksum %.6e\n", checksum);
    printf("errors %d\n", errors);
    printf("%s\n", errors == 0 ? "PASS" : "FAIL");
    free(a);
    free(b);
    free(c);
    return errors != 0;
}
