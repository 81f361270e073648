/* `long double` read from and written to host memory by device code: the
 * 80-bit x87 values rounded to the nearest double, ties to even, as the
 * host's own conversion does (normal, subnormal in double, beyond
 * DBL_MAX, x87 denormal and pseudo-denormal, infinities, NaN, signed zero),
 * and written back exactly, the 6 padding bytes untouched. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define N 40

void f(int n, long double *ld, double *out, long double *back)
{
#pragma acc serial copyin(ld[0:n]) copyout(out[0:n]) copy(back[0:n])
    for (int i = 0; i < n; i++) {
        out[i] = ld[i];
        back[i] = out[i];
    }
}

#ifdef DEVHOST_MAIN
void KERNEL();

/* An x87 value from its parts, the padding bytes 0xAB. */
static long double x87(uint64_t m, uint16_t se)
{
    long double x;
    memset(&x, 0xAB, sizeof x);
    memcpy(&x, &m, 8);
    memcpy((char *)&x + 8, &se, 2);
    return x;
}

int main(void)
{
    static long double ld[N], back[N];
    static double out[N];
    int n = 0;
    long double v[] = { 1.0L, -2.5L, 1.0L / 3, -0.0L, 0.0L, LDBL_MAX, -LDBL_MAX, LDBL_MIN, DBL_MAX,
                        (long double)DBL_MAX * (1 + 0x1p-54L), (long double)DBL_MAX * (1 + 0x1p-53L),
                        DBL_MIN, DBL_MIN / 3, DBL_TRUE_MIN, DBL_TRUE_MIN / 2,
                        DBL_TRUE_MIN * 0.500001L, DBL_TRUE_MIN * 1.5L, DBL_TRUE_MIN * 2.5L,
                        INFINITY, -INFINITY, 1 + 0x1p-53L, 1 + 0x1p-53L + 0x1p-63L,
                        1 + 3 * 0x1p-53L, 0x1.fffffffffffff8p0L, 0x1.fffffffffffffffep1023L,
                        -1e-310L, 0x1.00000000000008p-1022L, 0x1.ffffffffffffffp-1023L,
                        3.14159265358979323846264L, 123456789.123456789L };
    for (unsigned k = 0; k < sizeof v / sizeof *v; k++)
        ld[n++] = v[k];
    ld[n++] = x87(1, 0);                          /* x87 denormal: rounds to 0 */
    ld[n++] = x87(0x8000000000000000ULL, 0);      /* pseudo-denormal */
    ld[n++] = x87(0x8000000000000000ULL, 0x7fff); /* infinity */
    ld[n++] = x87(0xC000000000000001ULL, 0x7fff); /* quiet NaN */
    ld[n++] = x87(0xC000000000000001ULL, 0xffff); /* negative quiet NaN */
    while (n < N) {
        ld[n] = n * 1.1L;
        n++;
    }
    memset(back, 0xCD, sizeof back);
    KERNEL(KERNEL_ARGS);
    int bad = 0;
    for (int i = 0; i < n; i++) {
        double want = (double)ld[i];
        long double wb = want;
        int nan = isnan(want);
        int ok = memcmp(&out[i], &want, 8) == 0 || (nan && isnan(out[i]) && signbit(out[i]) == signbit(want));
        int okb = memcmp(&back[i], &wb, 10) == 0 || (nan && isnan(back[i]));
        unsigned char pad[6];
        memcpy(pad, (char *)&back[i] + 10, 6);
        int padded = 1;
        for (int k = 0; k < 6; k++)
            padded &= pad[k] == 0xCD;
        if (!ok || !okb || !padded) {
            bad++;
            printf("%d: %La: device %a, host %a; written back %La, padding %s\n", i, ld[i], out[i], want,
                   back[i], padded ? "kept" : "changed");
        }
    }
    printf("%s\n", bad ? "FAIL" : "PASS");
    return bad != 0;
}
#endif
