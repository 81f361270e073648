// Exit data with struct member pointers (OpenACC 3.3 2.7.2, 2.7.13, issue
// 15): `exit data copyout(s.p[0:n])` copies the section out and detaches
// s.p (an enter data of the section attached it), `exit data detach(s.p)`
// detaches it alone; the host's pointers are never overwritten with device
// addresses. Also through a pointer to the struct (`q->v[0:n]`).
#include <stdio.h>
#include <stdlib.h>

typedef struct {
    int n;
    double *p;
    int *k;
} field;

int main(void)
{
    field s;
    s.n = 300;
    s.p = malloc(s.n * sizeof *s.p);
    s.k = malloc(s.n * sizeof *s.k);
    double *p0 = s.p;
    for (int i = 0; i < s.n; i++) {
        s.p[i] = i;
        s.k[i] = i % 7;
    }
#pragma acc enter data copyin(s)
#pragma acc enter data copyin(s.p[0:s.n], s.k[0:s.n])
#pragma acc parallel loop present(s)
    for (int i = 0; i < s.n; i++)
        s.p[i] = 2 * s.p[i] + s.k[i];
#pragma acc exit data copyout(s.p[0:s.n]) delete(s.k[0:s.n])
#pragma acc exit data detach(s.p)
#pragma acc exit data delete(s)
    double sum = 0;
    for (int i = 0; i < s.n; i++)
        sum += s.p[i];
    printf("copyout member: %.1f %d\n", sum, s.p == p0);

    /* The same through a pointer to the struct, with attach/detach
       written out. */
    field *q = &s;
#pragma acc enter data copyin(q[0:1])
#pragma acc enter data copyin(q->p[0:q->n])
#pragma acc parallel loop present(q[0:1])
    for (int i = 0; i < q->n; i++)
        q->p[i] += 1;
#pragma acc exit data detach(q->p)
#pragma acc exit data copyout(q->p[0:q->n])
#pragma acc exit data delete(q[0:1])
    sum = 0;
    for (int i = 0; i < s.n; i++)
        sum += s.p[i];
    printf("through a pointer: %.1f %d\n", sum, s.p == p0);
    free(s.p);
    free(s.k);
    printf("PASS\n");
    return 0;
}
