/* Remarks of reductions: given by clauses at each level and on the
 * construct, found in kernels loops, kept sequential inside parallel loops. */
#define N 1000
double x[N], y[N], m[N][64];
int h[8];

int main(void)
{
    double s = 0, mx = -1;
    int n = N, cnt = 0;
#pragma acc parallel loop reduction(+:s) reduction(max:mx)
    for (int i = 0; i < n; i++) {
        s += x[i];
        mx = x[i] > mx ? x[i] : mx;
    }
#pragma acc parallel loop gang
    for (int i = 0; i < n; i++) {
        double r = 0;
#pragma acc loop vector reduction(+:r)
        for (int j = 0; j < 64; j++)
            r += m[i][j];
        y[i] = r;
    }
#pragma acc parallel loop reduction(+:h[2:4])
    for (int i = 0; i < n; i++)
        h[2 + i % 4] += 1;
#pragma acc parallel num_gangs(8) reduction(+:cnt)
    cnt += 1;
#pragma acc kernels
    {
        for (int i = 0; i < n; i++)
            s += x[i] * y[i];
        for (int i = 0; i < n; i++) {
            double r = 0;
            for (int j = 0; j < 64; j++)
                r += m[i][j];
            y[i] = r;
        }
    }
    return (int)s + cnt;
}

/* The remarks (checked by tests/remarks.rs): */
// expect-remark: 11: generating implicit copy(s)
// expect-remark: 11: generating implicit copy(mx)
// expect-remark: 11: generating implicit copy(x)
// expect-remark: 11: loop parallelized across gangs(grid.x) and vector(block.x=128), reduction(+:s), reduction(max:mx)
// expect-remark: 16: generating implicit copy(m)
// expect-remark: 16: generating implicit copy(y)
// expect-remark: 16: loop parallelized across gangs(grid.x)
// expect-remark: 19: loop parallelized across vector(block.x=64), reduction(+:r)
// expect-remark: 24: generating implicit copy(h)
// expect-remark: 24: loop parallelized across gangs(grid.x) and vector(block.x=128), reduction(+:h[2:4])
// expect-remark: 27: generating implicit copy(cnt)
// expect-remark: 27: reduction(+:cnt) across the gangs of the construct
// expect-remark: 29: generating implicit copy(s)
// expect-remark: 29: generating implicit copy(x)
// expect-remark: 29: generating implicit copy(y)
// expect-remark: 29: generating implicit copy(m)
// expect-remark: 31: loop parallelized across gangs(grid.x) and vector(block.x=128) (independent: no dependence found), reduction(+:s)
// expect-remark: 33: loop parallelized across gangs(grid.x) and vector(block.x=128) (independent: no dependence found)
// expect-remark: 35: loop not parallelized: 'r' is assigned in every iteration
