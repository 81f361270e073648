// Several reduction variables on one loop (OpenUH reductions paper 5.3: one
// clause, variables of different types, which an implementation may stage
// through one shared buffer): `reduction(+:i, f)` with int and float,
// one clause listing eight variables of eight types, nine clauses on one
// loop (every operator, mixed types), max and min of the same data, several
// variables at each level of a gang/worker/vector nest (vector level:
// char + int + float + double in one clause), and reductions next to
// private and firstprivate clauses. Values are exact in every order
// (integers, multiples of 1/8, powers of two), so every printed value is
// exact.
#include <stdio.h>
#include <limits.h>

#define N 300007
#define NK 19
#define NJ 6
#define NI 201

static int a[N];            // [-100, 100]
static float fv[N];         // k/8, k in [-8, 8]
static double dv[N];        // k/8, k in [-800, 800]
static unsigned u[N];
static int fac[N];          // 1, twelve 2s, a few -1s
static int x[NK][NJ][NI];   // [-9, 9]

static int failures;

static void check(const char *what, long long got, long long want)
{
    printf("%s %lld\n", what, got);
    if (got != want) {
        failures++;
        fprintf(stderr, "%s: got %lld, want %lld\n", what, got, want);
    }
}

static void checkd(const char *what, double got, double want)
{
    printf("%s %.15e\n", what, got);
    if (got != want) {
        failures++;
        fprintf(stderr, "%s: got %.17g, want %.17g\n", what, got, want);
    }
}

