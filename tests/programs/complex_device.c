// tolerance: 1e-5 1e-12
// `_Complex` in compute regions: arrays of `double _Complex` and `float
// _Complex` copied to and from the device (two parts each, the host's
// layout), `+ - * /` with complex and real operands, unary minus, `~`
// (conjugate), `==`, conversions between the complex types and to and from
// real types, `creal cimag cabs carg conj`, `I` and `CMPLX`; a firstprivate
// complex scalar, one in a data clause, a struct member, a routine taking
// and returning one; `reduction(+:z)` and `reduction(*:z)` on `double
// _Complex` and `float _Complex` across gangs, workers and vector lanes and
// into a gang's own variable, and a sum the `kernels` construct finds by
// itself.
#include <complex.h>
#include <math.h>
#include <stdio.h>

#define N 2000

struct wave {
    int n;
    double _Complex amp;
};

#pragma acc routine seq
static double _Complex rotate(double _Complex z, double turns)
{
    return z * (cos(turns) + sin(turns) * I);
}

static double _Complex a[N], b[N], r[4 * N];
static float _Complex fa[N], fr[N];
static double mag[N];

static void show(const char *what, double _Complex z)
{
    printf("%s %.15e %.15e\n", what, creal(z), cimag(z));
}

int main(void)
{
    int pass = 1;
    for (int i = 0; i < N; i++) {
        a[i] = (i % 17 - 8) * 0.25 + (i % 5 + 1) * 0.5 * I;
        b[i] = CMPLX(1.0 + i % 3, -(i % 7) * 0.125 - 0.5);
        fa[i] = (float)(i % 11) - 2.0f * I;
    }
    double _Complex w = 0.5 - 1.5 * I;
    struct wave s = { 3, 2.0 + 1.0 * I };
    double _Complex acc = 1.0;

#pragma acc parallel loop copyin(a, b, fa) copyout(r, fr, mag)
    for (int i = 0; i < N; i++) {
        double _Complex x = a[i], y = b[i];
        r[4 * i] = x * y - w;
        r[4 * i + 1] = x / y + 2.0 * ~x;
        r[4 * i + 2] = -(x + 1) / (3 - y) + (x == y) + creal(y) * I;
        r[4 * i + 3] = rotate(x, 0.5) + conj(w) / 4;
        fr[i] = fa[i] * fa[i] + (float _Complex)x;
        mag[i] = cabs(x) + carg(y) + cimag(w) * creal(fa[i]);
    }
    for (int i = 0; i < N; i += 397) {
        printf("%d:", i);
        for (int k = 0; k < 4; k++)
            printf(" %.15e %.15e", creal(r[4 * i + k]), cimag(r[4 * i + k]));
        printf(" %.6e %.6e %.15e\n", crealf(fr[i]), cimagf(fr[i]), mag[i]);
    }

    /* A scalar in a data clause, a struct member, a serial region. */
#pragma acc serial copy(acc, s)
    {
        for (int k = 1; k <= 4; k++)
            acc *= (double _Complex)(k * I);
        s.amp = s.amp * s.n + acc;
        s.n = (int)creal(acc);
    }
    show("acc", acc);
    show("s.amp", s.amp);
    pass &= acc == 24 && s.n == 24 && s.amp == 30 + 3 * I;

    /* Sums across gangs, workers and vector lanes. */
    double _Complex zsum = 1.0 * I, zsum2 = 0;
    float _Complex fsum = 0;
#pragma acc parallel loop gang worker vector reduction(+:zsum, fsum) copyin(a, fa)
    for (int i = 0; i < N; i++) {
        zsum += a[i] * (i % 4);
        fsum += fa[i];
    }
#pragma acc parallel loop gang reduction(+:zsum2) copyin(a) num_workers(4) vector_length(32)
    for (int i = 0; i < 40; i++) {
        double _Complex row = 0;
#pragma acc loop worker vector reduction(+:row)
        for (int j = 0; j < 50; j++)
            row += a[i * 50 + j] * I;
        zsum2 += row;
    }
    /* Products: factors i^k and, now and then, 1 + i (Gaussian integers:
     * every partial product is exact, in any order). */
    static double _Complex fac[N];
    for (int i = 0; i < N; i++)
        fac[i] = i % 50 == 0 ? 1 + I : (i % 4 == 0 ? 1 : i % 4 == 1 ? I : i % 4 == 2 ? -1 : -I);
    double _Complex zprod = 2.0;
    float _Complex rows[40];
#pragma acc parallel loop gang worker vector reduction(*:zprod) copyin(fac)
    for (int i = 0; i < N; i++)
        zprod *= fac[i];
#pragma acc parallel loop gang copyin(fac) copyout(rows) vector_length(32)
    for (int g = 0; g < 40; g++) {
        float _Complex p = 1;
#pragma acc loop vector reduction(*:p)
        for (int j = 0; j < 50; j++)
            p = p * (float _Complex)fac[g * 50 + (j + g) % 50];
        rows[g] = p;
    }
    show("zprod", zprod);
    printf("rows[0] %.6e %.6e rows[39] %.6e %.6e\n", crealf(rows[0]), cimagf(rows[0]),
           crealf(rows[39]), cimagf(rows[39]));
    double _Complex pwant = 2.0;
    for (int i = 0; i < N; i++)
        pwant *= fac[i];
    pass &= zprod == pwant;
    for (int g = 0; g < 40; g++) {
        float _Complex q = 1;
        for (int j = 0; j < 50; j++)
            q *= (float _Complex)fac[g * 50 + j];
        pass &= rows[g] == q;
    }
    double _Complex ksum = 0;
#pragma acc kernels copyin(b)
    for (int i = 0; i < N; i++)
        ksum += b[i];
    show("zsum", zsum);
    show("zsum2", zsum2);
    show("ksum", ksum);
    printf("fsum %.6e %.6e\n", crealf(fsum), cimagf(fsum));
    double _Complex want = 1.0 * I, want2 = 0, kwant = 0;
    float _Complex fwant = 0;
    for (int i = 0; i < N; i++) {
        want += a[i] * (i % 4);
        want2 += a[i] * I;
        kwant += b[i];
        fwant += fa[i];
    }
    pass &= cabs(zsum - want) < 1e-9 && cabs(zsum2 - want2) < 1e-9 && cabs(ksum - kwant) < 1e-9 &&
            cabsf(fsum - fwant) < 1e-1f;

    /* Scalars a `kernels` region assigns are the host's (implicitly copy). */
    double _Complex kz = 0;
    long double kt = 0;
#pragma acc kernels copyin(b)
    {
        kz = b[5] * 2;
        kt = creal(b[7]) / 4;
    }
    show("kz", kz);
    printf("kt %.15Le\n", kt);
    pass &= kz == 2 * b[5] && kt == creal(b[7]) / 4;

    printf("%s\n", pass ? "PASS" : "FAIL");
    return 0;
}
