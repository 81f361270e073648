// expect-error-at: 16:9
// expect-error: 'row_op' is a 'vector' routine and cannot be called inside a loop partitioned at that level
// A vector routine may not be called inside a vector loop.
#pragma acc routine vector
void row_op(int n, double *r)
{
#pragma acc loop vector
    for (int j = 0; j < n; j++)
        r[j] += 1.0;
}

void g(int n, double *a)
{
#pragma acc parallel loop gang vector copy(a[0:n*n])
    for (int i = 0; i < n; i++)
        row_op(n, a + i * n);
}
