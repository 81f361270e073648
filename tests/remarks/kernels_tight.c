/* Kernels nests: an inner loop takes a grid dimension of its own only when
 * it is tightly nested in the parallel loop around it (only declarations and
 * loops lead to it); otherwise the code around it would run once per gang of
 * that dimension (a read-modify-write done twice: seed 168 of the difftest).
 * A loose inner loop keeps a vector dimension where the schedule gives it
 * one (the code around it then runs once per block, guarded), else it stays
 * sequential. */
#define N 64
#define M 4
int main(void)
{
    static unsigned long o[N], t[N][M];
#pragma acc kernels copy(o, t)
    {
#pragma acc loop gang vector
        for (int i = 0; i < N; i++) {
            o[i] >>= 1;
            int k = 0;
            do {
                k++;
                for (int j = 0; j < M; j++)
                    t[i][j] = j;
            } while (k < 2);
        }
#pragma acc loop gang vector
        for (int i = 0; i < N; i++) {
            const int base = 3 * i;
            for (int j = 0; j < M; j++)
                t[i][j] = base + j;
        }
        for (int i = 0; i < N; i++) {
            o[i] += 1;
            for (int j = 0; j < M; j++)
                t[i][j] += o[i];
        }
    }
    return (int)(o[1] + t[1][1]);
}
// expect-remark: 13: generating copy(o)
// expect-remark: 13: generating copy(t)
// expect-remark: 15: loop parallelized across gangs(grid.x) and vector(block.x=128)
// expect-remark: 21: loop not parallelized: it is not tightly nested in the parallel loop around it, whose other code would run once per gang
// expect-remark: 25: loop parallelized across gangs(grid.x) and vector(block.x=128)
// expect-remark: 28: loop parallelized across gangs(grid.y) (independent: no dependence found)
// expect-remark: 31: loop parallelized across gangs(grid.x) and vector(block.x=128) (independent: no dependence found)
// expect-remark: 33: loop not parallelized: it is not tightly nested in the parallel loop around it, whose other code would run once per gang
