/*
 * npb.h: what every benchmark of the suite shares: timers, the verification
 * helper and the results report (c_timers.c, c_verify.c, c_print_results.c).
 */
#ifndef NPB_H
#define NPB_H

typedef int logical;
#define TRUE 1
#define FALSE 0

#define NPBVERSION "3.3-like"

/* The relative tolerance of the verification against a class's reference values. */
#define VERIFY_EPSILON 1.0e-8

#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define SQR(x) ((x) * (x))

/* Wall-clock timers 0..NTIMERS-1 (seconds). */
#define NTIMERS 4
void timer_clear(int n);
void timer_start(int n);
void timer_stop(int n);
double timer_read(int n);
double wtime(void);

/* Prints "<what>[m] = <got> <ref> <rel. difference>" and says whether `got`
   is within `eps` (relative) of `ref`. */
logical verify_value(const char *what, int m, double got, double ref, double eps);

/* The report at the end of a run. Times and rates go on lines of their own
   ("Time in seconds", "Mop/s total"), the only lines that differ from run to run. */
void c_print_results(const char *name, char cls, int n1, int n2, int n3, int niter,
                     double t, double mops, const char *optype, int verified);

#endif
