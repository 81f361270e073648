// tolerance: 1e-5 1e-9
// Reductions and the compute constructs around them (OpenACC 3.3 2.5.15,
// 2.6.2, 2.9.11, 2.11):
//  * `parallel ... reduction(op:var)` on the construct itself: one private copy
//    per gang, combined with the original at the end of the region. Only
//    answers that do not depend on the number of gangs are printed here
//    (num_gangs(7) with a `loop gang` inside, gang-redundant max/min/&/|/&&/||
//    updates that give the same result once or seven times, num_gangs(1));
//    red_redundant.c has the gang-redundant + * ^ updates whose answer is
//    the number of gangs.
//  * the variable's data: a reduction clause on a compute or combined
//    construct implies copy (2.6.2); a `loop` reduction inside `parallel`
//    does not, so those regions say copy(var) (without it a scalar is
//    firstprivate and the host never sees the result); a variable already
//    present from a data region collects two regions' reductions and comes
//    back at its end; copy(var) next to reduction(var) on one construct;
//    if(0) (the host runs the region); async + wait; a global variable.
//  * serial: `serial reduction`, `serial loop reduction`, `loop reduction`
//    in a serial region with copy, several loops of one serial region.
//  * `parallel` with `loop reduction` that names no level (the compiler
//    picks), two reduction loops in one parallel region (each result is
//    there when the region ends).
#include <stdio.h>
#include <math.h>
#include <limits.h>

#define N 100003

static int a[N];        // [-300, 300]
static double d[N];     // (0, 1)
static long long global_sum = 5;

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

static long long sum_a(void)
{
    long long s = 0;
    for (int i = 0; i < N; i++)
        s += a[i];
    return s;
}

static double sum_d(void)
{
    double s = 0;
    for (int i = 0; i < N; i++)
        s += d[i];
    return s;
}

static void on_parallel(void)
{
    int i;
    // Gang-partitioned loop inside a reduction on the construct: every
    // iteration runs once, in some gang's private copy.
    long long s = 17;
#pragma acc parallel num_gangs(7) reduction(+:s)
    {
#pragma acc loop gang
        for (i = 0; i < N; i++)
            s += a[i];
    }
    check("parallel num_gangs(7) reduction(+), loop gang", s, 17 + sum_a());

    double sd = 0.5;
#pragma acc parallel num_gangs(3) reduction(+:sd) copyin(d)
    {
#pragma acc loop gang
        for (i = 0; i < N; i++)
            sd += d[i];
    }
    checkd("parallel num_gangs(3) reduction(+) double, loop gang", sd, 0.5 + sum_d(), 1e-10);

    // Gang-redundant updates with idempotent operators: the same result
    // whether one gang or seven run them.
    int mx = -5, mn = 5, band = 0xff, bor = 0x100, t = 1, o = 0;
#pragma acc parallel num_gangs(7) reduction(max:mx) reduction(min:mn) reduction(&:band) \
    reduction(|:bor) reduction(&&:t) reduction(||:o)
    {
        mx = mx > 42 ? mx : 42;
        mn = mn < -42 ? mn : -42;
        band &= 0x0f;
        bor |= 0x3;
        t = t && 1;
        o = o || 1;
    }
    check("gang-redundant max", mx, 42);
    check("gang-redundant min", mn, -42);
    check("gang-redundant &", band, 0x0f);
    check("gang-redundant |", bor, 0x103);
    check("gang-redundant &&", t, 1);
    check("gang-redundant ||", o, 1);

    // One gang: a gang-redundant += happens once.
    int one = 10;
    double pone = 1.5;
#pragma acc parallel num_gangs(1) reduction(+:one) reduction(*:pone)
    {
        one += 1;
        pone *= 4.0;
    }
    check("num_gangs(1) gang-redundant +", one, 11);
    checkd("num_gangs(1) gang-redundant *", pone, 6.0, 0.0);

    // Reduction on the construct and gang-redundant max over a loop that
    // every gang runs in full (not gang-partitioned: a seq loop).
    int rmax = INT_MIN;
#pragma acc parallel num_gangs(4) reduction(max:rmax)
    {
#pragma acc loop seq
        for (i = 0; i < N; i++)
            rmax = a[i] > rmax ? a[i] : rmax;
    }
    int wmax = INT_MIN;
    for (i = 0; i < N; i++)
        wmax = a[i] > wmax ? a[i] : wmax;
    check("parallel reduction(max) over a seq loop", rmax, wmax);
}

