// Reduction operators on int and unsigned (OpenACC 3.3 2.5.15 and 2.9.11):
// + * max min & | ^ && ||, each in its own combined `parallel loop
// reduction(op:var)` (implicit copy of the variable: 2.6.2), most over
// 1000003 iterations. Every result starts from an original value that is not
// the operator's identity, so it shows whether that value takes part exactly
// once. max/min run over all-negative and all-positive data (a private copy
// initialised to 0 instead of the type's least/largest value gives a wrong
// answer), unsigned max/min over values above 2^31 (a signed comparison gives
// a wrong answer), & | && || over data where one element far from the start
// decides the result. `*` on int never overflows (factors 1, -1, 2 with few
// 2s), on unsigned it wraps (an odd number's product mod 2^32, the same in
// any order).
#include <stdio.h>
#include <limits.h>

#define N 1000003
#define M 777

static int a[N];        // [-1000, 1000]
static int neg[N];      // [-100004, -5]
static int pos[N];      // [3, 100002], never 0
static int sparse[N];   // mostly 0 (|, ||) or mostly ~0 (&)
static int fac[M];      // 1, with eight 2s and eight -1s
static unsigned u[N];   // any 32-bit value
static unsigned big[N]; // >= 2^31, one small value planted where a test says
static unsigned usp[N];

static int failures;

static void check(const char *what, long long got, long long want)
{
    printf("%s %lld\n", what, got);
    if (got != want) {
        failures++;
        fprintf(stderr, "%s: got %lld, want %lld\n", what, got, want);
    }
}

static unsigned hash(unsigned x)
{
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    x *= 0x846ca68bU;
    x ^= x >> 16;
    return x;
}

static void test_int(void)
{
    int i;
    // +
    int s = 17;
#pragma acc parallel loop reduction(+:s)
    for (i = 0; i < N; i++)
        s += a[i];
    int want = 17;
    for (i = 0; i < N; i++)
        want += a[i];
    check("int +", s, want);

    // *
    int p = -3;
#pragma acc parallel loop reduction(*:p) copyin(fac)
    for (i = 0; i < M; i++)
        p *= fac[i];
    want = -3;
    for (i = 0; i < M; i++)
        want *= fac[i];
    check("int *", p, want);

    // max over negative values: the private copies must start at INT_MIN
    int mx = -2000000000;
#pragma acc parallel loop reduction(max:mx)
    for (i = 0; i < N; i++)
        if (neg[i] > mx)
            mx = neg[i];
    want = -2000000000;
    for (i = 0; i < N; i++)
        want = neg[i] > want ? neg[i] : want;
    check("int max negative", mx, want);

    // max where the original value wins
    int mx2 = 5;
#pragma acc parallel loop reduction(max:mx2)
    for (i = 0; i < N; i++)
        mx2 = mx2 > neg[i] ? mx2 : neg[i];
    check("int max original", mx2, 5);

    // min over positive values: the private copies must start at INT_MAX
    int mn = 2000000000;
#pragma acc parallel loop reduction(min:mn)
    for (i = 0; i < N; i++)
        mn = pos[i] < mn ? pos[i] : mn;
    want = 2000000000;
    for (i = 0; i < N; i++)
        want = pos[i] < want ? pos[i] : want;
    check("int min positive", mn, want);

    // min over mixed values, original 0
    int mn2 = 0;
#pragma acc parallel loop reduction(min:mn2)
    for (i = 0; i < N; i++)
        if (a[i] < mn2)
            mn2 = a[i];
    want = 0;
    for (i = 0; i < N; i++)
        want = a[i] < want ? a[i] : want;
    check("int min mixed", mn2, want);

    // &: all ones but four elements, each clearing one bit
    for (i = 0; i < N; i++)
        sparse[i] = ~0;
    sparse[0] = ~(1 << 3);
    sparse[31] = ~(1 << 9);
    sparse[123457] = ~(1 << 30);
    sparse[N - 1] = ~(1 << 17);
    int band = ~(1 << 5);
#pragma acc parallel loop reduction(&:band)
    for (i = 0; i < N; i++)
        band &= sparse[i];
    check("int &", band, ~((1 << 3) | (1 << 9) | (1 << 30) | (1 << 17) | (1 << 5)));

    // |: all zero but four elements
    for (i = 0; i < N; i++)
        sparse[i] = 0;
    sparse[7] = 1;
    sparse[65536] = 1 << 5;
    sparse[999999] = 1 << 30;
    sparse[N - 1] = 1 << 20;
    int bor = 0x100;
#pragma acc parallel loop reduction(|:bor) copyin(sparse[0:N])
    for (i = 0; i < N; i++)
        bor |= sparse[i];
    check("int |", bor, 0x100 | 1 | (1 << 5) | (1 << 30) | (1 << 20));

    // ^
    int bx = 0x5a5a;
#pragma acc parallel loop reduction(^:bx)
    for (i = 0; i < N; i++)
        bx ^= a[i] * 1021;
    want = 0x5a5a;
    for (i = 0; i < N; i++)
        want ^= a[i] * 1021;
    check("int ^", bx, want);

    // &&: all true; one false near the end; original false
    int t1 = 1, t2 = 1, t3 = 0;
#pragma acc parallel loop reduction(&&:t1)
    for (i = 0; i < N; i++)
        t1 = t1 && pos[i];
    pos[N - 2] = 0;
#pragma acc parallel loop reduction(&&:t2)
    for (i = 0; i < N; i++)
        t2 = t2 && pos[i];
    pos[N - 2] = 77;
#pragma acc parallel loop reduction(&&:t3)
    for (i = 0; i < N; i++)
        t3 = t3 && pos[i];
    check("int && all", t1, 1);
    check("int && one false", t2, 0);
    check("int && original false", t3, 0);

    // ||: all false; one true near the end; original true
    for (i = 0; i < N; i++)
        sparse[i] = 0;
    int o1 = 0, o2 = 0, o3 = 1;
#pragma acc parallel loop reduction(||:o1)
    for (i = 0; i < N; i++)
        o1 = o1 || sparse[i];
    sparse[N - 3] = -4;
#pragma acc parallel loop reduction(||:o2)
    for (i = 0; i < N; i++)
        o2 = o2 || sparse[i];
    sparse[N - 3] = 0;
#pragma acc parallel loop reduction(||:o3)
    for (i = 0; i < N; i++)
        o3 = o3 || sparse[i];
    check("int || none", o1, 0);
    check("int || one true", o2, 1);
    check("int || original true", o3, 1);
}

