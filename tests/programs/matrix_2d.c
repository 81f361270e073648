// A 2-D loop nest: `parallel loop gang` on the outer loop, `loop vector` on the inner
// one, once in a braced body and once in the un-braced position real code uses
// (`for (...)` directly followed by `#pragma acc loop vector`).
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    int n = 300;
    int m = 517;
    int *a = malloc(n * m * sizeof(int));
    int *b = malloc(n * m * sizeof(int));
    int *c = malloc(n * m * sizeof(int));
    int *t = malloc(n * m * sizeof(int));

    for (int i = 0; i < n * m; i++) {
        a[i] = i % 1013 - 500;
        b[i] = (i * 7) % 389;
        c[i] = 0;
        t[i] = 0;
    }

#pragma acc parallel loop gang copyin(a[0:n*m], b[0:n*m]) copyout(c[0:n*m])
    for (int i = 0; i < n; i++) {
#pragma acc loop vector
        for (int j = 0; j < m; j++)
            c[i * m + j] = a[i * m + j] * 2 + b[i * m + j] - i + j;
    }

    /* transpose, un-braced inner directive */
#pragma acc parallel loop gang copyin(c[0:n*m]) copyout(t[0:n*m])
    for (int i = 0; i < n; i++)
#pragma acc loop vector
        for (int j = 0; j < m; j++)
            t[j * n + i] = c[i * m + j];

    long checksum = 0;
    int errors = 0;
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < m; j++) {
            int want = a[i * m + j] * 2 + b[i * m + j] - i + j;
            if (c[i * m + j] != want || t[j * n + i] != want)
                errors++;
            checksum += (long)t[j * n + i] * ((i + 2 * j) % 11 + 1);
        }
    }
    printf("c[0] %d c[last] %d t[1] %d\n", c[0], c[n * m - 1], t[1]);
    printf("checksum %ld\n", checksum);
    printf("errors %d\n", errors);
    printf("%s\n", errors == 0 ? "PASS" : "FAIL");
    free(a);
    free(b);
    free(c);
    free(t);
    return errors != 0;
}
