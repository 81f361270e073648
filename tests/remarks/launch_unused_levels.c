/* Launch sizes a region cannot use: num_workers without a loop across
 * workers gives one worker a gang (the others would only repeat the
 * worker-single code, racing with the first worker's stores), and a kernels
 * region whose loop stays sequential runs once, not once per num_gangs. */
#define N 64
int main(void)
{
    static int a[N], b[N];
    int *p = a, *q = b;
#pragma acc parallel loop num_workers(8) copy(a)
    for (int i = 0; i < N; i++)
        a[i] += i;
#pragma acc kernels loop num_gangs(22) copy(p[0:N], q[0:N])
    for (int i = 1; i < N; i++)
        p[i] = q[i - 1] + 1;
    return a[3] + b[3];
}
// expect-remark: 10: generating copy(a)
// expect-remark: 10: num_workers ignored: no loop is partitioned across workers
// expect-remark: 10: loop parallelized across gangs(grid.x) and vector(block.x=64)
// expect-remark: 13: generating copy(p[0:64])
// expect-remark: 13: generating copy(q[0:64])
// expect-remark: 13: loop not parallelized: 'p' and 'q' may overlap ('p' is a pointer; add 'independent' if they never do)
// expect-remark: 13: num_gangs ignored: no loop of the kernels region is partitioned across gangs
