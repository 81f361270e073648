// expect-error-at: 9:21
// expect-error: 'reduction' clause is not allowed on 'kernels' directive
// The kernels construct takes no reduction clause (OpenACC 3.3 2.5.3);
// reductions go on its loops.
int main(void)
{
    double s = 0;
    double x[10] = { 0 };
#pragma acc kernels reduction(+:s) copyin(x)
    for (int i = 0; i < 10; i++)
        s += x[i];
    return (int)s;
}
