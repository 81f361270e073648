// Reduction variables that are not scalars, as OpenACC 3.3 allows them
// (2.5.15 restrictions: "a var in a reduction clause must be a scalar
// variable name, an aggregate variable name, an array element, or a
// subarray"; 2.9.11: an array or subarray is reduced element by element, a
// composite variable member by member). Not allowed, so not here: a member of
// a struct (`reduction(+:s.x)`: "the reduction var may not be a member of a
// composite variable"). Covered: a whole array (a histogram, `h[b[i]] += 1`),
// a subarray h[2:5] with explicit copy, one array element (the loop touches
// no other element: 2.5.15), a whole struct of an int and a double, a
// per-gang local array reduced by a vector loop, and per-column maxima into a
// double array. GCC 12 cannot check this file (it crashes on, or drops,
// these reductions): the oracle is plain cc.
#include <stdio.h>
#include <limits.h>

#define N 100003
#define B 8
#define NK 17
#define NI 333

struct acc2 {
    int n;
    double sum;
};

static int bin[N];          // 0..B-1
static int a[N];            // [-500, 500]
static double dv[N];        // k/8
static int x[NK][NI];       // [-50, 50]

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

static unsigned hash(unsigned v)
{
    v ^= v >> 16;
    v *= 0x7feb352dU;
    v ^= v >> 15;
    v *= 0x846ca68bU;
    v ^= v >> 16;
    return v;
}

int main(void)
{
    int i, k, b;
    char what[64];
    for (i = 0; i < N; i++) {
        unsigned h = hash((unsigned)i + 8u);
        bin[i] = (int)(h % B);
        a[i] = (int)(hash(h) % 1001u) - 500;
        dv[i] = (double)((int)(hash(h + 1u) % 801u) - 400) / 8.0;
    }
    for (k = 0; k < NK; k++)
        for (i = 0; i < NI; i++)
            x[k][i] = (int)(hash((unsigned)(k * NI + i) + 3u) % 101u) - 50;

    // Whole array: a histogram, starting from nonzero counts
    int h[B], wh[B];
    for (b = 0; b < B; b++)
        h[b] = wh[b] = b * 10;
#pragma acc parallel loop reduction(+:h)
    for (i = 0; i < N; i++)
        h[bin[i]] += 1;
    for (i = 0; i < N; i++)
        wh[bin[i]] += 1;
    for (b = 0; b < B; b++) {
        snprintf(what, sizeof what, "histogram h[%d]", b);
        check(what, h[b], wh[b]);
    }

    // Subarray h[2:5] with explicit copy; the loop touches only h[2..6]
    long long s[B], ws[B];
    for (b = 0; b < B; b++)
        s[b] = ws[b] = -b;
#pragma acc parallel copy(s[2:5])
    {
#pragma acc loop gang vector reduction(+:s[2:5])
        for (i = 0; i < N; i++)
            s[2 + i % 5] += a[i];
    }
    for (i = 0; i < N; i++)
        ws[2 + i % 5] += a[i];
    for (b = 2; b < 7; b++) {
        snprintf(what, sizeof what, "subarray s[%d]", b);
        check(what, s[b], ws[b]);
    }
    check("subarray: s[0] untouched", s[0], 0);
    check("subarray: s[7] untouched", s[7], -7);

    // One array element
    int m[4] = {1, 2, INT_MIN, 4};
#pragma acc parallel loop reduction(max:m[2])
    for (i = 0; i < N; i++)
        m[2] = a[i] * 2 > m[2] ? a[i] * 2 : m[2];
    int wm = INT_MIN;
    for (i = 0; i < N; i++)
        wm = a[i] * 2 > wm ? a[i] * 2 : wm;
    check("array element m[2] max", m[2], wm);
    check("other elements", m[0] * 1000 + m[1] * 100 + m[3], 1204);

    // A whole struct: each member reduced
    struct acc2 st = {5, 0.5}, wst = {5, 0.5};
#pragma acc parallel loop reduction(+:st)
    for (i = 0; i < N; i++) {
        st.n += a[i] > 0;
        st.sum += dv[i];
    }
    for (i = 0; i < N; i++) {
        wst.n += a[i] > 0;
        wst.sum += dv[i];
    }
    check("struct member n", st.n, wst.n);
    checkd("struct member sum", st.sum, wst.sum);

    // A per-gang local array reduced by a vector loop: sign counts per row
    static int signs[NK][3];
#pragma acc parallel loop gang vector_length(64) copyout(signs)
    for (k = 0; k < NK; k++) {
        int c[3] = {0, 0, k};
#pragma acc loop vector reduction(+:c)
        for (i = 0; i < NI; i++)
            c[(x[k][i] > 0) - (x[k][i] < 0) + 1] += 1;
        signs[k][0] = c[0];
        signs[k][1] = c[1];
        signs[k][2] = c[2];
    }
    int bad = 0;
    for (k = 0; k < NK; k++) {
        int c[3] = {0, 0, k};
        for (i = 0; i < NI; i++)
            c[(x[k][i] > 0) - (x[k][i] < 0) + 1] += 1;
        bad += signs[k][0] != c[0] || signs[k][1] != c[1] || signs[k][2] != c[2];
    }
    check("per-gang array, vector reduction: wrong rows", bad, 0);

    // Per-column maxima into a double array, over a gang loop
    double colmax[NI], wcol[NI];
    for (i = 0; i < NI; i++)
        colmax[i] = wcol[i] = -100.0;
#pragma acc parallel loop gang reduction(max:colmax) copyin(x)
    for (k = 0; k < NK; k++) {
        for (i = 0; i < NI; i++)
            colmax[i] = x[k][i] * 0.5 > colmax[i] ? x[k][i] * 0.5 : colmax[i];
    }
    double csum = 0.0;
    bad = 0;
    for (k = 0; k < NK; k++)
        for (i = 0; i < NI; i++)
            wcol[i] = x[k][i] * 0.5 > wcol[i] ? x[k][i] * 0.5 : wcol[i];
    for (i = 0; i < NI; i++) {
        bad += colmax[i] != wcol[i];
        csum += colmax[i];
    }
    checkd("column maxima: sum", csum, csum);
    check("column maxima: wrong", bad, 0);

    printf("%s\n", failures == 0 ? "PASS" : "FAIL");
    return failures != 0;
}
