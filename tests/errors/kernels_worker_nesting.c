// expect-error-at: 11:13
// expect-error: a gang loop may not be nested inside a loop of the same or an inner level (or appear in a routine of a lower level)
// A kernels nest that names the worker level is checked as the same loops
// of a parallel construct are: a gang loop inside a worker loop.
void f(int n, double *restrict a)
{
#pragma acc kernels copy(a[0:n * n])
    {
#pragma acc loop worker
        for (int i = 0; i < n; i++)
#pragma acc loop gang
            for (int j = 0; j < n; j++)
                a[i * n + j] += 1;
    }
}
