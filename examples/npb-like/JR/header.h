/*
 * JR: Jacobi relaxation of a coupled 5-component elliptic system on a 3-D grid,
 *
 *     -lap(u_m) + sum_l a[m][l] u_l = f_m     (m = 0..4, Dirichlet boundaries),
 *
 * with the 7-point Laplacian on an ISIZ1 x ISIZ2 x ISIZ3 grid of the unit cube.
 * The forcing f is the discrete operator applied to a known smooth solution
 * (exact.c), so the iterates converge to that solution; residual and error
 * norms are verified against reference values of each class.
 *
 * Files: jr.c (driver, the data region), init.c (initial values, forcing),
 * rhs.c (residual), relax.c (Jacobi sweep), norms.c (norms: reductions),
 * exact.c (the exact solution, a device routine), verify.c.
 */
#include "npb.h"
#include "npbparams.h"

/* Array extents: odd, padded like the NPB codes (loops use nx, ny, nz). */
#define IMAX (ISIZ1 / 2 * 2 + 1)
#define JMAX (ISIZ2 / 2 * 2 + 1)
#define KMAX (ISIZ3 / 2 * 2 + 1)
#define NCOMP 5

/* The relaxation weight of the damped Jacobi sweep. */
#define OMEGA 0.9

/* The async queue of the sweeps (relax, residual), and the shape of the
   gangs of set_forcing. */
#define JR_QUEUE 1
#define NWORKERS 4
#define VLENGTH 32

/* Grid size and spacing (set by jr.c). */
extern int nx, ny, nz;
extern double dxi, deta, dzeta; /* spacing in x, y, z */
extern double tx, ty, tz;       /* 1/spacing^2 */

/* The solution, the forcing and the residual, [k][j][i][m]. */
extern double u[KMAX][JMAX][IMAX][NCOMP];
extern double frc[KMAX][JMAX][IMAX][NCOMP];
extern double rsd[KMAX][JMAX][IMAX][NCOMP];

/* The coupling matrix a[m][l] of the components. */
extern double acoef[NCOMP][NCOMP];

/* exact.c: the exact solution at (xi, eta, zeta), called on the host and on the device */
#pragma acc routine seq
void exact(double xi, double eta, double zeta, double ue[NCOMP]);

/* init.c */
void set_coefficients(void);
void set_initial(void);
void set_forcing(void);

/* rhs.c */
void residual(void);

/* relax.c */
void relax(double omega);

/* norms.c */
void residual_norms(double rms[NCOMP], double *rmax);
void error_norms(double rms[NCOMP]);

/* verify.c */
void verify(char cls, const double rsdnm[NCOMP], double rsdmax, const double errnm[NCOMP],
            logical *verified);
