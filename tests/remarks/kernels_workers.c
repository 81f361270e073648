/* Kernels loops that name the worker level: mapped as the same loops of a
 * parallel construct (workers on block y, sized as a parallel loop's), the
 * loops without clauses in their nest taking the free levels; a nest's
 * root takes a gang when no loop of it does (the kernels construct's gangs
 * are the compiler's). Nests without worker clauses keep the OpenUH
 * mappings (kernels.c). */
#define N 512
double a[N][N], b[N][N], r[N];

int main(void)
{
    int n = N;
#pragma acc kernels loop gang worker independent
    for (int i = 0; i < n; i++)
        r[i] = i;
#pragma acc kernels loop worker
    for (int i = 0; i < n; i++)
        r[i] += 1;
#pragma acc kernels
    {
#pragma acc loop worker
        for (int i = 0; i < n; i++)
            r[i] += 2;
    }
#pragma acc kernels loop gang worker vector
    for (int i = 0; i < n; i++)
        r[i] += 3;
#pragma acc kernels num_workers(4) vector_length(64)
    {
#pragma acc loop gang worker vector
        for (int i = 0; i < n; i++)
            r[i] += 4;
    }
#pragma acc kernels loop gang worker collapse(2)
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            a[i][j] = b[i][j];
    /* Mixed: clauses outside, none inside (vector) ... */
#pragma acc kernels loop gang worker
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            a[i][j] = b[i][j] + 1;
    /* ... none outside, worker inside (gang) ... */
#pragma acc kernels
    for (int i = 0; i < n; i++) {
#pragma acc loop worker
        for (int j = 0; j < n; j++)
            a[i][j] = b[i][j] + 2;
    }
    /* ... none outside, gang worker inside (the grid dimension above). */
#pragma acc kernels
    for (int i = 0; i < n; i++) {
#pragma acc loop gang worker
        for (int j = 0; j < n; j++)
            a[i][j] = b[i][j] + 3;
    }
    /* A worker reduction into each gang's scalar, around a seq loop. */
#pragma acc kernels loop gang
    for (int i = 0; i < n; i++) {
        double s = 0;
#pragma acc loop worker reduction(+:s)
        for (int j = 0; j < n; j++)
#pragma acc loop seq
            for (int k = 0; k < 4; k++)
                s += b[j][i] * k;
        r[i] = s;
    }
    return (int)r[1];
}

/* The remarks (checked by tests/remarks.rs): */
// expect-remark: 13: generating implicit copy(r)
// expect-remark: 13: loop parallelized across gangs(grid.x) and workers(block.y=32)
// expect-remark: 16: generating implicit copy(r)
// expect-remark: 16: loop parallelized across gangs(grid.x) and workers(block.y=32)
// expect-remark: 19: generating implicit copy(r)
// expect-remark: 21: loop parallelized across gangs(grid.x) and workers(block.y=32)
// expect-remark: 25: generating implicit copy(r)
// expect-remark: 25: loop parallelized across gangs(grid.x) and workers(block.y=8) and vector(block.x=128)
// expect-remark: 28: generating implicit copy(r)
// expect-remark: 30: loop parallelized across gangs(grid.x) and workers(block.y=4) and vector(block.x=64)
// expect-remark: 34: generating implicit copy(a)
// expect-remark: 34: generating implicit copy(b)
// expect-remark: 34: loop parallelized across gangs(grid.x) and workers(block.y=32), collapse(2)
// expect-remark: 39: generating implicit copy(a)
// expect-remark: 39: generating implicit copy(b)
// expect-remark: 39: loop parallelized across gangs(grid.x) and workers(block.y=8)
// expect-remark: 41: loop parallelized across vector(block.x=128) (independent: no dependence found)
// expect-remark: 44: generating implicit copy(a)
// expect-remark: 44: generating implicit copy(b)
// expect-remark: 45: loop parallelized across gangs(grid.x) (independent: no dependence found)
// expect-remark: 46: loop parallelized across workers(block.y=32)
// expect-remark: 51: generating implicit copy(a)
// expect-remark: 51: generating implicit copy(b)
// expect-remark: 52: loop parallelized across gangs(grid.y) (independent: no dependence found)
// expect-remark: 53: loop parallelized across gangs(grid.x) and workers(block.y=32)
// expect-remark: 58: generating implicit copy(b)
// expect-remark: 58: generating implicit copy(r)
// expect-remark: 58: loop parallelized across gangs(grid.x)
// expect-remark: 61: loop parallelized across workers(block.y=32), reduction(+:s)
// expect-remark: 63: loop run sequentially: seq clause
