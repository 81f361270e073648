// Scalars of the enclosing scope that a partitioned loop assigns before it
// reads them, in every iteration, are private to the loop (as nvc makes
// them): row bounds and a partial sum in a gang loop over rows whose inner
// worker-vector loop reduces into that sum (a CSR matrix-vector product, the
// shape of a conjugate-gradient kernel), temporaries in a `kernels loop
// independent` body, temporaries of an inner sequential loop. Shared, every
// gang would race on them (wrong products on a GPU).
#include <stdio.h>

#define ROWS 500
#define NNZ_MAX (ROWS * 9)

static int rowstr[ROWS + 1], colidx[NNZ_MAX];
static double a[NNZ_MAX], p[ROWS], q[ROWS], r[ROWS], s[ROWS];

int main(void)
{
    int j, k, nnz = 0, failures = 0;
    int tmp1, tmp2, tmp3, m;
    double sum, t, u;
    for (j = 0; j < ROWS; j++) {
        rowstr[j] = nnz;
        int len = 1 + (j * 7) % 9;
        for (k = 0; k < len; k++) {
            colidx[nnz] = (j * 13 + k * 101) % ROWS;
            a[nnz] = (double)((j + k) % 5) - 2.0;
            nnz++;
        }
        p[j] = (double)(j % 11) * 0.25;
    }
    rowstr[ROWS] = nnz;
#pragma acc data copyin(rowstr, colidx, a, p) copyout(q, r, s)
    {
#pragma acc parallel num_gangs(ROWS) num_workers(4) vector_length(32)
        {
#pragma acc loop gang
            for (j = 0; j < ROWS; j++) {
                tmp1 = rowstr[j];
                tmp2 = rowstr[j + 1];
                sum = 0.0;
#pragma acc loop worker vector reduction(+:sum)
                for (k = tmp1; k < tmp2; k++) {
                    tmp3 = colidx[k];
                    sum = sum + a[k] * p[tmp3];
                }
                q[j] = sum;
            }
        }
#pragma acc kernels loop independent
        for (j = 0; j < ROWS; j++) {
            t = p[j] * 2.0;
            u = t + 1.0;
            r[j] = t * u;
        }
#pragma acc parallel loop gang vector
        for (j = 0; j < ROWS; j++) {
            t = 0.0;
            for (m = 0; m < 4; m++)
                t += p[(j + m) % ROWS];
            s[j] = t;
        }
    }
    double cq = 0, cr = 0, cs = 0;
    for (j = 0; j < ROWS; j++) {
        double want = 0;
        for (k = rowstr[j]; k < rowstr[j + 1]; k++)
            want += a[k] * p[colidx[k]];
        if (q[j] != want && failures++ < 5)
            fprintf(stderr, "q[%d] = %g, want %g\n", j, q[j], want);
        double tt = p[j] * 2.0;
        if (r[j] != tt * (tt + 1.0) && failures++ < 5)
            fprintf(stderr, "r[%d] = %g\n", j, r[j]);
        double ss = 0;
        for (m = 0; m < 4; m++)
            ss += p[(j + m) % ROWS];
        if (s[j] != ss && failures++ < 5)
            fprintf(stderr, "s[%d] = %g, want %g\n", j, s[j], ss);
        cq += q[j];
        cr += r[j];
        cs += s[j];
    }
    printf("%.15e %.15e %.15e\n", cq, cr, cs);
    printf("%s\n", failures ? "FAIL" : "PASS");
    return failures != 0;
}
