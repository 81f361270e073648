// reduction(op: a[k]) on one element whose subscript the loop does not
// change (OpenACC 3.3 2.9.11 allows array elements): a histogram-like
// accumulation per k, on a gang-vector loop, a worker loop inside a gang
// loop, and the construct; the body's a[k] is the private copy, the element
// is updated once after the loop. The other elements stay as they were.
#include <stdio.h>

#define N 4000
#define K 5

static double x[N];
static double sums[K];
static long long cnt[K];
static int big[K];

int main(void)
{
    int i, k, failures = 0;
    for (i = 0; i < N; i++)
        x[i] = (double)((i * 37) % 101) * 0.5;
    for (k = 0; k < K; k++) {
        sums[k] = k;
        cnt[k] = 100 * k;
        big[k] = -1;
    }
#pragma acc data copyin(x) copy(sums, cnt, big)
    for (k = 0; k < K; k++) {
#pragma acc parallel loop gang vector reduction(+:sums[k]) reduction(max:big[k])
        for (i = k; i < N; i += K) {
            sums[k] += x[i];
            int v = (int)x[i] + k;
            big[k] = big[k] > v ? big[k] : v;
        }
#pragma acc parallel loop gang
        for (int j = 0; j < 4; j++) {
#pragma acc loop worker reduction(+:cnt[k])
            for (i = 0; i < 10; i++)
                cnt[k] += 1;
        }
    }
    for (k = 0; k < K; k++) {
        double ws = k;
        int wb = -1;
        for (i = k; i < N; i += K) {
            ws += x[i];
            int v = (int)x[i] + k;
            wb = wb > v ? wb : v;
        }
        printf("%d %.15e %lld %d\n", k, sums[k], cnt[k], big[k]);
        if (sums[k] != ws || big[k] != wb || cnt[k] != 100 * k + 40)
            failures++;
    }
    printf("%s\n", failures ? "FAIL" : "PASS");
    return failures != 0;
}
