// Reduction operators on the 64-bit integer types long, unsigned long,
// long long and unsigned long long (OpenACC 3.3 2.5.15 and 2.9.11): + * max
// min & | ^ && ||, each in its own `parallel loop reduction(op:var)`, some
// with an explicit copy(var), some relying on the implied copy. The values
// need all 64 bits: sums beyond 2^32, max/min over values that differ only
// above bit 31 (a 32-bit comparison or a truncated private copy gives a wrong
// answer), & | ^ on bits 32..63, && || over values whose low 32 bits are 0
// (true all the same). Signed `*` stays below 2^62 (factors 1 2 3 -1);
// unsigned `*` and `+` wrap around (the same in any order).
#include <stdio.h>
#include <limits.h>

#define N 1000003
#define M 777

static long la[N];
static unsigned long ula[N];
static long long lla[N];
static unsigned long long ulla[N];
static long lfac[M];
static long long llfac[M];
static long lsp[N];
static unsigned long long usp[N];

static int failures;

static void check(const char *what, long long got, long long want)
{
    printf("%s %lld\n", what, got);
    if (got != want) {
        failures++;
        fprintf(stderr, "%s: got %lld, want %lld\n", what, got, want);
    }
}

static void checku(const char *what, unsigned long long got, unsigned long long want)
{
    printf("%s %llu\n", what, got);
    if (got != want) {
        failures++;
        fprintf(stderr, "%s: got %llu, want %llu\n", what, got, want);
    }
}

static unsigned long long hash64(unsigned long long x)
{
    x ^= x >> 31;
    x *= 0x7fb5d329728ea185ULL;
    x ^= x >> 27;
    x *= 0x81dadef4bc2dd44dULL;
    x ^= x >> 33;
    return x;
}

static void test_long(void)
{
    int i;
    long want;
    long s = 1L << 50;
#pragma acc parallel loop reduction(+:s)
    for (i = 0; i < N; i++)
        s += la[i];
    want = 1L << 50;
    for (i = 0; i < N; i++)
        want += la[i];
    check("long +", s, want);

    long p = -5;
#pragma acc parallel loop reduction(*:p) copy(p) copyin(lfac)
    for (i = 0; i < M; i++)
        p *= lfac[i];
    want = -5;
    for (i = 0; i < M; i++)
        want *= lfac[i];
    check("long *", p, want);

    // max of values in [-2^41, -2^40): only the high half tells them apart
    long mx = LONG_MIN + 1;
#pragma acc parallel loop reduction(max:mx)
    for (i = 0; i < N; i++)
        mx = lsp[i] > mx ? lsp[i] : mx;
    want = LONG_MIN + 1;
    for (i = 0; i < N; i++)
        want = lsp[i] > want ? lsp[i] : want;
    check("long max", mx, want);

    long mn = LONG_MAX - 1;
#pragma acc parallel loop reduction(min:mn)
    for (i = 0; i < N; i++)
        if (-lsp[i] < mn)
            mn = -lsp[i];
    check("long min", mn, -want);

    long band = -1L, bor = 1L << 33, bx = 0x123456789abL;
    for (i = 0; i < N; i++)
        lsp[i] = -1L;
    lsp[11] = ~(1L << 40);
    lsp[N - 1] = ~(1L << 62);
    lsp[500001] = ~(1L << 5);
#pragma acc parallel loop reduction(&:band)
    for (i = 0; i < N; i++)
        band &= lsp[i];
    check("long &", band, ~((1L << 40) | (1L << 62) | (1L << 5)));
    for (i = 0; i < N; i++)
        lsp[i] = 0;
    lsp[13] = LONG_MIN;
    lsp[N - 2] = 1L << 47;
#pragma acc parallel loop reduction(|:bor)
    for (i = 0; i < N; i++)
        bor |= lsp[i];
    check("long |", bor, LONG_MIN | (1L << 47) | (1L << 33));
#pragma acc parallel loop reduction(^:bx)
    for (i = 0; i < N; i++)
        bx ^= la[i];
    want = 0x123456789abL;
    for (i = 0; i < N; i++)
        want ^= la[i];
    check("long ^", bx, want);

    // &&/||: 1L << 40 is true although its low 32 bits are 0
    for (i = 0; i < N; i++)
        lsp[i] = 1L << 40;
    long t = 1, o = 0;
#pragma acc parallel loop reduction(&&:t)
    for (i = 0; i < N; i++)
        t = t && lsp[i];
    for (i = 0; i < N; i++)
        lsp[i] = 0;
    lsp[N - 1] = 1L << 40;
#pragma acc parallel loop reduction(||:o)
    for (i = 0; i < N; i++)
        o = o || lsp[i];
    check("long &&", t, 1);
    check("long ||", o, 1);
}

