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
#line 9 "tests/in/atomic_capture_broadcast.c"
        init_2 = 0;
#line 9 "tests/in/atomic_capture_broadcast.c"
        limit_2 = n;
#line 9 "tests/in/atomic_capture_broadcast.c"
        step_2 = 1;
#line 9 "tests/in/atomic_capture_broadcast.c"
        trip_2 = 0ULL;
#line 9 "tests/in/atomic_capture_broadcast.c"
        if (init_2 < limit_2) {
#line 9 "tests/in/atomic_capture_broadcast.c"
            trip_2 = ((unsigned long long)limit_2 - (unsigned long long)init_2 - 1ULL) / (unsigned long long)step_2 + 1ULL;
        }
#line 9 "tests/in/atomic_capture_broadcast.c"
        k_2 = (unsigned long long)blockIdx.x;
#line 9 "tests/in/atomic_capture_broadcast.c"
        stride_2 = (unsigned long long)gridDim.x;
#line 9 "tests/in/atomic_capture_broadcast.c"
        for (; k_2 < trip_2; k_2 = k_2 + stride_2) {
#line 9 "tests/in/atomic_capture_broadcast.c"
            g = (int)((unsigned int)init_2 + (unsigned int)k_2 * (unsigned int)step_2);
#line 9 "tests/in/atomic_capture_broadcast.c"
            bcast_at = (unsigned long long)0u;
#line 9 "tests/in/atomic_capture_broadcast.c"
            if (threadIdx.x == 0u && threadIdx.y == 0u && 0u == 0u) {
#line 12 "tests/in/atomic_capture_broadcast.c"
                tmp = next + (long long)0;
#line 12 "tests/in/atomic_capture_broadcast.c"
                tmp_1 = 1;
#line 12 "tests/in/atomic_capture_broadcast.c"
                tmp_2 = (int)atomicAdd(tmp, tmp_1);
#line 9 "tests/in/atomic_capture_broadcast.c"
                __accc_shared0[bcast_at] = tmp_2;
            }
#line 9 "tests/in/atomic_capture_broadcast.c"
            __syncthreads();
#line 9 "tests/in/atomic_capture_broadcast.c"
            tmp_2 = __accc_shared0[bcast_at];
#line 9 "tests/in/atomic_capture_broadcast.c"
            __syncthreads();
#line 12 "tests/in/atomic_capture_broadcast.c"
            tmp_3 = tmp_2;
#line 12 "tests/in/atomic_capture_broadcast.c"
            slot = tmp_3;
#line 9 "tests/in/atomic_capture_broadcast.c"
            __syncthreads();
#line 9 "tests/in/atomic_capture_broadcast.c"
            if (threadIdx.x == 0u && threadIdx.y == 0u && 0u == 0u) {
#line 14 "tests/in/atomic_capture_broadcast.c"
                tmp_4 = next + (long long)0;
#line 14 "tests/in/atomic_capture_broadcast.c"
                tmp_5 = 1;
#line 14 "tests/in/atomic_capture_broadcast.c"
                tmp_6 = (int)atomicAdd(tmp_4, tmp_5);
            }
#line 14 "tests/in/atomic_capture_broadcast.c"
            tmp_7 = tmp_6;
#line 9 "tests/in/atomic_capture_broadcast.c"
            if (threadIdx.x == 0u && threadIdx.y == 0u && 0u == 0u) {
#line 14 "tests/in/atomic_capture_broadcast.c"
                log_1[(long long)g] = tmp_7;
            }
#line 9 "tests/in/atomic_capture_broadcast.c"
            __syncthreads();
#line 9 "tests/in/atomic_capture_broadcast.c"
            {
#line 16 "tests/in/atomic_capture_broadcast.c"
                init_1 = 0;
#line 16 "tests/in/atomic_capture_broadcast.c"
                limit_1 = 2;
#line 16 "tests/in/atomic_capture_broadcast.c"
                step_1 = 1;
#line 16 "tests/in/atomic_capture_broadcast.c"
                trip_1 = 0ULL;
#line 16 "tests/in/atomic_capture_broadcast.c"
                if (init_1 < limit_1) {
#line 16 "tests/in/atomic_capture_broadcast.c"
                    trip_1 = ((unsigned long long)limit_1 - (unsigned long long)init_1 - 1ULL) / (unsigned long long)step_1 + 1ULL;
                }
#line 16 "tests/in/atomic_capture_broadcast.c"
                k_1 = (unsigned long long)threadIdx.y;
#line 16 "tests/in/atomic_capture_broadcast.c"
                stride_1 = (unsigned long long)2u;
#line 16 "tests/in/atomic_capture_broadcast.c"
                for (; k_1 < trip_1; k_1 = k_1 + stride_1) {
#line 16 "tests/in/atomic_capture_broadcast.c"
                    w = (int)((unsigned int)init_1 + (unsigned int)k_1 * (unsigned int)step_1);
#line 16 "tests/in/atomic_capture_broadcast.c"
                    bcast_at_1 = (unsigned long long)(threadIdx.y + 0u * 2u);
#line 16 "tests/in/atomic_capture_broadcast.c"
                    if (threadIdx.x == 0u && 0u == 0u) {
#line 19 "tests/in/atomic_capture_broadcast.c"
                        tmp_8 = next + (long long)0;
#line 19 "tests/in/atomic_capture_broadcast.c"
                        tmp_9 = 2;
#line 19 "tests/in/atomic_capture_broadcast.c"
                        tmp_10 = (int)atomicAdd(tmp_8, tmp_9);
#line 16 "tests/in/atomic_capture_broadcast.c"
                        __accc_shared1[bcast_at_1] = tmp_10;
                    }
#line 16 "tests/in/atomic_capture_broadcast.c"
                    __accc_row_barrier();
#line 16 "tests/in/atomic_capture_broadcast.c"
                    tmp_10 = __accc_shared1[bcast_at_1];
#line 16 "tests/in/atomic_capture_broadcast.c"
                    __accc_row_barrier();
#line 19 "tests/in/atomic_capture_broadcast.c"
                    tmp_11 = tmp_10;
#line 19 "tests/in/atomic_capture_broadcast.c"
                    mine = tmp_11;
#line 16 "tests/in/atomic_capture_broadcast.c"
                    __accc_row_barrier();
#line 16 "tests/in/atomic_capture_broadcast.c"
                    {
#line 24 "tests/in/atomic_capture_broadcast.c"
                        init = 0;
#line 24 "tests/in/atomic_capture_broadcast.c"
                        limit = 32;
#line 24 "tests/in/atomic_capture_broadcast.c"
                        step = 1;
#line 24 "tests/in/atomic_capture_broadcast.c"
                        trip = 0ULL;
#line 24 "tests/in/atomic_capture_broadcast.c"
                        if (init < limit) {
#line 24 "tests/in/atomic_capture_broadcast.c"
                            trip = ((unsigned long long)limit - (unsigned long long)init - 1ULL) / (unsigned long long)step + 1ULL;
                        }
#line 24 "tests/in/atomic_capture_broadcast.c"
                        k = (unsigned long long)threadIdx.x;
#line 24 "tests/in/atomic_capture_broadcast.c"
                        stride = (unsigned long long)32u;
#line 24 "tests/in/atomic_capture_broadcast.c"
                        for (; k < trip; k = k + stride) {
#line 24 "tests/in/atomic_capture_broadcast.c"
                            j = (int)((unsigned int)init + (unsigned int)k * (unsigned int)step);
                            tmp_12 = g;
#line 24 "tests/in/atomic_capture_broadcast.c"
                            if (0u == 0u) {
                                out[(long long)((slot + mine) * 32 + j)] = tmp_12;
                            }
                        }
                    }
#line 16 "tests/in/atomic_capture_broadcast.c"
                    __accc_row_barrier();
                }
            }
#line 9 "tests/in/atomic_capture_broadcast.c"
            __syncthreads();
        }
    }
#line 213 "tests/in/atomic_capture_broadcast.c.cu"
}
