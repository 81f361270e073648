/* Launches of kernels loops that name the worker level (workers on block
 * y, as parallel loops) and of a kernels collapse(2) nest (gangs for the
 * product of both loops' trip counts). */
void f(int n, int m, float *restrict a, float (*restrict b)[64])
{
#pragma acc kernels loop gang worker independent copy(a[0:n])
    for (int i = 0; i < n; i++)
        a[i] += 1;
#pragma acc kernels loop worker copy(a[0:n])
    for (int i = 0; i < n; i++)
        a[i] *= 2;
#pragma acc kernels num_workers(4) copy(a[0:n])
    {
#pragma acc loop gang worker vector
        for (int i = 0; i < n; i++)
            a[i] -= 3;
    }
#pragma acc kernels loop independent collapse(2) copy(b[0:n])
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            b[i][j] += 1;
#pragma acc kernels loop gang worker copy(b[0:n])
    for (int i = 0; i < n; i++)
        for (int j = 0; j < 64; j++)
            b[i][j] *= 2;
}
