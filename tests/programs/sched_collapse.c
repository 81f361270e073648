// collapse(n): rectangular nests of two and three loops joined into one
// iteration space (with negative and non-unit steps, unsigned and long
// indices), on gang vector and on vector inside a gang loop, plus a
// collapsed sequential nest in a serial region; tile(…) (explicit sizes,
// the first one the innermost loop's, and tile(*)); gang(static:n) and
// gang(static:*). (t2 is copy, not copyout: its loop writes only some
// elements, and the others must come back as they were.)
#include <stdio.h>

int main(void)
{
    enum { A = 37, B = 19, C = 11 };
    static long t3[A][B][C], t2[A][B], s[A][B];
#pragma acc parallel loop collapse(3) copyout(t3)
    for (int i = 0; i < A; i++)
        for (long j = B - 1; j >= 0; j--)
            for (unsigned k = 0; k < C; k += 1)
                t3[i][j][k] = i * 10000 + j * 100 + k;
#pragma acc parallel loop gang copy(t2)
    for (int i = A - 1; i >= 0; i -= 1) {
#pragma acc loop vector collapse(2)
        for (int q = 0; q < 1; q++)
            for (int j = 1; j < B; j += 3)
                t2[i][j] = i * 1000 + j + q;
    }
#pragma acc serial copyout(s)
    {
#pragma acc loop seq collapse(2)
        for (int i = 0; i < A; i++)
            for (int j = 0; j < B; j++)
                s[i][j] = (i ^ j) * 3;
    }
    static long tl[A][B], ts[A], st[A * B], ss[A * B];
#pragma acc parallel loop tile(4, 8) copyout(tl)
    for (int i = 0; i < A; i++)
        for (int j = B - 1; j >= 0; j -= 1)
            tl[i][j] = i * 31 + j;
#pragma acc parallel loop tile(*) copyout(ts)
    for (int i = 0; i < A; i++)
        ts[i] = 5 * i;
#pragma acc parallel loop gang(static:3) vector num_gangs(4) vector_length(32) copyout(st)
    for (int k = 0; k < A * B; k++)
        st[k] = k ^ 5;
#pragma acc parallel loop gang(static:*) num_gangs(6) copyout(ss)
    for (int k = A * B - 1; k >= 0; k--)
        ss[k] = 3 * k;
    long sum = 0;
    for (int k = 0; k < A * B; k++)
        sum = (sum * 5 + st[k] + ss[k] + tl[k / B][k % B] + ts[k % A]) % 1000000007L;
    for (int i = 0; i < A; i++)
        for (int j = 0; j < B; j++) {
            for (int k = 0; k < C; k++)
                sum = (sum * 7 + t3[i][j][k]) % 1000000007L;
            sum = (sum * 3 + t2[i][j] + s[i][j]) % 1000000007L;
        }
    printf("%ld\nPASS\n", sum);
    return 0;
}
