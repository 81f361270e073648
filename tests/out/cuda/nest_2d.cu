// CUDA C of tests/in/nest_2d.c, written by accc from the scheduled loop IR (the nvcc path).

// parallel loop at tests/in/nest_2d.c:5:13
#line 5 "tests/in/nest_2d.c"
extern "C" __global__ void __launch_bounds__(64) __accc_init_0_l5_feb2b5a9(int m, double (*u)[64])
#line 7 "tests/in/nest_2d.c.cu"
{
    int i;
    int j;
    double tmp;
    int init;
    int limit;
    int step;
    unsigned long long trip;
    unsigned long long k;
    unsigned long long stride;
    int init_1;
    int limit_1;
    int step_1;
    unsigned long long trip_1;
    unsigned long long k_1;
    unsigned long long stride_1;
    {
        init_1 = 0;
        limit_1 = m;
        step_1 = 1;
        trip_1 = 0ULL;
        if (init_1 < limit_1) {
            trip_1 = ((unsigned long long)limit_1 - (unsigned long long)init_1 - 1ULL) / (unsigned long long)step_1 + 1ULL;
        }
        k_1 = (unsigned long long)blockIdx.x;
        stride_1 = (unsigned long long)gridDim.x;
        for (; k_1 < trip_1; k_1 = k_1 + stride_1) {
            i = (int)((unsigned int)init_1 + (unsigned int)k_1 * (unsigned int)step_1);
            {
                init = 0;
                limit = 64;
                step = 1;
                trip = 0ULL;
                if (init < limit) {
                    trip = ((unsigned long long)limit - (unsigned long long)init - 1ULL) / (unsigned long long)step + 1ULL;
                }
                k = (unsigned long long)threadIdx.x;
                stride = (unsigned long long)64u;
                for (; k < trip; k = k + stride) {
                    j = (int)((unsigned int)init + (unsigned int)k * (unsigned int)step);
                    tmp = (double)i * 0.5 + (double)j;
                    if (0u == 0u && 0u == 0u) {
                        ((double *)(u + (long long)i))[(long long)j] = tmp;
                    }
                }
            }
        }
    }
}
