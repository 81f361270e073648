/* Kernels nests: an inner loop takes a grid dimension of its own only when
 * it is tightly nested in the parallel loop around it (only declarations and
 * loops lead to it); otherwise the code around it would run once per gang of
 * that dimension (a read-modify-write done twice: seed 168 of the difftest).
 * A loose inner loop keeps a vector dimension where the schedule gives it
 * one (the code around it then runs once per block, guarded), else it stays
 * sequential, and so do the loops tightly nested in it (seed 41: they took
 * grid y, as if it were still parallel). Below a sequential outermost loop,
 * a loop with code around it is loose too (seed 535: the code ran once per
 * gang). */
#define N 64
#define M 4
int main(void)
{
    static unsigned long o[N], t[N][M], u[N][M][M];
#pragma acc kernels copy(o, t, u)
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
#pragma acc loop gang vector
        for (int i = 0; i < N; i++) {
            o[i] += 2;
            for (int j = 0; j < M; j++)
                for (int k = 0; k < M; k++)
                    u[i][j][k] = o[i] + j + k;
        }
    }
#pragma acc kernels copy(o, t)
    for (int i = 0; i < N; i++) {
        o[i] = o[N - 1 - i] + 1;
        for (int j = 0; j < M; j++)
            t[i][j] = j;
    }
#pragma acc kernels copy(t)
    for (int i = 0; i < N; i++) {
        for (int j = 0; j < M; j++) {
            t[i][j] = i + j;
        }; /* an empty statement after the inner loop keeps it tight */
    }
    return (int)(o[1] + t[1][1] + u[1][1][1]);
}
// expect-remark: 16: generating copy(o)
// expect-remark: 16: generating copy(t)
// expect-remark: 16: generating copy(u)
// expect-remark: 18: loop parallelized across gangs(grid.x) and vector(block.x=128)
// expect-remark: 24: loop not parallelized: it is not tightly nested in the parallel loop around it, whose other code would run once per gang
// expect-remark: 28: loop parallelized across gangs(grid.x) and vector(block.x=128)
// expect-remark: 31: loop parallelized across gangs(grid.y) (independent: no dependence found)
// expect-remark: 34: loop parallelized across gangs(grid.x) and vector(block.x=128) (independent: no dependence found)
// expect-remark: 36: loop not parallelized: it is not tightly nested in the parallel loop around it, whose other code would run once per gang
// expect-remark: 39: loop parallelized across gangs(grid.x) and vector(block.x=128)
// expect-remark: 42: loop not parallelized: it is not tightly nested in the parallel loop around it, whose other code would run once per gang
// expect-remark: 43: loop not parallelized: it is not tightly nested in the parallel loop around it, whose other code would run once per gang
// expect-remark: 47: generating copy(o)
// expect-remark: 47: generating copy(t)
// expect-remark: 48: loop not parallelized: 'o' is written and accessed as o[64-1-i], o[i]
// expect-remark: 50: loop parallelized across vector(block.x=128) (independent: no dependence found)
// expect-remark: 53: generating copy(t)
// expect-remark: 54: loop parallelized across gangs(grid.y) (independent: no dependence found)
// expect-remark: 55: loop parallelized across gangs(grid.x) and vector(block.x=128) (independent: no dependence found)
