// expect-error-at: 9
// expect-error: for
// A loop directive must be followed by a for loop.
void clear(int n, int *a)
{
    int i = 0;

#pragma acc parallel loop copyout(a[0:n])
    while (i < n) {
        a[i] = 0;
        i++;
    }
}
