/* Remarks of parallel and serial constructs: the levels given by clauses. */
#define N 1000
double a[N][N], b[N], c[N];
int idx[N];

int main(void)
{
    int n = N;
#pragma acc parallel loop gang vector_length(64)
    for (int i = 0; i < n; i++) {
#pragma acc loop vector
        for (int j = 0; j < n; j++)
            a[i][j] = i + j;
    }
#pragma acc parallel num_workers(8)
    {
#pragma acc loop gang
        for (int i = 0; i < n; i++) {
#pragma acc loop worker
            for (int j = 0; j < n; j++) {
#pragma acc loop vector
                for (int k = 0; k < 8; k++)
                    a[i][j] += k;
            }
        }
    }
#pragma acc parallel loop gang worker vector
    for (int i = 0; i < n; i++)
        b[i] = i;
#pragma acc parallel loop collapse(2)
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            a[i][j] += 1;
#pragma acc parallel loop tile(32, 4)
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            a[i][j] *= 2;
#pragma acc parallel loop tile(*)
    for (int i = 0; i < n; i++)
        c[i] = b[i];
#pragma acc parallel loop gang(static:4)
    for (int i = 0; i < n; i++) {
#pragma acc loop seq
        for (int j = 1; j < n; j++)
            a[i][j] += a[i][j - 1];
    }
#pragma acc parallel loop independent
    for (int i = 0; i < n; i++)
        b[idx[i]] = c[i];
#pragma acc serial
    for (int i = 1; i < n; i++)
        c[i] += c[i - 1];
    return 0;
}

/* The remarks (checked by tests/remarks.rs): */
// expect-remark: 9: generating implicit copy(a)
// expect-remark: 9: loop parallelized across gangs(grid.x)
// expect-remark: 11: loop parallelized across vector(block.x=64)
// expect-remark: 15: generating implicit copy(a)
// expect-remark: 17: loop parallelized across gangs(grid.x)
// expect-remark: 19: loop parallelized across workers(block.y=8)
// expect-remark: 19: loops at lines 19 and 21 interchanged for coalescing: the worker loop runs 'k', the vector loop 'j' (1 of 1 indexed accesses contiguous in 'j', 0 in 'k')
// expect-remark: 21: loop parallelized across vector(block.x=32)
// expect-remark: 27: generating implicit copy(b)
// expect-remark: 27: loop parallelized across gangs(grid.x) and workers(block.y=8) and vector(block.x=128)
// expect-remark: 30: generating implicit copy(a)
// expect-remark: 30: loop parallelized across gangs(grid.x) and vector(block.x=128), collapse(2)
// expect-remark: 34: generating implicit copy(a)
// expect-remark: 34: loop parallelized across gangs(grid.x) and vector(block.x=128), collapse(2), tile(32,4)
// expect-remark: 38: generating implicit copy(c)
// expect-remark: 38: generating implicit copy(b)
// expect-remark: 38: loop parallelized across gangs(grid.x) and vector(block.x=128), tile(128)
// expect-remark: 41: generating implicit copy(a)
// expect-remark: 41: loop parallelized across gangs(grid.x)
// expect-remark: 43: loop run sequentially: seq clause
// expect-remark: 47: generating implicit copy(b)
// expect-remark: 47: generating implicit copy(idx)
// expect-remark: 47: generating implicit copy(c)
// expect-remark: 47: loop parallelized across gangs(grid.x) and vector(block.x=128)
// expect-remark: 50: generating implicit copy(c)
