// expect-error-at: 13:13
// expect-error: reduction of 's' across workers (or across vector lanes on block y or z) inside a loop partitioned over threads is not supported
// In kernels, the contiguous outer loop takes vector x: the inner vector
// loop gets block y, and its reduction cannot be combined there.
void f(int n, float *restrict a, float *restrict b)
{
#pragma acc kernels copy(a[0:n*n], b[0:n])
    {
#pragma acc loop gang vector
        for (int i = 0; i < n; i++) {
            float s = 0;
            b[i] = 0;
#pragma acc loop vector reduction(+:s)
            for (int j = 0; j < n; j++)
                s += a[j * n + i];
            b[i] = s;
        }
    }
}
