/* What partitioned loops do with the scalars around them beyond their
 * clauses: a scalar assigned before it is read in every iteration is
 * private to the loop (once, at the outermost such loop); inner worker and
 * vector loops that add to a variable an outer loop (or the construct)
 * reduces get the reduction too; a scalar the loop assigns but leaves
 * shared (read first, no clause) is a warned race. In kernels only loops
 * the user calls independent privatize (a loop the compiler proves
 * independent keeps its scalars, whose last values code after it may read). */
#define N 64
double a[N][N], b[N];

int main(void)
{
    int i, j, t, u;
    double s = 0, last = 0, acc = 0;
#pragma acc parallel loop gang reduction(+:s) copyin(a)
    for (i = 0; i < N; i++) {
        t = i * 2;
#pragma acc loop vector
        for (j = 0; j < N; j++) {
            u = t + j;
            s += a[i][j] * u;
        }
    }
#pragma acc kernels loop independent copy(b)
    for (i = 0; i < N; i++) {
        t = i + 1;
        b[i] = t * 0.5;
    }
#pragma acc kernels copy(b)
    for (int k = 0; k < N; k++)
        last = b[k];
#pragma acc parallel loop copy(b, acc)
    for (i = 0; i < N; i++) {
        acc = acc * 0.5 + b[i];
        b[i] = acc;
    }
    return (int)(s + last + acc);
}
// expect-remark: 16: generating copyin(a)
// expect-remark: 16: generating implicit copy(s)
// expect-remark: 16: loop parallelized across gangs(grid.x), reduction(+:s)
// expect-remark: 16: 't' is private to the loop: it is assigned before it is read in every iteration
// expect-remark: 16: 'u' is private to the loop: it is assigned before it is read in every iteration
// expect-remark: 19: generating implicit reduction(+:s) for the reduction at line 16
// expect-remark: 19: loop parallelized across vector(block.x=64), reduction(+:s)
// expect-remark: 25: generating copy(b)
// expect-remark: 25: loop parallelized across gangs(grid.x) and vector(block.x=128) (independent)
// expect-remark: 25: 't' is private to the loop: it is assigned before it is read in every iteration
// expect-remark: 30: generating copy(b)
// expect-remark: 30: generating implicit copy(last)
// expect-remark: 31: loop not parallelized: 'last' is assigned in every iteration
// expect-remark: 33: generating copy(b)
// expect-remark: 33: generating copy(acc)
// expect-remark: 33: loop parallelized across gangs(grid.x) and vector(block.x=64)
// expect-remark: 33: warning: 'acc' is assigned in the loop but shared by its iterations (it is read before it is assigned, and no clause makes it private or a reduction): the threads race on it
