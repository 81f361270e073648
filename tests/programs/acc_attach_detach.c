// acc_attach / acc_detach (OpenACC 3.3 3.2.29): a struct whose member points
// at an array is copied to the device with acc_copyin, and so is the array;
// acc_attach makes the member's device copy point at the device copy of the
// array, so a compute construct reaches the array through the struct.
// Attachments are counted: the member stays attached until the last
// acc_detach (or an acc_detach_finalize), and copying the struct back never
// brings a device address to the host. The answers are the same on a GPU
// and on a shared-memory device (the host fallback, GCC's host-only build).
#include <openacc.h>
#include <stdio.h>
#include <stdlib.h>

struct vec {
    int n;
    double *x;
};

static void scale(struct vec *v, double s)
{
    int n = v->n;
#pragma acc parallel loop present(v[0:1])
    for (int i = 0; i < n; i++)
        v->x[i] = s * v->x[i] + i;
}

int main(void)
{
    struct vec v;
    v.n = 2000;
    v.x = malloc(v.n * sizeof(double));
    double *orig = v.x;
    for (int i = 0; i < v.n; i++)
        v.x[i] = 1.0;

    acc_copyin(&v, sizeof v);
    acc_copyin(v.x, v.n * sizeof(double));
    acc_attach((void **)&v.x);
    acc_attach((void **)&v.x); /* counted: two attachments */
    scale(&v, 2.0);
    acc_detach((void **)&v.x); /* one left: still attached */
    scale(&v, 3.0);
    acc_detach((void **)&v.x);
    printf("host pointer kept %d\n", v.x == orig);

    /* Attached when copied out: the host keeps its own pointer. */
    acc_attach((void **)&v.x);
    acc_copyout(&v, sizeof v);
    printf("after copyout of the struct %d\n", v.x == orig);
    acc_copyout(v.x, v.n * sizeof(double));
    printf("x[0] %.1f x[1] %.1f x[n-1] %.1f\n", v.x[0], v.x[1], v.x[v.n - 1]);

    /* acc_detach_finalize drops every attachment at once. */
    acc_copyin(&v, sizeof v);
    acc_copyin(v.x, v.n * sizeof(double));
    for (int k = 0; k < 3; k++)
        acc_attach((void **)&v.x);
    acc_detach_finalize((void **)&v.x);
    acc_delete(v.x, v.n * sizeof(double));
    acc_delete(&v, sizeof v);

    int errors = 0;
    for (int i = 0; i < v.n; i++)
        errors += v.x[i] != 3.0 * (2.0 + i) + i;
    printf("%s\n", errors == 0 ? "PASS" : "FAIL");
    free(orig);
    return 0;
}
