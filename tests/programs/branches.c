// if/else chains, local scalar declarations, integer / and % on negative values and
// comparisons inside a parallel loop; then a sequential inner loop (`loop seq`)
// inside a parallel loop.
#include <stdio.h>
#include <stdlib.h>

static int classify(int v)
{
    int r;
    if (v % 3 == 0)
        r = v / 3;
    else if (v < 0)
        r = -v % 7 - v / 4;
    else
        r = v * 2 - 1;
    return r;
}

int main(void)
{
    int n = 33333;
    int *x = malloc(n * sizeof(int));
    int *y = malloc(n * sizeof(int));
    int *cls = malloc(n * sizeof(int));
    long *s = malloc(n * sizeof(long));

    for (int i = 0; i < n; i++) {
        x[i] = (i * 37) % 1001 - 500;
        y[i] = 0;
        cls[i] = 0;
        s[i] = 0;
    }

#pragma acc parallel loop copyin(x[0:n]) copyout(y[0:n], cls[0:n])
    for (int i = 0; i < n; i++) {
        int v = x[i];
        int r;
        if (v % 3 == 0) {
            r = v / 3;
        } else if (v < 0) {
            r = -v % 7 - v / 4;
        } else {
            r = v * 2 - 1;
        }
        int c = 0;
        if (v > 100)
            c = c + 1;
        if (v <= -50)
            c += 2;
        c += (v != 7) * 4 + (v == i % 13) * 8 + (v >= 0 && v < 10) * 16;
        y[i] = r;
        cls[i] = c;
    }

#pragma acc parallel loop copyin(x[0:n]) copyout(s[0:n])
    for (int i = 0; i < n; i++) {
        long t = 0;
#pragma acc loop seq
        for (int k = 0; k <= i % 17; k++)
            t += (long)x[i] * k - k % 4;
        s[i] = t;
    }

    int errors = 0;
    long sy = 0, sc = 0, ss = 0;
    for (int i = 0; i < n; i++) {
        int v = x[i];
        int c = (v > 100) + (v <= -50) * 2 + (v != 7) * 4 + (v == i % 13) * 8 +
                (v >= 0 && v < 10) * 16;
        long t = 0;
        for (int k = 0; k <= i % 17; k++)
            t += (long)v * k - k % 4;
        if (y[i] != classify(v) || cls[i] != c || s[i] != t)
            errors++;
        sy += y[i];
        sc += cls[i] * (i % 3 + 1);
        ss += s[i];
    }
    printf("sums %ld %ld %ld\n", sy, sc, ss);
    printf("errors %d\n", errors);
    printf("%s\n", errors == 0 ? "PASS" : "FAIL");
    free(x);
    free(y);
    free(cls);
    free(s);
    return errors != 0;
}
