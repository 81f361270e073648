/* The report at the end of a benchmark run (the NPB layout). */
#include <stdio.h>
#include "npb.h"

void c_print_results(const char *name, char cls, int n1, int n2, int n3, int niter,
                     double t, double mops, const char *optype, int verified)
{
    printf("\n\n %s Benchmark Completed\n", name);
    printf(" Class           =                        %c\n", cls);
    printf(" Size            =            %4dx%4dx%4d\n", n1, n2, n3);
    printf(" Iterations      =             %12d\n", niter);
    printf(" Time in seconds =             %12.2f\n", t);
    printf(" Mop/s total     =             %12.2f\n", mops);
    printf(" Operation type  = %24s\n", optype);
    if (verified < 0)
        printf(" Verification    =            NOT PERFORMED\n");
    else if (verified)
        printf(" Verification    =               SUCCESSFUL\n");
    else
        printf(" Verification    =             UNSUCCESSFUL\n");
    printf(" Version         =             %12s\n", NPBVERSION);
}
