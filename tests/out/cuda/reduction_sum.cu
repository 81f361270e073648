// CUDA C of tests/in/reduction_sum.c, written by accc from the scheduled loop IR (the nvcc path).

// parallel loop at tests/in/reduction_sum.c:4:13
#line 4 "tests/in/reduction_sum.c"
extern "C" __global__ void __launch_bounds__(128) __accc_sum_0_l4_44d79b81(int n, double *s, double *x /* read only */, unsigned char *scratch)
#line 7 "tests/in/reduction_sum.c.cu"
{
    int i;
    double s_1;
    double tmp;
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
    unsigned int red_lin;
    unsigned int red_lane;
    unsigned int red_nx;
    unsigned int red_members;
    unsigned int red_nw;
    unsigned int red_base;
    unsigned int red_stride;
    unsigned int red_k;
    unsigned long long red_gangs;
    unsigned long long red_gang;
    unsigned long long red_e_2;
    unsigned int red_last;
    unsigned int red_ticket;
    bool red_is_last;
    unsigned char *red_ptr;
    unsigned long long red_e_3;
    double red_acc;
    unsigned long long red_i;
    unsigned int red_lin_1;
    unsigned int red_lane_1;
    unsigned int red_nx_1;
    unsigned int red_members_1;
    unsigned int red_nw_1;
    unsigned int red_base_1;
    unsigned int red_stride_1;
    unsigned int red_k_1;
    unsigned int red_ty;
    unsigned int red_tz;
    unsigned int red_ny;
    unsigned int red_nz;
    unsigned int red_base_2;
    unsigned int red_stride_2;
    unsigned int red_count;
    unsigned int red_k_2;
    __shared__ __align__(16) double __accc_shared0[1024];
    __shared__ __align__(16) unsigned int __accc_shared1[1];
    {
#line 5 "tests/in/reduction_sum.c"
        red_e = 0ULL;
#line 5 "tests/in/reduction_sum.c"
        s_1 = 0.0;
#line 5 "tests/in/reduction_sum.c"
        init = 0;
#line 5 "tests/in/reduction_sum.c"
        limit = n;
#line 5 "tests/in/reduction_sum.c"
        step = 1;
#line 5 "tests/in/reduction_sum.c"
        trip = 0ULL;
#line 5 "tests/in/reduction_sum.c"
        if (init < limit) {
#line 5 "tests/in/reduction_sum.c"
            trip = ((unsigned long long)limit - (unsigned long long)init - 1ULL) / (unsigned long long)step + 1ULL;
        }
#line 5 "tests/in/reduction_sum.c"
        k = (unsigned long long)blockIdx.x * (unsigned long long)128u + (unsigned long long)threadIdx.x;
#line 5 "tests/in/reduction_sum.c"
        stride = (unsigned long long)gridDim.x * (unsigned long long)128u;
#line 5 "tests/in/reduction_sum.c"
        mine = 0ULL;
#line 5 "tests/in/reduction_sum.c"
        if (k < trip) {
#line 5 "tests/in/reduction_sum.c"
            mine = (trip - 1ULL - k) / stride + 1ULL;
        }
#line 5 "tests/in/reduction_sum.c"
        c = 0ULL;
#line 5 "tests/in/reduction_sum.c"
        for (; c < mine; k = k + stride, c = c + 1ULL) {
#line 5 "tests/in/reduction_sum.c"
            i = (int)((unsigned int)init + (unsigned int)k * (unsigned int)step);
            tmp = s_1 + x[(long long)i];
#line 6 "tests/in/reduction_sum.c"
            s_1 = tmp;
        }
#line 5 "tests/in/reduction_sum.c"
        red_e_1 = 0ULL;
#line 5 "tests/in/reduction_sum.c"
        red_lin = threadIdx.x + (0u + 0u * 1u) * 128u;
#line 5 "tests/in/reduction_sum.c"
        red_lane = red_lin & 31u;
#line 5 "tests/in/reduction_sum.c"
        red_nx = 128u;
#line 5 "tests/in/reduction_sum.c"
        red_members = red_nx >= 32u ? 4294967295u : (1u << red_nx) - 1u << (red_lane & ~(red_nx - 1u));
#line 5 "tests/in/reduction_sum.c"
        if (16u < red_nx) {
#line 5 "tests/in/reduction_sum.c"
            s_1 = s_1 + __shfl_xor_sync(red_members, s_1, 16u);
        }
#line 5 "tests/in/reduction_sum.c"
        if (8u < red_nx) {
#line 5 "tests/in/reduction_sum.c"
            s_1 = s_1 + __shfl_xor_sync(red_members, s_1, 8u);
        }
#line 5 "tests/in/reduction_sum.c"
        if (4u < red_nx) {
#line 5 "tests/in/reduction_sum.c"
            s_1 = s_1 + __shfl_xor_sync(red_members, s_1, 4u);
        }
#line 5 "tests/in/reduction_sum.c"
        if (2u < red_nx) {
#line 5 "tests/in/reduction_sum.c"
            s_1 = s_1 + __shfl_xor_sync(red_members, s_1, 2u);
        }
#line 5 "tests/in/reduction_sum.c"
        if (1u < red_nx) {
#line 5 "tests/in/reduction_sum.c"
            s_1 = s_1 + __shfl_xor_sync(red_members, s_1, 1u);
        }
#line 5 "tests/in/reduction_sum.c"
        if (red_nx > 32u) {
#line 5 "tests/in/reduction_sum.c"
            __syncthreads();
#line 5 "tests/in/reduction_sum.c"
            if (red_lane == 0u) {
#line 5 "tests/in/reduction_sum.c"
                __accc_shared0[(unsigned long long)(red_lin >> 5u)] = s_1;
            }
#line 5 "tests/in/reduction_sum.c"
            __syncthreads();
#line 5 "tests/in/reduction_sum.c"
            red_nw = red_nx >> 5u;
#line 5 "tests/in/reduction_sum.c"
            red_base = red_lin / red_nx * red_nw;
#line 5 "tests/in/reduction_sum.c"
            red_stride = 1u;
#line 5 "tests/in/reduction_sum.c"
            s_1 = __accc_shared0[(unsigned long long)red_base];
#line 5 "tests/in/reduction_sum.c"
            red_k = 1u;
#line 5 "tests/in/reduction_sum.c"
            for (; red_k < red_nw; red_k = red_k + 1u) {
#line 5 "tests/in/reduction_sum.c"
                s_1 = s_1 + __accc_shared0[(unsigned long long)(red_base + red_k * red_stride)];
            }
        }
#line 5 "tests/in/reduction_sum.c"
        red_gangs = (unsigned long long)gridDim.x * (unsigned long long)1u * (unsigned long long)1u;
#line 5 "tests/in/reduction_sum.c"
        red_gang = (unsigned long long)blockIdx.x + ((unsigned long long)0u + (unsigned long long)0u * (unsigned long long)1u) * (unsigned long long)gridDim.x;
#line 5 "tests/in/reduction_sum.c"
        if (threadIdx.x == 0u && 0u == 0u && 0u == 0u) {
#line 5 "tests/in/reduction_sum.c"
            red_e_2 = 0ULL;
#line 5 "tests/in/reduction_sum.c"
            *(double *)(scratch + (256ULL + ((0ULL + red_e_2) * red_gangs + red_gang) * 8ULL)) = s_1;
#line 5 "tests/in/reduction_sum.c"
            __threadfence();
#line 5 "tests/in/reduction_sum.c"
            red_last = (unsigned int)(red_gangs - 1ULL);
#line 5 "tests/in/reduction_sum.c"
            red_ticket = (unsigned int)atomicInc((unsigned int *)(scratch + 0ULL), red_last);
#line 5 "tests/in/reduction_sum.c"
            *__accc_shared1 = (unsigned int)(red_ticket == red_last);
        }
#line 178 "tests/in/reduction_sum.c.cu"
        __syncthreads();
#line 5 "tests/in/reduction_sum.c"
        red_is_last = *__accc_shared1 != 0u;
#line 182 "tests/in/reduction_sum.c.cu"
        __syncthreads();
#line 5 "tests/in/reduction_sum.c"
        if (red_is_last) {
#line 5 "tests/in/reduction_sum.c"
            __threadfence();
#line 5 "tests/in/reduction_sum.c"
            red_ptr = (unsigned char *)s;
#line 5 "tests/in/reduction_sum.c"
            red_e_3 = 0ULL;
#line 5 "tests/in/reduction_sum.c"
            red_acc = 0.0;
#line 5 "tests/in/reduction_sum.c"
            red_i = (unsigned long long)(threadIdx.x + (0u + 0u * 1u) * 128u);
#line 5 "tests/in/reduction_sum.c"
            for (; red_i < red_gangs; red_i = red_i + (unsigned long long)128u * (unsigned long long)1u * (unsigned long long)1u) {
#line 5 "tests/in/reduction_sum.c"
                red_acc = red_acc + *(double *)(scratch + (256ULL + ((0ULL + red_e_3) * red_gangs + red_i) * 8ULL));
            }
#line 5 "tests/in/reduction_sum.c"
            red_lin_1 = threadIdx.x + (0u + 0u * 1u) * 128u;
#line 5 "tests/in/reduction_sum.c"
            red_lane_1 = red_lin_1 & 31u;
#line 5 "tests/in/reduction_sum.c"
            red_nx_1 = 128u;
#line 5 "tests/in/reduction_sum.c"
            red_members_1 = red_nx_1 >= 32u ? 4294967295u : (1u << red_nx_1) - 1u << (red_lane_1 & ~(red_nx_1 - 1u));
#line 5 "tests/in/reduction_sum.c"
            if (16u < red_nx_1) {
#line 5 "tests/in/reduction_sum.c"
                red_acc = red_acc + __shfl_xor_sync(red_members_1, red_acc, 16u);
            }
#line 5 "tests/in/reduction_sum.c"
            if (8u < red_nx_1) {
#line 5 "tests/in/reduction_sum.c"
                red_acc = red_acc + __shfl_xor_sync(red_members_1, red_acc, 8u);
            }
#line 5 "tests/in/reduction_sum.c"
            if (4u < red_nx_1) {
#line 5 "tests/in/reduction_sum.c"
                red_acc = red_acc + __shfl_xor_sync(red_members_1, red_acc, 4u);
            }
#line 5 "tests/in/reduction_sum.c"
            if (2u < red_nx_1) {
#line 5 "tests/in/reduction_sum.c"
                red_acc = red_acc + __shfl_xor_sync(red_members_1, red_acc, 2u);
            }
#line 5 "tests/in/reduction_sum.c"
            if (1u < red_nx_1) {
#line 5 "tests/in/reduction_sum.c"
                red_acc = red_acc + __shfl_xor_sync(red_members_1, red_acc, 1u);
            }
#line 5 "tests/in/reduction_sum.c"
            if (red_nx_1 > 32u) {
#line 5 "tests/in/reduction_sum.c"
                __syncthreads();
#line 5 "tests/in/reduction_sum.c"
                if (red_lane_1 == 0u) {
#line 5 "tests/in/reduction_sum.c"
                    __accc_shared0[(unsigned long long)(red_lin_1 >> 5u)] = red_acc;
                }
#line 5 "tests/in/reduction_sum.c"
                __syncthreads();
#line 5 "tests/in/reduction_sum.c"
                red_nw_1 = red_nx_1 >> 5u;
#line 5 "tests/in/reduction_sum.c"
                red_base_1 = red_lin_1 / red_nx_1 * red_nw_1;
#line 5 "tests/in/reduction_sum.c"
                red_stride_1 = 1u;
#line 5 "tests/in/reduction_sum.c"
                red_acc = __accc_shared0[(unsigned long long)red_base_1];
#line 5 "tests/in/reduction_sum.c"
                red_k_1 = 1u;
#line 5 "tests/in/reduction_sum.c"
                for (; red_k_1 < red_nw_1; red_k_1 = red_k_1 + 1u) {
#line 5 "tests/in/reduction_sum.c"
                    red_acc = red_acc + __accc_shared0[(unsigned long long)(red_base_1 + red_k_1 * red_stride_1)];
                }
            }
#line 5 "tests/in/reduction_sum.c"
            __syncthreads();
#line 5 "tests/in/reduction_sum.c"
            red_ty = 0u;
#line 5 "tests/in/reduction_sum.c"
            red_tz = 0u;
#line 5 "tests/in/reduction_sum.c"
            red_ny = 1u;
#line 5 "tests/in/reduction_sum.c"
            red_nz = 1u;
#line 5 "tests/in/reduction_sum.c"
            if (threadIdx.x == 0u) {
#line 5 "tests/in/reduction_sum.c"
                __accc_shared0[(unsigned long long)(red_ty + red_tz * red_ny)] = red_acc;
            }
#line 5 "tests/in/reduction_sum.c"
            __syncthreads();
#line 5 "tests/in/reduction_sum.c"
            red_base_2 = 0u;
#line 5 "tests/in/reduction_sum.c"
            red_stride_2 = 1u;
#line 5 "tests/in/reduction_sum.c"
            red_count = red_ny * red_nz;
#line 5 "tests/in/reduction_sum.c"
            red_acc = __accc_shared0[(unsigned long long)red_base_2];
#line 5 "tests/in/reduction_sum.c"
            red_k_2 = 1u;
#line 5 "tests/in/reduction_sum.c"
            for (; red_k_2 < red_count; red_k_2 = red_k_2 + 1u) {
#line 5 "tests/in/reduction_sum.c"
                red_acc = red_acc + __accc_shared0[(unsigned long long)(red_base_2 + red_k_2 * red_stride_2)];
            }
#line 5 "tests/in/reduction_sum.c"
            __syncthreads();
#line 5 "tests/in/reduction_sum.c"
            if (threadIdx.x == 0u && 0u == 0u && 0u == 0u) {
#line 5 "tests/in/reduction_sum.c"
                *(double *)(red_ptr + (0ULL + red_e_3 * 8ULL)) = *(double *)(red_ptr + (0ULL + red_e_3 * 8ULL)) + red_acc;
            }
        }
    }
#line 302 "tests/in/reduction_sum.c.cu"
}
