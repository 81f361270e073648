// expect-error-at: 9:16
// expect-error: global variable 'scale' is used in device function 'scaled'
// A routine may not use a global variable that no 'declare' directive puts
// on the device.
double scale = 2.0;

#pragma acc routine seq
static double scaled(double x) {
    return x * scale;
}

void h(int n, double *a)
{
#pragma acc parallel loop copy(a[0:n])
    for (int i = 0; i < n; i++)
        a[i] = scaled(a[i]);
}
