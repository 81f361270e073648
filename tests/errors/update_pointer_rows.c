// expect-error-at: 14:20
// expect-error: 'update' of a sub-array through pointers to pointers is not supported
// A data clause may take a sub-array through pointers to pointers (the rows
// are mapped and attached), but update copies one contiguous section.
#include <stdlib.h>

int main(void)
{
    double **a = malloc(2 * sizeof *a);
    a[0] = malloc(4 * sizeof **a);
    a[1] = malloc(4 * sizeof **a);
#pragma acc enter data copyin(a[0:2][0:4])
    a[0][0] = 1;
#pragma acc update device(a[0:2][0:4])
    return 0;
}
