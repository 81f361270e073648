// flags: -gpu=fastmath
// tolerance: 1e-5 0
// Fast single-precision math on the device (-gpu=fastmath, as nvcc's
// -use_fast_math): x / y, 1 / x, sqrtf, 1 / sqrtf approximate (div.approx,
// rcp.approx, sqrt.approx, rsqrt.approx), denormals flushed, and expf, logf,
// powf, sinf, cosf as libdevice's fast forms. On a GPU each result is within a
// few ulp of the precise one for these arguments (CUDA C++ Programming Guide:
// x / y 2 ulp for |y| in [2^-126, 2^126]; __expf 2 + floor(|1.173 x|) ulp;
// __logf 3 ulp outside [0.5, 2]; __sinf, __cosf 2^-21.41 absolute in [-pi, pi],
// here where |sin|, |cos| > 0.4; no denormal argument or result), so floats are
// compared with 1e-5, each element here and the sums by the harness. double is
// never relaxed: its sum must be exact (the second tolerance, 0). The host
// fallback and the emulated device compute precisely.
#include <math.h>
#include <stdio.h>

#define N 4096

static float x[N], y[N];
static float quo[N], rcp[N], sq[N], rsq[N], ex[N], lg[N], pw[N], sn[N], cs[N];
static double dbl[N];

/* Within 1e-5 of `want`, relatively. */
static int close_to(float got, double want)
{
    return fabs(got - want) <= 1e-5 * fabs(want);
}

int main(void)
{
    for (int i = 0; i < N; i++) {
        x[i] = 0.5f + (float)i / 1024.0f; /* [0.5, 4.5) */
        y[i] = 1.0f + (float)(i % 17) * 0.25f;
    }

#pragma acc parallel loop copyin(x, y) copyout(quo, rcp, sq, rsq, ex, lg, pw, sn, cs, dbl)
    for (int i = 0; i < N; i++) {
        quo[i] = x[i] / y[i];
        rcp[i] = 1.0f / x[i];
        sq[i] = sqrtf(x[i]);
        rsq[i] = 1.0f / sqrtf(x[i]);
        ex[i] = expf(x[i]);
        lg[i] = logf(x[i] + 2.0f);
        pw[i] = powf(x[i], 1.5f);
        sn[i] = sinf(0.5f * x[i] + 0.3f);
        cs[i] = cosf(0.25f * x[i]);
        dbl[i] = (double)x[i] / (double)y[i] + 1.0 / sqrt((double)x[i]);
    }

    const char *names[] = {"quo", "rcp", "sqrt", "rsqrt", "exp", "log", "pow", "sin", "cos"};
    float *got[] = {quo, rcp, sq, rsq, ex, lg, pw, sn, cs};
    int errors = 0;
    for (int k = 0; k < 9; k++) {
        double sum = 0.0;
        for (int i = 0; i < N; i++) {
            double a = x[i];
            double want[] = {a / y[i], 1.0 / a, sqrt(a), 1.0 / sqrt(a), exp(a), log(a + 2.0),
                             pow(a, 1.5), sin(0.5 * a + 0.3), cos(0.25 * a)};
            if (!close_to(got[k][i], want[k])) {
                if (errors < 10)
                    printf("%s[%d] = %.9g, want %.9g\n", names[k], i, got[k][i], want[k]);
                errors++;
            }
            sum += got[k][i];
        }
        printf("%s %.6e\n", names[k], sum);
    }
    double sum = 0.0;
    for (int i = 0; i < N; i++)
        sum += dbl[i];
    printf("double %.15e\n", sum);
    printf("%s\n", errors == 0 ? "PASS" : "FAIL");
    return errors != 0;
}
