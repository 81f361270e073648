// Pointers with no data clause (issue 15, as nvc does): each compute
// construct maps the section its subscripts reach, derived from the loop
// bounds (copyin if only read, copyout if every element is written and
// none read, else copy), present-or-copy: a pointer into data an enclosing
// enter data mapped uses that data. On the GPU a wrong section shows as a
// wrong checksum: elements not copied in read garbage, elements not
// copied back keep the host's old values, a copyout of elements the
// region does not write brings garbage back.
#include <stdio.h>
#include <stdlib.h>

struct P {
    double x, y, z;
};

static double sum(const double *a, int n)
{
    double s = 0;
    for (int i = 0; i < n; i++)
        s += a[i] * (1 + i % 7);
    return s;
}

static void saxpy(int n, double a, const double *x, double *y)
{
#pragma acc parallel loop
    for (int i = 0; i < n; i++)
        y[i] = a * x[i] + y[i];
}

static void matmul(int n, const double *a, const double *b, double *c)
{
#pragma acc parallel loop collapse(2)
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double t = 0;
            for (int k = 0; k < n; k++)
                t += a[i * n + k] * b[k * n + j];
            c[i * n + j] = t;
        }
}

/* Writes every other element, from the end: the others must survive. */
static void odd_from_end(int n, double *u)
{
#pragma acc parallel loop
    for (int i = n - 1; i >= 0; i -= 2)
        u[i] = -i;
}

/* Writes one member of each element: the others must survive. */
static void set_y(int n, struct P *p)
{
#pragma acc parallel loop
    for (int i = 0; i < n; i++)
        p[i].y = 0.5 * i;
}

/* mid points into the middle of an array; the loop reaches before it. */
static void around(int h, const double *mid, double *out)
{
#pragma acc parallel loop
    for (int i = -h; i < h; i++)
        out[i + h] = mid[i] * 2;
}

/* Lower triangle of an n x n matrix, through a counted while loop. */
static void lower(int n, const double *b, double *w)
{
#pragma acc parallel loop
    for (int i = 0; i < n; i++) {
        int j = 0;
        while (j <= i) {
            w[i * n + j] = b[j] + i;
            j++;
        }
    }
}

/* Two kernels of one kernels construct: one section for both. */
static void two_kernels(int n, double *v, const double *x)
{
#pragma acc kernels
    {
        for (int i = 1; i < n; i++)
            v[i] = x[i] + 1;
        for (int i = 2; i < n - 1; i++)
            v[i] += x[i - 1];
    }
}

int main(void)
{
    int n = 200, m = 24;
    double *x = malloc(n * sizeof *x);
    double *y = malloc(n * sizeof *y);
    for (int i = 0; i < n; i++) {
        x[i] = i;
        y[i] = 1;
    }
    saxpy(n, 3.0, x, y);
    printf("saxpy: %.1f\n", sum(y, n));

    double *a = malloc(m * m * sizeof *a);
    double *b = malloc(m * m * sizeof *b);
    double *c = malloc(m * m * sizeof *c);
    for (int i = 0; i < m * m; i++) {
        a[i] = i % 5;
        b[i] = i % 3 - 1;
        c[i] = -7;
    }
    matmul(m, a, b, c);
    printf("matmul: %.1f\n", sum(c, m * m));

    for (int i = 0; i < n; i++)
        y[i] = 1000 + i;
    odd_from_end(n, y);
    printf("every other: %.1f %.1f %.1f\n", sum(y, n), y[0], y[199]);

    struct P *p = malloc(n * sizeof *p);
    for (int i = 0; i < n; i++) {
        p[i].x = i;
        p[i].y = -1;
        p[i].z = 2 * i;
    }
    set_y(n, p);
    double t = 0;
    for (int i = 0; i < n; i++)
        t += p[i].x + 3 * p[i].y + 5 * p[i].z;
    printf("one member: %.1f\n", t);

    around(50, x + 100, y);
    printf("around: %.1f %.1f %.1f\n", sum(y, 100), y[0], y[99]);

    double *w = malloc(m * m * sizeof *w);
    for (int i = 0; i < m * m; i++)
        w[i] = 3;
    lower(m, x, w);
    printf("lower: %.1f\n", sum(w, m * m));

    /* Present already: the kernels use the device copy, which the host
       sees after the exit data. */
    for (int i = 0; i < n; i++)
        y[i] = 2;
#pragma acc enter data copyin(y[0:n])
    saxpy(n, 1.0, x, y);
    saxpy(n / 2, 1.0, x + 10, y + 50);
#pragma acc exit data copyout(y[0:n])
    printf("present: %.1f %.1f\n", sum(y, n), y[60]);

    for (int i = 0; i < n; i++)
        y[i] = 0;
    two_kernels(n, y, x);
    printf("kernels: %.1f %.1f %.1f\n", sum(y, n), y[0], y[1]);

    free(x);
    free(y);
    free(a);
    free(b);
    free(c);
    free(p);
    free(w);
    printf("PASS\n");
    return 0;
}
