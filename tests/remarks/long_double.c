/* Device code computes `long double` in double precision: a remark says
 * so where a region (or a routine) first computes with one. A region that
 * only copies its bytes (here: none) or uses double has no such remark. */
#pragma acc routine seq
static long double half(long double x)
{
    return x / 2;
}

void scale(int n, long double *a, double *b, long double k)
{
#pragma acc parallel loop copy(a[0:n])
    for (int i = 0; i < n; i++)
        a[i] = half(a[i]) * k;
#pragma acc parallel loop copy(b[0:n])
    for (int i = 0; i < n; i++)
        b[i] = b[i] * 2;
}

/* In `kernels`, scalars the region assigns are shared with the host
 * (implicitly copy), long double and complex ones too (written through
 * their bytes). */
void last(int n, double *b, long double *t, double _Complex *z)
{
    long double lt = 0;
    double _Complex lz = 0;
#pragma acc kernels copyin(b[0:n])
    {
        lt = b[n - 1];
        lz = b[0] + b[1] * 1.0i;
    }
    *t = lt;
    *z = lz;
}
// expect-remark: 7: long double is computed in double precision on the device (values in host memory are rounded to double when read)
// expect-remark: 12: generating copy(a[0:n])
// expect-remark: 12: loop parallelized across gangs(grid.x) and vector(block.x=128)
// expect-remark: 14: long double is computed in double precision on the device (values in host memory are rounded to double when read)
// expect-remark: 15: generating copy(b[0:n])
// expect-remark: 15: loop parallelized across gangs(grid.x) and vector(block.x=128)
// expect-remark: 27: generating copyin(b[0:n])
// expect-remark: 27: generating implicit copy(lt)
// expect-remark: 27: generating implicit copy(lz)
// expect-remark: 29: long double is computed in double precision on the device (values in host memory are rounded to double when read)
