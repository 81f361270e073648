// Every `atomic capture` form of OpenACC 3.3 2.12 with the shift operators
// and with ++/-- in the structured blocks, several threads on one location:
// `v = x <<= e`, `v = x >>= e`, `v = x = x << e`, `v = x = x >> e`,
// `v = x = e << x`, `{v = x; x <<= e;}`, `{x >>= e; v = x;}`,
// `{v = x; x = x << e;}`, `{x = x >> e; v = x;}`, `{v = x; x--;}`,
// `{x--; v = x;}`, `{v = x; --x;}`, `{--x; v = x;}`, `{v = x; x++;}`,
// `{x++; v = x;}`, `{v = x; ++x;}`, `{++x; v = x;}` — on 8- to 64-bit
// integers, with the location written with and without grouping
// parentheses, from inner loops partitioned over workers and vector lanes.
// The order among threads is not defined, the set of captured values is:
// each cell's captured values, sorted, must be exactly the expected
// sequence. Last, a value captured by a gang (or a worker) into its own
// variable is used by all the vector lanes of a loop that follows.
#include <stdio.h>
#include <stdlib.h>

#define CELLS 40
#define K 8 /* threads per cell */
#define M 64

static int cmp_ll(const void *a, const void *b)
{
    long long x = *(const long long *)a, y = *(const long long *)b;
    return (x > y) - (x < y);
}

/* Each cell's K captured values v[c*K..], sorted, are f(0..K-1). */
static long long got[CELLS * K];
static int cells_are(const char *what, long long (*f)(int))
{
    int ok = 1;
    for (int c = 0; c < CELLS; c++) {
        qsort(got + c * K, K, sizeof *got, cmp_ll);
        for (int k = 0; k < K; k++)
            ok &= got[c * K + k] == f(k);
    }
    printf("%-22s %d\n", what, ok);
    return ok;
}

static long long pow2_1(int k) { return 2LL << k; }            /* 2 .. 256 */
static long long pow2_0(int k) { return 1LL << k; }            /* 1 .. 128 */
static long long down_new(int k) { return 1LL << (8 + k); }    /* 256 .. 32768 */
static long long down_old(int k) { return 1LL << (9 + k); }    /* 512 .. 65536 */
static long long uc_new(int k) { return k ? 1LL << k : 0; }   /* 1 << 8 wraps to 0 */
static long long sh_new(int k) { return 1LL << (6 + k); }      /* 64 .. 8192 */
static long long count_up(int k) { return k; }                 /* 0 .. 7 */
static long long count_up1(int k) { return k + 1; }            /* 1 .. 8 */
static long long count_down(int k) { return 100 - K + k; }     /* 92 .. 99 */
static long long count_down1(int k) { return 100 - K + 1 + k; } /* 93 .. 100 */

static unsigned char uc[CELLS];
static short sh[CELLS];
static int in[CELLS];
static unsigned un[CELLS];
static long long ll[CELLS];
static unsigned long long ull[CELLS];
static long long cap[18][CELLS * K];

static void reset(void)
{
    for (int c = 0; c < CELLS; c++) {
        uc[c] = 1;
        sh[c] = 1 << 14;
        in[c] = 1 << 16;
        un[c] = 1;
        ll[c] = 1;
        ull[c] = 1ULL << 16;
    }
}

