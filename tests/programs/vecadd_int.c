// Vector add on int arrays from malloc; n is not a multiple of 128.
// Constructs: parallel loop, copyin/copyout with sub-arrays, loop variable declared
// outside the loop.
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    int n = 12345;
    int *a = malloc(n * sizeof(int));
    int *b = malloc(n * sizeof(int));
    int *c = malloc(n * sizeof(int));
    int i;

    for (i = 0; i < n; i++) {
        a[i] = i * 3 - 7;
        b[i] = (i % 101) * 11;
        c[i] = -1;
    }

#pragma acc parallel loop copyin(a[0:n], b[0:n]) copyout(c[0:n])
    for (i = 0; i < n; i++)
        c[i] = a[i] + b[i];

    long checksum = 0;
    int errors = 0;
    for (i = 0; i < n; i++) {
        if (c[i] != a[i] + b[i])
            errors++;
        checksum += (long)c[i] * (i % 7 + 1);
    }
    printf("n %d\n", n);
    printf("c[0] %d c[n-1] %d\n", c[0], c[n - 1]);
    printf("checksum %ld\n", checksum);
    printf("errors %d\n", errors);
    printf("%s\n", errors == 0 ? "PASS" : "FAIL");
    free(a);
    free(b);
    free(c);
    return errors != 0;
}
