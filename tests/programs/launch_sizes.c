// Launch sizes from clauses that the device cannot take as given: zero and
// negative num_gangs / num_workers / vector_length (computed at run time, as
// real code does: `num_gangs(n / 1024)` of a small n) mean the default; blocks
// of more than 1024 threads (num_workers(16) with 128 vector lanes, 64 × 32,
// 2048 lanes) are reduced, workers first, whether the sizes are constants or
// computed at run time. No launch fails, and every result is that of the
// sizes' meaning: the loops cover every iteration, reductions combine all.
#include <stdio.h>

#define N 3000

static double a[N], b[N];

int main(void)
{
    int i, failures = 0;
    int zero = 0, neg = -5, big = 16, w64 = 64, lanes = 2048, small = N / 4096;
    long long sum;
    for (i = 0; i < N; i++) {
        a[i] = i % 17;
        b[i] = 0;
    }
#pragma acc data copyin(a) copy(b)
    {
#pragma acc parallel loop gang worker vector num_gangs(small) num_workers(32) vector_length(32)
        for (i = 0; i < N; i++)
            b[i] += a[i];
#pragma acc parallel loop gang num_gangs(zero) num_workers(zero) vector_length(neg)
        for (i = 0; i < N; i++) {
#pragma acc loop worker
            for (int j = 0; j < 1; j++)
                b[i] += 1;
        }
#pragma acc parallel num_workers(16)
        {
#pragma acc loop gang
            for (i = 0; i < N / 100; i++)
#pragma acc loop worker
                for (int j = 0; j < 10; j++)
#pragma acc loop vector
                    for (int k = 0; k < 10; k++)
                        b[i * 100 + j * 10 + k] += 2;
        }
#pragma acc parallel loop gang worker vector num_workers(big) vector_length(w64)
        for (i = 0; i < N; i++)
            b[i] += 4;
#pragma acc parallel loop gang vector vector_length(lanes)
        for (i = 0; i < N; i++)
            b[i] += 8;
        sum = 0;
#pragma acc parallel loop gang worker vector num_gangs(neg) num_workers(w64) vector_length(w64) reduction(+:sum)
        for (i = 0; i < N; i++)
            sum += (long long)b[i];
    }
    long long want = 0;
    for (i = 0; i < N; i++) {
        double v = a[i] + 1 + 2 + 4 + 8;
        if (b[i] != v) {
            if (failures++ < 5)
                fprintf(stderr, "b[%d] = %g, want %g\n", i, b[i], v);
        }
        want += (long long)v;
    }
    printf("sum %lld\n", sum);
    if (sum != want)
        failures++;
    printf("%s\n", failures ? "FAIL" : "PASS");
    return failures != 0;
}
