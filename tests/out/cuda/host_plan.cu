// CUDA C of tests/in/host_plan.c, written by accc from the scheduled loop IR (the nvcc path).

// parallel loop at tests/in/host_plan.c:18:13
#line 18 "tests/in/host_plan.c"
extern "C" __global__ void __launch_bounds__(128) __accc_plan_0_l18_734355b8(int n, float *b, float *a /* read only */)
#line 7 "tests/in/host_plan.c.cu"
{
    int i;
    float *tmp;
    float tmp_1;
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
        k = (unsigned long long)blockIdx.x * (unsigned long long)128u + (unsigned long long)threadIdx.x;
        stride = (unsigned long long)gridDim.x * (unsigned long long)128u;
        for (; k < trip; k = k + stride) {
            i = (int)((unsigned int)init + (unsigned int)k * (unsigned int)step);
            tmp = b + (long long)(i + 1);
            tmp_1 = *tmp + a[(long long)i];
            if (0u == 0u && 0u == 0u) {
                *tmp = tmp_1;
            }
        }
    }
}

// kernels at tests/in/host_plan.c:24:9
#line 24 "tests/in/host_plan.c"
extern "C" __global__ void __launch_bounds__(128) __accc_plan_1_l24_734355b8(int n, float *a)
#line 42 "tests/in/host_plan.c.cu"
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
        k = (unsigned long long)blockIdx.x * (unsigned long long)128u + (unsigned long long)threadIdx.x;
        stride = (unsigned long long)gridDim.x * (unsigned long long)128u;
        for (; k < trip; k = k + stride) {
            i = (int)((unsigned int)init + (unsigned int)k * (unsigned int)step);
            tmp = 2.0f * a[(long long)i];
            if (0u == 0u && 0u == 0u) {
                a[(long long)i] = tmp;
            }
        }
    }
}

// kernels at tests/in/host_plan.c:26:9
#line 26 "tests/in/host_plan.c"
extern "C" __global__ void __launch_bounds__(1) __accc_plan_2_l26_734355b8(int n, float *b, float *a /* read only */, float *g /* read only */)
#line 75 "tests/in/host_plan.c.cu"
{
    int i;
    int tmp;
    int tmp_1;
    float tmp_2;
    i = 0;
    for (; (bool)(int)(i < n); tmp = i, tmp_1 = tmp + 1, i = tmp_1) {
        tmp_2 = a[(long long)i] + g[(long long)(i % 64)];
        if (0u == 0u && 0u == 0u && 0u == 0u) {
            b[(long long)i] = tmp_2;
        }
    }
}

// parallel loop at tests/in/host_plan.c:29:13
#line 29 "tests/in/host_plan.c"
extern "C" __global__ void __launch_bounds__(128) __accc_plan_3_l29_734355b8(int n, double **rows, unsigned long long sizeof_vla_, float *vla /* read only */)
#line 93 "tests/in/host_plan.c.cu"
{
    int i;
    double *tmp;
    double tmp_1;
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
        k = (unsigned long long)blockIdx.x * (unsigned long long)128u + (unsigned long long)threadIdx.x;
        stride = (unsigned long long)gridDim.x * (unsigned long long)128u;
        for (; k < trip; k = k + stride) {
            i = (int)((unsigned int)init + (unsigned int)k * (unsigned int)step);
            tmp = rows[(long long)i] + (long long)1;
            tmp_1 = *tmp + (double)vla[(long long)0];
            if (0u == 0u && 0u == 0u) {
                *tmp = tmp_1;
            }
        }
    }
}

// parallel loop at tests/in/host_plan.c:32:13
#line 32 "tests/in/host_plan.c"
extern "C" __global__ void __launch_bounds__(128) __accc_plan_4_l32_734355b8(int n, float *b)
#line 128 "tests/in/host_plan.c.cu"
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
        init = 2;
        limit = n;
        step = 1;
        trip = 0ULL;
        if (init < limit) {
            trip = ((unsigned long long)limit - (unsigned long long)init - 1ULL) / (unsigned long long)step + 1ULL;
        }
        k = (unsigned long long)blockIdx.x * (unsigned long long)128u + (unsigned long long)threadIdx.x;
        stride = (unsigned long long)gridDim.x * (unsigned long long)128u;
        for (; k < trip; k = k + stride) {
            i = (int)((unsigned int)init + (unsigned int)k * (unsigned int)step);
            tmp = b[(long long)(i - 2)] + 1.0f;
            if (0u == 0u && 0u == 0u) {
                b[(long long)(i - 2)] = tmp;
            }
        }
    }
}

// parallel at tests/in/host_plan.c:40:13
#line 40 "tests/in/host_plan.c"
extern "C" __global__ void __launch_bounds__(1) __accc_plan_5_l40_734355b8(int *count)
#line 161 "tests/in/host_plan.c.cu"
{
    int *tmp;
    int tmp_1;
    int tmp_2;
    if (0u == 0u && 0u == 0u && 0u == 0u) {
        tmp = count;
        tmp_1 = 1;
        tmp_2 = (int)atomicAdd(tmp, tmp_1);
    }
}
