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
#line 4 "tests/in/vector_add.c"
        init = 0;
#line 4 "tests/in/vector_add.c"
        limit = n;
#line 4 "tests/in/vector_add.c"
        step = 1;
#line 4 "tests/in/vector_add.c"
        trip = 0ULL;
#line 4 "tests/in/vector_add.c"
        if (init < limit) {
#line 4 "tests/in/vector_add.c"
            trip = ((unsigned long long)limit - (unsigned long long)init - 1ULL) / (unsigned long long)step + 1ULL;
        }
#line 4 "tests/in/vector_add.c"
        k = (unsigned long long)blockIdx.x * (unsigned long long)128u + (unsigned long long)threadIdx.x;
#line 4 "tests/in/vector_add.c"
        stride = (unsigned long long)gridDim.x * (unsigned long long)128u;
#line 4 "tests/in/vector_add.c"
        for (; k < trip; k = k + stride) {
#line 4 "tests/in/vector_add.c"
            i = (int)((unsigned int)init + (unsigned int)k * (unsigned int)step);
            tmp = a[(long long)i] + b[(long long)i];
#line 4 "tests/in/vector_add.c"
            if (0u == 0u && 0u == 0u) {
                c[(long long)i] = tmp;
            }
        }
    }
#line 46 "tests/in/vector_add.c.cu"
}
