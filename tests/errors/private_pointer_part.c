// expect-error-at: 9:35
// expect-error: only parts of arrays can be private
// A part of an array variable in a private clause makes the array private;
// a part of what a pointer points to cannot be.
int main(void)
{
    double *p = 0;
    double out[4];
#pragma acc parallel loop private(p[0:4]) copyout(out)
    for (int i = 0; i < 4; i++)
        out[i] = i + (p != 0);
    return (int)out[0];
}
