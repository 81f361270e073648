/* A program of two files whose compute regions call device functions
 * defined in the other file (acc routine across translation units): each
 * file is compiled with accc -c and the objects are linked by accc; the
 * device code of the two is linked when the program first launches. */
#include <stdio.h>
#include "vecops.h"

int main(void)
{
    enum { R = 50, C = 200 };
    static double a[R][C], b[R][C];
    static int ds[R * C];
    range r = { 10.0, 300.0 };
    for (int i = 0; i < R; i++)
        for (int j = 0; j < C; j++)
            a[i][j] = (i * 37 + j * 11) % 400;

#pragma acc parallel loop gang vector_length(64) copyin(a) copyout(b)
    for (int i = 0; i < R; i++)
        smooth_row(C, a[i], b[i]);

#pragma acc parallel loop gang copy(b) copyout(ds)
    for (int i = 0; i < R; i++)
#pragma acc loop vector
        for (int j = 0; j < C; j++) {
            b[i][j] = clamp(b[i][j], r);
            ds[i * C + j] = digit_sum((long)(b[i][j] * 1000.0));
        }

    double s = 0;
    long t = 0;
    for (int i = 0; i < R; i++)
        for (int j = 0; j < C; j++) {
            s += b[i][j];
            t += ds[i * C + j];
        }
    printf("%.10e %ld\n", s, t);
    printf("PASS\n");
    return 0;
}
