// `atomic capture`, `read` and `write` (OpenACC 3.3 2.12) and atomics on
// every kind of location: every capture form — v = x++, v = x--, v = ++x,
// v = --x, v = x binop= expr, v = x = x binop expr, v = x = expr binop x,
// {v = x; x binop= expr;}, {x binop= expr; v = x;}, {v = x; x = expr;} —
// with all threads on one location, checked by sorting the captured values:
// they must be exactly the expected sequence (the order among threads is not
// defined, the set is). Targets are array elements, struct members, globals
// and locations updated inside a `routine`; `atomic read` and `write`; the
// `if` clause (false: a plain update, on one thread in a serial region).
#include <stdio.h>
#include <stdlib.h>

#define N 3001

struct counter { int hits; double weight; long long big; };
int global_count;
float global_sum;

#pragma acc routine seq
static int take_ticket(int *t)
{
    int mine;
#pragma acc atomic capture
    mine = (*t)++;
    return mine;
}

static int cmp_ll(const void *a, const void *b)
{
    long long x = *(const long long *)a, y = *(const long long *)b;
    return (x > y) - (x < y);
}

/* Sorted v[0..n) == first, first + step, ...: 1, else 0. */
static int sequence(long long *v, int n, long long first, long long step)
{
    qsort(v, n, sizeof *v, cmp_ll);
    for (int i = 0; i < n; i++)
        if (v[i] != first + step * i)
            return 0;
    return 1;
}

static long long c1[N], c2[N], c3[N], c4[N], c5[N], c6[N], c7[N], c8[N], c9[N], c10[N], c11[N];

int main(void)
{
    int n = N;
    int x1 = 0, x2 = 0, x3 = 0, x4 = 0, x9 = 1000;
    long long x5 = 0, x6 = 0, x7 = 0, x8 = 0, x10 = -1, x11 = 0;
    struct counter cnt = { 0, 0.0, 0 };
    int table[4] = { 0, 0, 0, 0 };
    int tickets[N];
#pragma acc parallel loop copy(x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, cnt, table) \
    copyout(c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11, tickets)
    for (int i = 0; i < n; i++) {
        int v;
        long long w;
#pragma acc atomic capture
        v = x1++;
        c1[i] = v;
#pragma acc atomic capture
        v = x2--;
        c2[i] = v;
#pragma acc atomic capture
        v = ++x3;
        c3[i] = v;
#pragma acc atomic capture
        v = --x4;
        c4[i] = v;
#pragma acc atomic capture
        w = x5 += 3;
        c5[i] = w;
#pragma acc atomic capture
        {
            w = x6;
            x6 += 2;
        }
        c6[i] = w;
#pragma acc atomic capture
        {
            x7 = x7 + 5;
            w = x7;
        }
        c7[i] = w;
#pragma acc atomic capture
        {
            w = x8;
            x8 = i;
        }
        c8[i] = w;
#pragma acc atomic capture
        v = x9 = x9 - 1;
        c9[i] = v;
#pragma acc atomic capture
        w = x10 = 1 + x10;
        c10[i] = w;
#pragma acc atomic capture
        {
            x11 *= 1;
            w = x11;
        }
        c11[i] = w;
#pragma acc atomic update
        cnt.hits++;
#pragma acc atomic
        cnt.weight += 0.25;
#pragma acc atomic
        cnt.big += 1LL << 33;
#pragma acc atomic
        table[i % 4] += i;
#pragma acc atomic
        global_count++;
#pragma acc atomic update
        global_sum = global_sum + 1.0f;
        tickets[i] = take_ticket((int *)&table[3]) >= 0;
    }
    long long t8 = x8;
    printf("x: %d %d %d %d %lld %lld %lld %d %lld %lld\n", x1, x2, x3, x4, x5, x6, x7, x9, x10, x11);
    int seq = sequence(c1, n, 0, 1);
    printf("old x++ %d\n", seq);
    printf("old x-- %d\n", sequence(c2, n, -(N - 1), 1));
    printf("new ++x %d\n", sequence(c3, n, 1, 1));
    printf("new --x %d\n", sequence(c4, n, -N, 1));
    printf("new x+=3 %d\n", sequence(c5, n, 3, 3));
    printf("old {v=x; x+=2} %d\n", sequence(c6, n, 0, 2));
    printf("new {x=x+5; v=x} %d\n", sequence(c7, n, 5, 5));
    printf("new x=x-1 %d\n", sequence(c9, n, 1000 - N, 1));
    printf("new x=1+x %d\n", sequence(c10, n, 0, 1));
    printf("new x*=1 %d\n", sequence(c11, n, 0, 0));
    /* The swap: the captured values and the last value are 0, 0..N-1. */
    {
        static long long all[N + 1];
        for (int i = 0; i < n; i++)
            all[i] = c8[i];
        all[n] = t8;
        qsort(all, n + 1, sizeof *all, cmp_ll);
        int ok = all[0] == 0 && all[1] == 0;
        for (int i = 2; i <= n; i++)
            ok &= all[i] == i - 1;
        printf("swap {v=x; x=i} %d\n", ok);
    }
    int tk = 1;
    for (int i = 0; i < n; i++)
        tk &= tickets[i];
    printf("struct %d %.2f %lld\n", cnt.hits, cnt.weight, cnt.big);
    printf("table %d %d %d %d routine %d\n", table[0], table[1], table[2], table[3], tk);
    printf("globals %d %.1f\n", global_count, (double)global_sum);

    /* read and write; the if clause. */
    int shared = 0, seen = 0;
    float f = 0;
#pragma acc parallel loop copy(shared, seen, f)
    for (int i = 0; i < n; i++) {
        int r;
#pragma acc atomic write
        shared = 42;
#pragma acc atomic read
        r = shared;
#pragma acc atomic update
        seen += r == 42;
#pragma acc atomic update if(n > 1)
        f += 1.0f;
    }
    int plain = 0;
#pragma acc serial copy(plain)
    for (int i = 0; i < 10; i++) {
#pragma acc atomic update if(0)
        plain += 2;
    }
    printf("read/write %d %d if %.1f %d\n", shared, seen, (double)f, plain);
    int pass = x1 == N && x2 == -N && x3 == N && x4 == -N && x5 == 3LL * N && x6 == 2LL * N &&
               x7 == 5LL * N && x9 == 1000 - N && x10 == N - 1 && x11 == 0 && cnt.hits == N &&
               cnt.weight == 0.25 * N && cnt.big == (long long)N << 33 && global_count == N &&
               global_sum == (float)N && tk && shared == 42 && seen == N && f == (float)N &&
               plain == 20;
    for (int k = 0; k < 4; k++) {
        long long want = 0;
        for (int i = k; i < n; i += 4)
            want += i;
        pass &= table[k] == want + (k == 3 ? N : 0);
    }
    printf("%s\n", pass ? "PASS" : "FAIL");
    return 0;
}
