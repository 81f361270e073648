/* Remarks of the data a compute construct moves implicitly. */
#define N 100
static const double w[3] = { 0.25, 0.5, 0.25 };
double a[N], b[N];

int main(void)
{
    int n = N;
    double sum = 0;
#pragma acc parallel loop
    for (int i = 1; i < n - 1; i++)
        b[i] = w[0] * a[i - 1] + w[1] * a[i] + w[2] * a[i + 1];
#pragma acc data copyin(a) copy(b)
    {
#pragma acc parallel loop
        for (int i = 0; i < n; i++)
            b[i] += a[i];
#pragma acc parallel loop default(present)
        for (int i = 0; i < n; i++)
            b[i] *= w[i % 3];
    }
#pragma acc kernels
    for (int i = 0; i < n; i++)
        sum = b[i];
    return (int)sum;
}

/* The remarks (checked by tests/remarks.rs): */
// expect-remark: 10: generating implicit copy(b)
// expect-remark: 10: generating implicit copyin(w)
// expect-remark: 10: generating implicit copy(a)
// expect-remark: 10: loop parallelized across gangs(grid.x) and vector(block.x=128)
// expect-remark: 15: loop parallelized across gangs(grid.x) and vector(block.x=128)
// expect-remark: 18: generating implicit present(w)
// expect-remark: 18: loop parallelized across gangs(grid.x) and vector(block.x=128)
// expect-remark: 22: generating implicit copy(sum)
// expect-remark: 22: generating implicit copy(b)
// expect-remark: 23: loop not parallelized: 'sum' is assigned in every iteration
// expect-remark: 13: generating copy(b)
// expect-remark: 13: generating copyin(a)
