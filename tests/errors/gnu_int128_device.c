// expect-error-at: 11:27
// expect-error: variable 'q' of type '__int128' is not supported in device code
// A GNU __int128 local in a compute region: __int128 in the host code around
// it compiles, the device code cannot use it.
void widen(int n, long *out)
{
    unsigned __int128 host_only = (unsigned __int128)n << 64;

#pragma acc parallel loop copyout(out[0:n])
    for (int i = 0; i < n; i++) {
        unsigned __int128 q = i;
        out[i] = (long)q;
    }
    out[0] += (long)(host_only >> 64);
}
