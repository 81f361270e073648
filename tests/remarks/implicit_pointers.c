/* Pointers with no data clause (issue 15): the section each one's
   subscripts reach, derived from the loop bounds, is mapped implicitly
   (copyin if only read, copyout if every element is written and none read,
   else copy); where it cannot be derived, a remark says why. */
struct P {
    double x, y, z;
};

#pragma acc routine seq
static double twice(const double *v)
{
    return 2 * v[0];
}

void kernels(int n, int m, float a, const float *x, float *y, double *c, const double *b,
             struct P *p, const int *idx, double *u, double *w)
{
#pragma acc parallel loop
    for (int i = 0; i < n; i++)
        y[i] = a * x[i] + y[i];
#pragma acc parallel loop collapse(2)
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            c[i * m + j] = b[j * n + i];
#pragma acc parallel loop
    for (int i = 0; i < n; i++) {
        double *row = c + (n - 1 - i) * m;
        for (int j = 1; j < m - 1; j++)
            row[j] = b[i] + j;
    }
#pragma acc parallel loop
    for (int i = 0; i < n; i++)
        p[i].y = i;
#pragma acc parallel loop
    for (int i = n - 1; i >= 0; i -= 2)
        u[i] = i;
#pragma acc parallel loop
    for (int i = 0; i < n; i++) {
        int j = 0;
        while (j <= i) {
            w[i * n + j] = b[j];
            j++;
        }
    }
#pragma acc parallel loop
    for (int i = 0; i < n; i++)
        u[i] = w[idx[i]];
#pragma acc parallel loop
    for (int i = 0; i < n; i++)
        u[i] = twice(w + i);
#pragma acc parallel loop present(w) default(present)
    for (int i = 0; i < n; i++)
        w[i] = u[i];
#pragma acc data copy(u[0:n])
#pragma acc kernels
    {
        for (int i = 0; i < n; i++)
            u[i] = x[i];
        for (int i = 0; i < 2 * n; i++)
            y[i] = x[i / 2] + u[i / 2];
    }
}

/* The remarks (checked by tests/remarks.rs): */
// expect-remark: 18: generating implicit copy(y[0:n])
// expect-remark: 18: generating implicit copyin(x[0:n])
// expect-remark: 18: loop parallelized across gangs(grid.x) and vector(block.x=128)
// expect-remark: 21: generating implicit copyout(c[0:m*n])
// expect-remark: 21: generating implicit copyin(b[0:m*n])
// expect-remark: 21: loop parallelized across gangs(grid.x) and vector(block.x=128), collapse(2)
// expect-remark: 25: generating implicit copy(c[1:m*n - 2])
// expect-remark: 25: generating implicit copyin(b[0:n])
// expect-remark: 25: loop parallelized across gangs(grid.x) and vector(block.x=128)
// expect-remark: 31: generating implicit copy(p[0:n])
// expect-remark: 31: loop parallelized across gangs(grid.x) and vector(block.x=128)
// expect-remark: 34: generating implicit copy(u[0:n])
// expect-remark: 34: loop parallelized across gangs(grid.x) and vector(block.x=128)
// expect-remark: 37: generating implicit copy(w[0:n*n])
// expect-remark: 37: generating implicit copyin(b[0:n])
// expect-remark: 37: loop parallelized across gangs(grid.x) and vector(block.x=128)
// expect-remark: 45: generating implicit copyout(u[0:n])
// expect-remark: 45: generating implicit copyin(idx[0:n])
// expect-remark: 45: 'w' has no data clause and its extent cannot be derived (a subscript is not affine in the loop variables): its target must be present on the device
// expect-remark: 45: loop parallelized across gangs(grid.x) and vector(block.x=128)
// expect-remark: 48: generating implicit copyout(u[0:n])
// expect-remark: 48: 'w' has no data clause and its extent cannot be derived (it is passed to a function, stored or compared, not only subscripted): its target must be present on the device
// expect-remark: 48: loop parallelized across gangs(grid.x) and vector(block.x=128)
// expect-remark: 51: generating present(w)
// expect-remark: 51: loop parallelized across gangs(grid.x) and vector(block.x=128)
// expect-remark: 54: generating copy(u[0:n])
// expect-remark: 55: generating implicit copyout(y[0:2*n])
// expect-remark: 55: 'x' has no data clause and its extent cannot be derived (a subscript is not affine in the loop variables): its target must be present on the device
// expect-remark: 57: loop not parallelized: 'u' and 'x' may overlap ('u' is a pointer; add 'independent' if they never do)
// expect-remark: 59: loop not parallelized: 'y' and 'u' may overlap ('y' is a pointer; add 'independent' if they never do)
