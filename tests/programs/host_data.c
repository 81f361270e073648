// host_data use_device: inside the construct the host code sees device
// addresses; a host function passes them to a kernel through deviceptr
// (as a user would pass them to a CUDA library). if_present leaves an absent
// array as is.
#include <stdio.h>

static void axpy_dev(int n, float a, const float *x, float *y)
{
#pragma acc parallel loop deviceptr(x, y)
    for (int i = 0; i < n; i++)
        y[i] += a * x[i];
}

int main(void)
{
    enum { N = 4096 };
    static float x[N], y[N], spare[4];
    for (int i = 0; i < N; i++) {
        x[i] = i % 17;
        y[i] = 1;
    }
#pragma acc data copyin(x) copy(y)
    {
#pragma acc host_data use_device(x, y)
        {
            axpy_dev(N, 2.0f, x, y);
        }
#pragma acc host_data use_device(spare) if_present
        {
            spare[0] = 4;   // not present: the host array itself
        }
    }
    double s = 0;
    for (int i = 0; i < N; i++)
        s += y[i];
    printf("%.1f %.1f\n", s, spare[0]);
    printf("PASS\n");
    return 0;
}