int main(void)
{
    int pass = 1;
    reset();
#pragma acc parallel num_gangs(8) num_workers(2) vector_length(32) \
    copy(uc, sh, in, un, ll, ull) copyout(cap)
    {
#pragma acc loop gang
        for (int c = 0; c < CELLS; c++) {
#pragma acc loop worker vector
            for (int k = 0; k < K; k++) {
                int i = c * K + k;
                unsigned char a;
                short b;
                int d;
                unsigned e;
                long long f;
                unsigned long long g;
#pragma acc atomic capture
                a = uc[c] <<= 1;
                cap[0][i] = a;
#pragma acc atomic capture
                b = (sh[c]) >>= 1;
                cap[1][i] = b;
#pragma acc atomic capture
                e = un[c] = un[c] << 1;
                cap[2][i] = e;
#pragma acc atomic capture
                d = in[c] = (in[c]) >> 1;
                cap[3][i] = d;
#pragma acc atomic capture
                {
                    f = ll[c];
                    ll[c] <<= 1;
                }
                cap[4][i] = f;
#pragma acc atomic capture
                {
                    ull[c] >>= 1;
                    g = ull[c];
                }
                cap[5][i] = (long long)g;
            }
        }
    }
    {
        static const char *name[6] = { "v = x <<= 1", "v = (x) >>= 1", "v = x = x << 1",
                                       "v = x = (x) >> 1", "{v = x; x <<= 1;}",
                                       "{x >>= 1; v = x;}" };
        static long long (*want[6])(int) = { uc_new, sh_new, pow2_1, down_new, pow2_0, down_new };
        for (int t = 0; t < 6; t++) {
            for (int i = 0; i < CELLS * K; i++)
                got[i] = cap[t][i];
            pass &= cells_are(name[t], want[t]);
        }
    }
    for (int c = 0; c < CELLS; c++)
        pass &= uc[c] == 0 && sh[c] == 1 << 6 && un[c] == 256 && in[c] == 256 && ll[c] == 256 &&
                ull[c] == 256;
    printf("final %u %d %u %d %lld %llu\n", (unsigned)uc[0], sh[0], un[0], in[0], ll[0], ull[0]);

    /* Shifts again, the other way round, and x = e << x. */
    reset();
    for (int c = 0; c < CELLS; c++)
        in[c] = 1 << 16, un[c] = 1, ll[c] = 0;
#pragma acc parallel loop gang vector_length(32) copy(in, un, ll) copyout(cap)
    for (int c = 0; c < CELLS; c++) {
#pragma acc loop vector
        for (int k = 0; k < K; k++) {
            int i = c * K + k;
            int d;
            unsigned e;
            long long f;
#pragma acc atomic capture
            {
                d = in[c];
                in[c] = in[c] >> 1;
            }
            cap[6][i] = d;
#pragma acc atomic capture
            {
                un[c] = (un[c]) << 1;
                e = un[c];
            }
            cap[7][i] = e;
            if (k < 4) {
#pragma acc atomic capture
                f = ll[c] = 1LL << ll[c];
                cap[8][c * 4 + k] = f;
            }
        }
    }
    for (int i = 0; i < CELLS * K; i++)
        got[i] = cap[6][i];
    pass &= cells_are("{v = x; x = x >> 1;}", down_old);
    for (int i = 0; i < CELLS * K; i++)
        got[i] = cap[7][i];
    pass &= cells_are("{x = (x) << 1; v = x;}", pow2_1);
    {
        /* 0 -> 1 -> 2 -> 4 -> 16 */
        int ok = 1;
        for (int c = 0; c < CELLS; c++) {
            qsort(cap[8] + c * 4, 4, sizeof(long long), cmp_ll);
            ok &= cap[8][c * 4] == 1 && cap[8][c * 4 + 1] == 2 && cap[8][c * 4 + 2] == 4 &&
                  cap[8][c * 4 + 3] == 16 && ll[c] == 16;
        }
        printf("%-22s %d\n", "v = x = 1 << x", ok);
        pass &= ok;
    }

    /* ++ and -- in the structured blocks, in both orders. */
    static int cnt[8][CELLS];
    for (int t = 0; t < 8; t++)
        for (int c = 0; c < CELLS; c++)
            cnt[t][c] = t < 4 ? 100 : 0;
#pragma acc parallel loop gang worker num_workers(4) vector_length(32) copy(cnt) copyout(cap)
    for (int c = 0; c < CELLS; c++) {
#pragma acc loop vector
        for (int k = 0; k < K; k++) {
            int i = c * K + k, v;
#pragma acc atomic capture
            {
                v = cnt[0][c];
                cnt[0][c]--;
            }
            cap[9][i] = v;
#pragma acc atomic capture
            {
                (cnt[1][c])--;
                v = cnt[1][c];
            }
            cap[10][i] = v;
#pragma acc atomic capture
            {
                v = cnt[2][c];
                --(cnt[2][c]);
            }
            cap[11][i] = v;
#pragma acc atomic capture
            {
                --cnt[3][c];
                v = (cnt[3][c]);
            }
            cap[12][i] = v;
#pragma acc atomic capture
            {
                v = cnt[4][c];
                cnt[4][c]++;
            }
            cap[13][i] = v;
#pragma acc atomic capture
            {
                cnt[5][c]++;
                v = cnt[5][c];
            }
            cap[14][i] = v;
#pragma acc atomic capture
            {
                v = cnt[6][ c ];
                ++cnt[6][c];
            }
            cap[15][i] = v;
#pragma acc atomic capture
            {
                ++cnt[7][c];
                v = cnt[7][c];
            }
            cap[16][i] = v;
        }
    }
    static const char *inc_name[8] = { "{v = x; x--;}", "{(x)--; v = x;}", "{v = x; --(x);}",
                                       "{--x; v = (x);}", "{v = x; x++;}", "{x++; v = x;}",
                                       "{v = x; ++x;}", "{++x; v = x;}" };
    static long long (*inc_want[8])(int) = { count_down1, count_down, count_down1, count_down,
                                             count_up, count_up1, count_up, count_up1 };
    for (int t = 0; t < 8; t++) {
        for (int i = 0; i < CELLS * K; i++)
            got[i] = cap[9 + t][i];
        pass &= cells_are(inc_name[t], inc_want[t]);
        for (int c = 0; c < CELLS; c++)
            pass &= cnt[t][c] == (t < 4 ? 100 - K : K);
    }

    /* A gang's captured value used by its vector lanes, and a worker's by
     * its lanes: each slot of `out` must be filled by exactly one gang
     * (worker), entirely. */
    static int out[CELLS * 4 * M];
    int next = 0, next2 = 0;
    for (int i = 0; i < CELLS * 4 * M; i++)
        out[i] = -1;
#pragma acc parallel loop gang vector_length(32) copy(next, out[0:CELLS * M])
    for (int c = 0; c < CELLS; c++) {
        int slot;
#pragma acc atomic capture
        slot = next++;
#pragma acc loop vector
        for (int j = 0; j < M; j++)
            out[slot * M + j] = c;
    }
    {
        int ok = next == CELLS, seen[CELLS] = { 0 };
        for (int s = 0; s < CELLS; s++) {
            int c = out[s * M];
            ok &= c >= 0 && c < CELLS;
            if (c < 0 || c >= CELLS)
                break;
            seen[c]++;
            for (int j = 0; j < M; j++)
                ok &= out[s * M + j] == c;
        }
        for (int c = 0; c < CELLS; c++)
            ok &= seen[c] == 1;
        printf("%-22s %d\n", "gang capture, lanes", ok);
        pass &= ok;
    }
    for (int i = 0; i < CELLS * 4 * M; i++)
        out[i] = -1;
#pragma acc parallel loop gang num_workers(4) vector_length(32) copy(next2, out)
    for (int c = 0; c < CELLS; c++) {
#pragma acc loop worker
        for (int w = 0; w < 4; w++) {
            int slot;
#pragma acc atomic capture
            {
                slot = next2;
                next2 += 1;
            }
#pragma acc loop vector
            for (int j = 0; j < M; j++)
                out[slot * M + j] = c * 4 + w;
        }
    }
    {
        int ok = next2 == CELLS * 4, seen[CELLS * 4] = { 0 };
        for (int s = 0; s < CELLS * 4; s++) {
            int c = out[s * M];
            ok &= c >= 0 && c < CELLS * 4;
            if (c < 0 || c >= CELLS * 4)
                break;
            seen[c]++;
            for (int j = 0; j < M; j++)
                ok &= out[s * M + j] == c;
        }
        for (int c = 0; c < CELLS * 4; c++)
            ok &= seen[c] == 1;
        printf("%-22s %d\n", "worker capture, lanes", ok);
        pass &= ok;
    }
    printf("%s\n", pass ? "PASS" : "FAIL");
    return 0;
}
