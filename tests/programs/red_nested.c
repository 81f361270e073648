// Reductions that span nested loops (OpenACC 3.3 2.9.11: "a reduction clause
// containing that variable must appear on each of those loop directives"):
// gang+worker, worker+vector, gang+vector and gang+worker+vector nests with
// the clause on every level, for + * max min ^ && on int and double; the
// original value counted once however many levels combine; updates in
// worker-single code beside a vector reduction of the same variable; one
// variable per level in one nest (vector sum -> worker sum -> gang total);
// an inner result read by every lane of the loops that follow (a row minimum
// subtracted from the row); `private` on the gang loop; inner loops without a
// directive (sequential in each thread, no clause needed); `loop seq
// reduction` inside a vector loop; collapse(2). Also the paper's figures 11
// and 14 (OpenUH reductions paper, section 5) written the way the spec
// allows: the variable of the inner reduction declared in the enclosing loop
// body, and every loop that the reduction spans carrying the clause.
#include <stdio.h>
#include <limits.h>

#define NK 23
#define NJ 5
#define NI 129

static int x[NK][NJ][NI];      // [-60, 60]
static double xd[NK][NJ][NI];  // k/16
static int fi[NK][NJ][NI];     // 1, twenty 2s, a few -1s
static double fd[NK][NJ][NI];  // 1, few 2s, 0.5s, -1s
static int tmp[NK][NJ][NI];
static int temp[NK][NJ][NI];   // the paper's temp
static int y[NK][NJ][NI];

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

static void gang_worker(void)
{
    int k, j, i;
    int s = 17, mx = INT_MIN;
    double pd = 0.5;
#pragma acc parallel loop gang reduction(+:s) reduction(max:mx) num_workers(3) copyin(x) copyout(tmp)
    for (k = 0; k < NK; k++) {
#pragma acc loop worker reduction(+:s) reduction(max:mx)
        for (j = 0; j < NJ; j++) {
#pragma acc loop vector
            for (i = 0; i < NI; i++)
                tmp[k][j][i] = x[k][j][i] + 1;
            s += x[k][j][(k + j) % NI];
            mx = x[k][j][k] * 1000 + k * 10 + j > mx ? x[k][j][k] * 1000 + k * 10 + j : mx;
        }
    }
#pragma acc parallel loop gang reduction(*:pd) vector_length(37)
    for (k = 0; k < NK; k++) {
#pragma acc loop worker reduction(*:pd)
        for (j = 0; j < NJ; j++)
            pd *= fd[k][j][0] * fd[k][j][NI - 1];
    }
    int ws = 17, wmx = INT_MIN, bad = 0;
    double wpd = 0.5;
    for (k = 0; k < NK; k++)
        for (j = 0; j < NJ; j++) {
            ws += x[k][j][(k + j) % NI];
            int v = x[k][j][k] * 1000 + k * 10 + j;
            wmx = v > wmx ? v : wmx;
            wpd *= fd[k][j][0] * fd[k][j][NI - 1];
            for (i = 0; i < NI; i++)
                bad += tmp[k][j][i] != x[k][j][i] + 1;
        }
    check("gang+worker int +", s, ws);
    check("gang+worker int max", mx, wmx);
    checkd("gang+worker double *", pd, wpd);
    check("gang+worker: tmp wrong", bad, 0);
}