static void checkf(const char *what, float got, float want)
{
    printf("%s %.6e\n", what, got);
    if (got != want) {
        failures++;
        fprintf(stderr, "%s: got %.9g, want %.9g\n", what, got, want);
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

static void one_loop(void)
{
    int i;
    // int and float in one clause
    int si = 3;
    float sf = 0.5f;
#pragma acc parallel loop reduction(+:si, sf)
    for (i = 0; i < N; i++) {
        si += a[i];
        sf += fv[i];
    }
    int wsi = 3;
    float wsf = 0.5f;
    for (i = 0; i < N; i++) {
        wsi += a[i];
        wsf += fv[i];
    }
    check("reduction(+:int, float): int", si, wsi);
    checkf("reduction(+:int, float): float", sf, wsf);

    // eight types in one clause
    unsigned char c = 200;
    short sh = 0;
    int in = -1;
    long l = 1L << 40;
    long long ll = -(1LL << 41);
    float f = 2.0f;
    double d = -0.125;
    unsigned long long ul = ~0ULL;
#pragma acc parallel loop reduction(+:c, sh, in, l, ll, f, d, ul)
    for (i = 0; i < N; i++) {
        c += (unsigned char)u[i];
        sh += i < 300 ? a[i] : 0;
        in += a[i] * 2;
        l += a[i] * 1000L;
        ll += u[i];
        f += fv[i] * 2.0f;
        d += dv[i];
        ul += u[i] | 1u;
    }
    unsigned char wc = 200;
    short wsh = 0;
    int win = -1;
    long wl = 1L << 40;
    long long wll = -(1LL << 41);
    float wf = 2.0f;
    double wd = -0.125;
    unsigned long long wul = ~0ULL;
    for (i = 0; i < N; i++) {
        wc += (unsigned char)u[i];
        wsh += i < 300 ? a[i] : 0;
        win += a[i] * 2;
        wl += a[i] * 1000L;
        wll += u[i];
        wf += fv[i] * 2.0f;
        wd += dv[i];
        wul += u[i] | 1u;
    }
    check("eight types: unsigned char", c, wc);
    check("eight types: short", sh, wsh);
    check("eight types: int", in, win);
    check("eight types: long", l, wl);
    check("eight types: long long", ll, wll);
    checkf("eight types: float", f, wf);
    checkd("eight types: double", d, wd);
    printf("eight types: unsigned long long %llu\n", ul);
    failures += ul != wul;

    // nine clauses, every operator, mixed types
    long long s = 1;
    int p = -1;
    double mx = -1e9;
    float mn = 1e9f;
    unsigned band = ~0u;
    long bor = 0;
    unsigned short bx = 0x1234;
    int t = 1;
    double o = 0.0;
#pragma acc parallel loop reduction(+:s) reduction(*:p) reduction(max:mx) reduction(min:mn) \
    reduction(&:band) reduction(|:bor) reduction(^:bx) reduction(&&:t) reduction(||:o) vector_length(96)
    for (i = 0; i < N; i++) {
        s += a[i] * (long long)u[i];
        p *= fac[i];
        mx = dv[i] > mx ? dv[i] : mx;
        mn = fv[i] < mn ? fv[i] : mn;
        band &= u[i] | 0xf0f0f0f0u;
        bor |= (long)(u[i] & 0x11u) << 33;
        bx ^= (unsigned short)u[i];
        t = t && a[i] > -101;
        o = o || dv[i] == 100.0;
    }
    long long ws = 1;
    int wp = -1;
    double wmx = -1e9;
    float wmn = 1e9f;
    unsigned wand = ~0u;
    long wor = 0;
    unsigned short wx = 0x1234;
    double wo = 0.0;
    for (i = 0; i < N; i++) {
        ws += a[i] * (long long)u[i];
        wp *= fac[i];
        wmx = dv[i] > wmx ? dv[i] : wmx;
        wmn = fv[i] < wmn ? fv[i] : wmn;
        wand &= u[i] | 0xf0f0f0f0u;
        wor |= (long)(u[i] & 0x11u) << 33;
        wx ^= (unsigned short)u[i];
        wo = wo || dv[i] == 100.0;
    }
    check("nine clauses: +", s, ws);
    check("nine clauses: *", p, wp);
    checkd("nine clauses: max", mx, wmx);
    checkf("nine clauses: min", mn, wmn);
    check("nine clauses: &", band, wand);
    check("nine clauses: |", bor, wor);
    check("nine clauses: ^", bx, wx);
    check("nine clauses: &&", t, 1);
    checkd("nine clauses: ||", o, wo);

    // max and min of the same data; private and firstprivate beside them
    int hi = INT_MIN, lo = INT_MAX, tmpv, off = 1000;
#pragma acc parallel loop reduction(max:hi) reduction(min:lo) private(tmpv) firstprivate(off)
    for (i = 0; i < N; i++) {
        tmpv = a[i] * 3 + off;
        hi = tmpv > hi ? tmpv : hi;
        lo = tmpv < lo ? tmpv : lo;
    }
    int whi = INT_MIN, wlo = INT_MAX;
    for (i = 0; i < N; i++) {
        int v = a[i] * 3 + 1000;
        whi = v > whi ? v : whi;
        wlo = v < wlo ? v : wlo;
    }
    check("max and min of the same values: max", hi, whi);
    check("max and min of the same values: min", lo, wlo);
}

static void nest(void)
{
    static int vsum[NK][NJ], vmax[NK][NJ];
    static char vc[NK][NJ];
    static float vf[NK][NJ];
    static double vd[NK][NJ];
    static long wsum[NK];
    static int wmin[NK];
    int k, j, i;
    long long gsum = 0;
    int gmax = INT_MIN, gx = 0;
#pragma acc parallel loop gang num_workers(3) vector_length(32) reduction(+:gsum) reduction(max:gmax) \
    reduction(^:gx) copyout(vsum, vmax, vc, vf, vd, wsum, wmin)
    for (k = 0; k < NK; k++) {
        long ws = 0;
        int wm = INT_MAX;
#pragma acc loop worker reduction(+:ws) reduction(min:wm) reduction(+:gsum) reduction(max:gmax) \
    reduction(^:gx)
        for (j = 0; j < NJ; j++) {
            int vs = 0, vm = INT_MIN;
            char c = 0;
            float f = 0.0f;
            double d = 1.0;
#pragma acc loop vector reduction(+:vs, c, f) reduction(max:vm) reduction(*:d) \
    reduction(+:gsum) reduction(max:gmax) reduction(^:gx)
            for (i = 0; i < NI; i++) {
                vs += x[k][j][i];
                c += x[k][j][i] > 7;
                f += x[k][j][i] * 0.25f;
                vm = x[k][j][i] > vm ? x[k][j][i] : vm;
                d *= x[k][j][i] == 9 ? 2.0 : 1.0;
                gsum += x[k][j][i];
                gmax = x[k][j][i] * (k + 1) > gmax ? x[k][j][i] * (k + 1) : gmax;
                gx ^= (x[k][j][i] + 9) << (i % 8);
            }
            vsum[k][j] = vs;
            vmax[k][j] = vm;
            vc[k][j] = c;
            vf[k][j] = f;
            vd[k][j] = d;
            ws += vs;
            wm = vm < wm ? vm : wm;
        }
        wsum[k] = ws;
        wmin[k] = wm;
    }
    long long wgsum = 0;
    int wgmax = INT_MIN, wgx = 0, bad = 0;
    for (k = 0; k < NK; k++) {
        long ws = 0;
        int wm = INT_MAX;
        for (j = 0; j < NJ; j++) {
            int vs = 0, vm = INT_MIN;
            char c = 0;
            float f = 0.0f;
            double d = 1.0;
            for (i = 0; i < NI; i++) {
                vs += x[k][j][i];
                c += x[k][j][i] > 7;
                f += x[k][j][i] * 0.25f;
                vm = x[k][j][i] > vm ? x[k][j][i] : vm;
                d *= x[k][j][i] == 9 ? 2.0 : 1.0;
                wgsum += x[k][j][i];
                wgmax = x[k][j][i] * (k + 1) > wgmax ? x[k][j][i] * (k + 1) : wgmax;
                wgx ^= (x[k][j][i] + 9) << (i % 8);
            }
            bad += vsum[k][j] != vs || vmax[k][j] != vm || vc[k][j] != c || vf[k][j] != f || vd[k][j] != d;
            ws += vs;
            wm = vm < wm ? vm : wm;
        }
        bad += wsum[k] != ws || wmin[k] != wm;
    }
    check("nest: gang +", gsum, wgsum);
    check("nest: gang max", gmax, wgmax);
    check("nest: gang ^", gx, wgx);
    check("nest: worker and vector results: wrong", bad, 0);
}

int main(void)
{
    int i, k, j, twos = 0;
    for (i = 0; i < N; i++) {
        unsigned h = hash((unsigned)i + 31u);
        a[i] = (int)(h % 201u) - 100;
        fv[i] = (float)((int)(hash(h) % 17u) - 8) / 8.0f;
        dv[i] = (double)((int)(hash(h + 1u) % 1601u) - 800) / 8.0;
        u[i] = hash(h + 2u);
        fac[i] = h % 20011u == 5 && twos++ < 12 ? 2 : h % 19997u == 3 ? -1 : 1;
    }
    for (k = 0; k < NK; k++)
        for (j = 0; j < NJ; j++)
            for (i = 0; i < NI; i++)
                x[k][j][i] = (int)(hash((unsigned)((k * NJ + j) * NI + i) + 5u) % 19u) - 9;

    one_loop();
    nest();

    printf("%s\n", failures == 0 ? "PASS" : "FAIL");
    return failures != 0;
}
