// expect-error-at: 13:42
// expect-error: function 'twice' is declared without a prototype
// A K&R definition compiles on the host; device code cannot call it.
static int twice(x)
int x;
{
    return 2 * x;
}

void apply(int n, int *out)
{
#pragma acc parallel loop copyout(out[0:n])
    for (int i = 0; i < n; i++) out[i] = twice(i);
}
