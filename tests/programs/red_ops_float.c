// tolerance: 1e-5 1e-9
// Reductions on float and double (OpenACC 3.3 2.5.15: + * max min && || are
// the operators for floating types). Most sums and products use values whose
// partial results are exact in every order (multiples of 1/8 far below 2^24,
// powers of two and a few 3/2s), so their results are exact on any device;
// the others (arbitrary values) are checked with a relative tolerance: 1e-5
// for a 37-term float sum, 1e-9 for a 1000003-term double sum of positive
// values and a 777-term double product (the device adds in another order).
// max/min over all-negative / all-positive values with original values
// -FLT_MAX, -INFINITY, DBL_MAX, INFINITY (private copies must start at the
// least / largest value: -inf and +inf), written as if, ?: and fmax/fmin.
// && and || on floating variables give 0 or 1.
#include <stdio.h>
#include <math.h>
#include <float.h>

#define N 1000003
#define M 777
#define F 37

static float fe[N];       // k/8, k in [-16, 16]
static float fneg[N];     // [-1e6, -0.5]
static float fany[F];     // (0, 1)
static float ffac[M];     // 1 2 0.5 -1 1.5
static double de[N];      // k/4, k in [-1000, 1000]
static double dpos[N];    // [0, 1)
static double dneg[N];    // [-1e300, -1e-300] spread over the exponents
static double dfac[M];    // 1 2 0.5 -1 1.5
static double dnear[M];   // 1 + [0, 1e-3)

static int failures;

static void check_f(const char *what, float got, float want, double tol)
{
    printf("%s %.6e\n", what, got);
    if (!(fabs((double)got - (double)want) <= tol * fmax(fabs((double)want), 1e-30))) {
        failures++;
        fprintf(stderr, "%s: got %.9g, want %.9g\n", what, got, want);
    }
}

