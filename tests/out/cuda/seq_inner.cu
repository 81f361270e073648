// CUDA C of tests/in/seq_inner.c, written by accc from the scheduled loop IR (the nvcc path).

// parallel at tests/in/seq_inner.c:3:13
#line 3 "tests/in/seq_inner.c"
extern "C" __global__ void __launch_bounds__(64) __accc_rowsum_0_l3_23ccedf0(int n, int m, float *a /* read only */, float *out)
#line 7 "tests/in/seq_inner.c.cu"
{
    int i;
    float s;
    int j;
    float tmp;
    float tmp_1;
    int limit;
    int step;
    int init;
    int limit_1;
    int step_1;
    unsigned long long trip;
    unsigned long long k;
    unsigned long long stride;
    {
        init = 0;
        limit_1 = n;
        step_1 = 1;
        trip = 0ULL;
        if (init < limit_1) {
            trip = ((unsigned long long)limit_1 - (unsigned long long)init - 1ULL) / (unsigned long long)step_1 + 1ULL;
        }
        k = (unsigned long long)blockIdx.x * (unsigned long long)64u + (unsigned long long)threadIdx.x;
        stride = (unsigned long long)gridDim.x * (unsigned long long)64u;
        for (; k < trip; k = k + stride) {
            i = (int)((unsigned int)init + (unsigned int)k * (unsigned int)step_1);
            s = 0.0f;
            {
                j = 0;
                limit = m;
                step = 1;
                for (; j < limit; j = j + step) {
                    tmp = s + a[(long long)(i * m + j)];
                    s = tmp;
                }
            }
            tmp_1 = s;
            if (0u == 0u && 0u == 0u) {
                out[(long long)i] = tmp_1;
            }
        }
    }
}
