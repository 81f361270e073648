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
#line 4 "tests/in/reduction_vector.c"
        init_1 = 0;
#line 4 "tests/in/reduction_vector.c"
        limit_1 = n;
#line 4 "tests/in/reduction_vector.c"
        step_1 = 1;
#line 4 "tests/in/reduction_vector.c"
        trip_1 = 0ULL;
#line 4 "tests/in/reduction_vector.c"
        if (init_1 < limit_1) {
#line 4 "tests/in/reduction_vector.c"
            trip_1 = ((unsigned long long)limit_1 - (unsigned long long)init_1 - 1ULL) / (unsigned long long)step_1 + 1ULL;
        }
#line 4 "tests/in/reduction_vector.c"
        k_1 = (unsigned long long)blockIdx.x;
#line 4 "tests/in/reduction_vector.c"
        stride_1 = (unsigned long long)gridDim.x;
#line 4 "tests/in/reduction_vector.c"
        for (; k_1 < trip_1; k_1 = k_1 + stride_1) {
#line 4 "tests/in/reduction_vector.c"
            i = (int)((unsigned int)init_1 + (unsigned int)k_1 * (unsigned int)step_1);
            r = (float)0;
#line 4 "tests/in/reduction_vector.c"
            __syncthreads();
#line 4 "tests/in/reduction_vector.c"
            {
#line 7 "tests/in/reduction_vector.c"
                red_e = 0ULL;
#line 7 "tests/in/reduction_vector.c"
                r_1 = -__builtin_inff();
#line 7 "tests/in/reduction_vector.c"
                init = 0;
#line 7 "tests/in/reduction_vector.c"
                limit = m;
#line 7 "tests/in/reduction_vector.c"
                step = 1;
#line 7 "tests/in/reduction_vector.c"
                trip = 0ULL;
#line 7 "tests/in/reduction_vector.c"
                if (init < limit) {
#line 7 "tests/in/reduction_vector.c"
                    trip = ((unsigned long long)limit - (unsigned long long)init - 1ULL) / (unsigned long long)step + 1ULL;
                }
#line 7 "tests/in/reduction_vector.c"
                k = (unsigned long long)threadIdx.y;
#line 7 "tests/in/reduction_vector.c"
                stride = (unsigned long long)4u;
#line 7 "tests/in/reduction_vector.c"
                mine = 0ULL;
#line 7 "tests/in/reduction_vector.c"
                if (k < trip) {
#line 7 "tests/in/reduction_vector.c"
                    mine = (trip - 1ULL - k) / stride + 1ULL;
                }
#line 7 "tests/in/reduction_vector.c"
                c = 0ULL;
#line 7 "tests/in/reduction_vector.c"
                for (; c < mine; k = k + stride, c = c + 1ULL) {
#line 7 "tests/in/reduction_vector.c"
                    j = (int)((unsigned int)init + (unsigned int)k * (unsigned int)step);
                    tmp = (bool)(int)(r_1 > a[(long long)(i * m + j)]) ? r_1 : a[(long long)(i * m + j)];
#line 8 "tests/in/reduction_vector.c"
                    r_1 = tmp;
                }
#line 7 "tests/in/reduction_vector.c"
                red_e_1 = 0ULL;
#line 4 "tests/in/reduction_vector.c"
                __syncthreads();
#line 7 "tests/in/reduction_vector.c"
                red_ty = threadIdx.y;
#line 7 "tests/in/reduction_vector.c"
                red_tz = 0u;
#line 7 "tests/in/reduction_vector.c"
                red_ny = 4u;
#line 7 "tests/in/reduction_vector.c"
                red_nz = 1u;
#line 7 "tests/in/reduction_vector.c"
                if (0u == 0u) {
#line 7 "tests/in/reduction_vector.c"
                    __accc_shared0[(unsigned long long)(red_ty + red_tz * red_ny)] = r_1;
                }
#line 4 "tests/in/reduction_vector.c"
                __syncthreads();
#line 7 "tests/in/reduction_vector.c"
                red_base = red_tz * red_ny;
#line 7 "tests/in/reduction_vector.c"
                red_stride = 1u;
#line 7 "tests/in/reduction_vector.c"
                red_count = red_ny;
#line 7 "tests/in/reduction_vector.c"
                r_1 = __accc_shared0[(unsigned long long)red_base];
#line 7 "tests/in/reduction_vector.c"
                red_k = 1u;
#line 7 "tests/in/reduction_vector.c"
                for (; red_k < red_count; red_k = red_k + 1u) {
#line 7 "tests/in/reduction_vector.c"
                    r_1 = fmaxf(r_1, __accc_shared0[(unsigned long long)(red_base + red_k * red_stride)]);
                }
#line 4 "tests/in/reduction_vector.c"
                __syncthreads();
#line 7 "tests/in/reduction_vector.c"
                red_e_2 = 0ULL;
#line 7 "tests/in/reduction_vector.c"
                r = fmaxf(r, r_1);
            }
#line 4 "tests/in/reduction_vector.c"
            __syncthreads();
#line 9 "tests/in/reduction_vector.c"
            tmp_1 = r;
#line 4 "tests/in/reduction_vector.c"
            if (0u == 0u && threadIdx.y == 0u && 0u == 0u) {
#line 9 "tests/in/reduction_vector.c"
                out[(long long)i] = tmp_1;
            }
        }
    }
#line 158 "tests/in/reduction_vector.c.cu"
}
