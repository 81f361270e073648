// expect-error-at: 13:25
// expect-error: function 'twice' cannot be used as a value
// Taking the address of a host function in device code is an error.
#pragma acc routine seq
static int twice(int x) { return 2 * x; }

void apply(int n, long *out)
{
#pragma acc parallel loop copyout(out[0:n])
    for (int i = 0; i < n; i++) {
        int (*f)(int) = 0;
        (void)f;
        out[i] = (long)&twice;
    }
}
