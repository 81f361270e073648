// A bare pointer in a clause that only needs to find mapped data (issue 15:
// present(p), copy(p), update self(p), exit data delete(p)/copyout(p), as nvc
// accepts): it stands for the whole present block that holds its target,
// also when it points into the middle of that block. The device results
// reach the host only through those clauses, so a clause that did not find
// the block shows as a wrong sum on the GPU.
#include <stdio.h>
#include <stdlib.h>

#define N 1000

/* Scales p[0:n]: p points into data a caller mapped. */
static void scale(double *p, int n, double f)
{
#pragma acc parallel loop present(p)
    for (int i = 0; i < n; i++)
        p[i] *= f;
}

/* Adds 1 to p[0:n] under copy(p): present, so nothing is copied. */
static void bump(double *p, int n)
{
#pragma acc data copy(p)
    {
#pragma acc parallel loop present(p)
        for (int i = 0; i < n; i++)
            p[i] += 1.0;
    }
}

static double sum(const double *a, int n)
{
    double s = 0;
    for (int i = 0; i < n; i++)
        s += a[i];
    return s;
}

int main(void)
{
    double *a = malloc(N * sizeof *a);
    double *b = malloc(N * sizeof *b);
    for (int i = 0; i < N; i++) {
        a[i] = i;
        b[i] = 1.0;
    }
#pragma acc enter data copyin(a[0:N]) create(b[0:N])
    scale(a, N, 2.0);
    scale(a + 100, 50, 3.0); /* into the middle of the block */
    bump(a + 500, 10);
#pragma acc update self(a)
    printf("after update self: %.1f %.1f %.1f %.1f\n", sum(a, N), a[120], a[505], a[999]);

    /* update device(p) then a kernel that reads it through present(p). */
    for (int i = 0; i < N; i++)
        b[i] = 2.0;
    double *q = b + 7;
#pragma acc update device(q)
#pragma acc parallel loop present(q)
    for (int i = 0; i < N - 7; i++)
        q[i] += a[0] + 1.0; /* a is present: translated */
    /* exit data copyout(p) / delete(p): the whole blocks. */
#pragma acc exit data copyout(q) delete(a)
    printf("after copyout: %.1f %.1f %.1f\n", sum(b, N), b[0], b[7]);
    free(a);
    free(b);
    printf("PASS\n");
    return 0;
}
