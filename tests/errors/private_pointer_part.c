// expect-error-at: 11:35
// expect-error: a private copy of what 'p' points to needs a constant length
// A part of what a pointer points to can be private (each thread gets its
// own copy, in its own memory), but only with a constant length.
int main(void)
{
    int n = 4;
    double *p = 0;
    double out[4];
    (void)n;
#pragma acc parallel loop private(p[0:n]) copyout(out)
    for (int i = 0; i < 4; i++)
        out[i] = i + (p != 0);
    return (int)out[0];
}