static void worker_vector(void)
{
    static int out_s[NK], out_x[NK];
    static double out_sd[NK], out_pd[NK];
    int k, j, i;
#pragma acc parallel loop gang num_workers(4) vector_length(32) copyout(out_s, out_x, out_sd, out_pd)
    for (k = 0; k < NK; k++) {
        int s = k, bx = k * 0x111;
        double sd = -k, pd = 1.0;
#pragma acc loop worker reduction(+:s) reduction(^:bx)
        for (j = 0; j < NJ; j++) {
#pragma acc loop vector reduction(+:s) reduction(^:bx)
            for (i = 0; i < NI; i++) {
                s += x[k][j][i];
                bx ^= x[k][j][i] * (i + 1);
            }
        }
#pragma acc loop worker reduction(+:sd)
        for (j = 0; j < NJ; j++) {
#pragma acc loop vector reduction(+:sd)
            for (i = 0; i < NI; i++)
                sd += xd[k][j][i];
        }
#pragma acc loop worker reduction(*:pd)
        for (j = 0; j < NJ; j++) {
#pragma acc loop vector reduction(*:pd)
            for (i = 0; i < NI; i++)
                pd *= fd[k][j][i];
        }
        out_s[k] = s;
        out_x[k] = bx;
        out_sd[k] = sd;
        out_pd[k] = pd;
    }
    int bad_s = 0, bad_x = 0, bad_sd = 0, bad_pd = 0;
    long long cs = 0;
    for (k = 0; k < NK; k++) {
        int s = k, bx = k * 0x111;
        double sd = -k, pd = 1.0;
        for (j = 0; j < NJ; j++)
            for (i = 0; i < NI; i++) {
                s += x[k][j][i];
                bx ^= x[k][j][i] * (i + 1);
                sd += xd[k][j][i];
                pd *= fd[k][j][i];
            }
        bad_s += out_s[k] != s;
        bad_x += out_x[k] != bx;
        bad_sd += out_sd[k] != sd;
        bad_pd += out_pd[k] != pd;
        cs = (cs * 131 + out_s[k] + out_x[k]) % 1000000007;
    }
    printf("worker+vector checksum %lld\n", cs);
    check("worker+vector int +: wrong rows", bad_s, 0);
    check("worker+vector int ^: wrong rows", bad_x, 0);
    check("worker+vector double +: wrong rows", bad_sd, 0);
    check("worker+vector double *: wrong rows", bad_pd, 0);
}

static void gang_worker_vector(void)
{
    int k, j, i;
    int s = 17, p = -1, mn = INT_MAX, t = 1;
    double sd = 0.0625, pd = 1.5;
#pragma acc parallel loop gang reduction(+:s) copyin(x)
    for (k = 0; k < NK; k++) {
#pragma acc loop worker reduction(+:s)
        for (j = 0; j < NJ; j++) {
#pragma acc loop vector reduction(+:s)
            for (i = 0; i < NI; i++)
                s += x[k][j][i];
        }
    }
#pragma acc parallel loop gang reduction(*:p) num_gangs(7) num_workers(2) vector_length(64)
    for (k = 0; k < NK; k++) {
#pragma acc loop worker reduction(*:p)
        for (j = 0; j < NJ; j++) {
#pragma acc loop vector reduction(*:p)
            for (i = 0; i < NI; i++)
                p *= fi[k][j][i];
        }
    }
#pragma acc parallel num_gangs(5) num_workers(3) vector_length(37) copy(mn, t, sd, pd)
    {
#pragma acc loop gang reduction(min:mn) reduction(&&:t)
        for (k = 0; k < NK; k++) {
#pragma acc loop worker reduction(min:mn) reduction(&&:t)
            for (j = 0; j < NJ; j++) {
#pragma acc loop vector reduction(min:mn) reduction(&&:t)
                for (i = 0; i < NI; i++) {
                    mn = x[k][j][i] - i < mn ? x[k][j][i] - i : mn;
                    t = t && x[k][j][i] > -61;
                }
            }
        }
#pragma acc loop gang reduction(+:sd)
        for (k = 0; k < NK; k++) {
#pragma acc loop worker reduction(+:sd)
            for (j = 0; j < NJ; j++) {
#pragma acc loop vector reduction(+:sd)
                for (i = 0; i < NI; i++)
                    sd += xd[k][j][i];
            }
        }
#pragma acc loop gang reduction(*:pd)
        for (k = 0; k < NK; k++) {
#pragma acc loop worker reduction(*:pd)
            for (j = 0; j < NJ; j++) {
#pragma acc loop vector reduction(*:pd)
                for (i = 0; i < NI; i++)
                    pd *= fd[k][j][i];
            }
        }
    }
    int ws = 17, wp = -1, wmn = INT_MAX;
    double wsd = 0.0625, wpd = 1.5;
    for (k = 0; k < NK; k++)
        for (j = 0; j < NJ; j++)
            for (i = 0; i < NI; i++) {
                ws += x[k][j][i];
                wp *= fi[k][j][i];
                wmn = x[k][j][i] - i < wmn ? x[k][j][i] - i : wmn;
                wsd += xd[k][j][i];
                wpd *= fd[k][j][i];
            }
    check("gang+worker+vector int +", s, ws);
    check("gang+worker+vector int *", p, wp);
    check("gang+worker+vector int min", mn, wmn);
    check("gang+worker+vector int &&", t, 1);
    checkd("gang+worker+vector double +", sd, wsd);
    checkd("gang+worker+vector double *", pd, wpd);
}

