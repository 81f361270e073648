// Where the reduction sits in a gang/worker/vector nest (the positions of the
// OpenUH reductions paper, section 5 and Table IV), each with + and * on int
// and double. The nest is the paper's: gang loop k (41 iterations), worker
// loop j (7), vector loop i (333); the loops that do not reduce do parallel
// work of their own (they fill tmp, checked at the end).
//   gang only    `loop gang reduction` on k; the variable is updated in
//                gang-redundant code after the worker loop; result after the
//                region.
//   worker only  variable declared in the gang loop's body with a value of
//                its own (k), `loop worker reduction` on j, updated in
//                worker-single code after the vector loop, stored per gang.
//   vector only  variable declared in the worker loop's body (value j),
//                `loop vector reduction` on i, stored per (k, j) right after
//                the vector loop (results are there at the end of the loop:
//                OpenACC 3.3 2.9.11).
//   same loop    `gang worker vector`, `gang vector`, `gang worker` and
//                `worker vector` on one loop (flattened index), the last two
//                with a vector / gang loop around or inside.
// Geometry clauses vary: num_workers(3), vector_length(37), num_gangs(6).
#include <stdio.h>
#include <math.h>

#define NK 41
#define NJ 7
#define NI 333

static int x[NK][NJ][NI];      // [-50, 50]
static int fi[NK][NJ][NI];     // 1, a few 2s and -1s (products stay below 2^30)
static double xd[NK][NJ][NI];  // k/8
static double fd[NK][NJ][NI];  // 1, a few 2s, 0.5s and -1s
static int tmp[NK][NJ][NI];
static int gfac[NK];          // per gang iteration: 1 2 -1
static double gfacd[NK];      // per gang iteration: 1 2 0.5 -1

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

static void show(const char *what, long long v)
{
    printf("%s %lld\n", what, v);
}

