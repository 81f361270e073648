// expect-error-at: 11:9
// expect-error: variadic function 'printf'
// printf cannot be called in device code (accc has no device printf):
// the error names it at the call.
#include <stdio.h>

void show(int n, const int *a)
{
#pragma acc parallel loop copyin(a[0:n])
    for (int i = 0; i < n; i++)
        printf("%d\n", a[i]);
}
