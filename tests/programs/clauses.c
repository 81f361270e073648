// Clauses: `if` (true and false), num_gangs / vector_length, gang vector on one loop,
// create for a device-only scratch array, copyin / copyout.
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    int n = 77777;
    int use_device = 0;
    int *a = malloc(n * sizeof(int));
    int *scratch = malloc(n * sizeof(int));
    int *b = malloc(n * sizeof(int));
    int *c = malloc(n * sizeof(int));

    for (int i = 0; i < n; i++) {
        a[i] = i % 1234 - 617;
        scratch[i] = 0;
        b[i] = 0;
        c[i] = 0;
    }

    /* if(true): runs on the device when there is one */
#pragma acc parallel loop gang vector num_gangs(16) vector_length(128) if(n > 100) copyin(a[0:n]) create(scratch[0:n]) copyout(b[0:n])
    for (int i = 0; i < n; i++) {
        scratch[i] = a[i] * a[i];
        b[i] = scratch[i] - a[i];
    }

    /* if(false): the host runs the loop; results are the same */
#pragma acc parallel loop if(use_device) vector_length(32) copyin(a[0:n]) copyout(c[0:n])
    for (int i = 0; i < n; i++)
        c[i] = a[i] * 4 + 1;

    int errors = 0;
    long sb = 0, sc = 0;
    for (int i = 0; i < n; i++) {
        if (b[i] != a[i] * a[i] - a[i] || c[i] != a[i] * 4 + 1)
            errors++;
        sb += b[i];
        sc += (long)c[i] * (i % 10);
    }
    printf("sums %ld %ld\n", sb, sc);
    printf("errors %d\n", errors);
    printf("%s\n", errors == 0 ? "PASS" : "FAIL");
    free(a);
    free(scratch);
    free(b);
    free(c);
    return errors != 0;
}
