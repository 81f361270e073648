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
#line 9 "tests/in/atomic_forms.c"
        init = 0;
#line 9 "tests/in/atomic_forms.c"
        limit = n;
#line 9 "tests/in/atomic_forms.c"
        step = 1;
#line 9 "tests/in/atomic_forms.c"
        trip = 0ULL;
#line 9 "tests/in/atomic_forms.c"
        if (init < limit) {
#line 9 "tests/in/atomic_forms.c"
            trip = ((unsigned long long)limit - (unsigned long long)init - 1ULL) / (unsigned long long)step + 1ULL;
        }
#line 9 "tests/in/atomic_forms.c"
        k = (unsigned long long)blockIdx.x * (unsigned long long)128u + (unsigned long long)threadIdx.x;
#line 9 "tests/in/atomic_forms.c"
        stride = (unsigned long long)gridDim.x * (unsigned long long)128u;
#line 9 "tests/in/atomic_forms.c"
        for (; k < trip; k = k + stride) {
#line 9 "tests/in/atomic_forms.c"
            i = (int)((unsigned int)init + (unsigned int)k * (unsigned int)step);
#line 9 "tests/in/atomic_forms.c"
            if (0u == 0u && 0u == 0u) {
#line 12 "tests/in/atomic_forms.c"
                tmp = hist + (long long)key[(long long)i];
#line 12 "tests/in/atomic_forms.c"
                tmp_1 = 1.0f;
#line 12 "tests/in/atomic_forms.c"
                tmp_2 = (float)atomicAdd(tmp, tmp_1);
            }
#line 9 "tests/in/atomic_forms.c"
            if (0u == 0u && 0u == 0u) {
#line 14 "tests/in/atomic_forms.c"
                tmp_3 = count;
#line 14 "tests/in/atomic_forms.c"
                tmp_4 = 1;
#line 14 "tests/in/atomic_forms.c"
                tmp_5 = (int)atomicAdd(tmp_3, tmp_4);
            }
#line 9 "tests/in/atomic_forms.c"
            if (0u == 0u && 0u == 0u) {
#line 16 "tests/in/atomic_forms.c"
                tmp_6 = prod + (long long)0;
#line 16 "tests/in/atomic_forms.c"
                tmp_7 = -1.0;
#line 16 "tests/in/atomic_forms.c"
                tmp_8 = *(double volatile *)tmp_6;
#line 16 "tests/in/atomic_forms.c"
                while (true) {
#line 16 "tests/in/atomic_forms.c"
                    tmp_9 = tmp_8 * tmp_7;
#line 16 "tests/in/atomic_forms.c"
                    {
#line 16 "tests/in/atomic_forms.c"
                        unsigned long long __accc_e = (unsigned long long)__double_as_longlong(tmp_8);
#line 16 "tests/in/atomic_forms.c"
                        unsigned long long __accc_o = atomicCAS((unsigned long long *)tmp_6, __accc_e, (unsigned long long)__double_as_longlong(tmp_9));
#line 16 "tests/in/atomic_forms.c"
                        tmp_10 = __longlong_as_double((long long)__accc_o);
#line 16 "tests/in/atomic_forms.c"
                        tmp_11 = __accc_o == __accc_e;
                    }
#line 16 "tests/in/atomic_forms.c"
                    if (tmp_11) {
#line 16 "tests/in/atomic_forms.c"
                        break;
                    }
#line 16 "tests/in/atomic_forms.c"
                    tmp_8 = tmp_10;
                }
            }
#line 9 "tests/in/atomic_forms.c"
            if (0u == 0u && 0u == 0u) {
#line 18 "tests/in/atomic_forms.c"
                tmp_12 = small + (long long)(i % 4);
#line 18 "tests/in/atomic_forms.c"
                tmp_13 = 3;
#line 18 "tests/in/atomic_forms.c"
                tmp_14 = *(short volatile *)tmp_12;
#line 18 "tests/in/atomic_forms.c"
                while (true) {
#line 18 "tests/in/atomic_forms.c"
                    tmp_15 = (short)((int)tmp_14 + tmp_13);
#line 18 "tests/in/atomic_forms.c"
                    {
#line 18 "tests/in/atomic_forms.c"
                        unsigned short __accc_e = (unsigned short)tmp_14;
#line 18 "tests/in/atomic_forms.c"
                        unsigned short __accc_o = atomicCAS((unsigned short *)tmp_12, __accc_e, (unsigned short)tmp_15);
#line 18 "tests/in/atomic_forms.c"
                        tmp_16 = (short)__accc_o;
#line 18 "tests/in/atomic_forms.c"
                        tmp_17 = __accc_o == __accc_e;
                    }
#line 18 "tests/in/atomic_forms.c"
                    if (tmp_17) {
#line 18 "tests/in/atomic_forms.c"
                        break;
                    }
#line 18 "tests/in/atomic_forms.c"
                    tmp_14 = tmp_16;
                }
            }
#line 9 "tests/in/atomic_forms.c"
            if (0u == 0u && 0u == 0u) {
#line 20 "tests/in/atomic_forms.c"
                tmp_18 = count;
#line 20 "tests/in/atomic_forms.c"
                tmp_19 = *(int volatile *)tmp_18;
            }
#line 20 "tests/in/atomic_forms.c"
            tmp_20 = tmp_19;
#line 20 "tests/in/atomic_forms.c"
            seen = tmp_20;
#line 9 "tests/in/atomic_forms.c"
            if (0u == 0u && 0u == 0u) {
#line 22 "tests/in/atomic_forms.c"
                tmp_21 = small + (long long)0;
#line 22 "tests/in/atomic_forms.c"
                *(short volatile *)tmp_21 = (short)seen;
            }
        }
    }
#line 163 "tests/in/atomic_forms.c.cu"
}
