// CUDA C of tests/in/size_clause_locs.c, written by accc from the scheduled loop IR (the nvcc path).

// parallel loop at tests/in/size_clause_locs.c:5:13
#line 5 "tests/in/size_clause_locs.c"
extern "C" __global__ void __maxnreg__(64) __accc_scale_0_l5_c45bb06d(int n, float *a)
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
        init = 0;
        limit = n;
        step = 1;
        trip = 0ULL;
        if (init < limit) {
            trip = ((unsigned long long)limit - (unsigned long long)init - 1ULL) / (unsigned long long)step + 1ULL;
        }
        k = ((unsigned long long)blockIdx.x * (unsigned long long)blockDim.y + (unsigned long long)threadIdx.y) * (unsigned long long)blockDim.x + (unsigned long long)threadIdx.x;
        stride = (unsigned long long)gridDim.x * (unsigned long long)blockDim.y * (unsigned long long)blockDim.x;
        for (; k < trip; k = k + stride) {
            i = (int)((unsigned int)init + (unsigned int)k * (unsigned int)step);
            tmp = 2.0f * a[(long long)i];
            if (0u == 0u) {
                a[(long long)i] = tmp;
            }
        }
    }
}

// parallel at tests/in/size_clause_locs.c:8:13
#line 8 "tests/in/size_clause_locs.c"
extern "C" __global__ void __maxnreg__(64) __accc_scale_1_l8_c45bb06d(int n, float *a)
#line 40 "tests/in/size_clause_locs.c.cu"
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
        init = 0;
        limit = n;
        step = 1;
        trip = 0ULL;
        if (init < limit) {
            trip = ((unsigned long long)limit - (unsigned long long)init - 1ULL) / (unsigned long long)step + 1ULL;
        }
        k = ((unsigned long long)blockIdx.x * (unsigned long long)blockDim.y + (unsigned long long)threadIdx.y) * (unsigned long long)blockDim.x + (unsigned long long)threadIdx.x;
        stride = (unsigned long long)gridDim.x * (unsigned long long)blockDim.y * (unsigned long long)blockDim.x;
        for (; k < trip; k = k + stride) {
            i = (int)((unsigned int)init + (unsigned int)k * (unsigned int)step);
            tmp = a[(long long)i] + 1.0f;
            if (0u == 0u) {
                a[(long long)i] = tmp;
            }
        }
    }
}
