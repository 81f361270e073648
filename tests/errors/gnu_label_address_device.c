// expect-error-at: 11:32
// expect-error: label addresses ('&&label', GNU C) are not supported in device code
// The address of a label (GNU C) in a compute region (the label itself is
// in host code).
void labels(int n, long *out)
{
    void *host = &&here;
here:
#pragma acc parallel loop copyout(out[0:n])
    for (int i = 0; i < n; i++)
        out[i] = (long)(char *)&&here;
    out[0] = (long)(char *)host;
}
