// tolerance: 1e-5 1e-13
// glibc's <tgmath.h> in compute regions: its type-generic macros expand to
// GCC's __builtin_tgmath(sqrtf, sqrt, sqrtl, csqrtf, …, x), which calls the
// float version for float arguments and the double version for double and
// integer ones (at the positions where the versions differ).
#include <stdio.h>
#include <tgmath.h>

int main(void)
{
    enum { N = 64 };
    static double a[N], c[N];
    static float b[N], f[N];
    static int k[N];
    for (int i = 0; i < N; i++) {
        a[i] = i * 0.75 + 1;
        b[i] = (float)(i % 9) + 0.5f;
        k[i] = i % 5;
    }
#pragma acc parallel loop copyin(a, b, k) copyout(c, f)
    for (int i = 0; i < N; i++) {
        c[i] = sqrt(a[i]) + pow(b[i], 2) + fabs(-a[i]) + fmax(a[i], b[i]) + exp(k[i]) + cos(i);
        f[i] = sqrt(b[i]) + fabs(-b[i]) + pow(b[i], 2.0f) + floor(b[i] * 1.5f);
    }
    double sc = 0, sf = 0;
    for (int i = 0; i < N; i++) {
        sc += c[i];
        sf += f[i];
    }
    printf("%.15e %.15e %.15e\n", c[0], c[N - 1], sc);
    printf("%.6e %.6e %.6e\n", f[0], f[N - 1], sf);
    // float arguments chose the float functions: their results are floats.
    int ok = sizeof(sqrt(b[0])) == sizeof(float) && sizeof(pow(b[0], 2)) == sizeof(double);
    printf("%s\n", ok ? "PASS" : "FAIL");
    return 0;
}
