/* Remarks of the cache directive: one per variable, saying whether its
 * section became a shared-memory tile or why it is left as a hint. */
struct pt { float x[8]; };
float g[1000];

#pragma acc routine vector
void smooth(float *restrict o, const float *restrict p, int n)
{
#pragma acc loop vector
    for (int i = 1; i < n - 1; i++) {
#pragma acc cache(p[i - 1:3])
        o[i] = p[i - 1] + p[i + 1];
    }
}

int main(void)
{
    int n = 1000, m = 3;
    float a[1000], b[1000], c[1000], u[40][50], w[40][50], s = 0;
    struct pt q;
    for (int i = 0; i < n; i++)
        a[i] = b[i] = c[i] = (float)i;
    for (int i = 0; i < 8; i++)
        q.x[i] = 1;
#pragma acc parallel loop copyin(a) copyout(b)
    for (int i = 1; i < n - 1; i++) {
#pragma acc cache(a[i-1:3], a[i - 1:3])
        b[i] = a[i - 1] + a[i] + a[i + 1];
    }
#pragma acc parallel loop copy(c)
    for (int i = 1; i < n - 1; i++) {
#pragma acc cache(c[i-1:3], s, a, q.x[0:2])
        c[i] = c[i - 1] + c[i] + a[i] + s + q.x[1];
    }
#pragma acc parallel loop gang copyin(u) copyout(w)
    for (int r = 1; r < 39; r++) {
#pragma acc loop vector
        for (int k = 1; k < 49; k++) {
#pragma acc cache(readonly: u[r][k - 1:3], a[k:m])
            w[r][k] = u[r][k - 1] + u[r][k] + u[r][k + 1] + a[k];
        }
    }
#pragma acc parallel loop gang worker copyin(a) copyout(b)
    for (int i = 1; i < n - 1; i++) {
#pragma acc cache(a[i - 1:3])
        b[i] = a[i - 1] + a[i + 1];
    }
#pragma acc parallel loop copyin(a) copyout(b)
    for (int i = 1; i < n - 1; i++) {
#pragma acc cache(a[i:2])
        b[i] = i > 5 ? a[i] : a[i + 1];
    }
#pragma acc parallel loop seq copyin(a) copyout(b)
    for (int i = 1; i < n - 1; i++) {
#pragma acc cache(a[i:1])
        b[i] = a[i];
    }
#pragma acc parallel copyin(a) copyout(b)
    {
        for (int i = 1; i < n - 1; i++) {
#pragma acc cache(a[i:1])
            b[i] = a[i];
        }
    }
    for (int i = 1; i < n - 1; i++) {
#pragma acc cache(b[i:1])
        s += b[i];
    }
#pragma acc parallel loop copyin(a) copyout(b)
    for (int i = 1; i < n - 1; i++) {
#pragma acc cache(g[i:1])
        b[i] = a[i];
    }
#pragma acc parallel loop gang copyin(a) copyout(b)
    for (int r = 0; r < 9; r++) {
#pragma acc loop vector
        for (int k = 1; k < 99; k++) {
#pragma acc cache(a[r * 100 + k - 1:3])
            b[r * 100 + k] = a[r * 100 + k - 1] + a[r * 100 + k + 1] + a[(r + 1) * 100 + k];
        }
    }
    smooth(b, a, n);
    return (int)(s + b[1] + c[2] + w[2][2]);
}
// expect-remark: 9: loop parallelized across vector(block.x)
// expect-remark: 11: 'p[i - 1:3]' is not cached: the loop is in a routine (its caller decides the block)
// expect-remark: 25: generating copyin(a)
// expect-remark: 25: generating copyout(b)
// expect-remark: 25: loop parallelized across gangs(grid.x) and vector(block.x=128)
// expect-remark: 27: 'a[i-1:3]' cached in shared memory: a tile of 130 elements per gang, 3 of the loop's loads read it
// expect-remark: 27: 'a[i - 1:3]' is not cached: an earlier item names it
// expect-remark: 30: generating copy(c)
// expect-remark: 30: generating implicit copy(a)
// expect-remark: 30: generating implicit copy(q)
// expect-remark: 30: loop parallelized across gangs(grid.x) and vector(block.x=128)
// expect-remark: 32: 'c[i-1:3]' is not cached: the loop writes it (say 'readonly' if it does not)
// expect-remark: 32: 's' is not cached: only array sections and elements are cached
// expect-remark: 32: 'a' is not cached: only array sections and elements are cached
// expect-remark: 32: 'q.x[0:2]' is not cached: struct members are not cached
// expect-remark: 35: generating copyin(u)
// expect-remark: 35: generating copyout(w)
// expect-remark: 35: generating implicit copy(a)
// expect-remark: 35: loop parallelized across gangs(grid.x)
// expect-remark: 37: loop parallelized across vector(block.x=64)
// expect-remark: 39: 'u[r][k - 1:3]' cached in shared memory: a tile of 66 elements per gang, 3 of the loop's loads read it
// expect-remark: 39: 'a[k:m]' is not cached: the section's length is not an integer constant from 1 to 64
// expect-remark: 43: generating copyin(a)
// expect-remark: 43: generating copyout(b)
// expect-remark: 43: loop parallelized across gangs(grid.x) and workers(block.y=32)
// expect-remark: 45: 'a[i - 1:3]' is not cached: the loop is not partitioned across vector lanes
// expect-remark: 48: generating copyin(a)
// expect-remark: 48: generating copyout(b)
// expect-remark: 48: loop parallelized across gangs(grid.x) and vector(block.x=128)
// expect-remark: 50: 'a[i:2]' is not cached: no load the loop runs in every iteration is provably in the section
// expect-remark: 53: generating copyin(a)
// expect-remark: 53: generating copyout(b)
// expect-remark: 53: loop run sequentially: seq clause
// expect-remark: 55: 'a[i:1]' is not cached: the loop is not partitioned across vector lanes
// expect-remark: 58: generating copyin(a)
// expect-remark: 58: generating copyout(b)
// expect-remark: 61: 'a[i:1]' is not cached: the loop runs sequentially (a plain C loop)
// expect-remark: 66: 'b[i:1]' is not cached: the 'cache' directive is not in a compute construct
// expect-remark: 69: generating copyin(a)
// expect-remark: 69: generating copyout(b)
// expect-remark: 69: loop parallelized across gangs(grid.x) and vector(block.x=128)
// expect-remark: 71: 'g[i:1]' is not cached: the loop does not use it
// expect-remark: 74: generating copyin(a)
// expect-remark: 74: generating copyout(b)
// expect-remark: 74: loop parallelized across gangs(grid.x)
// expect-remark: 76: loop parallelized across vector(block.x=128)
// expect-remark: 78: 'a[r * 100 + k - 1:3]' cached in shared memory: a tile of 130 elements per gang, 2 of the loop's loads read it
