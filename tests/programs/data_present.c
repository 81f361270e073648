// A data region spanning two compute regions; the kernels name the arrays in
// `present(...)`, so no data moves at the kernels themselves. The intermediate array
// exists only on the device (create).
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    int n = 40000;
    int *a = malloc(n * sizeof(int));
    int *tmp = malloc(n * sizeof(int));
    int *b = malloc(n * sizeof(int));

    for (int i = 0; i < n; i++) {
        a[i] = (i * 13) % 2000 - 1000;
        tmp[i] = 0;
        b[i] = -7;
    }

#pragma acc data copyin(a[0:n]) create(tmp[0:n]) copyout(b[0:n])
    {
#pragma acc parallel loop present(a[0:n], tmp[0:n])
        for (int i = 0; i < n; i++)
            tmp[i] = 2 * a[i] + 1;

#pragma acc parallel loop present(a[0:n], tmp[0:n], b[0:n])
        for (int i = 0; i < n; i++)
            b[i] = tmp[i] * 3 - a[i];
    }

    long checksum = 0;
    int errors = 0;
    for (int i = 0; i < n; i++) {
        if (b[i] != (2 * a[i] + 1) * 3 - a[i])
            errors++;
        checksum += (long)b[i] * (i % 9 + 1);
    }
    printf("b[0] %d b[n-1] %d\n", b[0], b[n - 1]);
    printf("checksum %ld\n", checksum);
    printf("errors %d\n", errors);
    printf("%s\n", errors == 0 ? "PASS" : "FAIL");
    free(a);
    free(tmp);
    free(b);
    return errors != 0;
}