static void test_unsigned(void)
{
    int i;
    unsigned want;
    // + wraps around
    unsigned s = 4000000000u;
#pragma acc parallel loop reduction(+:s)
    for (i = 0; i < N; i++)
        s += u[i];
    want = 4000000000u;
    for (i = 0; i < N; i++)
        want += u[i];
    check("unsigned +", s, want);

    // * wraps around: odd factors
    unsigned p = 3u;
#pragma acc parallel loop reduction(*:p)
    for (i = 0; i < N; i++)
        p *= u[i] | 1u;
    want = 3u;
    for (i = 0; i < N; i++)
        want *= u[i] | 1u;
    check("unsigned *", p, want);

    // max: small values and a few above 2^31 (a signed max picks a small one)
    for (i = 0; i < N; i++)
        usp[i] = hash(i) % 1000u;
    usp[4242] = 0x80000005u;
    usp[N - 5] = 0xfffffff0u;
    unsigned mx = 1u;
#pragma acc parallel loop reduction(max:mx)
    for (i = 0; i < N; i++)
        mx = usp[i] > mx ? usp[i] : mx;
    check("unsigned max", mx, 0xfffffff0u);

    // min: values >= 2^31 and one small one (a signed min picks a big one)
    unsigned mn = UINT_MAX, mn2 = UINT_MAX;
#pragma acc parallel loop reduction(min:mn)
    for (i = 0; i < N; i++)
        if (big[i] < mn)
            mn = big[i];
    want = UINT_MAX;
    for (i = 0; i < N; i++)
        want = big[i] < want ? big[i] : want;
    check("unsigned min big", mn, want);
    big[N / 3] = 77u;
#pragma acc parallel loop reduction(min:mn2)
    for (i = 0; i < N; i++)
        if (big[i] < mn2)
            mn2 = big[i];
    big[N / 3] = 0x80000000u;
    check("unsigned min small", mn2, 77u);

    // & | ^ on the high bit too
    for (i = 0; i < N; i++)
        usp[i] = ~0u;
    usp[3] = ~0x80000000u;
    usp[N - 1] = ~0x00010000u;
    unsigned band = 0xfffffff7u;
#pragma acc parallel loop reduction(&:band)
    for (i = 0; i < N; i++)
        band &= usp[i];
    check("unsigned &", band, 0x7ffefff7u);
    for (i = 0; i < N; i++)
        usp[i] = 0u;
    usp[2] = 0x80000000u;
    usp[N - 1] = 0x00000002u;
    unsigned bor = 0x40000000u;
#pragma acc parallel loop reduction(|:bor)
    for (i = 0; i < N; i++)
        bor |= usp[i];
    check("unsigned |", bor, 0xc0000002u);
    unsigned bx = 0xdeadbeefu;
#pragma acc parallel loop reduction(^:bx)
    for (i = 0; i < N; i++)
        bx ^= u[i];
    want = 0xdeadbeefu;
    for (i = 0; i < N; i++)
        want ^= u[i];
    check("unsigned ^", bx, want);

    // && ||: nonzero values above 2^31 count as true
    unsigned t = 1u, o = 0u;
#pragma acc parallel loop reduction(&&:t)
    for (i = 0; i < N; i++)
        t = t && big[i];
#pragma acc parallel loop reduction(||:o)
    for (i = 0; i < N; i++)
        o = o || usp[i];
    check("unsigned &&", t, 1);
    check("unsigned ||", o, 1);
}

int main(void)
{
    int i;
    for (i = 0; i < N; i++) {
        unsigned h = hash((unsigned)i);
        a[i] = (int)(h % 2001u) - 1000;
        neg[i] = -(int)(h % 100000u) - 5;
        pos[i] = (int)(hash(h) % 100000u) + 3;
        u[i] = hash(h ^ 0x9e3779b9u);
        big[i] = 0x80000000u | (u[i] >> 3);
    }
    for (i = 0; i < M; i++)
        fac[i] = i % 97 == 5 ? 2 : i % 101 == 7 ? -1 : 1;

    test_int();
    test_unsigned();

    printf("%s\n", failures == 0 ? "PASS" : "FAIL");
    return failures != 0;
}
