// `atomic update` in every C form (OpenACC 3.3 2.12: x++, x--, ++x, --x,
// x binop= expr, x = x binop expr, x = expr binop x) on every arithmetic
// type, every thread of the loop hitting the same location (heavy
// contention). The values are chosen so that the result does not depend on
// the order of the updates: sums of exactly representable numbers,
// multiplications and divisions by -1 (a sign that flips once per update),
// x = c - x (which alternates), and bitwise operations that commute. char
// and short go through their 32-bit word; float and double + are the
// hardware's atomic add, * / and x = c - x compare-and-swap loops.
#include <stdio.h>

#define N 4099

static int failures;

#define INT_FORMS(T, name, fmt)                                              \
    static void test_##name(void)                                           \
    {                                                                       \
        T inc = 0, dec = 100, pre = 0, pred = 0, add = 0, sub = 0;          \
        T mul = 3, dv = 24, band = (T)-1, bor = 0, bxor = 0, sum2 = 0;      \
        T rev = 5, sh = 1, shr = 64;                                        \
        int n = N;                                                          \
        _Pragma("acc parallel loop copy(inc, dec, pre, pred, add, sub, mul, dv, band, bor, bxor, sum2, rev, sh, shr)") \
        for (int i = 0; i < n; i++) {                                       \
            _Pragma("acc atomic update")                                    \
            inc++;                                                          \
            _Pragma("acc atomic update")                                    \
            dec--;                                                          \
            _Pragma("acc atomic update")                                    \
            ++pre;                                                          \
            _Pragma("acc atomic update")                                    \
            --pred;                                                         \
            _Pragma("acc atomic")                                           \
            add += (T)(i % 3);                                              \
            _Pragma("acc atomic")                                           \
            sub -= (T)(i % 2);                                              \
            _Pragma("acc atomic")                                           \
            mul *= (T)-1;                                                   \
            _Pragma("acc atomic")                                           \
            dv /= (T)-1;                                                    \
            _Pragma("acc atomic")                                           \
            band &= (T)~(1 << (i % 5));                                     \
            _Pragma("acc atomic")                                           \
            bor |= (T)(1 << (i % 6));                                       \
            _Pragma("acc atomic")                                           \
            bxor ^= (T)(1 << (i % 4));                                      \
            _Pragma("acc atomic update")                                    \
            sum2 = sum2 + (T)1;                                             \
            _Pragma("acc atomic update")                                    \
            rev = (T)7 - rev;                                               \
            _Pragma("acc atomic update")                                    \
            sh = sh << (i == 0);                                            \
            _Pragma("acc atomic update")                                    \
            shr >>= (i == 1);                                              \
        }                                                                   \
        {                                                                   \
            T e[15] = { 0, 100, 0, 0, 0, 0, 3, 24, (T)-1, 0, 0, 0, 5, 1, 64 }; \
            for (int i = 0; i < n; i++) {                                   \
                e[0]++; e[1]--; ++e[2]; --e[3]; e[4] += (T)(i % 3);         \
                e[5] -= (T)(i % 2); e[6] *= (T)-1; e[7] /= (T)-1;           \
                e[8] &= (T)~(1 << (i % 5)); e[9] |= (T)(1 << (i % 6));      \
                e[10] ^= (T)(1 << (i % 4)); e[11] = e[11] + (T)1;           \
                e[12] = (T)7 - e[12]; e[13] = e[13] << (i == 0);            \
                e[14] >>= (i == 1);                                         \
            }                                                               \
            T got[15] = { inc, dec, pre, pred, add, sub, mul, dv, band, bor, \
                          bxor, sum2, rev, sh, shr };                       \
            for (int k = 0; k < 15; k++)                                    \
                failures += got[k] != e[k];                                 \
        }                                                                   \
        printf(#name ": " fmt " " fmt " " fmt " " fmt " " fmt " " fmt " " fmt " " fmt "\n", \
               inc, dec, pre, pred, add, sub, mul, dv);                    \
        printf(#name ": " fmt " " fmt " " fmt " " fmt " " fmt " " fmt " " fmt "\n", band, bor, \
               bxor, sum2, rev, sh, shr);                                   \
    }

#define FLOAT_FORMS(T, name)                                                 \
    static void test_##name(void)                                           \
    {                                                                       \
        T inc = 0, dec = 100, add = 0, sub = 0, mul = 3, dv = 24, sum2 = 0; \
        T rev = 5, swp = 0;                                                 \
        int n = N;                                                          \
        _Pragma("acc parallel loop copy(inc, dec, add, sub, mul, dv, sum2, rev, swp)") \
        for (int i = 0; i < n; i++) {                                       \
            _Pragma("acc atomic update")                                    \
            inc++;                                                          \
            _Pragma("acc atomic update")                                    \
            --dec;                                                          \
            _Pragma("acc atomic")                                           \
            add += (T)(i % 4) * (T)0.25;                                    \
            _Pragma("acc atomic")                                           \
            sub -= 0.5f;                                                    \
            _Pragma("acc atomic")                                           \
            mul *= (T)-1;                                                   \
            _Pragma("acc atomic")                                           \
            dv /= -1;                                                       \
            _Pragma("acc atomic update")                                    \
            sum2 = (T)2 + sum2;                                             \
            _Pragma("acc atomic update")                                    \
            rev = (T)7 - rev;                                               \
            _Pragma("acc atomic update")                                    \
            swp = swp + 1.5;                                                \
        }                                                                   \
        {                                                                   \
            T e[9] = { 0, 100, 0, 0, 3, 24, 0, 5, 0 };                      \
            for (int i = 0; i < n; i++) {                                   \
                e[0]++; --e[1]; e[2] += (T)(i % 4) * (T)0.25; e[3] -= 0.5f; \
                e[4] *= (T)-1; e[5] /= -1; e[6] = (T)2 + e[6];              \
                e[7] = (T)7 - e[7]; e[8] = e[8] + 1.5;                      \
            }                                                               \
            T got[9] = { inc, dec, add, sub, mul, dv, sum2, rev, swp };     \
            for (int k = 0; k < 9; k++)                                     \
                failures += got[k] != e[k];                                 \
        }                                                                   \
        printf(#name ": %.2f %.2f %.2f %.2f %.2f %.2f %.2f %.2f %.2f\n",  \
               (double)inc, (double)dec, (double)add, (double)sub, (double)mul, \
               (double)dv, (double)sum2, (double)rev, (double)swp);         \
    }

INT_FORMS(signed char, schar, "%d")
INT_FORMS(unsigned char, uchar, "%u")
INT_FORMS(short, short, "%d")
INT_FORMS(unsigned short, ushort, "%u")
INT_FORMS(int, int, "%d")
INT_FORMS(unsigned, unsigned, "%u")
INT_FORMS(long, long, "%ld")
INT_FORMS(long long, llong, "%lld")
INT_FORMS(unsigned long long, ullong, "%llu")
FLOAT_FORMS(float, float)
FLOAT_FORMS(double, double)

int main(void)
{
    test_schar();
    test_uchar();
    test_short();
    test_ushort();
    test_int();
    test_unsigned();
    test_long();
    test_llong();
    test_ullong();
    test_float();
    test_double();
    printf("%s\n", failures ? "FAIL" : "PASS");
    return 0;
}
