// expect-error-at: 12:16
// expect-error: variadic function 'sum_all'
// A variadic function cannot be called in device code.
#include <stdarg.h>

int sum_all(int n, ...);

void f(int n, int *a)
{
#pragma acc parallel loop copy(a[0:n])
    for (int i = 0; i < n; i++)
        a[i] = sum_all(2, i, i);
}
