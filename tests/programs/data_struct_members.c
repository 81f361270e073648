// Struct members in data clauses and deep copy (OpenACC 3.3 2.7.2, 2.6.8):
// a struct holding pointers is copied, then the arrays its members point to
// (the pointer members are attached: on the device they point at the device
// copies). A member array and a scalar member are mapped alone too.
#include <stdio.h>
#include <stdlib.h>

typedef struct {
    int n;
    double *val;
    int *idx;
    double scale[4];
} sparse;

int main(void)
{
    sparse s;
    s.n = 500;
    s.val = malloc(s.n * sizeof(double));
    s.idx = malloc(s.n * sizeof(int));
    for (int i = 0; i < 4; i++)
        s.scale[i] = i + 1;
    for (int i = 0; i < s.n; i++) {
        s.val[i] = i * 0.5;
        s.idx[i] = (i * 7) % s.n;
    }
    double out[500];

#pragma acc data copyin(s) copyin(s.val[0:s.n], s.idx[0:s.n]) copyout(out)
    {
#pragma acc parallel loop present(s)
        for (int i = 0; i < s.n; i++)
            out[i] = s.val[s.idx[i]] * s.scale[i % 4];
    }
    // A member array alone: the struct itself is copied implicitly, first.
#pragma acc parallel loop copy(s.scale[0:4])
    for (int k = 0; k < 1; k++)
        s.scale[2] = 10.0;

    double sum = 0;
    for (int i = 0; i < s.n; i++)
        sum += out[i];
    printf("%.6e %.1f\n", sum, s.scale[2]);
    free(s.val);
    free(s.idx);
    printf("PASS\n");
    return 0;
}
