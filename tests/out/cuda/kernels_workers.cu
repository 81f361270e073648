// CUDA C of tests/in/kernels_workers.c, written by accc from the scheduled loop IR (the nvcc path).

static __device__ __forceinline__ void __accc_row_barrier(void)
{
    unsigned int nx = blockDim.x, ny = blockDim.y, nz = blockDim.z;
    unsigned int row = threadIdx.y + threadIdx.z * ny;
    if (nx % 32u == 0u && ny * nz <= 15u) {
        asm volatile("barrier.sync %0, %1;" :: "r"(row + 1u), "r"(nx) : "memory");
    } else if (32u % nx == 0u) {
        unsigned int lane = (threadIdx.x + nx * row) % 32u;
        unsigned int base = lane - threadIdx.x;
        __syncwarp((unsigned int)((((1ULL << nx) - 1ULL) << base) & 0xffffffffULL));
    }
}

// kernels loop at tests/in/kernels_workers.c:6:13
#line 6 "tests/in/kernels_workers.c"
extern "C" __global__ void __launch_bounds__(32) __accc_f_0_l6_587abeba(int n, float *__restrict__ a)
#line 20 "tests/in/kernels_workers.c.cu"
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
#line 7 "tests/in/kernels_workers.c"
        init = 0;
#line 7 "tests/in/kernels_workers.c"
        limit = n;
#line 7 "tests/in/kernels_workers.c"
        step = 1;
#line 7 "tests/in/kernels_workers.c"
        trip = 0ULL;
#line 7 "tests/in/kernels_workers.c"
        if (init < limit) {
#line 7 "tests/in/kernels_workers.c"
            trip = ((unsigned long long)limit - (unsigned long long)init - 1ULL) / (unsigned long long)step + 1ULL;
        }
#line 7 "tests/in/kernels_workers.c"
        k = (unsigned long long)blockIdx.x * (unsigned long long)32u + (unsigned long long)threadIdx.y;
#line 7 "tests/in/kernels_workers.c"
        stride = (unsigned long long)gridDim.x * (unsigned long long)32u;
#line 7 "tests/in/kernels_workers.c"
        for (; k < trip; k = k + stride) {
#line 7 "tests/in/kernels_workers.c"
            i = (int)((unsigned int)init + (unsigned int)k * (unsigned int)step);
            tmp = a + (long long)i;
#line 8 "tests/in/kernels_workers.c"
            tmp_1 = *tmp + (float)1;
#line 7 "tests/in/kernels_workers.c"
            __accc_row_barrier();
#line 7 "tests/in/kernels_workers.c"
            if (0u == 0u && 0u == 0u) {
                *tmp = tmp_1;
            }
        }
    }
#line 64 "tests/in/kernels_workers.c.cu"
}

// kernels loop at tests/in/kernels_workers.c:9:13
#line 9 "tests/in/kernels_workers.c"
extern "C" __global__ void __launch_bounds__(32) __accc_f_1_l9_587abeba(int n, float *__restrict__ a)
#line 70 "tests/in/kernels_workers.c.cu"
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
#line 10 "tests/in/kernels_workers.c"
        init = 0;
#line 10 "tests/in/kernels_workers.c"
        limit = n;
#line 10 "tests/in/kernels_workers.c"
        step = 1;
#line 10 "tests/in/kernels_workers.c"
        trip = 0ULL;
#line 10 "tests/in/kernels_workers.c"
        if (init < limit) {
#line 10 "tests/in/kernels_workers.c"
            trip = ((unsigned long long)limit - (unsigned long long)init - 1ULL) / (unsigned long long)step + 1ULL;
        }
#line 10 "tests/in/kernels_workers.c"
        k = (unsigned long long)blockIdx.x * (unsigned long long)32u + (unsigned long long)threadIdx.y;
#line 10 "tests/in/kernels_workers.c"
        stride = (unsigned long long)gridDim.x * (unsigned long long)32u;
#line 10 "tests/in/kernels_workers.c"
        for (; k < trip; k = k + stride) {
#line 10 "tests/in/kernels_workers.c"
            i = (int)((unsigned int)init + (unsigned int)k * (unsigned int)step);
            tmp = a + (long long)i;
#line 11 "tests/in/kernels_workers.c"
            tmp_1 = *tmp * (float)2;
#line 10 "tests/in/kernels_workers.c"
            __accc_row_barrier();
#line 10 "tests/in/kernels_workers.c"
            if (0u == 0u && 0u == 0u) {
                *tmp = tmp_1;
            }
        }
    }
