/* The verification helper: one computed value against its reference value. */
#include <math.h>
#include <stdio.h>
#include "npb.h"

logical verify_value(const char *what, int m, double got, double ref, double eps)
{
    double diff = fabs(got - ref);
    logical ok;
    if (ref != 0.0)
        diff /= fabs(ref);
    ok = diff <= eps;
    /* The difference is printed coarsely: it is rounding noise, which may
       differ between builds, and the line is compared with the plain build's. */
    printf(" %s %d %20.10e %20.10e %s\n", what, m + 1, got, ref,
           ok ? "ok" : "FAILURE");
    if (!ok)
        printf("   relative difference %.3e > %.1e\n", diff, eps);
    return ok;
}
