/* Definitions of the routines of vecops.h, compiled separately (accc -c),
 * exported to the other files' device code. digit_sum calls a helper that
 * stays private to this file (an implicit routine). */
#include "vecops.h"

static int last_digit(long v) { return (int)(v % 10); }

double clamp(double x, range r)
{
    return x < r.lo ? r.lo : x > r.hi ? r.hi : x;
}

int digit_sum(long v)
{
    int s = 0;
    if (v < 0)
        v = -v;
    while (v > 0) {
        s += last_digit(v);
        v /= 10;
    }
    return s;
}

void smooth_row(int n, const double *in, double *out)
{
#pragma acc loop vector
    for (int j = 0; j < n; j++) {
        double l = j > 0 ? in[j - 1] : in[j], r = j < n - 1 ? in[j + 1] : in[j];
        out[j] = 0.25 * l + 0.5 * in[j] + 0.25 * r;
    }
}
