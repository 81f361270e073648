// CUDA C of tests/in/gang_private_store.c, written by accc from the scheduled loop IR (the nvcc path).

// parallel loop at tests/in/gang_private_store.c:6:13
#line 6 "tests/in/gang_private_store.c"
extern "C" __global__ void __launch_bounds__(64) __accc_f_0_l6_ec446d5f(int n, double *g, double (*r)[64])
#line 7 "tests/in/gang_private_store.c.cu"
{
    int j;
    double v[2];
    double tmp;
    double tmp_1;
    double *tmp_2;
    double tmp_3;
    double tmp_4;
    int i;
    double tmp_5;
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
#line 7 "tests/in/gang_private_store.c"
        init_1 = 0;
#line 7 "tests/in/gang_private_store.c"
        limit_1 = n;
#line 7 "tests/in/gang_private_store.c"
        step_1 = 1;
#line 7 "tests/in/gang_private_store.c"
        trip_1 = 0ULL;
#line 7 "tests/in/gang_private_store.c"
        if (init_1 < limit_1) {
#line 7 "tests/in/gang_private_store.c"
            trip_1 = ((unsigned long long)limit_1 - (unsigned long long)init_1 - 1ULL) / (unsigned long long)step_1 + 1ULL;
        }
#line 7 "tests/in/gang_private_store.c"
        k_1 = (unsigned long long)blockIdx.x;
#line 7 "tests/in/gang_private_store.c"
        stride_1 = (unsigned long long)gridDim.x;
#line 7 "tests/in/gang_private_store.c"
        for (; k_1 < trip_1; k_1 = k_1 + stride_1) {
#line 7 "tests/in/gang_private_store.c"
            j = (int)((unsigned int)init_1 + (unsigned int)k_1 * (unsigned int)step_1);
#line 9 "tests/in/gang_private_store.c"
            tmp = (double)j;
#line 9 "tests/in/gang_private_store.c"
            v[(long long)0] = tmp;
            tmp_1 = v[(long long)0] * 2.0;
#line 10 "tests/in/gang_private_store.c"
            v[(long long)1] = tmp_1;
            tmp_2 = v + (long long)1;
#line 11 "tests/in/gang_private_store.c"
            tmp_3 = *tmp_2 + 1.0;
#line 11 "tests/in/gang_private_store.c"
            *tmp_2 = tmp_3;
            tmp_4 = v[(long long)0];
#line 7 "tests/in/gang_private_store.c"
            if (threadIdx.x == 0u && 0u == 0u && 0u == 0u) {
#line 12 "tests/in/gang_private_store.c"
                g[(long long)j] = tmp_4;
            }
#line 7 "tests/in/gang_private_store.c"
            __syncthreads();
#line 7 "tests/in/gang_private_store.c"
            {
#line 14 "tests/in/gang_private_store.c"
                init = 0;
#line 14 "tests/in/gang_private_store.c"
                limit = 64;
#line 14 "tests/in/gang_private_store.c"
                step = 1;
#line 14 "tests/in/gang_private_store.c"
                trip = 0ULL;
#line 14 "tests/in/gang_private_store.c"
                if (init < limit) {
#line 14 "tests/in/gang_private_store.c"
                    trip = ((unsigned long long)limit - (unsigned long long)init - 1ULL) / (unsigned long long)step + 1ULL;
                }
#line 14 "tests/in/gang_private_store.c"
                k = (unsigned long long)threadIdx.x;
#line 14 "tests/in/gang_private_store.c"
                stride = (unsigned long long)64u;
#line 14 "tests/in/gang_private_store.c"
                for (; k < trip; k = k + stride) {
#line 14 "tests/in/gang_private_store.c"
                    i = (int)((unsigned int)init + (unsigned int)k * (unsigned int)step);
                    tmp_5 = v[(long long)(i % 2)];
#line 14 "tests/in/gang_private_store.c"
                    if (0u == 0u && 0u == 0u) {
                        ((double *)(r + (long long)j))[(long long)i] = tmp_5;
                    }
                }
            }
#line 7 "tests/in/gang_private_store.c"
            __syncthreads();
        }
    }
#line 106 "tests/in/gang_private_store.c.cu"
}
