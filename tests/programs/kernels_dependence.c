// kernels loops: accc may parallelise only what it proves independent. A map
// is parallelised; a recurrence (prefix sum) and a sum into an outer scalar
// must still give the sequential answer. Integer results: exact.
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    int n = 4099;
    long *restrict a = malloc(n * sizeof(long));
    long *restrict b = malloc(n * sizeof(long));
    long total = 0;
    for (int i = 0; i < n; i++) {
        a[i] = 0;
        b[i] = (i * 37) % 101;
    }
#pragma acc data copy(a[0:n], total) copyin(b[0:n])
    {
#pragma acc kernels loop
        for (int i = 0; i < n; i++)
            a[i] = b[i] * 2 + 1;
#pragma acc kernels loop
        for (int i = 1; i < n; i++)
            a[i] = a[i - 1] + a[i];
#pragma acc kernels loop
        for (int i = 0; i < n; i++)
            total += a[i] % 7;
    }
    printf("last %ld\ntotal %ld\n", a[n - 1], total);
    printf("%s\n", a[n - 1] > 0 && total > 0 ? "PASS" : "FAIL");
    free(a);
    free(b);
    return 0;
}
