// Every C integer type inside a compute region: char .. long long, signed and
// unsigned, _Bool and enums; integer promotions, the usual arithmetic
// conversions, unsigned wrap-around, signed/unsigned comparisons, casts,
// sizeof, integer literals of every form, and const/volatile/restrict.
// The program prints checksums; the oracle is the same source built by cc.
#include <stdio.h>

typedef unsigned char u8;
enum colour { RED = -2, GREEN = 5, BLUE = 0x10 };

int main(void)
{
    enum { N = 300 };
    static signed char sc[N];
    static unsigned char uc[N];
    static short ss[N];
    static unsigned short us[N];
    static int si[N];
    static unsigned int ui[N];
    static long sl[N];
    static unsigned long ul[N];
    static long long sll[N];
    static unsigned long long ull[N];
    static _Bool b[N];
    static int cmp[N];
    static long lits[N];
    static unsigned long sizes[N];
    const int bias = -7;
    volatile int vol = 3;
    int *restrict out = si;

#pragma acc parallel loop copyout(sc, uc, ss, us, ui, sl, ul, sll, ull, b, cmp, lits, sizes, si)
    for (int i = 0; i < N; i++) {
        signed char c = (signed char)(i * 37);          // wraps (implementation-defined, gcc: modulo)
        unsigned char u = (u8)(i * 37 + 200);           // wraps modulo 256
        short s = (short)(i * 1000 - 150000);
        unsigned short w = (unsigned short)(i * 700);   // wraps modulo 65536
        unsigned int x = 4000000000u + (unsigned)i * 1000000u; // wraps modulo 2^32
        long l = -3000000000L + (long)i * 123456789L;
        unsigned long ux = 0xFFFFFFFFFFFFFFF0UL + (unsigned long)i;  // wraps
        long long ll = 9000000000000000000LL - (long long)i * 99999999999LL;
        unsigned long long ull_ = 18000000000000000000ULL * (unsigned long long)(i + 1);
        sc[i] = c;
        uc[i] = u + (u8)1;                               // promoted to int, then truncated
        ss[i] = s / 7 + s % 7;
        us[i] = w >> 3 | (unsigned short)(w << 2);
        ui[i] = x * 3u - (unsigned)i;
        sl[i] = l / 11 - l % 11 + (l >> 3);
        ul[i] = ux + 0x20;                               // wraps around to small values
        sll[i] = ll ^ (ll >> 17);
        ull[i] = ull_ + (ull_ >> 1);
        b[i] = (_Bool)(i & 4) + (_Bool)0.5;              // _Bool conversions
        // signed/unsigned comparisons: -1 < 1u is false in C
        int r = 0;
        r |= (-1 < 1u) << 0;
        r |= (-1 < 1L) << 1;
        r |= ((unsigned short)65535 > -1) << 2;          // promoted to int: true
        r |= (i - 150 < (unsigned)i) << 3;
        r |= ((long)(i - 150) < (unsigned)i) << 4;       // long holds all unsigned: signed compare
        r |= (c == (signed char)(i * 37)) << 5;
        r |= (RED + GREEN + BLUE == 19) << 6;
        enum colour col = (enum colour)(i % 3 == 0 ? RED : i % 3 == 1 ? GREEN : BLUE);
        cmp[i] = r + (int)col * 1000 + bias * vol;
        lits[i] = 017 + 0x1F + 0XaL + 10u + 7ll + 'A' + '\n' + '\x41' + '\101' + 0b101 + i;
        sizes[i] = sizeof(char) + 10 * sizeof(short) + 100 * sizeof(int) + 1000 * sizeof(long)
                 + 10000 * sizeof(long long) + 100000 * sizeof(_Bool) + 1000000 * sizeof(float)
                 + 10000000 * sizeof(double) + sizeof(sc[0]) * 3 + sizeof i + sizeof(enum colour);
        out[i] = (int)(unsigned char)(i * 3) - (int)(signed char)(i * 3) + (int)(short)-i;
    }

    long long sum = 0;
    unsigned long long usum = 0;
    for (int i = 0; i < N; i++) {
        sum += sc[i] * 3 + ss[i] + si[i] + sl[i] + sll[i] % 1000003 + cmp[i] + lits[i] + b[i];
        usum += uc[i] + us[i] * 7u + ui[i] + ul[i] + ull[i] + sizes[i];
    }
    printf("sum %lld usum %llu\n", sum, usum);
    printf("%d %u %d %u %u %ld %lu %lld %llu %d %d %ld %lu %d\n", sc[123], uc[123], ss[123], us[123], ui[123],
           sl[123], ul[123], sll[123], ull[123], b[4], cmp[7], lits[9], sizes[0], si[77]);
    printf("PASS\n");
    return 0;
}
