/* One damped Jacobi sweep: u += omega * rsd / diagonal of the operator (on the
   queue JR_QUEUE). */
#include "header.h"

void relax(double omega)
{
    int i, j, k, m;
    double d = 2.0 * (tx + ty + tz);
#pragma acc parallel loop gang present(u, rsd, acoef) async(JR_QUEUE)
    for (k = 1; k < nz - 1; k++)
#pragma acc loop vector collapse(2)
        for (j = 1; j < ny - 1; j++)
            for (i = 1; i < nx - 1; i++)
                for (m = 0; m < NCOMP; m++)
                    u[k][j][i][m] += omega * rsd[k][j][i][m] / (d + acoef[m][m]);
}