static void gang_vector(void)
{
    int k, j, i, f;
    int s = -5;
    double mx = -1e300;
    // gang loop and a vector loop directly inside it
#pragma acc parallel loop gang reduction(+:s) reduction(max:mx) vector_length(96)
    for (k = 0; k < NK; k++) {
#pragma acc loop vector reduction(+:s) reduction(max:mx)
        for (f = 0; f < NJ * NI; f++) {
            s += x[k][f / NI][f % NI];
            mx = xd[k][f / NI][f % NI] > mx ? xd[k][f / NI][f % NI] : mx;
        }
    }
    // gang loop around a `worker vector` loop
    int s2 = 5;
#pragma acc parallel loop gang reduction(+:s2) num_workers(4)
    for (k = 0; k < NK; k++) {
#pragma acc loop worker vector reduction(+:s2)
        for (f = 0; f < NJ * NI; f++)
            s2 += x[k][f / NI][f % NI];
    }
    // `gang worker` loop around a vector loop
    int s3 = 0;
#pragma acc parallel loop gang worker reduction(+:s3) num_workers(2)
    for (f = 0; f < NK * NJ; f++) {
#pragma acc loop vector reduction(+:s3)
        for (i = 0; i < NI; i++)
            s3 += x[f / NJ][f % NJ][i] * (f % 3);
    }
    int ws = -5, ws3 = 0;
    double wmx = -1e300;
    for (k = 0; k < NK; k++)
        for (j = 0; j < NJ; j++)
            for (i = 0; i < NI; i++) {
                ws += x[k][j][i];
                wmx = xd[k][j][i] > wmx ? xd[k][j][i] : wmx;
                ws3 += x[k][j][i] * ((k * NJ + j) % 3);
            }
    check("gang+vector int +", s, ws);
    checkd("gang+vector double max", mx, wmx);
    check("gang + (worker vector) int +", s2, ws + 10);
    check("(gang worker) + vector int +", s3, ws3);
}

// One variable per level: vector sums -> worker sums -> gang total, each
// result used by the level above.
static void per_level(void)
{
    static int rowsum[NK][NJ], planesum[NK];
    int k, j, i;
    long long total = 1000;
#pragma acc parallel loop gang reduction(+:total) num_workers(2) vector_length(64) copyout(rowsum, planesum)
    for (k = 0; k < NK; k++) {
        int wsum = k;
#pragma acc loop worker reduction(+:wsum)
        for (j = 0; j < NJ; j++) {
            int vsum = j;
#pragma acc loop vector reduction(+:vsum)
            for (i = 0; i < NI; i++)
                vsum += x[k][j][i];
            rowsum[k][j] = vsum;
            wsum += vsum;
        }
        planesum[k] = wsum;
        total += wsum;
    }
    long long wtotal = 1000;
    int bad = 0;
    for (k = 0; k < NK; k++) {
        int wsum = k;
        for (j = 0; j < NJ; j++) {
            int vsum = j;
            for (i = 0; i < NI; i++)
                vsum += x[k][j][i];
            bad += rowsum[k][j] != vsum;
            wsum += vsum;
        }
        bad += planesum[k] != wsum;
        wtotal += wsum;
    }
    check("per level: total", total, wtotal);
    check("per level: wrong row or plane sums", bad, 0);

    // Updates in worker-single code beside a vector reduction of the same
    // variable: `c += 1` once per worker iteration, not once per lane.
    static int cnt[NK];
#pragma acc parallel loop gang num_workers(3) vector_length(32) copyout(cnt)
    for (k = 0; k < NK; k++) {
        int c = 100;
#pragma acc loop worker reduction(+:c)
        for (j = 0; j < NJ; j++) {
            c += 1;
#pragma acc loop vector reduction(+:c)
            for (i = 0; i < NI; i++)
                c += x[k][j][i] > 0;
            c += 1000;
        }
        cnt[k] = c;
    }
    bad = 0;
    for (k = 0; k < NK; k++) {
        int c = 100;
        for (j = 0; j < NJ; j++) {
            c += 1001;
            for (i = 0; i < NI; i++)
                c += x[k][j][i] > 0;
        }
        bad += cnt[k] != c;
    }
    check("worker-single updates beside a vector reduction: wrong", bad, 0);
}

