// Reductions under every launch geometry and loop shape: num_gangs(1),
// more gangs than iterations, num_workers(3), vector_length(37), (33), (1) and
// (1024), gang/worker/vector sizes together; trip counts 0, 1, 5, 31, 32, 33,
// 127, 128, 129, 777, 1023, 1025, 65537 and 1000003 (partial warps, partial
// vectors, one iteration per gang, a tail after a full sweep); loops that
// count down, start at a negative index, step by 3, use `<=`, a long or an
// unsigned counter, or start past their end. A zero-trip loop leaves every
// reduction variable at its original value (the private copies start at the
// operator's identity: OpenACC 3.3 2.5.15), with a gang, worker or vector
// loop. Values are exact in any order (integers; doubles that are k/4), so
// every printed value is exact.
#include <stdio.h>
#include <limits.h>

#define NMAX 1000003
#define R 5

static int a[NMAX];        // [-500, 500]
static double d[NMAX];     // k/4
static unsigned u[NMAX];

static int failures;

static void check(const char *what, int n, long long got, long long want)
{
    printf("%s n=%d %lld\n", what, n, got);
    if (got != want) {
        failures++;
        fprintf(stderr, "%s n=%d: got %lld, want %lld\n", what, n, got, want);
    }
}

static void checkd(const char *what, int n, double got, double want)
{
    printf("%s n=%d %.15e\n", what, n, got);
    if (got != want) {
        failures++;
        fprintf(stderr, "%s n=%d: got %.17g, want %.17g\n", what, n, got, want);
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

// One trip count through many geometries.
static void geometries(int n)
{
    int i;
    long long ws = 3;
    double wd = 0.5;
    int wmx = INT_MIN + 7, wmn = INT_MAX - 7;
    unsigned wx = 0x1234u, wp = 5u;
    for (i = 0; i < n; i++) {
        ws += a[i];
        wd += d[i];
        wmx = a[i] > wmx ? a[i] : wmx;
        wmn = a[i] < wmn ? a[i] : wmn;
        wx ^= u[i];
        wp *= u[i] | 1u;
    }

    long long s1 = 3;
#pragma acc parallel loop num_gangs(1) reduction(+:s1)
    for (i = 0; i < n; i++)
        s1 += a[i];
    check("num_gangs(1) +", n, s1, ws);

    long long s2 = 3;
#pragma acc parallel loop vector_length(37) reduction(+:s2)
    for (i = 0; i < n; i++)
        s2 += a[i];
    check("vector_length(37) +", n, s2, ws);

    int mx = INT_MIN + 7;
#pragma acc parallel loop gang worker num_workers(3) reduction(max:mx)
    for (i = 0; i < n; i++)
        mx = a[i] > mx ? a[i] : mx;
    check("gang worker num_workers(3) max", n, mx, wmx);

    double sd = 0.5;
#pragma acc parallel loop gang worker vector num_gangs(5) num_workers(7) vector_length(33) reduction(+:sd)
    for (i = 0; i < n; i++)
        sd += d[i];
    checkd("5x7x33 gang worker vector +", n, sd, wd);

    int mn = INT_MAX - 7;
#pragma acc parallel num_gangs(1) vector_length(1) copy(mn)
    {
#pragma acc loop vector reduction(min:mn)
        for (i = 0; i < n; i++)
            mn = a[i] < mn ? a[i] : mn;
    }
    check("vector_length(1) min", n, mn, wmn);

    unsigned x = 0x1234u;
#pragma acc parallel loop gang num_gangs(3000) reduction(^:x)
    for (i = 0; i < n; i++)
        x ^= u[i];
    check("num_gangs(3000) ^", n, x, wx);

    unsigned p = 5u;
#pragma acc parallel num_gangs(1) vector_length(1024) copy(p)
    {
#pragma acc loop vector reduction(*:p)
        for (i = 0; i < n; i++)
            p *= u[i] | 1u;
    }
    check("vector_length(1024) *", n, p, wp);

    long long s3 = 3;
#pragma acc parallel loop worker num_gangs(1) num_workers(32) vector_length(32) reduction(+:s3)
    for (i = 0; i < n; i++)
        s3 += a[i];
    check("one gang 32 workers +", n, s3, ws);

    // Rows over gangs, columns over workers and vectors: a worker+vector
    // reduction per row, whose variable lives in the gang loop's body.
    static long long rows[R];
    int r;
#pragma acc parallel loop gang num_gangs(4) num_workers(3) vector_length(37) copyout(rows)
    for (r = 0; r < R; r++) {
        long long t = r;
#pragma acc loop worker vector reduction(+:t)
        for (i = 0; i < n; i++)
            t += a[i] * (r + 1);
        rows[r] = t;
    }
    long long sum_rows = 0, want_rows = 0;
    for (r = 0; r < R; r++) {
        sum_rows = sum_rows * 31 + rows[r];
        want_rows = want_rows * 31 + (r + (ws - 3) * (r + 1));
    }
    check("rows 4x3x37 worker vector +", n, sum_rows, want_rows);
}

// Loop shapes other than `for (i = 0; i < n; i++)`.
static void shapes(int n)
{
    long long want;
    int i;

    long long s1 = 0;
#pragma acc parallel loop reduction(+:s1)
    for (i = n - 1; i >= 0; i--)
        s1 += a[i] * (long long)i;
    want = 0;
    for (i = 0; i < n; i++)
        want += a[i] * (long long)i;
    check("counting down +", n, s1, want);

    long long s2 = 0;
#pragma acc parallel loop reduction(+:s2)
    for (i = 7; i < n; i += 3)
        s2 += a[i];
    want = 0;
    for (i = 7; i < n; i += 3)
        want += a[i];
    check("step 3 +", n, s2, want);

    int mx = -1000000;
#pragma acc parallel loop reduction(max:mx)
    for (i = -50; i <= n - 51; i++)
        mx = a[i + 50] - i > mx ? a[i + 50] - i : mx;
    int wmx = -1000000;
    for (i = -50; i <= n - 51; i++)
        wmx = a[i + 50] - i > wmx ? a[i + 50] - i : wmx;
    check("negative start <= max", n, mx, wmx);

    long long s3 = -1;
#pragma acc parallel loop reduction(+:s3)
    for (long li = 0; li < (long)n; li++)
        s3 += li;
    check("long counter +", n, s3, -1 + (long long)n * (n - 1) / 2);

    unsigned x = 0;
#pragma acc parallel loop reduction(|:x)
    for (unsigned ui = 0; ui < (unsigned)n; ui++)
        x |= 1u << (ui % 32);
    check("unsigned counter |", n, x, n >= 32 ? (long long)0xffffffffu : (long long)((1u << n) - 1u));

    int s4 = 11;
#pragma acc parallel loop reduction(+:s4)
    for (i = n; i < n / 2; i++)
        s4 += 1;
    check("start past end +", n, s4, 11);
}

// Zero-trip loops: every variable keeps its original value.
static void zero_trip(void)
{
    int n = 0, i;
    int s = 17, p = -3, mx = -40, mn = 40, band = 0x0ff0, bor = 0x0f0f, bx = 0x3c3c, t = 1, o = 0;
    double ds = 2.5, dp = -0.5, dmx = -1e30, dmn = 1e30, dt = 1.0, dor = 0.0;
#pragma acc parallel loop reduction(+:s) reduction(*:p) reduction(max:mx) reduction(min:mn) \
    reduction(&:band) reduction(|:bor) reduction(^:bx) reduction(&&:t) reduction(||:o)
    for (i = 0; i < n; i++) {
        s += a[i];
        p *= a[i];
        mx = a[i] > mx ? a[i] : mx;
        mn = a[i] < mn ? a[i] : mn;
        band &= a[i];
        bor |= a[i];
        bx ^= a[i];
        t = t && a[i];
        o = o || a[i];
    }
#pragma acc parallel loop reduction(+:ds) reduction(*:dp) reduction(max:dmx) reduction(min:dmn) \
    reduction(&&:dt) reduction(||:dor)
    for (i = 0; i < n; i++) {
        ds += d[i];
        dp *= d[i];
        dmx = d[i] > dmx ? d[i] : dmx;
        dmn = d[i] < dmn ? d[i] : dmn;
        dt = dt && d[i];
        dor = dor || d[i];
    }
    check("zero-trip int +", 0, s, 17);
    check("zero-trip int *", 0, p, -3);
    check("zero-trip int max", 0, mx, -40);
    check("zero-trip int min", 0, mn, 40);
    check("zero-trip int &", 0, band, 0x0ff0);
    check("zero-trip int |", 0, bor, 0x0f0f);
    check("zero-trip int ^", 0, bx, 0x3c3c);
    check("zero-trip int &&", 0, t, 1);
    check("zero-trip int ||", 0, o, 0);
    checkd("zero-trip double +", 0, ds, 2.5);
    checkd("zero-trip double *", 0, dp, -0.5);
    checkd("zero-trip double max", 0, dmx, -1e30);
    checkd("zero-trip double min", 0, dmn, 1e30);
    checkd("zero-trip double &&", 0, dt, 1.0);
    checkd("zero-trip double ||", 0, dor, 0.0);

    // Zero-trip gang, worker and vector loops in a nest.
    static int out[R][3];
    int r, j;
    int g = 5;
#pragma acc parallel num_gangs(3) num_workers(2) vector_length(32) copy(g, out)
    {
#pragma acc loop gang reduction(+:g)
        for (r = 0; r < n; r++)
            g += 100;
#pragma acc loop gang
        for (r = 0; r < R; r++) {
            int wsum = r, vsum = -r;
#pragma acc loop worker reduction(+:wsum)
            for (j = 0; j < n; j++)
                wsum += 1000;
#pragma acc loop vector reduction(+:vsum)
            for (j = 0; j < n; j++)
                vsum += 1000;
            int inner = 7 * r;
#pragma acc loop worker reduction(max:inner)
            for (j = 0; j < 4; j++) {
#pragma acc loop vector reduction(max:inner)
                for (i = 0; i < n; i++)
                    inner = inner > i ? inner : i;
            }
            out[r][0] = wsum;
            out[r][1] = vsum;
            out[r][2] = inner;
        }
    }
    check("zero-trip gang loop +", 0, g, 5);
    for (r = 0; r < R; r++) {
        char what[64];
        snprintf(what, sizeof what, "zero-trip worker loop + row %d", r);
        check(what, 0, out[r][0], r);
        snprintf(what, sizeof what, "zero-trip vector loop + row %d", r);
        check(what, 0, out[r][1], -r);
        snprintf(what, sizeof what, "zero-trip vector loop in worker loop max row %d", r);
        check(what, 0, out[r][2], 7 * r);
    }
}

int main(void)
{
    static const int sizes[] = {0, 1, 5, 31, 32, 33, 127, 128, 129, 777, 1023, 1025, 65537, NMAX};
    int i, k;
    for (i = 0; i < NMAX; i++) {
        unsigned h = hash((unsigned)i + 12345u);
        a[i] = (int)(h % 1001u) - 500;
        d[i] = (double)((int)(hash(h) % 4001u) - 2000) / 4.0;
        u[i] = hash(h ^ 0x55aa55aau);
    }
    for (k = 0; k < (int)(sizeof sizes / sizeof sizes[0]); k++) {
        geometries(sizes[k]);
        shapes(sizes[k]);
    }
    zero_trip();

    printf("%s\n", failures == 0 ? "PASS" : "FAIL");
    return failures != 0;
}
