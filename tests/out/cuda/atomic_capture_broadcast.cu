// CUDA C of tests/in/atomic_capture_broadcast.c, written by accc from the scheduled loop IR (the nvcc path).

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

// parallel loop at tests/in/atomic_capture_broadcast.c:8:13
#line 8 "tests/in/atomic_capture_broadcast.c"
extern "C" __global__ void __launch_bounds__(64) __accc_slots_0_l8_1e4be54a(int n, int *next, int *log_1, int *out)
#line 20 "tests/in/atomic_capture_broadcast.c.cu"
{
    int g;
    int slot;
    int *tmp;
    int tmp_1;
    int tmp_2;
    int tmp_3;
    int *tmp_4;
    int tmp_5;
    int tmp_6;
    int tmp_7;
    int w;
    int mine;
    int *tmp_8;
    int tmp_9;
    int tmp_10;
    int tmp_11;
    int j;
    int tmp_12;
    unsigned long long bcast_at;
    unsigned long long bcast_at_1;
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
    int init_2;
    int limit_2;
    int step_2;
    unsigned long long trip_2;
    unsigned long long k_2;
    unsigned long long stride_2;
    __shared__ __align__(16) int __accc_shared0[1];
    __shared__ __align__(16) int __accc_shared1[1024];
    {
        init_2 = 0;
        limit_2 = n;
        step_2 = 1;
        trip_2 = 0ULL;
        if (init_2 < limit_2) {
            trip_2 = ((unsigned long long)limit_2 - (unsigned long long)init_2 - 1ULL) / (unsigned long long)step_2 + 1ULL;
        }
        k_2 = (unsigned long long)blockIdx.x;
        stride_2 = (unsigned long long)gridDim.x;
        for (; k_2 < trip_2; k_2 = k_2 + stride_2) {
            g = (int)((unsigned int)init_2 + (unsigned int)k_2 * (unsigned int)step_2);
            bcast_at = (unsigned long long)0u;
            if (threadIdx.x == 0u && threadIdx.y == 0u && 0u == 0u) {
                tmp = next + (long long)0;
                tmp_1 = 1;
                tmp_2 = (int)atomicAdd(tmp, tmp_1);
                __accc_shared0[bcast_at] = tmp_2;
            }
            __syncthreads();
            tmp_2 = __accc_shared0[bcast_at];
            __syncthreads();
            tmp_3 = tmp_2;
            slot = tmp_3;
            __syncthreads();
            if (threadIdx.x == 0u && threadIdx.y == 0u && 0u == 0u) {
                tmp_4 = next + (long long)0;
                tmp_5 = 1;
                tmp_6 = (int)atomicAdd(tmp_4, tmp_5);
            }
            tmp_7 = tmp_6;
            if (threadIdx.x == 0u && threadIdx.y == 0u && 0u == 0u) {
                log_1[(long long)g] = tmp_7;
            }
            __syncthreads();
            {
                init_1 = 0;
                limit_1 = 2;
                step_1 = 1;
                trip_1 = 0ULL;
                if (init_1 < limit_1) {
                    trip_1 = ((unsigned long long)limit_1 - (unsigned long long)init_1 - 1ULL) / (unsigned long long)step_1 + 1ULL;
                }
                k_1 = (unsigned long long)threadIdx.y;
                stride_1 = (unsigned long long)2u;
                for (; k_1 < trip_1; k_1 = k_1 + stride_1) {
                    w = (int)((unsigned int)init_1 + (unsigned int)k_1 * (unsigned int)step_1);
                    bcast_at_1 = (unsigned long long)(threadIdx.y + 0u * 2u);
                    if (threadIdx.x == 0u && 0u == 0u) {
                        tmp_8 = next + (long long)0;
                        tmp_9 = 2;
                        tmp_10 = (int)atomicAdd(tmp_8, tmp_9);
                        __accc_shared1[bcast_at_1] = tmp_10;
                    }
                    __accc_row_barrier();
                    tmp_10 = __accc_shared1[bcast_at_1];
                    __accc_row_barrier();
                    tmp_11 = tmp_10;
                    mine = tmp_11;
                    __accc_row_barrier();
                    {
                        init = 0;
                        limit = 32;
                        step = 1;
                        trip = 0ULL;
                        if (init < limit) {
                            trip = ((unsigned long long)limit - (unsigned long long)init - 1ULL) / (unsigned long long)step + 1ULL;
                        }
                        k = (unsigned long long)threadIdx.x;
                        stride = (unsigned long long)32u;
                        for (; k < trip; k = k + stride) {
                            j = (int)((unsigned int)init + (unsigned int)k * (unsigned int)step);
                            tmp_12 = g;
                            if (0u == 0u) {
                                out[(long long)((slot + mine) * 32 + j)] = tmp_12;
                            }
                        }
                    }
                    __accc_row_barrier();
                }
            }
            __syncthreads();
        }
    }
}
