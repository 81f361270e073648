/* wtime: wall-clock seconds since some fixed time. */
#include <stddef.h>
#include <sys/time.h>
#include "npb.h"

double wtime(void)
{
    static long sec0 = -1;
    struct timeval tv;
    gettimeofday(&tv, NULL);
    if (sec0 < 0)
        sec0 = tv.tv_sec;
    return (double)(tv.tv_sec - sec0) + 1.0e-6 * (double)tv.tv_usec;
}