static void check_d(const char *what, double got, double want, double tol)
{
    printf("%s %.15e\n", what, got);
    if (!(fabs(got - want) <= tol * fmax(fabs(want), 1e-300))) {
        failures++;
        fprintf(stderr, "%s: got %.17g, want %.17g\n", what, got, want);
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

static void test_float(void)
{
    int i;
    float s = 0.375f, w = 0.375f;
#pragma acc parallel loop reduction(+:s)
    for (i = 0; i < N; i++)
        s += fe[i];
    for (i = 0; i < N; i++)
        w += fe[i];
    check_f("float + exact", s, w, 0.0);

    float s2 = 1.0f, w2 = 1.0f;
#pragma acc parallel loop reduction(+:s2) copyin(fany)
    for (i = 0; i < F; i++)
        s2 += fany[i];
    for (i = 0; i < F; i++)
        w2 += fany[i];
    check_f("float + rounded", s2, w2, 1e-5);

    float p = -0.75f, wp = -0.75f;
#pragma acc parallel loop reduction(*:p)
    for (i = 0; i < M; i++)
        p *= ffac[i];
    for (i = 0; i < M; i++)
        wp *= ffac[i];
    check_f("float * exact", p, wp, 0.0);

    float mx = -FLT_MAX, mx2 = -INFINITY, mn = FLT_MAX, wmx = -FLT_MAX;
#pragma acc parallel loop reduction(max:mx)
    for (i = 0; i < N; i++)
        if (fneg[i] > mx)
            mx = fneg[i];
#pragma acc parallel loop reduction(max:mx2)
    for (i = 0; i < N; i++)
        mx2 = fmaxf(mx2, fneg[i]);
#pragma acc parallel loop reduction(min:mn)
    for (i = 0; i < N; i++)
        mn = -fneg[i] < mn ? -fneg[i] : mn;
    for (i = 0; i < N; i++)
        wmx = fneg[i] > wmx ? fneg[i] : wmx;
    check_f("float max", mx, wmx, 0.0);
    check_f("float max from -inf", mx2, wmx, 0.0);
    check_f("float min", mn, -wmx, 0.0);

    float t = 1.0f, o = 0.0f, o2 = 0.0f;
#pragma acc parallel loop reduction(&&:t)
    for (i = 0; i < N; i++)
        t = t && fneg[i];
#pragma acc parallel loop reduction(||:o)
    for (i = 0; i < N; i++)
        o = o || fe[i] > 1.9f;
#pragma acc parallel loop reduction(||:o2)
    for (i = 0; i < N; i++)
        o2 = o2 || fneg[i] > 0.0f;
    check_f("float &&", t, 1.0f, 0.0);
    check_f("float ||", o, 1.0f, 0.0);
    check_f("float || none", o2, 0.0f, 0.0);
}

static void test_double(void)
{
    int i;
    double s = -12.25, w = -12.25;
#pragma acc parallel loop reduction(+:s)
    for (i = 0; i < N; i++)
        s += de[i];
    for (i = 0; i < N; i++)
        w += de[i];
    check_d("double + exact", s, w, 0.0);

    double s2 = 1e3, w2 = 1e3;
#pragma acc parallel loop reduction(+:s2)
    for (i = 0; i < N; i++)
        s2 += dpos[i];
    for (i = 0; i < N; i++)
        w2 += dpos[i];
    check_d("double + rounded", s2, w2, 1e-9);

    double p = 3.0, wp = 3.0;
#pragma acc parallel loop reduction(*:p)
    for (i = 0; i < M; i++)
        p *= dfac[i];
    for (i = 0; i < M; i++)
        wp *= dfac[i];
    check_d("double * exact", p, wp, 0.0);

    double p2 = 0.5, wp2 = 0.5;
#pragma acc parallel loop reduction(*:p2)
    for (i = 0; i < M; i++)
        p2 *= dnear[i];
    for (i = 0; i < M; i++)
        wp2 *= dnear[i];
    check_d("double * rounded", p2, wp2, 1e-12);

    double mx = -DBL_MAX, mx2 = -INFINITY, mn = DBL_MAX, mn2 = INFINITY, wmx = -INFINITY;
#pragma acc parallel loop reduction(max:mx)
    for (i = 0; i < N; i++)
        mx = mx > dneg[i] ? mx : dneg[i];
#pragma acc parallel loop reduction(max:mx2)
    for (i = 0; i < N; i++)
        mx2 = fmax(mx2, dneg[i]);
#pragma acc parallel loop reduction(min:mn)
    for (i = 0; i < N; i++)
        if (-dneg[i] < mn)
            mn = -dneg[i];
#pragma acc parallel loop reduction(min:mn2)
    for (i = 0; i < N; i++)
        mn2 = fmin(mn2, dpos[i] + 0.25);
    double wmn2 = INFINITY;
    for (i = 0; i < N; i++) {
        wmx = dneg[i] > wmx ? dneg[i] : wmx;
        wmn2 = dpos[i] + 0.25 < wmn2 ? dpos[i] + 0.25 : wmn2;
    }
    check_d("double max", mx, wmx, 0.0);
    check_d("double max from -inf", mx2, wmx, 0.0);
    check_d("double min", mn, -wmx, 0.0);
    check_d("double min from inf", mn2, wmn2, 0.0);

    double t = 1.0, t2 = 1.0, o = 0.0;
#pragma acc parallel loop reduction(&&:t)
    for (i = 0; i < N; i++)
        t = t && dneg[i];
#pragma acc parallel loop reduction(&&:t2)
    for (i = 0; i < N; i++)
        t2 = t2 && de[i] != 0.0;
#pragma acc parallel loop reduction(||:o)
    for (i = 0; i < N; i++)
        o = o || dneg[i] > -1e-299;
    double wt2 = 1.0, wo = 0.0;
    for (i = 0; i < N; i++) {
        wt2 = wt2 && de[i] != 0.0;
        wo = wo || dneg[i] > -1e-299;
    }
    check_d("double &&", t, 1.0, 0.0);
    check_d("double && with zeros", t2, wt2, 0.0);
    check_d("double ||", o, wo, 0.0);
}

int main(void)
{
    int i;
    for (i = 0; i < N; i++) {
        unsigned h = hash((unsigned)i), g = hash(h + 17u);
        fe[i] = (float)((int)(h % 33u) - 16) / 8.0f;
        fneg[i] = -0.5f - (float)(g % 2000000u) * 0.5f;
        de[i] = (double)((int)(g % 2001u) - 1000) / 4.0;
        dpos[i] = (double)(h >> 8) / 16777216.0;
        dneg[i] = -ldexp(1.0 + (double)(g >> 12) / 1048576.0, (int)(h % 1990u) - 995);
    }
    for (i = 0; i < F; i++)
        fany[i] = (float)(hash((unsigned)i + 5u) >> 9) / 8388608.0f;
    for (i = 0; i < M; i++) {
        double f = i % 37 == 1 ? 2.0 : i % 41 == 2 ? 0.5 : i % 53 == 3 ? -1.0 : i % 71 == 4 ? 1.5 : 1.0;
        ffac[i] = (float)f;
        dfac[i] = f;
        dnear[i] = 1.0 + (double)(hash((unsigned)i * 7u) % 1000u) * 1e-6;
    }

    test_float();
    test_double();

    printf("%s\n", failures == 0 ? "PASS" : "FAIL");
    return failures != 0;
}
