// CUDA C of tests/in/negative_step.c, written by accc from the scheduled loop IR (the nvcc path).

// kernels loop at tests/in/negative_step.c:3:13
#line 3 "tests/in/negative_step.c"
extern "C" __global__ void __launch_bounds__(128) __accc_f_0_l3_aca7f1ba(long long n, double *x, double s)
#line 7 "tests/in/negative_step.c.cu"
{
    long long i;
    double *tmp;
    double tmp_1;
    double tmp_2;
    long long init;
    long long limit;
    long long step;
    unsigned long long trip;
    unsigned long long k;
    unsigned long long stride;
    {
#line 4 "tests/in/negative_step.c"
        init = n - (long long)1;
#line 4 "tests/in/negative_step.c"
        limit = (long long)0;
#line 4 "tests/in/negative_step.c"
        step = -(long long)2;
#line 4 "tests/in/negative_step.c"
        trip = 0ULL;
#line 4 "tests/in/negative_step.c"
        if (init >= limit) {
#line 4 "tests/in/negative_step.c"
            trip = ((unsigned long long)init - (unsigned long long)limit) / -(unsigned long long)step + 1ULL;
        }
#line 4 "tests/in/negative_step.c"
        k = (unsigned long long)blockIdx.x * (unsigned long long)128u + (unsigned long long)threadIdx.x;
#line 4 "tests/in/negative_step.c"
        stride = (unsigned long long)gridDim.x * (unsigned long long)128u;
#line 4 "tests/in/negative_step.c"
        for (; k < trip; k = k + stride) {
#line 4 "tests/in/negative_step.c"
            i = (long long)((unsigned long long)init + k * (unsigned long long)step);
            if ((bool)(int)(x[i] > s)) {
                tmp = x + i;
#line 6 "tests/in/negative_step.c"
                tmp_1 = *tmp - s;
#line 5 "tests/in/negative_step.c"
                if (0u == 0u && 0u == 0u) {
                    *tmp = tmp_1;
                }
            } else {
#line 8 "tests/in/negative_step.c"
                tmp_2 = s * 2.0;
#line 5 "tests/in/negative_step.c"
                if (0u == 0u && 0u == 0u) {
#line 8 "tests/in/negative_step.c"
                    x[i] = tmp_2;
                }
            }
        }
    }
#line 60 "tests/in/negative_step.c.cu"
}
