// Reductions on the small integer types: signed char, unsigned char, plain
// char, short and unsigned short (OpenACC 3.3 2.5.15: every C integer type
// takes + * max min & | ^ && ||). The reduction statements compute in int
// (C's promotions) and store back into the small type, as the program says.
// Sums and products of the unsigned types wrap around (mod 2^8 / 2^16, the same
// in any order); signed sums and products stay in range for every order of
// the partial results. max over all-negative signed values (private copies
// must start at SCHAR_MIN/SHRT_MIN, not 0), max/min over unsigned values of
// 128 and more (a signed comparison gets them wrong), & | ^ on the top bit.
// Plain char (signedness is the target's) only with values 0..127.
#include <stdio.h>
#include <limits.h>

#define N 1000003
#define S 100

static signed char sc[N];      // [-100, -3]
static unsigned char uc[N];    // any 0..255
static char pc[N];             // 0..127
static short ss[N];            // [-30000, -7]
static unsigned short us[N];   // any 0..65535
static signed char tri[S];     // -1 0 1: every partial sum within +-100
static short small[S];         // [-300, 300]: every partial sum within +-30000
static signed char cfac[S];    // 1, -1, four 2s
static short sfac[S];          // 1, -1, ten 2s

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

static void test_signed_char(void)
{
    int i;
    signed char s = 20, p = -1, mx = SCHAR_MIN, mn = 0, band = -1, bor = 0, bx = 0x11, t = 1, o = 0;
#pragma acc parallel loop reduction(+:s)
    for (i = 0; i < S; i++)
        s += tri[i];
#pragma acc parallel loop reduction(*:p)
    for (i = 0; i < S; i++)
        p *= cfac[i];
#pragma acc parallel loop reduction(max:mx)
    for (i = 0; i < N; i++)
        mx = sc[i] > mx ? sc[i] : mx;
#pragma acc parallel loop reduction(min:mn)
    for (i = 0; i < N; i++)
        mn = sc[i] < mn ? sc[i] : mn;
#pragma acc parallel loop reduction(&:band)
    for (i = 0; i < N; i++)
        band &= sc[i];
#pragma acc parallel loop reduction(|:bor)
    for (i = 0; i < N; i++)
        bor |= sc[i] & 0x41;
#pragma acc parallel loop reduction(^:bx)
    for (i = 0; i < N; i++)
        bx ^= sc[i];
#pragma acc parallel loop reduction(&&:t)
    for (i = 0; i < N; i++)
        t = t && sc[i];
#pragma acc parallel loop reduction(||:o)
    for (i = 0; i < N; i++)
        o = o || sc[i] == -100;

    signed char ws = 20, wp = -1, wmx = SCHAR_MIN, wmn = 0, wand = -1, wor = 0, wx = 0x11, wo = 0;
    for (i = 0; i < S; i++) {
        ws += tri[i];
        wp *= cfac[i];
    }
    for (i = 0; i < N; i++) {
        wmx = sc[i] > wmx ? sc[i] : wmx;
        wmn = sc[i] < wmn ? sc[i] : wmn;
        wand &= sc[i];
        wor |= sc[i] & 0x41;
        wx ^= sc[i];
        wo = wo || sc[i] == -100;
    }
    check("signed char +", s, ws);
    check("signed char *", p, wp);
    check("signed char max", mx, wmx);
    check("signed char min", mn, wmn);
    check("signed char &", band, wand);
    check("signed char |", bor, wor);
    check("signed char ^", bx, wx);
    check("signed char &&", t, 1);
    check("signed char ||", o, wo);
}

