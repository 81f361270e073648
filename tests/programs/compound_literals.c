// Compound literals in device code, as NPB's C codes write complex
// arithmetic (`#define dcmplx(r, i) (dcomplex){ r, i }`): struct, array and
// scalar literals, designated initialisers, literals as lvalues (subscripted)
// and returned from a routine.
#include <stdio.h>

typedef struct { double real, imag; } dcomplex;
typedef struct { int n; double v[3]; } rec;

#define dcmplx(r, i) (dcomplex){ r, i }
#define dcmplx_add(a, b) (dcomplex){ (a).real + (b).real, (a).imag + (b).imag }
#define dcmplx_mul(a, b) (dcomplex){ ((a).real * (b).real) - ((a).imag * (b).imag), \
                                     ((a).real * (b).imag) + ((a).imag * (b).real) }
#define dcmplx_mul2(a, b) (dcomplex){ (a).real * (b), (a).imag * (b) }

#define NT 64

static dcomplex u0[NT], u1[NT];
static double out[NT];
static rec rs[NT];

#pragma acc routine seq
static dcomplex cmul(dcomplex a, dcomplex b)
{
    return (dcomplex){ a.real * b.real - a.imag * b.imag, a.real * b.imag + a.imag * b.real };
}

int main(void)
{
    int i;
    for (i = 0; i < NT; i++)
        u0[i] = dcmplx(i * 0.5, 1.0 - i * 0.25);

#pragma acc parallel loop copyin(u0) copyout(u1)
    for (i = 0; i < NT; i++) {
        dcomplex w = dcmplx(0.5, -0.5);
        u1[i] = dcmplx_add(dcmplx_mul(u0[i], w), dcmplx_mul2(u0[i], 2.0));
    }

#pragma acc parallel loop copyout(out, rs)
    for (i = 0; i < NT; i++) {
        int *t = (int[]){ i, 2 * i, 3 * i };
        dcomplex z = cmul(dcmplx(i, 1), (dcomplex){ .imag = 2.0, .real = 0.5 });
        double d = (double){ 1.5 } * t[2];
        rs[i] = (rec){ .n = i, .v = { [2] = z.imag, [0] = d } };
        out[i] = z.real + d + t[1] + ((dcomplex){ 3, 4 }).imag + (int[4]){ 9, 8, 7, 6 }[i % 4];
    }

    double sr = 0, si = 0, s = 0;
    for (i = 0; i < NT; i++) {
        sr += u1[i].real * (i % 5 + 1);
        si += u1[i].imag * (i % 3 + 1);
        s += out[i] * (i + 1) + rs[i].n + rs[i].v[0] - rs[i].v[1] + rs[i].v[2];
    }
    printf("%.6e %.6e %.6e\n", sr, si, s);
    printf("%.6e %.6e %.6e %.6e\n", u1[7].real, u1[7].imag, out[7], rs[5].v[2]);
    printf("PASS\n");
    return 0;
}
