// `#pragma acc parallel` around a block holding two independent `#pragma acc loop`s,
// with num_gangs and vector_length clauses on the parallel construct.
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    int n = 54321;
    long *x = malloc(n * sizeof(long));
    long *y = malloc(n * sizeof(long));
    long *z = malloc(n * sizeof(long));
    int i;

    for (i = 0; i < n; i++) {
        x[i] = (long)(i % 3001) - 1500;
        y[i] = 0;
        z[i] = 0;
    }

#pragma acc parallel num_gangs(64) vector_length(128) copyin(x[0:n]) copyout(y[0:n], z[0:n])
    {
#pragma acc loop
        for (i = 0; i < n; i++)
            y[i] = x[i] * x[i] + 3;
#pragma acc loop gang vector
        for (i = 0; i < n; i++)
            z[i] = x[i] * 5 - i;
    }

    long sy = 0, sz = 0;
    int errors = 0;
    for (i = 0; i < n; i++) {
        if (y[i] != x[i] * x[i] + 3 || z[i] != x[i] * 5 - i)
            errors++;
        sy += y[i];
        sz += z[i] * (i % 4 + 1);
    }
    printf("sum y %ld\n", sy);
    printf("sum z %ld\n", sz);
    printf("errors %d\n", errors);
    printf("%s\n", errors == 0 ? "PASS" : "FAIL");
    free(x);
    free(y);
    free(z);
    return errors != 0;
}
