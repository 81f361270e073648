/* Device functions shared by the files of this program: declared here with
 * their routine directives, defined in vecops.c, called from main.c. */
#ifndef VECOPS_H
#define VECOPS_H

typedef struct { double lo, hi; } range;

#pragma acc routine seq
double clamp(double x, range r);

#pragma acc routine seq
int digit_sum(long v);

#pragma acc routine vector
void smooth_row(int n, const double *in, double *out);

#endif
