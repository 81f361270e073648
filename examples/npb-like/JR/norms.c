/* Root-mean-square norms over the interior points: reductions on the device. */
#include <math.h>
#include "header.h"

/* Scratch of error_norms: the pointwise error, on the device only. */
static double err[KMAX][JMAX][IMAX][NCOMP];

/* The RMS norm of each component of rsd and its largest magnitude. */
void residual_norms(double rms[NCOMP], double *rmax)
{
    int i, j, k, m;
    double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0, s4 = 0.0, mx = 0.0;
    double npts = (double)(nx - 2) * (ny - 2) * (nz - 2);

#pragma acc parallel loop gang vector collapse(3) present(rsd) \
    reduction(+:s0, s1, s2, s3, s4) reduction(max:mx)
    for (k = 1; k < nz - 1; k++)
        for (j = 1; j < ny - 1; j++)
            for (i = 1; i < nx - 1; i++) {
                s0 += SQR(rsd[k][j][i][0]);
                s1 += SQR(rsd[k][j][i][1]);
                s2 += SQR(rsd[k][j][i][2]);
                s3 += SQR(rsd[k][j][i][3]);
                s4 += SQR(rsd[k][j][i][4]);
                for (m = 0; m < NCOMP; m++)
                    mx = fmax(mx, fabs(rsd[k][j][i][m]));
            }
    rms[0] = sqrt(s0 / npts);
    rms[1] = sqrt(s1 / npts);
    rms[2] = sqrt(s2 / npts);
    rms[3] = sqrt(s3 / npts);
    rms[4] = sqrt(s4 / npts);
    *rmax = mx;
}

/* The RMS norm of each component of u - exact, computed on the device. */
void error_norms(double rms[NCOMP])
{
    int i, j, k, m;
    double s[NCOMP];
    double npts = (double)(nx - 2) * (ny - 2) * (nz - 2);

#pragma acc data create(err)
    {
#pragma acc parallel loop gang collapse(2) present(u, err)
        for (k = 1; k < nz - 1; k++)
            for (j = 1; j < ny - 1; j++)
#pragma acc loop vector
                for (i = 1; i < nx - 1; i++) {
                    double ue[NCOMP];
                    exact(i * dxi, j * deta, k * dzeta, ue);
                    for (m = 0; m < NCOMP; m++)
                        err[k][j][i][m] = u[k][j][i][m] - ue[m];
                }

        for (m = 0; m < NCOMP; m++) {
            double sum = 0.0;
#pragma acc parallel loop collapse(3) present(err) reduction(+:sum)
            for (k = 1; k < nz - 1; k++)
                for (j = 1; j < ny - 1; j++)
                    for (i = 1; i < nx - 1; i++)
                        sum += SQR(err[k][j][i][m]);
            s[m] = sum;
        }
    }
    for (m = 0; m < NCOMP; m++)
        rms[m] = sqrt(s[m] / npts);
}