static void showd(const char *what, double v)
{
    printf("%s %.15e\n", what, v);
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

// tmp must hold x * m everywhere.
static void check_tmp(const char *what, int m)
{
    int k, j, i, bad = 0;
    for (k = 0; k < NK; k++)
        for (j = 0; j < NJ; j++)
            for (i = 0; i < NI; i++)
                bad += tmp[k][j][i] != x[k][j][i] * m;
    check(what, bad, 0);
}

static void gang_only(void)
{
    int k, j, i;
    int s = 17, p = -1;
    double sd = 0.125, pd = 3.0;
#pragma acc parallel loop gang reduction(+:s) copyin(x) copyout(tmp)
    for (k = 0; k < NK; k++) {
#pragma acc loop worker
        for (j = 0; j < NJ; j++) {
#pragma acc loop vector
            for (i = 0; i < NI; i++)
                tmp[k][j][i] = x[k][j][i] * 2;
        }
        s += x[k][k % NJ][k % NI];
    }
    check_tmp("gang only: tmp", 2);
#pragma acc parallel loop gang reduction(*:p) num_workers(3)
    for (k = 0; k < NK; k++) {
#pragma acc loop worker
        for (j = 0; j < NJ; j++) {
#pragma acc loop vector
            for (i = 0; i < NI; i++)
                tmp[k][j][i] = x[k][j][i] * 3;
        }
        p *= gfac[k] * fi[k][NJ - 1][NI - 1 - k];
    }
    check_tmp("gang only *: tmp", 3);
#pragma acc parallel loop gang reduction(+:sd) vector_length(37)
    for (k = 0; k < NK; k++) {
#pragma acc loop worker
        for (j = 0; j < NJ; j++) {
#pragma acc loop vector
            for (i = 0; i < NI; i++)
                tmp[k][j][i] = x[k][j][i] * 4;
        }
        sd += xd[k][k % NJ][NI - 1 - k];
    }
#pragma acc parallel loop gang reduction(*:pd) num_gangs(6)
    for (k = 0; k < NK; k++) {
#pragma acc loop worker
        for (j = 0; j < NJ; j++) {
#pragma acc loop vector
            for (i = 0; i < NI; i++)
                tmp[k][j][i] = x[k][j][i] * 5;
        }
        pd *= gfacd[k] * fd[k][k % NJ][k];
    }
    check_tmp("gang only double: tmp", 5);
    int ws = 17, wp = -1;
    double wsd = 0.125, wpd = 3.0;
    for (k = 0; k < NK; k++) {
        ws += x[k][k % NJ][k % NI];
        wp *= gfac[k] * fi[k][NJ - 1][NI - 1 - k];
        wsd += xd[k][k % NJ][NI - 1 - k];
        wpd *= gfacd[k] * fd[k][k % NJ][k];
    }
    check("gang only int +", s, ws);
    check("gang only int *", p, wp);
    checkd("gang only double +", sd, wsd);
    checkd("gang only double *", pd, wpd);
}

static void worker_only(void)
{
    static int out_s[NK], out_p[NK];
    static double out_sd[NK], out_pd[NK];
    int k, j, i;
#pragma acc parallel loop gang num_workers(3) copyout(out_s, out_p, out_sd, out_pd)
    for (k = 0; k < NK; k++) {
        int s = k, p = k % 3 - 1;
        double sd = k * 0.5, pd = 1.0 + k;
#pragma acc loop worker reduction(+:s) reduction(*:p)
        for (j = 0; j < NJ; j++) {
#pragma acc loop vector
            for (i = 0; i < NI; i++)
                tmp[k][j][i] = x[k][j][i] * 6;
            s += x[k][j][(j * 31) % NI];
            p *= fi[k][j][0] * fi[k][j][NI - 1];
        }
#pragma acc loop worker reduction(+:sd)
        for (j = 0; j < NJ; j++)
            sd += xd[k][j][k];
#pragma acc loop worker reduction(*:pd)
        for (j = 0; j < NJ; j++) {
#pragma acc loop vector
            for (i = 0; i < NI; i++)
                tmp[k][j][i] += x[k][j][i];
            pd *= fd[k][j][j] * fd[k][j][NI - 1 - j];
        }
        out_s[k] = s;
        out_p[k] = p;
        out_sd[k] = sd;
        out_pd[k] = pd;
    }
    check_tmp("worker only: tmp", 7);
    long long cs = 0, cp = 0, ws = 0, wp = 0;
    double csd = 0, cpd = 0, wsd = 0, wpd = 0;
    for (k = 0; k < NK; k++) {
        int s = k, p = k % 3 - 1;
        double sd = k * 0.5, pd = 1.0 + k;
        for (j = 0; j < NJ; j++) {
            s += x[k][j][(j * 31) % NI];
            p *= fi[k][j][0] * fi[k][j][NI - 1];
            sd += xd[k][j][k];
            pd *= fd[k][j][j] * fd[k][j][NI - 1 - j];
        }
        cs = (cs * 3 + out_s[k]) % 1000000007;
        ws = (ws * 3 + s) % 1000000007;
        cp = (cp * 3 + out_p[k]) % 1000000007;
        wp = (wp * 3 + p) % 1000000007;
        csd = csd * 0.5 + out_sd[k];
        wsd = wsd * 0.5 + sd;
        cpd = cpd * 0.5 + out_pd[k];
        wpd = wpd * 0.5 + pd;
    }
    check("worker only int +", cs, ws);
    check("worker only int *", cp, wp);
    checkd("worker only double +", csd, wsd);
    checkd("worker only double *", cpd, wpd);
}

static void vector_only(void)
{
    static int out_s[NK][NJ], out_p[NK][NJ];
    static double out_sd[NK][NJ], out_pd[NK][NJ];
    int k, j, i;
#pragma acc parallel loop gang vector_length(37) copyout(out_s, out_p)
    for (k = 0; k < NK; k++) {
#pragma acc loop worker
        for (j = 0; j < NJ; j++) {
            int s = j;
#pragma acc loop vector reduction(+:s)
            for (i = 0; i < NI; i++)
                s += x[k][j][i];
            out_s[k][j] = s;
            int p = -1;
#pragma acc loop vector reduction(*:p)
            for (i = 0; i < NI; i++)
                p *= fi[k][j][i];
            out_p[k][j] = p;
        }
    }
#pragma acc parallel num_gangs(6) num_workers(3) copyout(out_sd, out_pd)
    {
#pragma acc loop gang
        for (k = 0; k < NK; k++) {
#pragma acc loop worker
            for (j = 0; j < NJ; j++) {
                double sd = k + 0.5, pd = 0.25;
#pragma acc loop vector reduction(+:sd)
                for (i = 0; i < NI; i++)
                    sd += xd[k][j][i];
#pragma acc loop vector reduction(*:pd)
                for (i = 0; i < NI; i++)
                    pd *= fd[k][j][i];
                out_sd[k][j] = sd;
                out_pd[k][j] = pd;
            }
        }
    }
    int bad_s = 0, bad_p = 0, bad_sd = 0, bad_pd = 0;
    long long cs = 0, cp = 0;
    double csd = 0, cpd = 0;
    for (k = 0; k < NK; k++)
        for (j = 0; j < NJ; j++) {
            int s = j, p = -1;
            double sd = k + 0.5, pd = 0.25;
            for (i = 0; i < NI; i++) {
                s += x[k][j][i];
                p *= fi[k][j][i];
                sd += xd[k][j][i];
                pd *= fd[k][j][i];
            }
            bad_s += out_s[k][j] != s;
            bad_p += out_p[k][j] != p;
            bad_sd += out_sd[k][j] != sd;
            bad_pd += out_pd[k][j] != pd;
            cs = (cs * 7 + out_s[k][j]) % 1000000007;
            cp = (cp * 7 + out_p[k][j]) % 1000000007;
            csd += out_sd[k][j] * (j + 1);
            cpd += out_pd[k][j] * (k + 1);
        }
    show("vector only int +: checksum", cs);
    check("vector only int +: wrong rows", bad_s, 0);
    show("vector only int *: checksum", cp);
    check("vector only int *: wrong rows", bad_p, 0);
    showd("vector only double +: checksum", csd);
    check("vector only double +: wrong rows", bad_sd, 0);
    showd("vector only double *: checksum", cpd);
    check("vector only double *: wrong rows", bad_pd, 0);
}

// One loop carries two or three levels; the others nest around or inside.
static void same_loop(void)
{
    const int n = NK * NJ * NI;
    const int *xf = &x[0][0][0], *ff = &fi[0][0][0];
    const double *xdf = &xd[0][0][0], *fdf = &fd[0][0][0];
    int f, k, j, i;
    int s = 17, p = 1;
    double sd = -0.5, pd = -1.0;
#pragma acc parallel loop gang worker vector reduction(+:s) copyin(xf[0:n])
    for (f = 0; f < n; f++)
        s += xf[f];
#pragma acc parallel loop gang worker vector num_workers(3) vector_length(37) reduction(*:p) copyin(ff[0:n])
    for (f = 0; f < n; f++)
        p *= ff[f];
#pragma acc parallel loop gang worker vector num_gangs(6) reduction(+:sd) copyin(xdf[0:n])
    for (f = 0; f < n; f++)
        sd += xdf[f];
#pragma acc parallel loop gang worker vector reduction(*:pd) copyin(fdf[0:n])
    for (f = 0; f < n; f++)
        pd *= fdf[f];
    int ws = 17, wp = 1;
    double wsd = -0.5, wpd = -1.0;
    for (f = 0; f < n; f++) {
        ws += xf[f];
        wp *= ff[f];
        wsd += xdf[f];
        wpd *= fdf[f];
    }
    check("gang worker vector (one loop) int +", s, ws);
    check("gang worker vector (one loop) int *", p, wp);
    checkd("gang worker vector (one loop) double +", sd, wsd);
    checkd("gang worker vector (one loop) double *", pd, wpd);

    // gang vector on one loop
    int s2 = -17;
    double pd2 = 2.0;
#pragma acc parallel loop gang vector reduction(+:s2) vector_length(64) copyin(xf[0:n])
    for (f = 0; f < n; f++)
        s2 += xf[f];
#pragma acc parallel loop gang vector reduction(*:pd2) copyin(fdf[0:n])
    for (f = 0; f < n; f++)
        pd2 *= fdf[f];
    check("gang vector (one loop) int +", s2, ws - 34);
    checkd("gang vector (one loop) double *", pd2, -2.0 * wpd);

    // gang worker on the (k, j) loop, a plain vector loop inside
    int s3 = 100;
    double sd3 = 0.0;
#pragma acc parallel loop gang worker reduction(+:s3) reduction(+:sd3) num_workers(3) copyin(x, xd) copyout(tmp)
    for (f = 0; f < NK * NJ; f++) {
#pragma acc loop vector
        for (i = 0; i < NI; i++)
            tmp[f / NJ][f % NJ][i] = x[f / NJ][f % NJ][i] * 8;
        s3 += x[f / NJ][f % NJ][f % NI];
        sd3 += xd[f / NJ][f % NJ][0];
    }
    check_tmp("gang worker (one loop): tmp", 8);
    int ws3 = 100;
    double wsd3 = 0.0;
    for (f = 0; f < NK * NJ; f++) {
        ws3 += x[f / NJ][f % NJ][f % NI];
        wsd3 += xd[f / NJ][f % NJ][0];
    }
    check("gang worker (one loop) int +", s3, ws3);
    checkd("gang worker (one loop) double +", sd3, wsd3);

    // worker vector on the (j, i) loop inside a plain gang loop: one result per k
    static int out[NK];
    static double outd[NK];
#pragma acc parallel loop gang num_workers(3) vector_length(37) copyout(out, outd)
    for (k = 0; k < NK; k++) {
        int t = -k;
        double td = 1.0;
#pragma acc loop worker vector reduction(+:t)
        for (f = 0; f < NJ * NI; f++)
            t += x[k][f / NI][f % NI];
#pragma acc loop worker vector reduction(*:td)
        for (f = 0; f < NJ * NI; f++)
            td *= fd[k][f / NI][f % NI];
        out[k] = t;
        outd[k] = td;
    }
    int bad = 0;
    for (k = 0; k < NK; k++) {
        int t = -k;
        double td = 1.0;
        for (j = 0; j < NJ; j++)
            for (i = 0; i < NI; i++) {
                t += x[k][j][i];
                td *= fd[k][j][i];
            }
        bad += (out[k] != t) + (outd[k] != td);
    }
    check("worker vector (one loop) in a gang loop: wrong rows", bad, 0);
}

int main(void)
{
    int k, j, i, twos = 0;
    for (k = 0; k < NK; k++)
        for (j = 0; j < NJ; j++)
            for (i = 0; i < NI; i++) {
                unsigned h = hash((unsigned)((k * NJ + j) * NI + i));
                x[k][j][i] = (int)(h % 101u) - 50;
                xd[k][j][i] = (double)((int)(hash(h) % 801u) - 400) / 8.0;
                fi[k][j][i] = 1;
                fd[k][j][i] = 1.0;
                if (h % 613u == 1 && twos < 24) {
                    fi[k][j][i] = 2;
                    twos++;
                } else if (h % 587u == 2) {
                    fi[k][j][i] = -1;
                }
                if (h % 401u == 3)
                    fd[k][j][i] = 2.0;
                else if (h % 409u == 4)
                    fd[k][j][i] = 0.5;
                else if (h % 419u == 5)
                    fd[k][j][i] = -1.0;
            }

    for (k = 0; k < NK; k++) {
        gfac[k] = k % 5 == 1 ? 2 : k % 7 == 3 ? -1 : 1;
        gfacd[k] = k % 6 == 1 ? 2.0 : k % 4 == 2 ? 0.5 : k % 9 == 3 ? -1.0 : 1.0;
    }

    gang_only();
    worker_only();
    vector_only();
    same_loop();

    printf("%s\n", failures == 0 ? "PASS" : "FAIL");
    return failures != 0;
}