static void test_unsigned_long(void)
{
    int i;
    unsigned long want;
    unsigned long s = ~0UL - 12345;
#pragma acc parallel loop reduction(+:s)
    for (i = 0; i < N; i++)
        s += ula[i];
    want = ~0UL - 12345;
    for (i = 0; i < N; i++)
        want += ula[i];
    checku("unsigned long +", s, want);

    unsigned long p = 7;
#pragma acc parallel loop reduction(*:p)
    for (i = 0; i < N; i++)
        p *= ula[i] | 1UL;
    want = 7;
    for (i = 0; i < N; i++)
        want *= ula[i] | 1UL;
    checku("unsigned long *", p, want);

    // max/min: values with and without bit 63 (a signed compare goes wrong)
    unsigned long mx = 0, mn = ~0UL;
#pragma acc parallel loop reduction(max:mx)
    for (i = 0; i < N; i++)
        if (ula[i] > mx)
            mx = ula[i];
#pragma acc parallel loop reduction(min:mn)
    for (i = 0; i < N; i++)
        mn = ula[i] < mn ? ula[i] : mn;
    unsigned long wmx = 0, wmn = ~0UL;
    for (i = 0; i < N; i++) {
        wmx = ula[i] > wmx ? ula[i] : wmx;
        wmn = ula[i] < wmn ? ula[i] : wmn;
    }
    checku("unsigned long max", mx, wmx);
    checku("unsigned long min", mn, wmn);

    unsigned long band = ~0UL, bor = 0, bx = 0;
#pragma acc parallel loop reduction(&:band) reduction(|:bor)
    for (i = 0; i < N; i++) {
        band &= ula[i] | 0x00ff00ff00ff00ffUL;
        bor |= ula[i] & 0xf000000000000001UL;
    }
#pragma acc parallel loop reduction(^:bx)
    for (i = 0; i < N; i++)
        bx ^= ula[i];
    unsigned long wand = ~0UL, wor = 0, wx = 0;
    for (i = 0; i < N; i++) {
        wand &= ula[i] | 0x00ff00ff00ff00ffUL;
        wor |= ula[i] & 0xf000000000000001UL;
        wx ^= ula[i];
    }
    checku("unsigned long &", band, wand);
    checku("unsigned long |", bor, wor);
    checku("unsigned long ^", bx, wx);

    unsigned long t = 1, o = 0;
#pragma acc parallel loop reduction(&&:t)
    for (i = 0; i < N; i++)
        t = t && (ula[i] | (1UL << 63));
#pragma acc parallel loop reduction(||:o)
    for (i = 0; i < N; i++)
        o = o || (ula[i] & (1UL << 63));
    checku("unsigned long &&", t, 1);
    checku("unsigned long ||", o, 1);
}

static void test_long_long(void)
{
    int i;
    long long want;
    long long s = -(1LL << 52);
#pragma acc parallel loop reduction(+:s)
    for (i = 0; i < N; i++)
        s += lla[i] / (1LL << 19);
    want = -(1LL << 52);
    for (i = 0; i < N; i++)
        want += lla[i] / (1LL << 19);
    check("long long +", s, want);

    long long p = 3;
#pragma acc parallel loop reduction(*:p)
    for (i = 0; i < M; i++)
        p *= llfac[i];
    want = 3;
    for (i = 0; i < M; i++)
        want *= llfac[i];
    check("long long *", p, want);

    long long mx = LLONG_MIN, mn = LLONG_MAX;
#pragma acc parallel loop reduction(max:mx) copy(mx)
    for (i = 0; i < N; i++)
        mx = mx > lla[i] - (1LL << 61) ? mx : lla[i] - (1LL << 61);
#pragma acc parallel loop reduction(min:mn)
    for (i = 0; i < N; i++)
        mn = mn < lla[i] + (1LL << 61) ? mn : lla[i] + (1LL << 61);
    long long wmx = LLONG_MIN, wmn = LLONG_MAX;
    for (i = 0; i < N; i++) {
        long long lo = lla[i] - (1LL << 61), hi = lla[i] + (1LL << 61);
        wmx = lo > wmx ? lo : wmx;
        wmn = hi < wmn ? hi : wmn;
    }
    check("long long max", mx, wmx);
    check("long long min", mn, wmn);

    long long band = -1, bor = 0, bx = -1;
#pragma acc parallel loop reduction(&:band)
    for (i = 0; i < N; i++)
        band &= lla[i] | ~(0xffLL << 48);
#pragma acc parallel loop reduction(|:bor)
    for (i = 0; i < N; i++)
        bor |= lla[i] & (0x3LL << 44);
#pragma acc parallel loop reduction(^:bx)
    for (i = 0; i < N; i++)
        bx ^= lla[i];
    long long wand = -1, wor = 0, wx = -1;
    for (i = 0; i < N; i++) {
        wand &= lla[i] | ~(0xffLL << 48);
        wor |= lla[i] & (0x3LL << 44);
        wx ^= lla[i];
    }
    check("long long &", band, wand);
    check("long long |", bor, wor);
    check("long long ^", bx, wx);

    // ||: true at one element near the end only
    long long t = 1, o = 0, key = lla[N - 7];
#pragma acc parallel loop reduction(&&:t)
    for (i = 0; i < N; i++)
        t = t && (lla[i] & 0x7fffffff00000000LL);
#pragma acc parallel loop reduction(||:o)
    for (i = 0; i < N; i++)
        o = o || lla[i] == key;
    long long wt = 1;
    for (i = 0; i < N; i++)
        wt = wt && (lla[i] & 0x7fffffff00000000LL);
    check("long long &&", t, wt);
    check("long long ||", o, 1);
}

