// expect-error-at: 10:42
// expect-error: reduction of an element of 'h' across gangs inside another loop of the region is not supported
// An element is reduced through its address, computed in the loop around:
// the construct cannot reduce it at its end as it does a scalar.
void f(int n, int k, double *a, double *h)
{
#pragma acc parallel copy(h[0:n]) copyin(a[0:n])
    {
        for (int t = 0; t < 3; t++) {
#pragma acc loop gang vector reduction(+:h[k])
            for (int i = 0; i < n; i++)
                h[k] += a[i];
        }
    }
}
