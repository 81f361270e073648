// CUDA C of tests/in/vector_add.c, written by accc from the scheduled loop IR (the nvcc path).

// parallel loop at tests/in/vector_add.c:3:13
#line 3 "tests/in/vector_add.c"
extern "C" __global__ void __launch_bounds__(128) __accc_vadd_0_l3_8337bac9(int n, float *c, float *a /* read only */, float *b /* read only */)
#line 7 "tests/in/vector_add.c.cu"
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
            tmp = a[(long long)i] + b[(long long)i];
            if (0u == 0u && 0u == 0u) {
                c[(long long)i] = tmp;
            }
        }
    }
}