static void test_unsigned_long_long(void)
{
    int i;
    unsigned long long want;
    unsigned long long s = 0xfedcba9876543210ULL;
#pragma acc parallel loop reduction(+:s) copy(s)
    for (i = 0; i < N; i++)
        s += ulla[i];
    want = 0xfedcba9876543210ULL;
    for (i = 0; i < N; i++)
        want += ulla[i];
    checku("unsigned long long +", s, want);

    unsigned long long p = 0x9e3779b97f4a7c15ULL;
#pragma acc parallel loop reduction(*:p)
    for (i = 0; i < N; i++)
        p *= ulla[i] | 1ULL;
    want = 0x9e3779b97f4a7c15ULL;
    for (i = 0; i < N; i++)
        want *= ulla[i] | 1ULL;
    checku("unsigned long long *", p, want);

    // max over values below 2^63 but one; min over values above but one
    for (i = 0; i < N; i++)
        usp[i] = ulla[i] >> 1;
    usp[777777] = 0x8000000000000000ULL;
    unsigned long long mx = 1;
#pragma acc parallel loop reduction(max:mx)
    for (i = 0; i < N; i++)
        mx = usp[i] > mx ? usp[i] : mx;
    checku("unsigned long long max", mx, 0x8000000000000000ULL);
    for (i = 0; i < N; i++)
        usp[i] = ulla[i] | 0x8000000000000000ULL;
    usp[N - 1] = 0x7fffffffffffffffULL;
    unsigned long long mn = ~0ULL;
#pragma acc parallel loop reduction(min:mn)
    for (i = 0; i < N; i++)
        mn = usp[i] < mn ? usp[i] : mn;
    checku("unsigned long long min", mn, 0x7fffffffffffffffULL);

    unsigned long long band = ~0ULL, bor = 1, bx = 0;
#pragma acc parallel loop reduction(&:band)
    for (i = 0; i < N; i++)
        band &= ulla[i] | 0x7fffffffffffffffULL;
#pragma acc parallel loop reduction(|:bor)
    for (i = 0; i < N; i++)
        bor |= ulla[i] & 0x8000000100000000ULL;
#pragma acc parallel loop reduction(^:bx)
    for (i = 0; i < N; i++)
        bx ^= ulla[i];
    unsigned long long wand = ~0ULL, wor = 1, wx = 0;
    for (i = 0; i < N; i++) {
        wand &= ulla[i] | 0x7fffffffffffffffULL;
        wor |= ulla[i] & 0x8000000100000000ULL;
        wx ^= ulla[i];
    }
    checku("unsigned long long &", band, wand);
    checku("unsigned long long |", bor, wor);
    checku("unsigned long long ^", bx, wx);

    unsigned long long t = 1, o = 1;
#pragma acc parallel loop reduction(&&:t)
    for (i = 0; i < N; i++)
        t = t && ulla[i] > 1000;
#pragma acc parallel loop reduction(||:o)
    for (i = 0; i < N; i++)
        o = o || ulla[i] == 0;
    checku("unsigned long long &&", t, 1);
    checku("unsigned long long || original", o, 1);
}

int main(void)
{
    int i;
    for (i = 0; i < N; i++) {
        unsigned long long h = hash64((unsigned long long)i + 1);
        la[i] = (long)(h % (1ULL << 41)) - (1L << 40);
        ula[i] = (unsigned long)hash64(h);
        lla[i] = (long long)(hash64(h + 3) >> 2) - (1LL << 61);
        ulla[i] = hash64(h ^ 0xabcdefULL) | 0x10000ULL;
        lsp[i] = -(1L << 40) - (long)(h % (1ULL << 40));
    }
    for (i = 0; i < M; i++) {
        lfac[i] = i % 29 == 3 ? 2 : i % 97 == 5 ? 3 : i % 101 == 7 ? -1 : 1;
        llfac[i] = i % 31 == 1 ? -2 : i % 89 == 4 ? 3 : 1;
    }

    test_long();
    test_unsigned_long();
    test_long_long();
    test_unsigned_long_long();

    printf("%s\n", failures == 0 ? "PASS" : "FAIL");
    return failures != 0;
}