static void data_of_the_variable(void)
{
    int i;
    long long sa = sum_a();

    // loop reduction inside parallel: the variable needs copy
    long long s1 = 1;
#pragma acc parallel copy(s1)
    {
#pragma acc loop gang vector reduction(+:s1)
        for (i = 0; i < N; i++)
            s1 += a[i];
    }
    check("parallel copy(s) + loop gang vector reduction", s1, 1 + sa);

    // loop reduction without a level: the compiler picks one
    long long s2 = 2;
    int m2 = INT_MAX;
#pragma acc parallel copy(s2, m2)
    {
#pragma acc loop reduction(+:s2)
        for (i = 0; i < N; i++)
            s2 += a[i];
#pragma acc loop reduction(min:m2)
        for (i = 0; i < N; i++)
            m2 = a[i] * 3 < m2 ? a[i] * 3 : m2;
    }
    int wmin = INT_MAX;
    for (i = 0; i < N; i++)
        wmin = a[i] * 3 < wmin ? a[i] * 3 : wmin;
    check("parallel copy + loop reduction (no level) +", s2, 2 + sa);
    check("parallel copy + second loop reduction (no level) min", m2, wmin);

    // combined construct: implied copy
    long long s3 = 3;
#pragma acc parallel loop reduction(+:s3)
    for (i = 0; i < N; i++)
        s3 += a[i];
    check("parallel loop reduction, implied copy", s3, 3 + sa);

    // copy and reduction on the same construct
    long long s4 = 4;
#pragma acc parallel loop reduction(+:s4) copy(s4)
    for (i = 0; i < N; i++)
        s4 += a[i];
    check("parallel loop reduction + copy", s4, 4 + sa);

    // present in an enclosing data region: two regions accumulate into the
    // device copy, which comes back when the data region ends
    long long s5 = 5;
#pragma acc data copy(s5) copyin(a)
    {
#pragma acc parallel loop reduction(+:s5)
        for (i = 0; i < N; i++)
            s5 += a[i];
#pragma acc parallel loop reduction(+:s5) present(s5)
        for (i = 0; i < N; i++)
            s5 += 2 * a[i];
    }
    check("two reductions into a variable present in a data region", s5, 5 + 3 * sa);

    // if(0): the region runs on the host, same answer
    int use_device = 0;
    long long s6 = 6;
#pragma acc parallel loop reduction(+:s6) if(use_device)
    for (i = 0; i < N; i++)
        s6 += a[i];
    check("parallel loop reduction if(0)", s6, 6 + sa);

    // async: the result is there after the wait
    long long s7 = 7;
    double d7 = 0.0;
#pragma acc parallel loop reduction(+:s7) reduction(+:d7) async(1)
    for (i = 0; i < N; i++) {
        s7 += a[i];
        d7 += d[i];
    }
#pragma acc wait(1)
    check("async reduction after wait", s7, 7 + sa);
    checkd("async double reduction after wait", d7, sum_d(), 1e-10);

    // a file-scope variable
    global_sum = 5;
#pragma acc parallel loop reduction(+:global_sum)
    for (i = 0; i < N; i++)
        global_sum += a[i];
    check("global variable", global_sum, 5 + sa);

    // the result is an ordinary host value right after the region; the next
    // region reads it (firstprivate)
    long long s8 = 0;
#pragma acc parallel loop reduction(+:s8)
    for (i = 0; i < N; i++)
        s8 += a[i] > 0;
    long long above = 0;
#pragma acc parallel loop reduction(+:above)
    for (i = 0; i < N; i++)
        above += a[i] * 1000LL > s8;
    long long wpos = 0, wabove = 0;
    for (i = 0; i < N; i++)
        wpos += a[i] > 0;
    for (i = 0; i < N; i++)
        wabove += a[i] * 1000LL > wpos;
    check("count of positives", s8, wpos);
    check("count above it, next region", above, wabove);
}

static void on_serial(void)
{
    int i;
    long long sa = sum_a();

    long long s1 = 11;
#pragma acc serial reduction(+:s1)
    {
        for (i = 0; i < N; i++)
            s1 += a[i];
    }
    check("serial reduction(+)", s1, 11 + sa);

    int p = 1;
#pragma acc serial loop reduction(*:p)
    for (i = 0; i < 20; i++)
        p *= (i % 3 == 0) ? 2 : (i % 7 == 1 ? -1 : 1);
    int wp = 1;
    for (i = 0; i < 20; i++)
        wp *= (i % 3 == 0) ? 2 : (i % 7 == 1 ? -1 : 1);
    check("serial loop reduction(*)", p, wp);

    double sd = 0.25;
    int mx = INT_MIN;
#pragma acc serial copy(sd, mx) copyin(d)
    {
#pragma acc loop reduction(+:sd)
        for (i = 0; i < N; i++)
            sd += d[i];
#pragma acc loop reduction(max:mx)
        for (i = 0; i < N; i++)
            if (a[i] - i % 7 > mx)
                mx = a[i] - i % 7;
    }
    int wmx = INT_MIN;
    for (i = 0; i < N; i++)
        wmx = a[i] - i % 7 > wmx ? a[i] - i % 7 : wmx;
    checkd("serial copy + loop reduction(+) double", sd, 0.25 + sum_d(), 1e-10);
    check("serial copy + loop reduction(max)", mx, wmx);

    // a serial region that reduces, then uses the result itself (a seq loop:
    // its result is there at the end of the loop, 2.9.11)
    long long s2 = 0, above = 0;
#pragma acc serial copy(s2, above)
    {
#pragma acc loop seq reduction(+:s2)
        for (i = 0; i < N; i++)
            s2 += a[i];
        for (i = 0; i < N; i++)
            above += a[i] * (long long)N > s2;
    }
    long long wabove = 0;
    for (i = 0; i < N; i++)
        wabove += a[i] * (long long)N > sa;
    check("serial: sum", s2, sa);
    check("serial: elements above the mean, same region", above, wabove);
}

int main(void)
{
    for (int i = 0; i < N; i++) {
        unsigned h = hash((unsigned)i * 5u + 3u);
        a[i] = (int)(h % 601u) - 300;
        d[i] = ((double)(hash(h) >> 8) + 0.5) / 16777216.0;
    }
    on_parallel();
    data_of_the_variable();
    on_serial();

    printf("%s\n", failures == 0 ? "PASS" : "FAIL");
    return failures != 0;
}
