// expect-error-at: 9:39
// expect-error: reductions on 'long double' are not supported on the device
// The device computes 'long double' in double precision; its reductions
// would combine values in the host's 80-bit memory format.
int main(void)
{
    long double s = 0;
    int i;
#pragma acc parallel loop reduction(+:s)
    for (i = 0; i < 10; i++)
        s += i;
    return (int)s;
}
