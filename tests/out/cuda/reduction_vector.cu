// CUDA C of tests/in/reduction_vector.c, written by accc from the scheduled loop IR (the nvcc path).

// parallel loop at tests/in/reduction_vector.c:3:13
#line 3 "tests/in/reduction_vector.c"
extern "C" __global__ void __launch_bounds__(4) __accc_rows_0_l3_12e2791b(int n, int m, float *a /* read only */, float *out)
#line 7 "tests/in/reduction_vector.c.cu"
{
    int i;
    float r;
    int j;
    float r_1;
    float tmp;
    float tmp_1;
    unsigned long long red_e;
    int init;
    int limit;
    int step;
    unsigned long long trip;
    unsigned long long k;
    unsigned long long stride;
    unsigned long long mine;
    unsigned long long c;
    unsigned long long red_e_1;
    unsigned int red_ty;
    unsigned int red_tz;
    unsigned int red_ny;
    unsigned int red_nz;
    unsigned int red_base;
    unsigned int red_stride;
    unsigned int red_count;
    unsigned int red_k;
    unsigned long long red_e_2;
    int init_1;
    int limit_1;
    int step_1;
    unsigned long long trip_1;
    unsigned long long k_1;
    unsigned long long stride_1;
    __shared__ __align__(16) float __accc_shared0[1024];
    {
        init_1 = 0;
        limit_1 = n;
        step_1 = 1;
        trip_1 = 0ULL;
        if (init_1 < limit_1) {
            trip_1 = ((unsigned long long)limit_1 - (unsigned long long)init_1 - 1ULL) / (unsigned long long)step_1 + 1ULL;
        }
        k_1 = (unsigned long long)blockIdx.x;
        stride_1 = (unsigned long long)gridDim.x;
        for (; k_1 < trip_1; k_1 = k_1 + stride_1) {
            i = (int)((unsigned int)init_1 + (unsigned int)k_1 * (unsigned int)step_1);
            r = (float)0;
            __syncthreads();
            {
                red_e = 0ULL;
                r_1 = -__builtin_inff();
                init = 0;
                limit = m;
                step = 1;
                trip = 0ULL;
                if (init < limit) {
                    trip = ((unsigned long long)limit - (unsigned long long)init - 1ULL) / (unsigned long long)step + 1ULL;
                }
                k = (unsigned long long)threadIdx.y;
                stride = (unsigned long long)4u;
                mine = 0ULL;
                if (k < trip) {
                    mine = (trip - 1ULL - k) / stride + 1ULL;
                }
                c = 0ULL;
                for (; c < mine; k = k + stride, c = c + 1ULL) {
                    j = (int)((unsigned int)init + (unsigned int)k * (unsigned int)step);
                    tmp = (bool)(int)(r_1 > a[(long long)(i * m + j)]) ? r_1 : a[(long long)(i * m + j)];
                    r_1 = tmp;
                }
                red_e_1 = 0ULL;
                __syncthreads();
                red_ty = threadIdx.y;
                red_tz = 0u;
                red_ny = 4u;
                red_nz = 1u;
                if (0u == 0u) {
                    __accc_shared0[(unsigned long long)(red_ty + red_tz * red_ny)] = r_1;
                }
                __syncthreads();
                red_base = red_tz * red_ny;
                red_stride = 1u;
                red_count = red_ny;
                r_1 = __accc_shared0[(unsigned long long)red_base];
                red_k = 1u;
                for (; red_k < red_count; red_k = red_k + 1u) {
                    r_1 = fmaxf(r_1, __accc_shared0[(unsigned long long)(red_base + red_k * red_stride)]);
                }
                __syncthreads();
                red_e_2 = 0ULL;
                r = fmaxf(r, r_1);
            }
            __syncthreads();
            tmp_1 = r;
            if (0u == 0u && threadIdx.y == 0u && 0u == 0u) {
                out[(long long)i] = tmp_1;
            }
        }
    }
}
