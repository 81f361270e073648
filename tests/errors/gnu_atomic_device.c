// expect-error-at: 9:9
// expect-error: '_Atomic' objects are not supported in device code (use '#pragma acc atomic')
// A C11 _Atomic local in a compute region.
void count(int n, int *out)
{
    _Atomic int host_counter = 0;
#pragma acc parallel loop copyout(out[0:n])
    for (int i = 0; i < n; i++) {
        _Atomic int c = i;
        out[i] = c;
    }
    host_counter++;
}