// A reduction's result read by every lane of the loops after it.
static void broadcast(void)
{
    int k, j, i;
#pragma acc parallel loop gang num_workers(2) vector_length(32) copyin(x) copyout(y)
    for (k = 0; k < NK; k++) {
#pragma acc loop worker
        for (j = 0; j < NJ; j++) {
            int rmin = INT_MAX;
#pragma acc loop vector reduction(min:rmin)
            for (i = 0; i < NI; i++)
                rmin = x[k][j][i] < rmin ? x[k][j][i] : rmin;
#pragma acc loop vector
            for (i = 0; i < NI; i++)
                y[k][j][i] = x[k][j][i] - rmin;
        }
    }
    int bad = 0;
    for (k = 0; k < NK; k++)
        for (j = 0; j < NJ; j++) {
            int rmin = INT_MAX;
            for (i = 0; i < NI; i++)
                rmin = x[k][j][i] < rmin ? x[k][j][i] : rmin;
            for (i = 0; i < NI; i++)
                bad += y[k][j][i] != x[k][j][i] - rmin;
        }
    check("row minimum seen by every lane: wrong", bad, 0);

    // A plane maximum (worker+vector) seen by every worker and lane after it.
#pragma acc parallel loop gang num_workers(4) vector_length(32) copyin(x) copyout(y)
    for (k = 0; k < NK; k++) {
        int pmax = INT_MIN;
#pragma acc loop worker reduction(max:pmax)
        for (j = 0; j < NJ; j++) {
#pragma acc loop vector reduction(max:pmax)
            for (i = 0; i < NI; i++)
                pmax = x[k][j][i] > pmax ? x[k][j][i] : pmax;
        }
#pragma acc loop worker
        for (j = 0; j < NJ; j++) {
#pragma acc loop vector
            for (i = 0; i < NI; i++)
                y[k][j][i] = pmax - x[k][j][i];
        }
    }
    bad = 0;
    for (k = 0; k < NK; k++) {
        int pmax = INT_MIN;
        for (j = 0; j < NJ; j++)
            for (i = 0; i < NI; i++)
                pmax = x[k][j][i] > pmax ? x[k][j][i] : pmax;
        for (j = 0; j < NJ; j++)
            for (i = 0; i < NI; i++)
                bad += y[k][j][i] != pmax - x[k][j][i];
    }
    check("plane maximum seen by every worker and lane: wrong", bad, 0);
}