#line 114 "tests/in/kernels_workers.c.cu"
}

// kernels at tests/in/kernels_workers.c:12:13
#line 12 "tests/in/kernels_workers.c"
extern "C" __global__ void __launch_bounds__(512) __accc_f_2_l12_587abeba(int n, float *__restrict__ a)
#line 120 "tests/in/kernels_workers.c.cu"
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
#line 15 "tests/in/kernels_workers.c"
        init = 0;
#line 15 "tests/in/kernels_workers.c"
        limit = n;
#line 15 "tests/in/kernels_workers.c"
        step = 1;
#line 15 "tests/in/kernels_workers.c"
        trip = 0ULL;
#line 15 "tests/in/kernels_workers.c"
        if (init < limit) {
#line 15 "tests/in/kernels_workers.c"
            trip = ((unsigned long long)limit - (unsigned long long)init - 1ULL) / (unsigned long long)step + 1ULL;
        }
#line 15 "tests/in/kernels_workers.c"
        k = ((unsigned long long)blockIdx.x * (unsigned long long)4u + (unsigned long long)threadIdx.y) * (unsigned long long)128u + (unsigned long long)threadIdx.x;
#line 15 "tests/in/kernels_workers.c"
        stride = (unsigned long long)gridDim.x * (unsigned long long)4u * (unsigned long long)128u;
#line 15 "tests/in/kernels_workers.c"
        for (; k < trip; k = k + stride) {
#line 15 "tests/in/kernels_workers.c"
            i = (int)((unsigned int)init + (unsigned int)k * (unsigned int)step);
            tmp = a + (long long)i;
#line 16 "tests/in/kernels_workers.c"
            tmp_1 = *tmp - (float)3;
#line 15 "tests/in/kernels_workers.c"
            if (0u == 0u) {
                *tmp = tmp_1;
            }
        }
    }
#line 162 "tests/in/kernels_workers.c.cu"
}

// kernels loop at tests/in/kernels_workers.c:18:13
#line 18 "tests/in/kernels_workers.c"
extern "C" __global__ void __launch_bounds__(128) __accc_f_3_l18_587abeba(int n, int m, float (*b)[64])
#line 168 "tests/in/kernels_workers.c.cu"
{
    int i;
    int j;
    float *tmp;
    float tmp_1;
    int init;
    int limit;
    int step;
    unsigned long long trip;
    int init_1;
    int limit_1;
    int step_1;
    unsigned long long trip_1;
    unsigned long long total;
    unsigned long long k;
    unsigned long long stride;
    unsigned long long rest;
    {
#line 19 "tests/in/kernels_workers.c"
        init = 0;
#line 19 "tests/in/kernels_workers.c"
        limit = n;
#line 19 "tests/in/kernels_workers.c"
        step = 1;
#line 19 "tests/in/kernels_workers.c"
        trip = 0ULL;
#line 19 "tests/in/kernels_workers.c"
        if (init < limit) {
#line 19 "tests/in/kernels_workers.c"
            trip = ((unsigned long long)limit - (unsigned long long)init - 1ULL) / (unsigned long long)step + 1ULL;
        }
#line 19 "tests/in/kernels_workers.c"
        init_1 = 0;
#line 19 "tests/in/kernels_workers.c"
        limit_1 = m;
#line 19 "tests/in/kernels_workers.c"
        step_1 = 1;
#line 19 "tests/in/kernels_workers.c"
        trip_1 = 0ULL;
#line 19 "tests/in/kernels_workers.c"
        if (init_1 < limit_1) {
#line 19 "tests/in/kernels_workers.c"
            trip_1 = ((unsigned long long)limit_1 - (unsigned long long)init_1 - 1ULL) / (unsigned long long)step_1 + 1ULL;
        }
#line 19 "tests/in/kernels_workers.c"
        total = trip * trip_1;
#line 19 "tests/in/kernels_workers.c"
        k = (unsigned long long)blockIdx.x * (unsigned long long)128u + (unsigned long long)threadIdx.x;
#line 19 "tests/in/kernels_workers.c"
        stride = (unsigned long long)gridDim.x * (unsigned long long)128u;
#line 19 "tests/in/kernels_workers.c"
        for (; k < total; k = k + stride) {
#line 19 "tests/in/kernels_workers.c"
            rest = k;
#line 19 "tests/in/kernels_workers.c"
            j = (int)((unsigned int)init_1 + (unsigned int)(rest % trip_1) * (unsigned int)step_1);
#line 19 "tests/in/kernels_workers.c"
            rest = rest / trip_1;
#line 19 "tests/in/kernels_workers.c"
            i = (int)((unsigned int)init + (unsigned int)rest * (unsigned int)step);
#line 21 "tests/in/kernels_workers.c"
            tmp = (float *)(b + (long long)i) + (long long)j;
#line 21 "tests/in/kernels_workers.c"
            tmp_1 = *tmp + (float)1;
#line 19 "tests/in/kernels_workers.c"
            if (0u == 0u && 0u == 0u) {
#line 21 "tests/in/kernels_workers.c"
                *tmp = tmp_1;
            }
        }
    }
#line 240 "tests/in/kernels_workers.c.cu"
}

