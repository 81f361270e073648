// CUDA C of tests/in/size_clause_locs.c, written by accc from the scheduled loop IR (the nvcc path).

// parallel loop at tests/in/size_clause_locs.c:5:13
#line 5 "tests/in/size_clause_locs.c"
extern "C" __global__ void __maxnreg__(255) __accc_scale_0_l5_c45bb06d(int n, float *__restrict__ a)
#line 7 "tests/in/size_clause_locs.c.cu"
{
    int i;
    float tmp;
    int init;
    int limit;
    int step;
    unsigned long long trip;
    unsigned long long k;
    unsigned long long stride;
    {
#line 6 "tests/in/size_clause_locs.c"
        init = 0;
#line 6 "tests/in/size_clause_locs.c"
        limit = n;
#line 6 "tests/in/size_clause_locs.c"
        step = 1;
#line 6 "tests/in/size_clause_locs.c"
        trip = 0ULL;
#line 6 "tests/in/size_clause_locs.c"
        if (init < limit) {
#line 6 "tests/in/size_clause_locs.c"
            trip = ((unsigned long long)limit - (unsigned long long)init - 1ULL) / (unsigned long long)step + 1ULL;
        }
#line 6 "tests/in/size_clause_locs.c"
        k = ((unsigned long long)blockIdx.x * (unsigned long long)blockDim.y + (unsigned long long)threadIdx.y) * (unsigned long long)blockDim.x + (unsigned long long)threadIdx.x;
#line 6 "tests/in/size_clause_locs.c"
        stride = (unsigned long long)gridDim.x * (unsigned long long)blockDim.y * (unsigned long long)blockDim.x;
#line 6 "tests/in/size_clause_locs.c"
        for (; k < trip; k = k + stride) {
#line 6 "tests/in/size_clause_locs.c"
            i = (int)((unsigned int)init + (unsigned int)k * (unsigned int)step);
            tmp = 2.0f * a[(long long)i];
#line 6 "tests/in/size_clause_locs.c"
            if (0u == 0u) {
                a[(long long)i] = tmp;
            }
        }
    }
#line 46 "tests/in/size_clause_locs.c.cu"
}

// parallel at tests/in/size_clause_locs.c:8:13
#line 8 "tests/in/size_clause_locs.c"
extern "C" __global__ void __maxnreg__(255) __accc_scale_1_l8_c45bb06d(int n, float *__restrict__ a)
#line 52 "tests/in/size_clause_locs.c.cu"
{
    int i;
    float tmp;
    int init;
    int limit;
    int step;
    unsigned long long trip;
    unsigned long long k;
    unsigned long long stride;
    {
#line 11 "tests/in/size_clause_locs.c"
        init = 0;
#line 11 "tests/in/size_clause_locs.c"
        limit = n;
#line 11 "tests/in/size_clause_locs.c"
        step = 1;
#line 11 "tests/in/size_clause_locs.c"
        trip = 0ULL;
#line 11 "tests/in/size_clause_locs.c"
        if (init < limit) {
#line 11 "tests/in/size_clause_locs.c"
            trip = ((unsigned long long)limit - (unsigned long long)init - 1ULL) / (unsigned long long)step + 1ULL;
        }
#line 11 "tests/in/size_clause_locs.c"
        k = ((unsigned long long)blockIdx.x * (unsigned long long)blockDim.y + (unsigned long long)threadIdx.y) * (unsigned long long)blockDim.x + (unsigned long long)threadIdx.x;
#line 11 "tests/in/size_clause_locs.c"
        stride = (unsigned long long)gridDim.x * (unsigned long long)blockDim.y * (unsigned long long)blockDim.x;
#line 11 "tests/in/size_clause_locs.c"
        for (; k < trip; k = k + stride) {
#line 11 "tests/in/size_clause_locs.c"
            i = (int)((unsigned int)init + (unsigned int)k * (unsigned int)step);
            tmp = a[(long long)i] + 1.0f;
#line 11 "tests/in/size_clause_locs.c"
            if (0u == 0u) {
                a[(long long)i] = tmp;
            }
        }
    }
#line 91 "tests/in/size_clause_locs.c.cu"
}
