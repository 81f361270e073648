/*
 * JR: the driver. Sets up the problem, opens the data region that keeps the
 * global arrays on the device for the whole run (the compute routines in the
 * other files name them in present clauses), relaxes ITMAX_DEFAULT sweeps,
 * then checks the norms against the class's reference values.
 */
#include <math.h>
#include <stdio.h>
#include "header.h"

int nx, ny, nz;
double dxi, deta, dzeta;
double tx, ty, tz;

double u[KMAX][JMAX][IMAX][NCOMP];
double frc[KMAX][JMAX][IMAX][NCOMP];
double rsd[KMAX][JMAX][IMAX][NCOMP];
double acoef[NCOMP][NCOMP];

/* The RMS error of u at interior planes, on the host (after an update self). */
static void host_error_norms(double rms[NCOMP])
{
    int i, j, k, m;
    double ue[NCOMP];
    double npts = (double)(nx - 2) * (ny - 2) * (nz - 2);
    for (m = 0; m < NCOMP; m++)
        rms[m] = 0.0;
    for (k = 1; k < nz - 1; k++)
        for (j = 1; j < ny - 1; j++)
            for (i = 1; i < nx - 1; i++) {
                exact(i * dxi, j * deta, k * dzeta, ue);
                for (m = 0; m < NCOMP; m++)
                    rms[m] += SQR(u[k][j][i][m] - ue[m]);
            }
    for (m = 0; m < NCOMP; m++)
        rms[m] = sqrt(rms[m] / npts);
}

static void print_norms(const char *what, int it, const double rms[NCOMP])
{
    int m;
    printf(" %-9s %4d", what, it);
    for (m = 0; m < NCOMP; m++)
        printf(" %.10e", rms[m]);
    printf("\n");
}

int main(void)
{
    int it, itmax = ITMAX_DEFAULT, inorm = INORM_DEFAULT;
    double rsdnm[NCOMP], errnm[NCOMP], errnm_host[NCOMP], rsdmax, t, mops;
    logical verified;

    printf("\n\n NAS Parallel Benchmarks (NPB3.3-like) - JR Benchmark\n\n");
    printf(" Size: %4dx%4dx%4d\n", ISIZ1, ISIZ2, ISIZ3);
    printf(" Iterations: %4d\n\n", itmax);

    nx = ISIZ1;
    ny = ISIZ2;
    nz = ISIZ3;
    dxi = 1.0 / (nx - 1);
    deta = 1.0 / (ny - 1);
    dzeta = 1.0 / (nz - 1);
    tx = 1.0 / (dxi * dxi);
    ty = 1.0 / (deta * deta);
    tz = 1.0 / (dzeta * dzeta);
    set_coefficients();
    timer_clear(1);

#pragma acc data copy(u[0:KMAX]) create(frc[0:KMAX], rsd[0:KMAX][0:JMAX]) \
    copyin(acoef[0:NCOMP][0:NCOMP])
    {
        set_initial();
        set_forcing();
        /* One plane of the forcing, for a look on the host. */
#pragma acc update host(frc[nz / 2:1])
        printf(" forcing at k = %d: %.10e %.10e\n\n", nz / 2, frc[nz / 2][ny / 2][nx / 2][0],
               frc[nz / 2][1][nx - 2][3]);
        residual();
#pragma acc wait(JR_QUEUE)
        error_norms(errnm);
        print_norms("error", 0, errnm);

        timer_start(1);
        for (it = 1; it <= itmax; it++) {
            relax(OMEGA);
            residual();
            if (it % inorm == 0 || it == 1) {
#pragma acc wait(JR_QUEUE)
                residual_norms(rsdnm, &rsdmax);
                print_norms("residual", it, rsdnm);
            }
        }
#pragma acc wait
        timer_stop(1);

        residual_norms(rsdnm, &rsdmax);
        error_norms(errnm);

        /* The interior planes come back for the host's check; the data
           region copies the whole of u out when it ends. */
#pragma acc update self(u[1:nz - 2])
        host_error_norms(errnm_host);
    }

    print_norms("error", itmax, errnm);
    print_norms("error/h", itmax, errnm_host);
    printf(" max residual %.10e\n", rsdmax);
    printf(" u[%d][%d][%d] = %.10e %.10e\n", nz / 2, ny / 2, nx / 2,
           u[nz / 2][ny / 2][nx / 2][0], u[nz / 2][ny / 2][nx / 2][4]);

    verify(CLASS, rsdnm, rsdmax, errnm, &verified);

    t = timer_read(1);
    mops = t > 0.0 ? 140.0 * itmax * (nx - 2) * (ny - 2) * (nz - 2) / t * 1.0e-6 : 0.0;
    c_print_results("JR", CLASS, nx, ny, nz, itmax, t, mops, "floating point",
                    verified);
    return verified ? 0 : 1;
}
