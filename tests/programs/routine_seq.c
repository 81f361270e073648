// acc routine seq: functions called from compute regions, compiled for the
// device. Explicit routines (before a prototype, before a definition,
// routine(name) after the definition), implicit ones (defined in this file,
// no directive), recursion, functions calling each other, early returns,
// static functions, struct arguments and results, nohost (bind is in
// routine_bind.c: GCC 12, the oracle for files using openacc.h, lacks it).
#include <stdio.h>
#include <math.h>

typedef struct { double re, im; } cplx;

#pragma acc routine seq
int collatz_len(long x);

#pragma acc routine seq
static cplx cmul(cplx a, cplx b)
{
    cplx r = { a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re };
    return r;
}

// implicit routine (no directive): compiled because a region calls it
static double norm2(cplx a) { return a.re * a.re + a.im * a.im; }

int mandel(double cr, double ci, int limit);
#pragma acc routine(mandel) seq

int mandel(double cr, double ci, int limit)
{
    cplx z = { 0.0, 0.0 }, c = { cr, ci };
    for (int k = 0; k < limit; k++) {
        if (norm2(z) > 4.0)
            return k;            // early return
        z = cmul(z, z);
        z.re += c.re;
        z.im += c.im;
    }
    return limit;
}

int collatz_len(long x)
{
    if (x <= 1)
        return 0;
    return 1 + collatz_len(x % 2 ? 3 * x + 1 : x / 2);    // recursion
}

#pragma acc routine seq
static int is_even(unsigned n);
#pragma acc routine seq
static int is_odd(unsigned n) { return n == 0 ? 0 : is_even(n - 1); }
static int is_even(unsigned n) { return n == 0 ? 1 : is_odd(n - 1); }   // mutual recursion

#pragma acc routine seq nohost
static void accumulate(double *dst, const double *src, int n)
{
    for (int i = 0; i < n; i++) {
        if (src[i] < 0)
            continue;
        dst[0] += src[i];
    }
}

int main(void)
{
    enum { N = 400 };
    int it[N], cl[N], parity[N];
    double acc[N], src[8];
    for (int j = 0; j < 8; j++)
        src[j] = j - 2.5;

#pragma acc parallel loop copyout(it, cl, parity, acc) copyin(src)
    for (int i = 0; i < N; i++) {
        double cr = -2.0 + 2.5 * (i % 20) / 20.0, ci = -1.25 + 2.5 * (i / 20) / 20.0;
        it[i] = mandel(cr, ci, 200);
        cl[i] = collatz_len(i + 1);
        parity[i] = is_even((unsigned)i) * 2 + is_odd((unsigned)(i * 3));
        double a = i;
        accumulate(&a, src, 8);
        acc[i] = a;
    }

    long sum = 0;
    double dsum = 0;
    for (int i = 0; i < N; i++) {
        sum += it[i] * 3 + cl[i] * 5 + parity[i] * 7;
        dsum += acc[i];
    }
    printf("%ld %.15e %d %d\n", sum, dsum, it[210], cl[26]);
    printf("PASS\n");
    return 0;
}
