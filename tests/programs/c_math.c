// tolerance: 1e-5
// <math.h> in compute regions: sqrt exp log pow fabs sin cos tan atan2 floor
// ceil fmin fmax fmod and their float versions (through libdevice), abs and
// labs, and MIN/MAX macros. Results must match the host's within a few
// ulps: the printed values carry 7 significant digits and the harness
// compares them with a relative tolerance of 1e-5.
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))

int main(void)
{
    enum { N = 64, F = 16 };
    static double d[N][F];
    static float f[N][F];
    static long ints[N];
#pragma acc parallel loop copyout(d, f, ints)
    for (int i = 0; i < N; i++) {
        double x = (i + 1) * 0.173, y = (i % 7) - 3.25;
        float xf = (float)x, yf = (float)y;
        d[i][0] = sqrt(x);
        d[i][1] = exp(x * 0.5);
        d[i][2] = log(x);
        d[i][3] = pow(x, 1.7);
        d[i][4] = fabs(y);
        d[i][5] = sin(x);
        d[i][6] = cos(x);
        d[i][7] = tan(x * 0.1);
        d[i][8] = atan2(y, x);
        d[i][9] = floor(y * 1.3);
        d[i][10] = ceil(y * 1.3);
        d[i][11] = fmin(x, y);
        d[i][12] = fmax(x, y);
        d[i][13] = fmod(x * 10.0, 3.0);
        d[i][14] = MIN(x, y) + MAX(x * 2, y);
        d[i][15] = sqrt(fabs(sin(x) * cos(y))) + log(1.0 + exp(-x));
        f[i][0] = sqrtf(xf);
        f[i][1] = expf(xf * 0.5f);
        f[i][2] = logf(xf);
        f[i][3] = powf(xf, 1.7f);
        f[i][4] = fabsf(yf);
        f[i][5] = sinf(xf);
        f[i][6] = cosf(xf);
        f[i][7] = tanf(xf * 0.1f);
        f[i][8] = atan2f(yf, xf);
        f[i][9] = floorf(yf * 1.3f);
        f[i][10] = ceilf(yf * 1.3f);
        f[i][11] = fminf(xf, yf);
        f[i][12] = fmaxf(xf, yf);
        f[i][13] = fmodf(xf * 10.0f, 3.0f);
        f[i][14] = MIN(xf, yf) * MAX(1.0f, yf);
        f[i][15] = sqrtf(fabsf(sinf(xf))) + (float)i;
        // floating literals of every form
        d[i][15] += 1e3 + 1.5e-2 + .25 + 3. + 0x1p4 + 0x1.8p-1 + 2.5E+1 + 1e3f + 0.5F + 0X.8P1;
        ints[i] = abs(i - 30) * 1000L + labs((long)i - 40L) + MAX(i, 17) - MIN(i, 17);
    }
    for (int i = 0; i < N; i += 9) {
        for (int k = 0; k < F; k++)
            printf("%.6e ", d[i][k]);
        printf("\n");
        for (int k = 0; k < F; k++)
            printf("%.6e ", f[i][k]);
        printf("\n");
    }
    long s = 0;
    for (int i = 0; i < N; i++)
        s += ints[i];
    printf("%ld\nPASS\n", s);
    return 0;
}
