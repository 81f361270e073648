// expect-error-at: 8:19
// expect-error: in the parameters of 'mix': expected ')', ',', '(' or '[', found 'double'
// A syntax error in a function a `routine` directive names: accc compiles it
// for the device, so it must parse it.
#pragma acc routine seq
static double mix(double a,
                  double b
                  double c)
{
    return a * b + c;
}
