/* Launch sizes from clauses: constants beyond the device's limits are
 * reduced here with a remark (1024 threads a block: workers first), constants
 * that are not positive mean the default; sizes computed at run time are
 * fitted the same way before the launch (ptxrt.h, __ptxrt_fit_block). */
#define N 64
int main(void)
{
    static double a[N][N][2 * N];
    int n = N, w = 0;
#pragma acc parallel num_workers(16) copy(a)
    {
#pragma acc loop gang
        for (int i = 0; i < N; i++)
#pragma acc loop worker
            for (int j = 0; j < N; j++)
#pragma acc loop vector
                for (int k = 0; k < 2 * N; k++)
                    a[i][j][k] += 1.0;
    }
#pragma acc parallel loop gang worker vector num_gangs(0) num_workers(32) vector_length(64) copy(a)
    for (int i = 0; i < N; i++)
        a[i][0][0] += 1.0;
#pragma acc parallel loop gang worker num_gangs(n) num_workers(w) copy(a)
    for (int i = 0; i < N; i++)
        a[i][1][0] += 1.0;
    return (int)a[1][1][1];
}
// expect-remark: 10: generating copy(a)
// expect-remark: 10: a block of 128x16x1 threads is more than the device's 1024: using 128x8x1 (vector lanes x workers x z)
// expect-remark: 12: loop parallelized across gangs(grid.x)
// expect-remark: 14: loop parallelized across workers(block.y=8)
// expect-remark: 16: loop parallelized across vector(block.x=128)
// expect-remark: 20: generating copy(a)
// expect-remark: 20: gangs along x given as 0, which is not positive: using the default
// expect-remark: 20: a block of 64x32x1 threads is more than the device's 1024: using 64x16x1 (vector lanes x workers x z)
// expect-remark: 20: 16 workers of 64 vector lanes: rows wider than a warp synchronise on named barriers, of which a block has 15: using 15 workers
// expect-remark: 20: loop parallelized across gangs(grid.x) and workers(block.y=15) and vector(block.x=64)
// expect-remark: 23: generating copy(a)
// expect-remark: 23: loop parallelized across gangs(grid.x) and workers(block.y=w)
