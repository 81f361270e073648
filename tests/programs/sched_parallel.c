// Loop scheduling in parallel constructs: one, two and three nested levels
// (gang-worker-vector in one loop, g-wv, gw-v, g-w-v), gang(dim:2) on the
// grid's y dimension, num_gangs with three dimensions, launches much smaller
// than the iteration space, bounds that are not multiples of the block size,
// negative and non-unit steps, triangular inner bounds, auto/independent.
#include <stdio.h>

#define N 1013
#define M 77

static long checksum(const int *v, int n)
{
    unsigned long s = 0;
    for (int i = 0; i < n; i++)
        s = (s * 31 + (unsigned long)(long)v[i] + (unsigned long)(i % 7)) % 1000000007UL;
    return (long)s;
}

int main(void)
{
    static int a[N], b[N * M], c[N * M], d[M][M], e[N], f[M][M][13];
    // gang worker vector in one loop, tiny launch, step 3 from the top
#pragma acc parallel loop gang worker vector num_gangs(3) num_workers(2) vector_length(32) copyout(a)
    for (int i = N - 1; i >= 0; i -= 1)
        a[i] = i * 3 + 1;
    // g-wv
#pragma acc parallel num_gangs(5) num_workers(3) vector_length(64) copyout(b)
    {
#pragma acc loop gang
        for (int i = 0; i < N; i++)
#pragma acc loop worker vector
            for (int j = 0; j < M; j++)
                b[i * M + j] = i - j;
    }
    // gw-v with a non-unit step on the inner loop and an odd bound
#pragma acc parallel num_gangs(7) num_workers(4) vector_length(32) copy(c)
    {
#pragma acc loop gang worker
        for (int i = 0; i < N; i++)
#pragma acc loop vector
            for (int j = 1; j < M; j += 2)
                c[i * M + j] = i + j;
    }
    // g-w-v with a triangular middle loop and a downward inner loop
#pragma acc parallel num_gangs(4) num_workers(2) vector_length(32) copy(f)
    {
#pragma acc loop gang
        for (int i = 0; i < M; i++)
#pragma acc loop worker
            for (int j = 0; j <= i; j++)
#pragma acc loop vector
                for (int k = 12; k > 0; k -= 5)
                    f[i][j][k] = i * 10000 + j * 100 + k;
    }
    // gang(dim:2): the gang loop on grid y, a gang loop nested in it on x
#pragma acc parallel num_gangs(3, 2) vector_length(32) copyout(d)
    {
#pragma acc loop gang(dim:2)
        for (int i = 0; i < M; i++)
#pragma acc loop gang vector
            for (int j = 0; j < M; j++)
                d[i][j] = (i + 1) * (j + 2);
    }
    // a bare loop and an independent one: the compiler chooses the levels
    // (they write different elements: gangs of one region are not ordered)
#pragma acc parallel copyout(e)
    {
#pragma acc loop independent
        for (int i = 1; i < N; i += 2)
            e[i] = 0;
#pragma acc loop
        for (int i = 0; i < N; i += 2)
            e[i] = 2 * i;
    }
    printf("a %ld\nb %ld\nc %ld\nd %ld\ne %ld\n", checksum(a, N), checksum(b, N * M), checksum(c, N * M),
           checksum(&d[0][0], M * M), checksum(e, N));
    printf("f %ld\n", checksum(&f[0][0][0], M * M * 13));
    printf("PASS\n");
    return 0;
}
