// expect-error-at: 8:34
// expect-error: undeclared
// expect-error: zz
// A clause naming a variable that does not exist.
void fill(int n, int *a)
{
    int i;
#pragma acc parallel loop copyin(zz[0:n]) copyout(a[0:n])
    for (i = 0; i < n; i++)
        a[i] = i;
}
