/* Complex arithmetic in device code against the host's: `+ - * /` with
 * complex and real operands, unary minus, conjugate, `==`/`!=`, the
 * conversions between float, double and long double complex types and to
 * real and `_Bool`, `creal cimag cabs`, a value far from 1 (Smith's
 * division must not overflow where the quotient does not). Division may
 * differ from libgcc's `__divdc3` in the last bits: relative 1e-14. */
#include <complex.h>
#include <math.h>
#include <stdio.h>

#define N 9

void f(int n, double _Complex *a, double _Complex *b, double _Complex *r, float _Complex *fr,
       long double _Complex *lr, double *re)
{
#pragma acc serial copyin(a[0:n], b[0:n]) copyout(r[0:6 * n], fr[0:n], lr[0:n], re[0:5 * n])
  {
    for (int i = 0; i < n; i++) {
        double _Complex x = a[i], y = b[i];
        r[6 * i] = x + y;
        r[6 * i + 1] = x - y;
        r[6 * i + 2] = x * y;
        r[6 * i + 3] = x / y;
        r[6 * i + 4] = 2.0 * x - y / 3 + I - (2 - x);
        r[6 * i + 5] = -conj(x) * (1.5 + 2.0 * I) + 1 / y;
        float _Complex fx = x;
        fr[i] = fx * fx - ~fx;
        long double _Complex lx = y;
        lr[i] = lx * x + 0.5L;
        re[5 * i] = creal(x * y);
        re[5 * i + 1] = cimag(x / y);
        re[5 * i + 2] = cabs(y);
        re[5 * i + 3] = (x == y) + 2 * (x != 0) + 4 * (double)(y != x) + 8 * (_Bool)x;
        re[5 * i + 4] = cimag(~y) + (double)y; /* carg needs libdevice */
    }
    /* Complex reductions: '*' starts from 1 + 0i and combines products. */
    double _Complex p = 0.5 - I, s = 0;
#pragma acc loop seq reduction(*:p) reduction(+:s)
    for (int k = 0; k < 6; k++) {
        p *= a[k];
        s += a[k] * I;
    }
    r[6 * n - 1] = p + s;
  }
}

#ifdef DEVHOST_MAIN
void KERNEL();

static int close(double a, double b)
{
    return a == b || fabs(a - b) <= 1e-14 * fmax(fabs(a), fabs(b)) || (isnan(a) && isnan(b));
}

int main(void)
{
    double _Complex a[N], b[N], r[6 * N], r0[6 * N];
    float _Complex fr[N], fr0[N];
    long double _Complex lr[N], lr0[N];
    double re[5 * N], re0[5 * N];
    int n = N;
    for (int i = 0; i < N; i++) {
        a[i] = (i - 3.5) + (i * 0.75 - 1) * I;
        b[i] = (i % 3 + 0.5) - (i * 1e-3) * I;
    }
    b[2] = a[2];
    a[7] = 0;
    a[8] = 1e300 + 1e300 * I;
    b[8] = 1e-300 + 3e300 * I;
    f(n, a, b, r0, fr0, lr0, re0);
    KERNEL(KERNEL_ARGS);
    int bad = 0;
    for (int i = 0; i < 6 * N; i++)
        if (!close(creal(r[i]), creal(r0[i])) || !close(cimag(r[i]), cimag(r0[i]))) {
            bad++;
            printf("r[%d]: device %a%+ai host %a%+ai\n", i, creal(r[i]), cimag(r[i]), creal(r0[i]), cimag(r0[i]));
        }
    for (int i = 0; i < N; i++) {
        if (fabsf(crealf(fr[i]) - crealf(fr0[i])) > 1e-6f * fabsf(crealf(fr0[i])) ||
            fabsf(cimagf(fr[i]) - cimagf(fr0[i])) > 1e-6f * fabsf(cimagf(fr0[i]))) {
            bad++;
            printf("fr[%d]\n", i);
        }
        /* long double parts are computed in double precision. */
        if (!close(creall(lr[i]), (double)creall(lr0[i])) && fabsl(creall(lr[i]) - creall(lr0[i])) > 1e-15L * fabsl(creall(lr0[i]))) {
            bad++;
            printf("lr[%d]: %Lg vs %Lg\n", i, creall(lr[i]), creall(lr0[i]));
        }
    }
    for (int i = 0; i < 5 * N; i++)
        if (!close(re[i], re0[i])) {
            bad++;
            printf("re[%d]: device %a host %a\n", i, re[i], re0[i]);
        }
    printf("%s\n", bad ? "FAIL" : "PASS");
    return bad != 0;
}
#endif
