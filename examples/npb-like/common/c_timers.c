/* Wall-clock timers: clear, start, stop and read timer n (0..NTIMERS-1). */
#include "npb.h"

static double start[NTIMERS];
static double elapsed[NTIMERS];

void timer_clear(int n)
{
    elapsed[n] = 0.0;
}

void timer_start(int n)
{
    start[n] = wtime();
}

void timer_stop(int n)
{
    elapsed[n] += wtime() - start[n];
}

double timer_read(int n)
{
    return elapsed[n];
}
