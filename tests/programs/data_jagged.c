// Sub-arrays through pointers to pointers (OpenACC 3.3 2.7.1, issue 15):
// `double **a; copy(a[0:n][0:m])` copies the pointers and every row, and
// attaches each device pointer to its row, so device code indexes a[i][j]
// through the device's pointer array. In data clauses, on enter/exit data,
// in a function's `declare`, with rows of different lengths, a section of
// each row, one row (`b[3][0:m]`, also in update, and the deep copy written
// row by row), and three levels of pointers.
#include <stdio.h>
#include <stdlib.h>

static double checksum(double **a, int n, int m)
{
    double s = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            s += a[i][j] * (i + 1) + j;
    return s;
}

static double **matrix(int n, int m, double base)
{
    double **a = malloc(n * sizeof *a);
    for (int i = 0; i < n; i++) {
        a[i] = malloc(m * sizeof **a);
        for (int j = 0; j < m; j++)
            a[i][j] = base + i * m + j;
    }
    return a;
}

static void release(double **a, int n)
{
    for (int i = 0; i < n; i++)
        free(a[i]);
    free(a);
}

/* c = a + b, in a function whose declare maps the rows. */
static void add(double **c, double **a, double **b, int n, int m)
{
#pragma acc declare copyin(a[0:n][0:m], b[0:n][0:m]) copyout(c[0:n][0:m])
#pragma acc parallel loop collapse(2) present(a, b, c)
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            c[i][j] = a[i][j] + b[i][j];
}

int main(void)
{
    int n = 37, m = 53;
    double **a = matrix(n, m, 0.0);
    double **b = matrix(n, m, 1000.0);
    double **c = matrix(n, m, -1.0);

    /* copy: every row in and out. */
#pragma acc parallel loop copy(a[0:n][0:m])
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            a[i][j] = 2.0 * a[i][j] + i;
    printf("copy: %.1f\n", checksum(a, n, m));

    /* A section of each row (columns 1 to m-2): the others stay. */
#pragma acc data copy(a[0:n][1:m-2])
    {
#pragma acc parallel loop gang vector
        for (int i = 0; i < n; i++)
            for (int j = 1; j < m - 1; j++)
                a[i][j] = -a[i][j];
    }
    printf("row sections: %.1f %.1f %.1f\n", checksum(a, n, m), a[3][0], a[3][1]);

    /* enter data / exit data with a data region in between. */
#pragma acc enter data copyin(b[0:n][0:m]) create(c[0:n][0:m])
    b[3][4] = 5000.0; /* reaches the device with its row only */
#pragma acc update device(b[3][0:m])
#pragma acc parallel loop present(b, c)
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            c[i][j] = b[i][j] - 1000.0;
#pragma acc exit data copyout(c[0:n][0:m]) delete(b[0:n][0:m])
    printf("enter/exit: %.1f\n", checksum(c, n, m));

    add(c, a, b, n, m);
    printf("declare: %.1f\n", checksum(c, n, m));

    /* The same deep copy written row by row: each row's enter data
       attaches its pointer, each row's exit data detaches it. */
#pragma acc enter data copyin(b[0:n])
    for (int i = 0; i < n; i++) {
#pragma acc enter data copyin(b[i][0:m])
    }
#pragma acc parallel loop present(b)
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            b[i][j] = b[i][j] * 0.5 + j;
    for (int i = 0; i < n; i++) {
#pragma acc exit data copyout(b[i][0:m])
    }
#pragma acc exit data delete(b[0:n])
    printf("row by row: %.1f\n", checksum(b, n, m));

    /* Rows of different lengths: row i has i + 1 elements. */
    int *len = malloc(n * sizeof *len);
    for (int i = 0; i < n; i++) {
        len[i] = i + 1;
        for (int j = 0; j < len[i]; j++)
            c[i][j] = j;
    }
#pragma acc data copy(c[0:n][0:m]) copyin(len[0:n])
#pragma acc parallel loop
    for (int i = 0; i < n; i++)
        for (int j = 0; j < len[i]; j++)
            c[i][j] += i;
    double t = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < len[i]; j++)
            t += c[i][j];
    printf("triangle: %.1f\n", t);

    /* Three levels: v[k][i][j]. */
    int K = 3, I = 4, J = 5;
    int ***v = malloc(K * sizeof *v);
    for (int k = 0; k < K; k++) {
        v[k] = malloc(I * sizeof **v);
        for (int i = 0; i < I; i++) {
            v[k][i] = malloc(J * sizeof ***v);
            for (int j = 0; j < J; j++)
                v[k][i][j] = 100 * k + 10 * i + j;
        }
    }
#pragma acc parallel loop collapse(3) copy(v[0:K][0:I][0:J])
    for (int k = 0; k < K; k++)
        for (int i = 0; i < I; i++)
            for (int j = 0; j < J; j++)
                v[k][i][j] = v[k][i][j] * 3 + 1;
    long w = 0;
    for (int k = 0; k < K; k++)
        for (int i = 0; i < I; i++)
            for (int j = 0; j < J; j++)
                w += v[k][i][j] * (k + i + j + 1);
    printf("three levels: %ld\n", w);
    for (int k = 0; k < K; k++) {
        for (int i = 0; i < I; i++)
            free(v[k][i]);
        free(v[k]);
    }
    free(v);
    free(len);
    release(a, n);
    release(b, n);
    release(c, n);
    printf("PASS\n");
    return 0;
}
