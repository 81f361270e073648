// <float.h>'s limits in device code: glibc spells DBL_MAX, DBL_MIN and
// DBL_EPSILON as `long double` constants cast to double
// (`((double)1.79769313486231570814527423731704357e+308L)`), FLT_MAX as a
// float constant; HUGE_VAL, INFINITY and NAN are GCC builtins
// (`__builtin_huge_val ()`, `__builtin_inff ()`, `__builtin_nanf ("")`).
// A minimum search
// seeded with DBL_MAX (the idiom of real codes), clamping with FLT_MAX, and
// comparisons with DBL_MIN and DBL_EPSILON; nothing here is long double
// arithmetic, only the constants.
#include <float.h>
#include <math.h>
#include <stdio.h>

#define N 4096

static double x[N], lo[64];
static float f[N];

int main(void)
{
    for (int i = 0; i < N; i++) {
        x[i] = 1.0 + ((i * 7919) % N) * 0.5;
        f[i] = (float)x[i];
    }
    x[1234] = 0.25;
    double best = DBL_MAX, tiny = 0, top = 0;
    int small = 0;
#pragma acc parallel loop reduction(min:best) reduction(+:small) copyin(x)
    for (int i = 0; i < N; i++) {
        double v = x[i] > DBL_MAX / 2 ? DBL_MAX : x[i];
        best = fmin(best, v);
        small += x[i] * DBL_EPSILON < 1e-15 && x[i] > DBL_MIN;
    }
#pragma acc parallel loop copyin(x) copy(lo, f)
    for (int g = 0; g < 64; g++) {
        double m = DBL_MAX;
        for (int k = 0; k < N / 64; k++)
            m = x[g * (N / 64) + k] < m ? x[g * (N / 64) + k] : m;
        lo[g] = m;
        f[g] = f[g] * 1e30f > FLT_MAX ? FLT_MAX : f[g] * 1e30f;
    }
#pragma acc serial copy(tiny, top) copyin(x)
    {
        tiny = DBL_MIN / 4 + (-DBL_MAX < -FLT_MAX) + (1.0 + DBL_EPSILON / 4 == 1.0);
        double h = -INFINITY;
        for (int i = 0; i < N; i++)
            h = x[i] > h ? x[i] : h;
        top = h + (HUGE_VAL > DBL_MAX) + (NAN != NAN) + (INFINITY == HUGE_VALF);
    }
    printf("best %.15e small %d tiny %.15e top %.15e\n", best, small, tiny, top);
    for (int g = 0; g < 64; g += 9)
        printf("lo[%d] %.15e f[%d] %.6e\n", g, lo[g], g, (double)f[g]);
    int want = 0;
    for (int i = 0; i < N; i++)
        want += x[i] * DBL_EPSILON < 1e-15 && x[i] > DBL_MIN;
    int pass = best == 0.25 && small == want && want > 0 && tiny == 2.0 + DBL_MIN / 4 &&
               top == 3 + (1.0 + (N - 1) * 0.5);
    for (int g = 0; g < 64; g++)
        pass &= lo[g] >= 0.25 && (f[g] == FLT_MAX || f[g] < FLT_MAX);
    printf("%s\n", pass ? "PASS" : "FAIL");
    return 0;
}
