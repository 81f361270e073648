// expect-error-at: 8:13
// expect-error: 'break' would leave a partitioned loop
// A break may not leave a loop whose iterations run in other threads.
void f(int n, int *a)
{
#pragma acc parallel copy(a[0:n])
    {
#pragma acc loop gang vector
        for (int i = 0; i < n; i++) {
            if (a[i] < 0)
                break;
            a[i] = 2 * a[i];
        }
    }
}
