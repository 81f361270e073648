/* The residual rsd = frc - L(u) at interior points (on the queue JR_QUEUE). */
#include "header.h"

void residual(void)
{
    int i, j, k, m, l;
    double lap, au, uc[NCOMP];
#pragma acc parallel loop gang vector collapse(3) present(u, frc, rsd, acoef) \
    private(m, l, lap, au, uc[0:NCOMP]) async(JR_QUEUE)
    for (k = 1; k < nz - 1; k++)
        for (j = 1; j < ny - 1; j++)
            for (i = 1; i < nx - 1; i++) {
                for (m = 0; m < NCOMP; m++)
                    uc[m] = u[k][j][i][m];
                for (m = 0; m < NCOMP; m++) {
                    lap = tx * (u[k][j][i - 1][m] - 2.0 * uc[m] + u[k][j][i + 1][m])
                          + ty * (u[k][j - 1][i][m] - 2.0 * uc[m] + u[k][j + 1][i][m])
                          + tz * (u[k - 1][j][i][m] - 2.0 * uc[m] + u[k + 1][j][i][m]);
                    au = 0.0;
                    for (l = 0; l < NCOMP; l++)
                        au += acoef[m][l] * uc[l];
                    rsd[k][j][i][m] = frc[k][j][i][m] - (-lap + au);
                }
            }
}
