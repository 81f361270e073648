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
#line 6 "tests/in/seq_inner.c"
        init = 0;
#line 6 "tests/in/seq_inner.c"
        limit_1 = n;
#line 6 "tests/in/seq_inner.c"
        step_1 = 1;
#line 6 "tests/in/seq_inner.c"
        trip = 0ULL;
#line 6 "tests/in/seq_inner.c"
        if (init < limit_1) {
#line 6 "tests/in/seq_inner.c"
            trip = ((unsigned long long)limit_1 - (unsigned long long)init - 1ULL) / (unsigned long long)step_1 + 1ULL;
        }
#line 6 "tests/in/seq_inner.c"
        k = (unsigned long long)blockIdx.x * (unsigned long long)64u + (unsigned long long)threadIdx.x;
#line 6 "tests/in/seq_inner.c"
        stride = (unsigned long long)gridDim.x * (unsigned long long)64u;
#line 6 "tests/in/seq_inner.c"
        for (; k < trip; k = k + stride) {
#line 6 "tests/in/seq_inner.c"
            i = (int)((unsigned int)init + (unsigned int)k * (unsigned int)step_1);
            s = 0.0f;
#line 6 "tests/in/seq_inner.c"
            {
#line 9 "tests/in/seq_inner.c"
                j = 0;
#line 9 "tests/in/seq_inner.c"
                limit = m;
#line 9 "tests/in/seq_inner.c"
                step = 1;
#line 9 "tests/in/seq_inner.c"
                for (; j < limit; j = j + step) {
                    tmp = s + a[(long long)(i * m + j)];
#line 10 "tests/in/seq_inner.c"
                    s = tmp;
                }
            }
#line 11 "tests/in/seq_inner.c"
            tmp_1 = s;
#line 6 "tests/in/seq_inner.c"
            if (0u == 0u && 0u == 0u) {
#line 11 "tests/in/seq_inner.c"
                out[(long long)i] = tmp_1;
            }
        }
    }
#line 69 "tests/in/seq_inner.c.cu"
}