static void test_unsigned_char(void)
{
    int i;
    unsigned char s = 250, p = 3, mx = 0, mn = 255, band = 0xff, bor = 0, bx = 0, t = 1, o = 0;
#pragma acc parallel loop reduction(+:s)
    for (i = 0; i < N; i++)
        s += uc[i];
#pragma acc parallel loop reduction(*:p)
    for (i = 0; i < N; i++)
        p *= uc[i] | 1;
#pragma acc parallel loop reduction(max:mx)
    for (i = 0; i < N; i++)
        if (uc[i] > mx)
            mx = uc[i];
#pragma acc parallel loop reduction(min:mn)
    for (i = 0; i < N; i++)
        if ((unsigned char)(uc[i] | 0x80) < mn)
            mn = uc[i] | 0x80;
#pragma acc parallel loop reduction(&:band)
    for (i = 0; i < N; i++)
        band &= uc[i] | 0x7f;
#pragma acc parallel loop reduction(|:bor)
    for (i = 0; i < N; i++)
        bor |= uc[i] & 0x81;
#pragma acc parallel loop reduction(^:bx)
    for (i = 0; i < N; i++)
        bx ^= uc[i];
#pragma acc parallel loop reduction(&&:t)
    for (i = 0; i < N; i++)
        t = t && (uc[i] | 0x80);
#pragma acc parallel loop reduction(||:o)
    for (i = 0; i < N; i++)
        o = o || uc[i] == 255;

    unsigned char ws = 250, wp = 3, wmx = 0, wmn = 255, wand = 0xff, wor = 0, wx = 0, wo = 0;
    for (i = 0; i < N; i++) {
        ws += uc[i];
        wp *= uc[i] | 1;
        wmx = uc[i] > wmx ? uc[i] : wmx;
        wmn = (unsigned char)(uc[i] | 0x80) < wmn ? uc[i] | 0x80 : wmn;
        wand &= uc[i] | 0x7f;
        wor |= uc[i] & 0x81;
        wx ^= uc[i];
        wo = wo || uc[i] == 255;
    }
    check("unsigned char +", s, ws);
    check("unsigned char *", p, wp);
    check("unsigned char max", mx, wmx);
    check("unsigned char min", mn, wmn);
    check("unsigned char &", band, wand);
    check("unsigned char |", bor, wor);
    check("unsigned char ^", bx, wx);
    check("unsigned char &&", t, 1);
    check("unsigned char ||", o, wo);
}

static void test_plain_char(void)
{
    int i;
    char bor = 0, bx = 'A', band = 0x7f, mx = 0, mn = 127;
#pragma acc parallel loop reduction(|:bor) reduction(^:bx)
    for (i = 0; i < N; i++) {
        bor |= pc[i] & 0x61;
        bx ^= pc[i];
    }
#pragma acc parallel loop reduction(&:band) reduction(max:mx) reduction(min:mn)
    for (i = 0; i < N; i++) {
        band &= pc[i] | 0x3c;
        mx = pc[i] > mx ? pc[i] : mx;
        mn = pc[i] < mn ? pc[i] : mn;
    }
    char wor = 0, wx = 'A', wand = 0x7f, wmx = 0, wmn = 127;
    for (i = 0; i < N; i++) {
        wor |= pc[i] & 0x61;
        wx ^= pc[i];
        wand &= pc[i] | 0x3c;
        wmx = pc[i] > wmx ? pc[i] : wmx;
        wmn = pc[i] < wmn ? pc[i] : wmn;
    }
    check("char |", bor, wor);
    check("char ^", bx, wx);
    check("char &", band, wand);
    check("char max", mx, wmx);
    check("char min", mn, wmn);
}

static void test_short(void)
{
    int i;
    short s = -1000, p = 1, mx = SHRT_MIN, mn = SHRT_MAX, band = -1, bor = 0, bx = 0x7777, t = 1, o = 0;
#pragma acc parallel loop reduction(+:s)
    for (i = 0; i < S; i++)
        s += small[i];
#pragma acc parallel loop reduction(*:p)
    for (i = 0; i < S; i++)
        p *= sfac[i];
#pragma acc parallel loop reduction(max:mx)
    for (i = 0; i < N; i++)
        mx = ss[i] > mx ? ss[i] : mx;
#pragma acc parallel loop reduction(min:mn)
    for (i = 0; i < N; i++)
        mn = -ss[i] < mn ? -ss[i] : mn;
#pragma acc parallel loop reduction(&:band)
    for (i = 0; i < N; i++)
        band &= ss[i] | 0x00f0;
#pragma acc parallel loop reduction(|:bor)
    for (i = 0; i < N; i++)
        bor |= ss[i] & 0x0f0f;
#pragma acc parallel loop reduction(^:bx)
    for (i = 0; i < N; i++)
        bx ^= ss[i];
#pragma acc parallel loop reduction(&&:t)
    for (i = 0; i < N; i++)
        t = t && ss[i];
#pragma acc parallel loop reduction(||:o)
    for (i = 0; i < N; i++)
        o = o || ss[i] > 0;

    short ws = -1000, wp = 1, wmx = SHRT_MIN, wmn = SHRT_MAX, wand = -1, wor = 0, wx = 0x7777;
    for (i = 0; i < S; i++) {
        ws += small[i];
        wp *= sfac[i];
    }
    for (i = 0; i < N; i++) {
        wmx = ss[i] > wmx ? ss[i] : wmx;
        wmn = -ss[i] < wmn ? -ss[i] : wmn;
        wand &= ss[i] | 0x00f0;
        wor |= ss[i] & 0x0f0f;
        wx ^= ss[i];
    }
    check("short +", s, ws);
    check("short *", p, wp);
    check("short max", mx, wmx);
    check("short min", mn, wmn);
    check("short &", band, wand);
    check("short |", bor, wor);
    check("short ^", bx, wx);
    check("short &&", t, 1);
    check("short ||", o, 0);
}

