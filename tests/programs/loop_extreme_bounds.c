// Partitioned loops whose index runs near the ends of its type: the index of
// iteration k is init + k * step, whose product leaves int's range although
// every value the C loop computes is an int (from INT_MAX down by 1.2e9, and
// from INT_MIN up: k * step = 2.4e9 at k = 2). C promises only that the
// indices themselves do not overflow; the compiler must compute them without
// relying on more.
// Also index arithmetic the user writes in int, which the back end may widen
// (no overflow: C's promise), over a 2-D array walked by rows and columns.
#include <limits.h>
#include <stdio.h>

#define N 8
#define ROWS 300
#define COLS 257

int main(void)
{
    int down[N], up[N];
    long long lsum = 0;
    static float m[ROWS * COLS], colsum[COLS];
    int i, j;

    for (i = 0; i < N; i++)
        down[i] = up[i] = 0;
    for (i = 0; i < ROWS * COLS; i++)
        m[i] = (float)(i % 97) * 0.5f;

#pragma acc parallel loop copy(down[0:N])
    for (int v = INT_MAX; v > INT_MIN + 1000000000; v -= 1200000000) {
        long long k = ((long long)INT_MAX - v) / 1200000000;
        down[k] = v;
    }
#pragma acc parallel loop copy(up[0:N])
    for (int v = INT_MIN; v < INT_MAX - 1000000000; v += 1200000000) {
        long long k = ((long long)v - INT_MIN) / 1200000000;
        up[k] = v;
    }
#pragma acc parallel loop reduction(+:lsum)
    for (long long w = LLONG_MAX; w > LLONG_MAX - 1000; w -= 7)
        lsum += LLONG_MAX - w;

#pragma acc parallel loop gang vector copyin(m[0:ROWS * COLS]) copyout(colsum[0:COLS])
    for (j = 0; j < COLS; j++) {
        float s = 0.0f;
        for (int r = 0; r < ROWS; r++)
            s += m[r * COLS + j];
        colsum[j] = s;
    }

    int ok = 1;
    for (i = 0; i < N; i++) {
        printf("down[%d] = %d  up[%d] = %d\n", i, down[i], i, up[i]);
        long long want_down = i < 3 ? (long long)INT_MAX - i * 1200000000LL : 0;
        long long want_up = i < 3 ? (long long)INT_MIN + i * 1200000000LL : 0;
        ok &= down[i] == want_down && up[i] == want_up;
    }
    ok &= lsum == 7LL * 142 * 143 / 2;
    for (j = 0; j < COLS; j++) {
        float s = 0.0f;
        for (int r = 0; r < ROWS; r++)
            s += m[r * COLS + j];
        ok &= s == colsum[j];
    }
    printf("lsum = %lld\n", lsum);
    double total = 0;
    for (j = 0; j < COLS; j++)
        total += colsum[j] * (j + 1);
    printf("colsum: %.1f %.1f %.1f weighted %.1f\n", colsum[0], colsum[1], colsum[COLS - 1], total);
    printf("%s\n", ok ? "PASS" : "FAIL");
    return !ok;
}
