// expect-error-at: 9:9
// expect-error: inline assembly is not supported in device code
// `asm goto` (GNU C) in a compute region.
void branches(int n, int *out)
{
#pragma acc parallel loop copyout(out[0:n])
    for (int i = 0; i < n; i++) {
        out[i] = 1;
        asm goto("" : : : : skip);
        out[i] = 2;
    skip:;
    }
}
