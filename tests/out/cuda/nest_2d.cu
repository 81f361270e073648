// CUDA C of tests/in/nest_2d.c, written by accc from the scheduled loop IR (the nvcc path).

// parallel loop at tests/in/nest_2d.c:5:13
#line 5 "tests/in/nest_2d.c"
extern "C" __global__ void __launch_bounds__(64) __accc_init_0_l5_feb2b5a9(int m, double (*__restrict__ u)[64])
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
#line 6 "tests/in/nest_2d.c"
        init_1 = 0;
#line 6 "tests/in/nest_2d.c"
        limit_1 = m;
#line 6 "tests/in/nest_2d.c"
        step_1 = 1;
#line 6 "tests/in/nest_2d.c"
        trip_1 = 0ULL;
#line 6 "tests/in/nest_2d.c"
        if (init_1 < limit_1) {
#line 6 "tests/in/nest_2d.c"
            trip_1 = ((unsigned long long)limit_1 - (unsigned long long)init_1 - 1ULL) / (unsigned long long)step_1 + 1ULL;
        }
#line 6 "tests/in/nest_2d.c"
        k_1 = (unsigned long long)blockIdx.x;
#line 6 "tests/in/nest_2d.c"
        stride_1 = (unsigned long long)gridDim.x;
#line 6 "tests/in/nest_2d.c"
        for (; k_1 < trip_1; k_1 = k_1 + stride_1) {
#line 6 "tests/in/nest_2d.c"
            i = (int)((unsigned int)init_1 + (unsigned int)k_1 * (unsigned int)step_1);
#line 6 "tests/in/nest_2d.c"
            {
#line 8 "tests/in/nest_2d.c"
                init = 0;
#line 8 "tests/in/nest_2d.c"
                limit = 64;
#line 8 "tests/in/nest_2d.c"
                step = 1;
#line 8 "tests/in/nest_2d.c"
                trip = 0ULL;
#line 8 "tests/in/nest_2d.c"
                if (init < limit) {
#line 8 "tests/in/nest_2d.c"
                    trip = ((unsigned long long)limit - (unsigned long long)init - 1ULL) / (unsigned long long)step + 1ULL;
                }
#line 8 "tests/in/nest_2d.c"
                k = (unsigned long long)threadIdx.x;
#line 8 "tests/in/nest_2d.c"
                stride = (unsigned long long)64u;
#line 8 "tests/in/nest_2d.c"
                for (; k < trip; k = k + stride) {
#line 8 "tests/in/nest_2d.c"
                    j = (int)((unsigned int)init + (unsigned int)k * (unsigned int)step);
                    tmp = (double)i * 0.5 + (double)j;
#line 8 "tests/in/nest_2d.c"
                    if (0u == 0u && 0u == 0u) {
                        ((double *)(u + (long long)i))[(long long)j] = tmp;
                    }
                }
            }
        }
    }
#line 78 "tests/in/nest_2d.c.cu"
}
