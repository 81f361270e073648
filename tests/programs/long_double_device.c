// tolerance: 1e-12
// `long double` in compute regions (device code computes it in double
// precision, converting the host's 80-bit x87 values when it reads and
// writes them): arrays copied in, computed on and copied out; elements the
// region does not write keep the host's bytes exactly; values exact in
// double come back exact; a firstprivate scalar, a scalar in a data clause,
// a struct member, a routine, the `l` math functions; `long double`
// constants cast to double, as <float.h>'s DBL_MAX and FLT_MAX are
// (`((double)1.79…e+308L)`), compared and computed with in device code.
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define N 1000

struct sample {
    int id;
    long double weight;
    char tag;
};

#pragma acc routine seq
static long double blend(long double a, long double b, long double t)
{
    return a + (b - a) * t;
}

static long double in[N], out[N], keep[N], snapshot[N];
static double lowest[N];

int main(void)
{
    int pass = 1;
    for (int i = 0; i < N; i++) {
        in[i] = (i + 1) / 7.0L;
        out[i] = -1;
        keep[i] = 1.0L / (i + 3); /* not a double: the device must not touch it */
    }
    memcpy(snapshot, keep, sizeof keep);
    long double scale = 2.5L, total = 0.0L;
    struct sample s = { 7, 0.125L, 'x' };

#pragma acc parallel loop copyin(in) copyout(out) copy(keep)
    for (int i = 0; i < N; i++) {
        if (i % 2 == 0)
            out[i] = in[i] * scale + sqrtl(in[i]) - fabsl(-in[i] / 4);
        else
            out[i] = blend(in[i], in[i - 1], 0.25L);
        if (i % 3 == 0)
            keep[i] = keep[i]; /* a round trip through double */
    }
    /* Untouched elements keep their 80-bit values byte for byte; a round
     * trip rounds to double. */
    int same = 1, rounded = 1;
    for (int i = 0; i < N; i++) {
        if (i % 3)
            same &= memcmp(&keep[i], &snapshot[i], 10) == 0;
        else
            rounded &= fabsl(keep[i] - snapshot[i]) <= snapshot[i] * 1e-15L;
    }
    printf("untouched elements keep their bytes %d, round trips %d\n", same, rounded);
    pass &= same && rounded;
    for (int i = 0; i < N; i += 111)
        printf("out[%d] = %.15Le\n", i, out[i]);

    /* Values exact in double come back exact. */
    long double exact[8] = { 0.5L, -3.25L, 0x1p996L, -0.0L, 1024.0L, 0x1p-1074L, 6.0L, 0.0L };
#pragma acc parallel loop copy(exact)
    for (int i = 0; i < 8; i++)
        exact[i] = exact[i] * 2 / 2;
    int ok = exact[0] == 0.5L && exact[1] == -3.25L && exact[2] == 0x1p996L && exact[3] == 0 &&
             signbit(exact[3]) && exact[4] == 1024 && exact[5] == 0x1p-1074L && exact[6] == 6;
    printf("exact values %d\n", ok);
    pass &= ok;

    /* A scalar in a data clause, a struct member, a serial region. */
#pragma acc serial copy(total, s)
    {
        for (int i = 0; i < 10; i++)
            total += i * 0.5L;
        s.weight = s.weight * s.id + total;
        s.id++;
    }
    printf("total %.15Le weight %.15Le id %d tag %c\n", total, s.weight, s.id, s.tag);
    pass &= total == 22.5L && s.weight == 23.375L && s.id == 8 && s.tag == 'x';

    /* The <float.h> limits, long double constants cast to double. */
    int flags[N];
#pragma acc parallel loop copyin(in) copyout(lowest, flags)
    for (int i = 0; i < N; i++) {
        double m = DBL_MAX;
        if ((double)in[i] < m)
            m = (double)in[i];
        lowest[i] = fmin(m, FLT_MAX) + DBL_EPSILON * 0 + DBL_MIN * 0;
        flags[i] = (in[i] * DBL_MAX > FLT_MAX) + 2 * ((double)LDBL_MAX > DBL_MAX) +
                   4 * (-DBL_MAX < -FLT_MAX) + 8 * (1.0 + DBL_EPSILON > 1.0);
    }
    int fl = 1;
    for (int i = 0; i < N; i++)
        fl &= flags[i] == 15 && lowest[i] == (double)in[i];
    printf("limits %d lowest[999] %.15e\n", fl, lowest[N - 1]);
    pass &= fl;

    printf("%s\n", pass ? "PASS" : "FAIL");
    return 0;
}
