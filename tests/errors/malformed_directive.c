// expect-error-at: 11
// expect-error: expected
// expect-error: )
// A clause argument list that is never closed.
void vadd(int n, const int *a, int *c);

void vadd(int n, const int *a, int *c)
{
    int i;

#pragma acc parallel loop copyin(a[0:n]
    for (i = 0; i < n; i++)
        c[i] = a[i];
}
