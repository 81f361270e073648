/* Coefficients, initial values and the forcing. */
#include "header.h"

/* The coupling of the components: diagonally dominant, not symmetric. */
void set_coefficients(void)
{
    int m, l;
    for (m = 0; m < NCOMP; m++)
        for (l = 0; l < NCOMP; l++)
            acoef[m][l] = m == l ? 1.0 + 0.5 * m : 0.1 / (1 + m + 2 * l);
}

/* u: the exact solution on the boundary, inside the mean of its linear
   interpolations between opposite faces. */
void set_initial(void)
{
    int i, j, k, m;
#pragma acc kernels loop gang collapse(2) present(u)
    for (k = 0; k < nz; k++)
        for (j = 0; j < ny; j++)
#pragma acc loop vector independent private(m)
            for (i = 0; i < nx; i++) {
                double xi = i * dxi, eta = j * deta, zeta = k * dzeta;
                double w[NCOMP], e[NCOMP], s[NCOMP], n[NCOMP], b[NCOMP], t[NCOMP];
                if (i == 0 || j == 0 || k == 0 || i == nx - 1 || j == ny - 1 || k == nz - 1) {
                    exact(xi, eta, zeta, w);
                    for (m = 0; m < NCOMP; m++)
                        u[k][j][i][m] = w[m];
                    continue;
                }
                exact(0.0, eta, zeta, w);
                exact(1.0, eta, zeta, e);
                exact(xi, 0.0, zeta, s);
                exact(xi, 1.0, zeta, n);
                exact(xi, eta, 0.0, b);
                exact(xi, eta, 1.0, t);
                for (m = 0; m < NCOMP; m++)
                    u[k][j][i][m] = ((1.0 - xi) * w[m] + xi * e[m]
                                     + (1.0 - eta) * s[m] + eta * n[m]
                                     + (1.0 - zeta) * b[m] + zeta * t[m]) / 3.0;
            }
}

/* frc: the discrete operator applied to the exact solution, at interior points. */
void set_forcing(void)
{
    int i, j, k;
#pragma acc parallel loop gang num_workers(NWORKERS) vector_length(VLENGTH) present(frc, acoef)
    for (k = 1; k < nz - 1; k++)
#pragma acc loop worker
        for (j = 1; j < ny - 1; j++)
#pragma acc loop vector
            for (i = 1; i < nx - 1; i++) {
                double c[NCOMP], xm[NCOMP], xp[NCOMP], ym[NCOMP], yp[NCOMP], zm[NCOMP], zp[NCOMP];
                int m, l;
                exact(i * dxi, j * deta, k * dzeta, c);
                exact((i - 1) * dxi, j * deta, k * dzeta, xm);
                exact((i + 1) * dxi, j * deta, k * dzeta, xp);
                exact(i * dxi, (j - 1) * deta, k * dzeta, ym);
                exact(i * dxi, (j + 1) * deta, k * dzeta, yp);
                exact(i * dxi, j * deta, (k - 1) * dzeta, zm);
                exact(i * dxi, j * deta, (k + 1) * dzeta, zp);
                for (m = 0; m < NCOMP; m++) {
                    double au = 0.0;
                    for (l = 0; l < NCOMP; l++)
                        au += acoef[m][l] * c[l];
                    frc[k][j][i][m] = -(tx * (xm[m] - 2.0 * c[m] + xp[m])
                                        + ty * (ym[m] - 2.0 * c[m] + yp[m])
                                        + tz * (zm[m] - 2.0 * c[m] + zp[m]))
                                      + au;
                }
            }
}
