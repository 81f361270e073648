// expect-error-at: 12:13
// expect-error: function 'ext_weight' is called in device code but has no device version
// A function with neither a routine directive nor a definition in this
// file has no device version.
double ext_weight(int i);

void scale(int n, double *a)
{
#pragma acc parallel loop copy(a[0:n])
    for (int i = 0; i < n; i++)
        a[i] *=
            ext_weight(i);
}
