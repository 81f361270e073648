// CUDA C of tests/in/atomic_forms.c, written by accc from the scheduled loop IR (the nvcc path).

// parallel loop at tests/in/atomic_forms.c:8:13
#line 8 "tests/in/atomic_forms.c"
extern "C" __global__ void __launch_bounds__(128) __accc_forms_0_l8_717d394b(int n, float *hist, int *key, int *count, double *prod, short *small)
#line 7 "tests/in/atomic_forms.c.cu"
{
    int i;
    int seen;
    float *tmp;
    float tmp_1;
    float tmp_2;
    int *tmp_3;
    int tmp_4;
    int tmp_5;
    double *tmp_6;
    double tmp_7;
    double tmp_8;
    double tmp_9;
    double tmp_10;
    bool tmp_11;
    short *tmp_12;
    int tmp_13;
    short tmp_14;
    short tmp_15;
    short tmp_16;
    bool tmp_17;
    int *tmp_18;
    int tmp_19;
    int tmp_20;
    short *tmp_21;
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
            if (0u == 0u && 0u == 0u) {
                tmp = hist + (long long)key[(long long)i];
                tmp_1 = 1.0f;
                tmp_2 = (float)atomicAdd(tmp, tmp_1);
            }
            if (0u == 0u && 0u == 0u) {
                tmp_3 = count;
                tmp_4 = 1;
                tmp_5 = (int)atomicAdd(tmp_3, tmp_4);
            }
            if (0u == 0u && 0u == 0u) {
                tmp_6 = prod + (long long)0;
                tmp_7 = -1.0;
                tmp_8 = *(double volatile *)tmp_6;
                while (true) {
                    tmp_9 = tmp_8 * tmp_7;
                    {
                        unsigned long long __accc_e = (unsigned long long)__double_as_longlong(tmp_8);
                        unsigned long long __accc_o = atomicCAS((unsigned long long *)tmp_6, __accc_e, (unsigned long long)__double_as_longlong(tmp_9));
                        tmp_10 = __longlong_as_double((long long)__accc_o);
                        tmp_11 = __accc_o == __accc_e;
                    }
                    if (tmp_11) {
                        break;
                    }
                    tmp_8 = tmp_10;
                }
            }
            if (0u == 0u && 0u == 0u) {
                tmp_12 = small + (long long)(i % 4);
                tmp_13 = 3;
                tmp_14 = *(short volatile *)tmp_12;
                while (true) {
                    tmp_15 = (short)((int)tmp_14 + tmp_13);
                    {
                        unsigned short __accc_e = (unsigned short)tmp_14;
                        unsigned short __accc_o = atomicCAS((unsigned short *)tmp_12, __accc_e, (unsigned short)tmp_15);
                        tmp_16 = (short)__accc_o;
                        tmp_17 = __accc_o == __accc_e;
                    }
                    if (tmp_17) {
                        break;
                    }
                    tmp_14 = tmp_16;
                }
            }
            if (0u == 0u && 0u == 0u) {
                tmp_18 = count;
                tmp_19 = *(int volatile *)tmp_18;
            }
            tmp_20 = tmp_19;
            seen = tmp_20;
            if (0u == 0u && 0u == 0u) {
                tmp_21 = small + (long long)0;
                *(short volatile *)tmp_21 = (short)seen;
            }
        }
    }
}
