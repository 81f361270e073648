// Sub-arrays with a nonzero start: copy(a[10:n-20]) and copyin(b[5:n-10]); the kernel
// touches only a[10 .. n-11], and elements outside the section keep their values.
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    int n = 2000;
    int *a = malloc(n * sizeof(int));
    int *b = malloc(n * sizeof(int));

    for (int i = 0; i < n; i++) {
        a[i] = i;
        b[i] = (i * 11) % 97;
    }

#pragma acc parallel loop copy(a[10:n-20]) copyin(b[5:n-10])
    for (int i = 10; i < n - 10; i++)
        a[i] = a[i] * 3 + b[i - 5] + b[i + 5];

    int errors = 0;
    long checksum = 0;
    for (int i = 0; i < n; i++) {
        int want = i;
        if (i >= 10 && i < n - 10)
            want = i * 3 + b[i - 5] + b[i + 5];
        if (a[i] != want)
            errors++;
        checksum += (long)a[i] * (i % 6 + 1);
    }
    printf("a[9] %d a[10] %d a[n-11] %d a[n-10] %d\n", a[9], a[10], a[n - 11], a[n - 10]);
    printf("checksum %ld\n", checksum);
    printf("errors %d\n", errors);
    printf("%s\n", errors == 0 ? "PASS" : "FAIL");
    free(a);
    free(b);
    return errors != 0;
}
