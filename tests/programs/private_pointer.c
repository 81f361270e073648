// private(c[lo:len]) and firstprivate(c[lo:len]) of memory a pointer points
// to (issue 15): every gang, worker and vector lane gets its own copy of
// those elements (firstprivate: filled with the original ones), and the
// pointer points into that copy. Each iteration here fills the scratch
// elements and reads them back: threads sharing them would race on the
// GPU and give a wrong checksum.
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    int n = 5000;
    double *c = malloc(8 * sizeof *c);
    double *w = malloc(4 * sizeof *w);
    double *out = malloc(n * sizeof *out);
    for (int k = 0; k < 8; k++)
        c[k] = -1;
    for (int k = 0; k < 4; k++)
        w[k] = 10 * (k + 1);

#pragma acc parallel loop private(c[0:4]) copyout(out[0:n])
    for (int i = 0; i < n; i++) {
        for (int k = 0; k < 4; k++)
            c[k] = i + k;
        out[i] = c[0] * c[3] - c[1] * c[2];
    }
    double s = 0;
    for (int i = 0; i < n; i++)
        s += out[i];
    printf("private: %.1f\n", s);

    /* A section that does not start at 0, on a loop with a vector loop. */
#pragma acc parallel loop gang private(c[2:3]) copyout(out[0:n])
    for (int i = 0; i < n / 10; i++) {
        c[2] = i;
        c[4] = 2 * i;
#pragma acc loop vector
        for (int j = 0; j < 10; j++)
            out[i * 10 + j] = c[2] + c[4] * j;
    }
    s = 0;
    for (int i = 0; i < n; i++)
        s += out[i] * (i % 3);
    printf("private section: %.1f\n", s);

    /* firstprivate: each copy starts with w[1], w[2]. */
#pragma acc parallel loop firstprivate(w[1:2]) copyout(out[0:n])
    for (int i = 0; i < n; i++) {
        w[1] += i;
        out[i] = w[1] * 2 + w[2];
        w[1] -= i;
    }
    s = 0;
    for (int i = 0; i < n; i++)
        s += out[i];
    printf("firstprivate: %.1f\n", s);
    free(c);
    free(w);
    free(out);
    printf("PASS\n");
    return 0;
}
