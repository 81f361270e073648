// gpu-expect-fail: fail_implicit_extent\.c:15: error: parallel loop: not present on the device: 'u'
// A pointer with no data clause whose extent cannot be derived (here an
// indirect subscript) is not copied: its target must be present, or the
// runtime stops with one line naming it (issue 15 keeps this error).
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    int n = 64;
    double *u = malloc(n * sizeof *u), *v = malloc(n * sizeof *v);
    int *idx = malloc(n * sizeof *idx);
    for (int i = 0; i < n; i++)
        u[i] = i, idx[i] = (i * 5) % n;
#pragma acc parallel loop
    for (int i = 0; i < n; i++)
        v[i] = u[idx[i]];
    printf("not reached %g\n", v[1]);
    return 0;
}
