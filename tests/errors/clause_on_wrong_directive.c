// expect-error-at: 9:18
// expect-error: num_gangs
// expect-error: data
// num_gangs belongs on parallel/kernels, not on data.
void twice(int n, double *a)
{
    int i;

#pragma acc data num_gangs(4) copy(a[0:n])
    {
#pragma acc parallel loop present(a[0:n])
        for (i = 0; i < n; i++)
            a[i] = a[i] * 2.0;
    }
}