static void private_and_plain_loops(void)
{
    static double out[NK];
    int k, j, i, f;
    double t;
    // t is private to the gang loop (clause), reduced by its vector loop
#pragma acc parallel loop gang private(t) copyout(out)
    for (k = 0; k < NK; k++) {
        t = 0.25 * k;
#pragma acc loop vector reduction(+:t)
        for (f = 0; f < NJ * NI; f++)
            t += xd[k][f / NI][f % NI];
        out[k] = t;
    }
    int bad = 0;
    for (k = 0; k < NK; k++) {
        double w = 0.25 * k;
        for (j = 0; j < NJ; j++)
            for (i = 0; i < NI; i++)
                w += xd[k][j][i];
        bad += out[k] != w;
    }
    check("private(t) on the gang loop, vector reduction: wrong", bad, 0);

    // Inner loops without a directive run inside each iteration: one clause
    long long s = 9;
#pragma acc parallel loop reduction(+:s)
    for (k = 0; k < NK; k++)
        for (j = 0; j < NJ; j++)
            for (i = 0; i < NI; i++)
                s += x[k][j][i] * (long long)(i + 1);
    int mx = INT_MIN;
#pragma acc parallel loop gang reduction(max:mx)
    for (k = 0; k < NK; k++) {
        for (j = 0; j < NJ; j++) {
#pragma acc loop vector reduction(max:mx)
            for (i = 0; i < NI; i++)
                mx = x[k][j][i] * (j + 1) > mx ? x[k][j][i] * (j + 1) : mx;
        }
    }
    long long ws = 9;
    int wmx = INT_MIN;
    for (k = 0; k < NK; k++)
        for (j = 0; j < NJ; j++)
            for (i = 0; i < NI; i++) {
                ws += x[k][j][i] * (long long)(i + 1);
                wmx = x[k][j][i] * (j + 1) > wmx ? x[k][j][i] * (j + 1) : wmx;
            }
    check("inner loops without a directive +", s, ws);
    check("gang, plain loop, vector max", mx, wmx);

    // loop seq reduction inside a vector loop: one sum per lane
    static int colsum[NK][NI];
#pragma acc parallel loop gang copyout(colsum)
    for (k = 0; k < NK; k++) {
#pragma acc loop vector
        for (i = 0; i < NI; i++) {
            int c = i;
#pragma acc loop seq reduction(+:c)
            for (j = 0; j < NJ; j++)
                c += x[k][j][i];
            colsum[k][i] = c;
        }
    }
    bad = 0;
    for (k = 0; k < NK; k++)
        for (i = 0; i < NI; i++) {
            int c = i;
            for (j = 0; j < NJ; j++)
                c += x[k][j][i];
            bad += colsum[k][i] != c;
        }
    check("loop seq reduction in a vector loop: wrong", bad, 0);

    // collapse(2)
    int s2 = 3;
    double sd2 = 0.5;
#pragma acc parallel loop gang vector collapse(2) reduction(+:s2)
    for (k = 0; k < NK; k++)
        for (j = 0; j < NJ; j++)
            s2 += x[k][j][(k * 7 + j) % NI];
#pragma acc parallel loop gang reduction(+:sd2)
    for (k = 0; k < NK; k++) {
#pragma acc loop worker vector collapse(2) reduction(+:sd2)
        for (j = 0; j < NJ; j++)
            for (i = 0; i < NI; i++)
                sd2 += xd[k][j][i];
    }
    int ws2 = 3;
    double wsd2 = 0.5;
    for (k = 0; k < NK; k++)
        for (j = 0; j < NJ; j++) {
            ws2 += x[k][j][(k * 7 + j) % NI];
            for (i = 0; i < NI; i++)
                wsd2 += xd[k][j][i];
        }
    check("collapse(2) gang vector +", s2, ws2);
    checkd("gang + collapse(2) worker vector +", sd2, wsd2);
}

