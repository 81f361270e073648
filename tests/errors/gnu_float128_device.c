// expect-error-at: 11:19
// expect-error: variable 'q' of type '_Float128' is not supported in device code
// expect-error-at: 16:19
// expect-error: variable 'e' of type '_Float64x' is not supported in device code
// _Float128 and _Float64x have no device version; on the host they compile.
void quad(int n, double *out)
{
    _Float128 host = 1;
#pragma acc parallel loop copyout(out[0:n])
    for (int i = 0; i < n; i++) {
        _Float128 q = i;
        out[i] = (double)q;
    }
#pragma acc parallel loop copy(out[0:n])
    for (int i = 0; i < n; i++) {
        _Float64x e = i;
        out[i] += (double)e;
    }
    out[0] += (double)host;
}
