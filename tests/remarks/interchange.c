/* A worker loop holding a vector loop exchanges indices with it when the
 * body is contiguous in the worker's index (schedule/interchange.rs); not
 * when the vector loop's bounds use the worker index, nor on a tie. */
double a[8][64][64], b[8][64][64];

void f(int n)
{
#pragma acc parallel loop gang copy(a) copyin(b)
    for (int k = 0; k < 8; k++) {
#pragma acc loop worker
        for (int j = 0; j < n; j++) {
#pragma acc loop vector
            for (int i = 0; i < 64; i++)
                a[k][i][j] = 2 * b[k][i][j];
        }
    }
#pragma acc parallel loop gang copy(a) copyin(b)
    for (int k = 0; k < 8; k++) {
#pragma acc loop worker
        for (int j = 0; j < 64; j++) {
#pragma acc loop vector
            for (int i = 0; i < j; i++)
                a[k][i][j] = 2 * b[k][i][j];
        }
    }
#pragma acc parallel loop gang copy(a) copyin(b)
    for (int k = 0; k < 8; k++) {
#pragma acc loop worker
        for (int j = 0; j < 64; j++) {
#pragma acc loop vector
            for (int i = 0; i < 64; i++)
                a[k][i][j] = b[k][j][i];
        }
    }
}
// expect-remark: 8: generating copy(a)
// expect-remark: 8: generating copyin(b)
// expect-remark: 8: loop parallelized across gangs(grid.x)
// expect-remark: 10: loop parallelized across workers(block.y=15)
// expect-remark: 10: loops at lines 10 and 12 interchanged for coalescing: the worker loop runs 'i', the vector loop 'j' (2 of 2 indexed accesses contiguous in 'j', 0 in 'i')
// expect-remark: 12: loop parallelized across vector(block.x=64)
// expect-remark: 17: generating copy(a)
// expect-remark: 17: generating copyin(b)
// expect-remark: 17: loop parallelized across gangs(grid.x)
// expect-remark: 19: loop parallelized across workers(block.y=8)
// expect-remark: 21: loop parallelized across vector(block.x=128)
// expect-remark: 26: generating copy(a)
// expect-remark: 26: generating copyin(b)
// expect-remark: 26: loop parallelized across gangs(grid.x)
// expect-remark: 28: loop parallelized across workers(block.y=15)
// expect-remark: 30: loop parallelized across vector(block.x=64)
