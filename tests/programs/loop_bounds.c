// Loop shapes: negative unit step (i--), step -2 (i -= 2), step +3 (i += 3), and the
// bounds <=, >, >=. Elements a loop does not visit keep their initial value, which
// the checksum sees.
#include <stdio.h>
#include <stdlib.h>

#define UNSET (-1)

int main(void)
{
    int n = 12345;
    int *a = malloc(n * sizeof(int));
    int *b = malloc(n * sizeof(int));
    int *c = malloc(n * sizeof(int));
    int *d = malloc(n * sizeof(int));
    int *e = malloc(n * sizeof(int));
    int i;

    for (i = 0; i < n; i++)
        a[i] = b[i] = c[i] = d[i] = e[i] = UNSET;

    int lo = 5;
#pragma acc parallel loop copyout(a[0:n])
    for (i = n - 1; i >= 0; i--)
        a[i] = 2 * i + 1;

#pragma acc parallel loop copy(b[0:n])
    for (i = n - 1; i > lo; i -= 2)
        b[i] = i % 100;

#pragma acc parallel loop copy(c[0:n])
    for (i = 0; i <= n - 1; i += 3)
        c[i] = n - i;

#pragma acc parallel loop copy(d[0:n])
    for (i = n; i > lo; i--)
        d[i - 1] = i * 3;

#pragma acc parallel loop copy(e[0:n])
    for (int j = lo; j <= n - 10; j += 7)
        e[j] = j / 7;

    int errors = 0;
    long sa = 0, sb = 0, sc = 0, sd = 0, se = 0;
    for (i = 0; i < n; i++) {
        int wa = 2 * i + 1;
        int wb = (i > lo && (n - 1 - i) % 2 == 0) ? i % 100 : UNSET;
        int wc = (i % 3 == 0) ? n - i : UNSET;
        int wd = (i >= lo) ? (i + 1) * 3 : UNSET;
        int we = (i >= lo && i <= n - 10 && (i - lo) % 7 == 0) ? i / 7 : UNSET;
        if (a[i] != wa || b[i] != wb || c[i] != wc || d[i] != wd || e[i] != we)
            errors++;
        sa += (long)a[i] * (i % 5 + 1);
        sb += (long)b[i] * (i % 5 + 1);
        sc += (long)c[i] * (i % 5 + 1);
        sd += (long)d[i] * (i % 5 + 1);
        se += (long)e[i] * (i % 5 + 1);
    }
    printf("sums %ld %ld %ld %ld %ld\n", sa, sb, sc, sd, se);
    printf("errors %d\n", errors);
    printf("%s\n", errors == 0 ? "PASS" : "FAIL");
    free(a);
    free(b);
    free(c);
    free(d);
    free(e);
    return errors != 0;
}
