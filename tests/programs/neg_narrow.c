// Negation in narrow types wraps: -(-128) as a signed char is -128 again, and
// -(-32768) as a short is -32768. ptxas (CUDA 13.0, sm_90) compiled the
// 16-bit negation LLVM emits for `(signed char)-x` without truncating the
// result, so a byte 0x80 came back as +128 (difftest seed 815 on the H100;
// src/codegen/nvptx/ptxas_bugs.rs). Every byte and every interesting short
// goes through each form, and the results are compared with the host's.
#include <stdio.h>

#define N 4096

static int a[N];
static unsigned long o1[N];
static short o2[N];
static int o3[N], o4[N];
static signed char o5[N];

int main(void)
{
    int i, bad = 0;
    for (i = 0; i < N; i++)
        a[i] = (int)((unsigned)i * 2654435761u) ^ (i & 255) ^ (i >= 2048 ? 0x7f00 : 0);
#pragma acc parallel loop copyin(a) copyout(o1, o2, o3, o4, o5)
    for (i = 0; i < N; i++) {
        o1[i] = (short)(signed char)-(unsigned long long)a[i];
        o2[i] = (signed char)-a[i];
        o3[i] = (short)-(short)a[i];
        o4[i] = (signed char)-(signed char)a[i] < 0;
        o5[i] = (signed char)(-(signed char)a[i]) >> 1;
    }
    for (i = 0; i < N; i++) {
        unsigned long e1 = (short)(signed char)-(unsigned long long)a[i];
        short e2 = (signed char)-a[i];
        int e3 = (short)-(short)a[i];
        int e4 = (signed char)-(signed char)a[i] < 0;
        signed char e5 = (signed char)(-(signed char)a[i]) >> 1;
        if (o1[i] != e1 || o2[i] != e2 || o3[i] != e3 || o4[i] != e4 || o5[i] != e5) {
            if (bad < 5)
                printf("wrong at %d (a = %#x): %lx/%lx %d/%d %d/%d %d/%d %d/%d\n", i, a[i], o1[i], e1,
                       o2[i], e2, o3[i], e3, o4[i], e4, o5[i], e5);
            bad++;
        }
    }
    printf("neg_narrow: %d wrong of %d\n", bad, N);
    printf("%s\n", bad ? "FAIL" : "PASS");
    return bad != 0;
}
