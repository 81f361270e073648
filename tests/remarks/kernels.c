/* Remarks of kernels constructs: the OpenUH mappings given by clauses, and
 * accc's own choices (dependence test, the contiguous index on vector). */
#define N 512
double a[N][N], b[N][N], c[N];
double s[64][N][N], t[64][N][N];
int idx[N];

/* Pointers may overlap unless they are restrict. */
void scale(int n, double *p, const double *q, double *restrict r, const double *restrict u)
{
#pragma acc kernels copy(p[0:n], r[0:n]) copyin(q[0:n], u[0:n])
    {
        for (int i = 0; i < n; i++)
            p[i] = 2 * q[i];
        for (int i = 0; i < n; i++)
            r[i] = 2 * u[i];
    }
}

int main(void)
{
    int n = N;
    /* Map2_4 (gv-gv). */
#pragma acc kernels
    {
#pragma acc loop gang vector(2)
        for (int i = 1; i < n - 1; i++) {
#pragma acc loop gang vector(128)
            for (int j = 1; j < n - 1; j++)
                a[i][j] = 0.25 * (b[i - 1][j] + b[i + 1][j] + b[i][j - 1] + b[i][j + 1]);
        }
    }
    /* Map3_3 (v-gv-g): x on threadIdx.x although it is the outer loop. */
#pragma acc kernels
    {
#pragma acc loop vector(128)
        for (int x = 1; x < n - 1; x++) {
#pragma acc loop gang vector(2)
            for (int y = 1; y < n - 1; y++) {
#pragma acc loop gang
                for (int z = 1; z < 63; z++)
                    t[z][y][x] = s[z - 1][y][x] + s[z + 1][y][x];
            }
        }
    }
    /* No clauses: the contiguous index (x, the outer loop) goes on vector. */
#pragma acc kernels
    for (int x = 0; x < n; x++)
        for (int y = 0; y < n; y++)
            for (int z = 0; z < 64; z++)
                t[z][y][x] = s[z][y][x] * 2;
    /* Two loop nests: two kernels; a recurrence stays sequential; a
     * subscripted subscript cannot be proved independent. */
#pragma acc kernels
    {
        for (int i = 1; i < n; i++)
            c[i] = c[i - 1] + 1;
        for (int i = 0; i < n; i++)
            c[idx[i]] = i;
    }
    return 0;
}

/* The remarks (checked by tests/remarks.rs): */
// expect-remark: 13: loop not parallelized: 'p' and 'q' may overlap ('p' is a pointer; add 'independent' if they never do)
// expect-remark: 15: loop parallelized across gangs(grid.x) and vector(block.x=128) (independent: no dependence found)
// expect-remark: 24: generating implicit copy(a)
// expect-remark: 24: generating implicit copy(b)
// expect-remark: 26: loop parallelized across gangs(grid.y) and vector(block.y=2)
// expect-remark: 28: loop parallelized across gangs(grid.x) and vector(block.x=128)
// expect-remark: 34: generating implicit copy(t)
// expect-remark: 34: generating implicit copy(s)
// expect-remark: 36: loop parallelized across vector(block.x=128)
// expect-remark: 38: loop parallelized across gangs(grid.y) and vector(block.y=2)
// expect-remark: 40: loop parallelized across gangs(grid.x)
// expect-remark: 47: generating implicit copy(t)
// expect-remark: 47: generating implicit copy(s)
// expect-remark: 48: loop parallelized across gangs(grid.x) and vector(block.x=128) (independent: no dependence found)
// expect-remark: 49: loop parallelized across gangs(grid.z) (independent: no dependence found)
// expect-remark: 50: loop parallelized across gangs(grid.y) (independent: no dependence found)
// expect-remark: 54: generating implicit copy(c)
// expect-remark: 54: generating implicit copy(idx)
// expect-remark: 56: loop not parallelized: 'c' is written and accessed as c[i-1], c[i]
// expect-remark: 58: loop not parallelized: 'c[idx[i]]' may be the same element in two iterations (no subscript is 'i' plus a value fixed in the loop)
// expect-remark: 11: generating copy(p[0:n])
// expect-remark: 11: generating copy(r[0:n])
// expect-remark: 11: generating copyin(q[0:n])
// expect-remark: 11: generating copyin(u[0:n])
