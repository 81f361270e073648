// gpu-expect-fail: fail_bare_pointer\.c:14: error: parallel loop: not present on the device: 'p': the clause gives no extent to allocate
// A bare pointer in a clause that must allocate (copy, copyin, copyout,
// create) works only when its target is present already: otherwise the
// runtime stops with one line naming the pointer and saying what is
// missing (issue 15: "it stays an error that names the missing extent").
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    int n = 100;
    double *p = malloc(n * sizeof *p);
    for (int i = 0; i < n; i++) p[i] = i;
#pragma acc parallel loop copy(p)
    for (int i = 0; i < n; i++)
        p[i] += 1;
    printf("not reached %g\n", p[1]);
    free(p);
    return 0;
}
