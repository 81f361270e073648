// saxpy with OpenACC: y = a*x + y on 2^24 floats.
//   accc -O2 examples/saxpy.c -o saxpy && ./saxpy
// Set PTXRT_NOTIFY=1 to see each kernel launch and transfer, ACC_DEVICE_TYPE=host to
// force the host fallback.
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    int n = 1 << 24;
    float a = 2.0f;
    float *x = malloc(n * sizeof(float));
    float *y = malloc(n * sizeof(float));
    if (!x || !y) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    for (int i = 0; i < n; i++) {
        x[i] = (float)(i % 1000);
        y[i] = 1.0f;
    }

#pragma acc parallel loop copyin(x[0:n]) copy(y[0:n])
    for (int i = 0; i < n; i++)
        y[i] = a * x[i] + y[i];

    int errors = 0;
    for (int i = 0; i < n; i++)
        if (y[i] != a * (float)(i % 1000) + 1.0f)
            errors++;
    printf("saxpy: n = %d, y[999] = %.1f, errors = %d\n", n, y[999], errors);
    printf("%s\n", errors == 0 ? "PASS" : "FAIL");
    free(x);
    free(y);
    return errors != 0;
}
