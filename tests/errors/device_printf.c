// expect-error-at: 11:16
// expect-error: the format of 'printf' must be a string literal
// printf in device code needs its format as a string literal.
#include <stdio.h>

void show(int n, const int *a, const char *fmt)
{
#pragma acc parallel loop copyin(a[0:n])
    for (int i = 0; i < n; i++)
        printf(
               fmt, a[i]);
}