static void test_unsigned_short(void)
{
    int i;
    unsigned short s = 65000, p = 5, mx = 0, mn = 65535, band = 0xffff, bor = 0, bx = 0, t = 1, o = 0;
#pragma acc parallel loop reduction(+:s)
    for (i = 0; i < N; i++)
        s += us[i];
#pragma acc parallel loop reduction(*:p)
    for (i = 0; i < N; i++)
        p *= us[i] | 1;
#pragma acc parallel loop reduction(max:mx)
    for (i = 0; i < N; i++)
        mx = us[i] > mx ? us[i] : mx;
#pragma acc parallel loop reduction(min:mn)
    for (i = 0; i < N; i++)
        mn = (unsigned short)(us[i] | 0x8000) < mn ? us[i] | 0x8000 : mn;
#pragma acc parallel loop reduction(&:band)
    for (i = 0; i < N; i++)
        band &= us[i] | 0x7ffe;
#pragma acc parallel loop reduction(|:bor)
    for (i = 0; i < N; i++)
        bor |= us[i] & 0x8001;
#pragma acc parallel loop reduction(^:bx)
    for (i = 0; i < N; i++)
        bx ^= us[i];
#pragma acc parallel loop reduction(&&:t)
    for (i = 0; i < N; i++)
        t = t && (us[i] | 0x8000);
#pragma acc parallel loop reduction(||:o)
    for (i = 0; i < N; i++)
        o = o || us[i] == 0xffff;

    unsigned short ws = 65000, wp = 5, wmx = 0, wmn = 65535, wand = 0xffff, wor = 0, wx = 0, wo = 0;
    for (i = 0; i < N; i++) {
        ws += us[i];
        wp *= us[i] | 1;
        wmx = us[i] > wmx ? us[i] : wmx;
        wmn = (unsigned short)(us[i] | 0x8000) < wmn ? us[i] | 0x8000 : wmn;
        wand &= us[i] | 0x7ffe;
        wor |= us[i] & 0x8001;
        wx ^= us[i];
        wo = wo || us[i] == 0xffff;
    }
    check("unsigned short +", s, ws);
    check("unsigned short *", p, wp);
    check("unsigned short max", mx, wmx);
    check("unsigned short min", mn, wmn);
    check("unsigned short &", band, wand);
    check("unsigned short |", bor, wor);
    check("unsigned short ^", bx, wx);
    check("unsigned short &&", t, 1);
    check("unsigned short ||", o, wo);
}

int main(void)
{
    int i;
    for (i = 0; i < N; i++) {
        unsigned h = hash((unsigned)i * 3u + 1u);
        sc[i] = (signed char)(-3 - (int)(h % 98u));
        uc[i] = (unsigned char)(h >> 8);
        pc[i] = (char)((h >> 16) & 0x7f);
        ss[i] = (short)(-7 - (int)(h % 29994u));
        us[i] = (unsigned short)(h >> 13);
    }
    for (i = 0; i < S; i++) {
        unsigned h = hash((unsigned)i + 99u);
        tri[i] = (signed char)((int)(h % 3u) - 1);
        small[i] = (short)((int)(h % 601u) - 300);
        cfac[i] = (signed char)(i % 23 == 4 ? 2 : i % 17 == 2 ? -1 : 1);
        sfac[i] = (short)(i % 10 == 6 ? 2 : i % 13 == 1 ? -1 : 1);
    }

    test_signed_char();
    test_unsigned_char();
    test_plain_char();
    test_short();
    test_unsigned_short();

    printf("%s\n", failures == 0 ? "PASS" : "FAIL");
    return failures != 0;
}
