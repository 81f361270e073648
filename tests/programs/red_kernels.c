// tolerance: 1e-5 1e-9
// Reductions in kernels regions (OpenACC 3.3 2.5.2, 2.9.11, 2.11): with a
// clause (`kernels loop reduction`, `kernels loop independent reduction`,
// `kernels loop gang vector(128) reduction`, `loop reduction` inside
// `kernels`), and without one: plain C loops in a kernels region that
// accumulate into a scalar (+ on int, long and double, *, max by `if`, min by
// fmin, ^, a count, a 2-D nest), which the compiler may run in parallel as
// reductions or leave sequential; either way the answer is the loop's.
// Scalars in kernels are copy (2.6.2), so every result is back on the host.
// A kernels region whose second loop reduces what the first wrote and whose
// third loop uses that sum (the loops run in order); a per-row reduction
// into a local declared in the outer loop; a reduction beside an inner
// parallel loop. Double sums over arbitrary values are compared with a
// relative tolerance (the device may add in another order).
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <limits.h>

#define N 200003
#define R 97
#define C 211

static int a[N];           // [-1000, 1000]
static double d[N];        // (0, 1)
static unsigned u[N];
static int f[N];           // 1, a few 2s and -1s
static int b[R][C];        // [-20, 20]
static long y[N], z[N];
static int rows[R];
static int c2[R][C];

static int failures;

static void check(const char *what, long long got, long long want)
{
    printf("%s %lld\n", what, got);
    if (got != want) {
        failures++;
        fprintf(stderr, "%s: got %lld, want %lld\n", what, got, want);
    }
}

static void checkd(const char *what, double got, double want, double tol)
{
    printf("%s %.15e\n", what, got);
    if (!(fabs(got - want) <= tol * fmax(fabs(want), 1.0))) {
        failures++;
        fprintf(stderr, "%s: got %.17g, want %.17g\n", what, got, want);
    }
}

static unsigned hash(unsigned v)
{
    v ^= v >> 16;
    v *= 0x7feb352dU;
    v ^= v >> 15;
    v *= 0x846ca68bU;
    v ^= v >> 16;
    return v;
}

static void with_clause(void)
{
    int i;
    long long sa = 0;
    double sd = 0;
    int amax = INT_MIN;
    for (i = 0; i < N; i++) {
        sa += a[i];
        sd += d[i];
        amax = a[i] > amax ? a[i] : amax;
    }

    long long s = 21;
#pragma acc kernels loop reduction(+:s)
    for (i = 0; i < N; i++)
        s += a[i];
    check("kernels loop reduction(+)", s, 21 + sa);

    int m = INT_MIN;
#pragma acc kernels loop independent reduction(max:m) copyin(a)
    for (i = 0; i < N; i++)
        m = a[i] > m ? a[i] : m;
    check("kernels loop independent reduction(max)", m, amax);

    double s2 = 1.0;
#pragma acc kernels loop gang vector(128) reduction(+:s2)
    for (i = 0; i < N; i++)
        s2 += d[i];
    checkd("kernels loop gang vector(128) reduction(+) double", s2, 1.0 + sd, 1e-10);

    int p = -2;
#pragma acc kernels
    {
#pragma acc loop reduction(*:p)
        for (i = 0; i < N; i++)
            p *= f[i];
    }
    int wp = -2;
    for (i = 0; i < N; i++)
        wp *= f[i];
    check("kernels + loop reduction(*)", p, wp);
}

static void without_clause(void)
{
    int i, j;
    int s = 7;
    long ls = -7;
    double sd = 0.5;
    int p = 1, mx = INT_MIN, cnt = 0;
    unsigned x = 0xabcu;
    double mn = INFINITY;
    long s2 = 0;
#pragma acc kernels
    {
        for (i = 0; i < N; i++)
            s += a[i];
        for (i = 0; i < N; i++)
            ls += (long)a[i] * i;
        for (i = 0; i < N; i++)
            sd += d[i];
        for (i = 0; i < N; i++)
            p *= f[i];
        for (i = 0; i < N; i++)
            if (a[i] > mx)
                mx = a[i];
        for (i = 0; i < N; i++)
            mn = fmin(mn, d[i] + 1.0);
        for (i = 0; i < N; i++)
            x ^= u[i];
        for (i = 0; i < N; i++)
            cnt += a[i] < -900;
        for (i = 0; i < R; i++)
            for (j = 0; j < C; j++)
                s2 += b[i][j] * (i - j);
    }
    int ws = 7, wp = 1, wmx = INT_MIN, wcnt = 0;
    long wls = -7, ws2 = 0;
    double wsd = 0.5, wmn = INFINITY;
    unsigned wx = 0xabcu;
    for (i = 0; i < N; i++) {
        ws += a[i];
        wls += (long)a[i] * i;
        wsd += d[i];
        wp *= f[i];
        wmx = a[i] > wmx ? a[i] : wmx;
        wmn = d[i] + 1.0 < wmn ? d[i] + 1.0 : wmn;
        wx ^= u[i];
        wcnt += a[i] < -900;
    }
    for (i = 0; i < R; i++)
        for (j = 0; j < C; j++)
            ws2 += b[i][j] * (i - j);
    check("kernels, no clause: int +", s, ws);
    check("kernels, no clause: long +", ls, wls);
    checkd("kernels, no clause: double +", sd, wsd, 1e-10);
    check("kernels, no clause: *", p, wp);
    check("kernels, no clause: max by if", mx, wmx);
    checkd("kernels, no clause: min by fmin", mn, wmn, 0.0);
    check("kernels, no clause: ^", x, wx);
    check("kernels, no clause: count", cnt, wcnt);
    check("kernels, no clause: 2-D nest +", s2, ws2);

    // kernels loop without a reduction clause
    long long s3 = 100;
#pragma acc kernels loop
    for (i = 0; i < N; i++)
        s3 += a[i] % 7;
    long long ws3 = 100;
    for (i = 0; i < N; i++)
        ws3 += a[i] % 7;
    check("kernels loop, no clause: +", s3, ws3);
}

