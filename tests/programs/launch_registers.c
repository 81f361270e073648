// A kernel that needs many registers (56 64-bit values live across a loop)
// launched with vector_length(v) computed at run time: 1024 lanes, and
// num_workers(w) of 8 workers of 128 lanes. A block size known only at run
// time no longer caps the kernel at 64 registers (spilling the rest): the
// runtime asks the driver how many threads a block of the loaded kernel may
// have (__ptxrt_kernel_threads) and shrinks the block to that, workers
// first, vector lanes in whole warps. On a GPU a 1024-thread block of this
// kernel fails to launch (CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES); the loops
// stride, so the smaller block computes the same. Integer arithmetic: the
// results are exact.
#include <stdio.h>

#define N 4096
#define K 8

static unsigned long long x[N], y[N], z[N];

/* 56 values a0..g7, each with its own constant 10..77. */
#define S8(m, b, n) m(b##0, n##0) m(b##1, n##1) m(b##2, n##2) m(b##3, n##3) \
    m(b##4, n##4) m(b##5, n##5) m(b##6, n##6) m(b##7, n##7)
#define ALL(m) S8(m, a, 1) S8(m, b, 2) S8(m, c, 3) S8(m, d, 4) S8(m, e, 5) S8(m, f, 6) S8(m, g, 7)
#define DECL(v, n) unsigned long long v = (unsigned long long)i * n + 0x9e3779b97f4a7c15ULL * n;
#define STEP(v, n) v = v * t + (v >> 7) + n;
#define SUM(v, n) r = r * 31 + v;

int main(int argc, char **argv)
{
    int i, failures = 0;
    int v = 1000 + argc * 24, w = 7 + argc;
    unsigned long long r0 = 0, r1 = 0;
    (void)argv;
    for (i = 0; i < N; i++)
        x[i] = (unsigned long long)i * 2654435761u + 12345;
#pragma acc data copyin(x) copyout(y, z)
    {
#pragma acc parallel loop vector_length(v)
        for (i = 0; i < N; i++) {
            unsigned long long r = 0;
            int k;
            ALL(DECL)
            for (k = 0; k < K; k++) {
                unsigned long long t = x[(i + k * 97) % N] | 1;
                ALL(STEP)
            }
            ALL(SUM)
            y[i] = r;
        }
#pragma acc parallel loop gang worker vector num_workers(w) vector_length(128)
        for (i = 0; i < N; i++) {
            unsigned long long r = 0;
            int k;
            ALL(DECL)
            for (k = 0; k < K; k++) {
                unsigned long long t = x[(i * 7 + k) % N] | 3;
                ALL(STEP)
            }
            ALL(SUM)
            z[i] = r;
        }
    }
    for (i = 0; i < N; i++) {
        r0 = r0 * 1000003 + y[i];
        r1 = r1 * 1000003 + z[i];
    }
    for (i = 0; i < N; i += 1023) {
        unsigned long long r = 0;
        int k;
        ALL(DECL)
        for (k = 0; k < K; k++) {
            unsigned long long t = x[(i + k * 97) % N] | 1;
            ALL(STEP)
        }
        ALL(SUM)
        if (r != y[i])
            failures++;
    }
    printf("%llu %llu\n", r0, r1);
    printf("%s\n", failures ? "FAIL" : "PASS");
    return failures != 0;
}