// The OpenUH paper's figures 11 (a)-(c) and 14 (a), conforming.
static void paper_figures(void)
{
    int k, j, i;
    int (*input)[NJ][NI] = x;
    int bad = 0;

    // Fig. 11 (a): reduction in vector; its variable starts at j
#pragma acc parallel loop gang copyin(input[0:NK]) copyout(temp)
    for (k = 0; k < NK; k++) {
#pragma acc loop worker
        for (j = 0; j < NJ; j++) {
            int i_sum = j;
#pragma acc loop vector reduction(+:i_sum)
            for (i = 0; i < NI; i++)
                i_sum += input[k][j][i];
            temp[k][j][0] = i_sum;
        }
    }
    for (k = 0; k < NK; k++)
        for (j = 0; j < NJ; j++) {
            int w = j;
            for (i = 0; i < NI; i++)
                w += input[k][j][i];
            bad += temp[k][j][0] != w;
        }
    check("fig 11a (vector): wrong", bad, 0);

    // Fig. 11 (b): reduction in worker; starts at k; reads what its lanes copied
#pragma acc parallel loop gang copyin(input[0:NK]) copyout(temp)
    for (k = 0; k < NK; k++) {
        int j_sum = k;
#pragma acc loop worker reduction(+:j_sum)
        for (j = 0; j < NJ; j++) {
#pragma acc loop vector
            for (i = 0; i < NI; i++)
                temp[k][j][i] = input[k][j][i];
            j_sum += temp[k][j][0];
        }
        temp[k][0][0] = j_sum;
    }
    bad = 0;
    for (k = 0; k < NK; k++) {
        int w = k;
        for (j = 0; j < NJ; j++)
            w += input[k][j][0];
        for (j = 0; j < NJ; j++)
            for (i = 0; i < NI; i++)
                bad += temp[k][j][i] != (j == 0 && i == 0 ? w : input[k][j][i]);
    }
    check("fig 11b (worker): wrong", bad, 0);

    // Fig. 11 (c): reduction in gang; the update after the worker loop
    // (in the figure it sits in the worker loop, which would make it a
    // gang+worker reduction: that form follows, with its clause)
    int sum = 0;
#pragma acc parallel loop gang reduction(+:sum) copyin(input[0:NK]) copyout(temp)
    for (k = 0; k < NK; k++) {
#pragma acc loop worker
        for (j = 0; j < NJ; j++) {
#pragma acc loop vector
            for (i = 0; i < NI; i++)
                temp[k][j][i] = input[k][j][i];
        }
        sum += temp[k][0][0];
    }
    int sum2 = 0;
#pragma acc parallel loop gang reduction(+:sum2) copyin(input[0:NK]) copyout(temp)
    for (k = 0; k < NK; k++) {
#pragma acc loop worker reduction(+:sum2)
        for (j = 0; j < NJ; j++) {
#pragma acc loop vector
            for (i = 0; i < NI; i++)
                temp[k][j][i] = input[k][j][i];
            sum2 += temp[k][j][0];
        }
    }
    int w1 = 0, w2 = 0;
    for (k = 0; k < NK; k++) {
        w1 += input[k][0][0];
        for (j = 0; j < NJ; j++)
            w2 += input[k][j][0];
    }
    check("fig 11c (gang)", sum, w1);
    check("fig 11c with the update in the worker loop (gang+worker)", sum2, w2);

    // Fig. 14 (a): gang loop over i, worker loop over j, vector loop over k;
    // one j_sum per gang iteration, the clause on the worker and vector loops
    static int out[NI];
#pragma acc parallel loop gang copyin(input[0:NK]) copyout(out)
    for (i = 0; i < NI; i++) {
        int j_sum = 0;
#pragma acc loop worker reduction(+:j_sum)
        for (j = 0; j < NJ; j++) {
#pragma acc loop vector reduction(+:j_sum)
            for (k = 0; k < NK; k++)
                j_sum += input[k][j][i];
        }
        out[i] = j_sum;
    }
    bad = 0;
    for (i = 0; i < NI; i++) {
        int w = 0;
        for (j = 0; j < NJ; j++)
            for (k = 0; k < NK; k++)
                w += input[k][j][i];
        bad += out[i] != w;
    }
    check("fig 14a (worker+vector, strided): wrong", bad, 0);

    // Fig. 14 (b): gang worker vector on one loop
    const int *in = &x[0][0][0];
    int n = NK * NJ * NI, s = 0, w = 0;
#pragma acc parallel loop gang worker vector reduction(+:s) copyin(in[0:n])
    for (i = 0; i < n; i++)
        s += in[i];
    for (i = 0; i < n; i++)
        w += in[i];
    check("fig 14b (same loop)", s, w);
}

int main(void)
{
    int k, j, i, twos = 0;
    for (k = 0; k < NK; k++)
        for (j = 0; j < NJ; j++)
            for (i = 0; i < NI; i++) {
                unsigned h = hash((unsigned)((k * NJ + j) * NI + i) + 777u);
                x[k][j][i] = (int)(h % 121u) - 60;
                xd[k][j][i] = (double)((int)(hash(h) % 1601u) - 800) / 16.0;
                fi[k][j][i] = h % 331u == 1 && twos++ < 20 ? 2 : h % 307u == 2 ? -1 : 1;
                fd[k][j][i] = h % 211u == 3 ? 2.0 : h % 223u == 4 ? 0.5 : h % 227u == 5 ? -1.0 : 1.0;
            }

    gang_worker();
    worker_vector();
    gang_worker_vector();
    gang_vector();
    per_level();
    broadcast();
    private_and_plain_loops();
    paper_figures();

    printf("%s\n", failures == 0 ? "PASS" : "FAIL");
    return failures != 0;
}