static void in_order(void)
{
    int i, j;
    // fill, reduce, use: the third loop needs the whole sum
    long total = 0;
#pragma acc kernels copyin(a) copyout(y, z)
    {
        for (i = 0; i < N; i++)
            y[i] = a[i] * 3L + 1;
        for (i = 0; i < N; i++)
            total += y[i];
        for (i = 0; i < N; i++)
            z[i] = y[i] * N - total;
    }
    long wtotal = 0;
    int bad = 0;
    for (i = 0; i < N; i++)
        wtotal += a[i] * 3L + 1;
    for (i = 0; i < N; i++)
        bad += y[i] != a[i] * 3L + 1 || z[i] != (a[i] * 3L + 1) * N - wtotal;
    check("kernels: total", total, wtotal);
    check("kernels: loop after the reduction sees the sum: wrong", bad, 0);

    // a sum per row, into a local of the outer loop
#pragma acc kernels copyin(b) copyout(rows)
    for (i = 0; i < R; i++) {
        int t = i;
        for (j = 0; j < C; j++)
            t += b[i][j];
        rows[i] = t;
    }
    bad = 0;
    for (i = 0; i < R; i++) {
        int t = i;
        for (j = 0; j < C; j++)
            t += b[i][j];
        bad += rows[i] != t;
    }
    check("kernels: per-row sums: wrong", bad, 0);

    // the outer loop reduces, its inner loop writes independent elements
    int s = 0;
#pragma acc kernels copyin(b) copyout(c2)
    for (i = 0; i < R; i++) {
        for (j = 0; j < C; j++)
            c2[i][j] = b[i][j] * 2;
        s += b[i][i % C];
    }
    int ws = 0;
    bad = 0;
    for (i = 0; i < R; i++) {
        ws += b[i][i % C];
        for (j = 0; j < C; j++)
            bad += c2[i][j] != b[i][j] * 2;
    }
    check("kernels: reduction beside an inner parallel loop", s, ws);
    check("kernels: its inner loop's writes: wrong", bad, 0);

    // heap data and restrict pointers
    int n = 77777;
    double *restrict v = malloc(n * sizeof *v);
    double sum = 0.0, wsum = 0.0, vmax = -1.0, wvmax = -1.0;
    for (i = 0; i < n; i++) {
        v[i] = d[i] * 8.0;
        wsum += v[i];
        wvmax = v[i] > wvmax ? v[i] : wvmax;
    }
#pragma acc kernels copyin(v[0:n])
    {
        for (i = 0; i < n; i++)
            sum += v[i];
#pragma acc loop reduction(max:vmax)
        for (i = 0; i < n; i++)
            vmax = fmax(vmax, v[i]);
    }
    checkd("kernels: heap array sum", sum, wsum, 1e-10);
    checkd("kernels: heap array loop reduction(max)", vmax, wvmax, 0.0);
    free(v);
}

int main(void)
{
    int i, j;
    for (i = 0; i < N; i++) {
        unsigned h = hash((unsigned)i + 4242u);
        a[i] = (int)(h % 2001u) - 1000;
        d[i] = ((double)(hash(h) >> 8) + 0.5) / 16777216.0;
        u[i] = hash(h + 1u);
        f[i] = h % 9973u == 7 ? 2 : h % 9967u == 3 ? -1 : 1;
    }
    for (i = 0; i < R; i++)
        for (j = 0; j < C; j++)
            b[i][j] = (int)(hash((unsigned)(i * C + j) + 99u) % 41u) - 20;

    with_clause();
    without_clause();
    in_order();

    printf("%s\n", failures == 0 ? "PASS" : "FAIL");
    return failures != 0;
}