// kernels loop at tests/in/kernels_workers.c:22:13
#line 22 "tests/in/kernels_workers.c"
extern "C" __global__ void __launch_bounds__(1024) __accc_f_4_l22_587abeba(int n, float (*b)[64])
#line 246 "tests/in/kernels_workers.c.cu"
{
    int i;
    int j;
    float *tmp;
    float tmp_1;
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
#line 23 "tests/in/kernels_workers.c"
        init_1 = 0;
#line 23 "tests/in/kernels_workers.c"
        limit_1 = n;
#line 23 "tests/in/kernels_workers.c"
        step_1 = 1;
#line 23 "tests/in/kernels_workers.c"
        trip_1 = 0ULL;
#line 23 "tests/in/kernels_workers.c"
        if (init_1 < limit_1) {
#line 23 "tests/in/kernels_workers.c"
            trip_1 = ((unsigned long long)limit_1 - (unsigned long long)init_1 - 1ULL) / (unsigned long long)step_1 + 1ULL;
        }
#line 23 "tests/in/kernels_workers.c"
        k_1 = (unsigned long long)blockIdx.x * (unsigned long long)8u + (unsigned long long)threadIdx.y;
#line 23 "tests/in/kernels_workers.c"
        stride_1 = (unsigned long long)gridDim.x * (unsigned long long)8u;
#line 23 "tests/in/kernels_workers.c"
        for (; k_1 < trip_1; k_1 = k_1 + stride_1) {
#line 23 "tests/in/kernels_workers.c"
            i = (int)((unsigned int)init_1 + (unsigned int)k_1 * (unsigned int)step_1);
#line 23 "tests/in/kernels_workers.c"
            {
                init = 0;
#line 24 "tests/in/kernels_workers.c"
                limit = 64;
#line 24 "tests/in/kernels_workers.c"
                step = 1;
#line 24 "tests/in/kernels_workers.c"
                trip = 0ULL;
#line 24 "tests/in/kernels_workers.c"
                if (init < limit) {
#line 24 "tests/in/kernels_workers.c"
                    trip = ((unsigned long long)limit - (unsigned long long)init - 1ULL) / (unsigned long long)step + 1ULL;
                }
#line 24 "tests/in/kernels_workers.c"
                k = (unsigned long long)threadIdx.x;
#line 24 "tests/in/kernels_workers.c"
                stride = (unsigned long long)128u;
#line 24 "tests/in/kernels_workers.c"
                for (; k < trip; k = k + stride) {
#line 24 "tests/in/kernels_workers.c"
                    j = (int)((unsigned int)init + (unsigned int)k * (unsigned int)step);
                    tmp = (float *)(b + (long long)i) + (long long)j;
#line 25 "tests/in/kernels_workers.c"
                    tmp_1 = *tmp * (float)2;
#line 24 "tests/in/kernels_workers.c"
                    if (0u == 0u) {
                        *tmp = tmp_1;
                    }
                }
            }
        }
    }
#line 319 "tests/in/kernels_workers.c.cu"
}
