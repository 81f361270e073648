// expect-error-at: 11:19
// expect-error: in the body of function 'saxpy': expected ';', ',' or an operator, found 'x'
// A syntax error in a function with a compute region: accc must parse the
// function, and says what it found, what it expected and where it was.
void saxpy(int n, float a, const float *x, float *y)
{
#pragma acc parallel loop copyin(x[0:n]) copy(y[0:n])
    for (int i = 0; i < n; i++) {
        float t = a;
        y[i] =
            t * 2 x[i];
    }
}
