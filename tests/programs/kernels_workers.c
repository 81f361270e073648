// Kernels loops that name the worker level run on workers (block y) as
// the same loops of a parallel construct do: `kernels loop gang worker`,
// `kernels loop worker` (the kernels construct chooses its gangs),
// `gang worker vector`, a gang loop around a worker loop that reduces into
// a gang's scalar (and a seq loop inside it), a loop without clauses
// inside a gang worker loop (vector) and around a worker loop (gang), a
// worker loop reducing into a host scalar,
// num_workers/vector_length on the kernels construct, and collapse(2)
// nests (their grid sized from both loops' trip counts). Bounds are not
// multiples of the block sizes. Every value is a small integer: exact.
#include <stdio.h>

#define N 300
#define M 37
#define R 7

static long long sum1(const double *a, int n)
{
    long long s = 0;
    for (int i = 0; i < n; i++)
        s += (long long)a[i] * (i % 13 + 1);
    return s;
}

int main(void)
{
    static double a[N], b[N], c[N], row[N], w[N][M], x[N][M], y[R][N];
    int n = N, m = M, ok = 1;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < M; j++)
            w[i][j] = (i * 3 + j) % 17;
#pragma acc data copyin(w) copyout(a, b, c, row, x, y)
    {
#pragma acc kernels loop gang worker independent
        for (int i = 0; i < n; i++)
            a[i] = 2 * i + 1;
#pragma acc kernels loop worker
        for (int i = 0; i < n; i++)
            b[i] = i % 9;
#pragma acc kernels num_workers(4) vector_length(32)
        {
#pragma acc loop gang worker vector
            for (int i = 0; i < n; i++)
                c[i] = 3 * i - 7;
        }
        // A worker reduction in each gang, around a seq loop.
#pragma acc kernels loop gang
        for (int i = 0; i < n; i++) {
            double s = 0;
#pragma acc loop worker reduction(+:s)
            for (int j = 0; j < m; j++) {
#pragma acc loop seq
                for (int k = 0; k < 3; k++)
                    s += w[i][j] * (k + 1);
            }
            row[i] = s;
        }
        // Clauses outside, none inside; and the reverse.
#pragma acc kernels loop gang worker
        for (int i = 0; i < n; i++)
            for (int j = 0; j < m; j++)
                x[i][j] = w[i][j] + i;
#pragma acc kernels
        for (int r = 0; r < R; r++) {
#pragma acc loop worker
            for (int i = 0; i < n; i++)
                y[r][i] = r * i % 23;
        }
    }
    printf("gang worker %lld\n", sum1(a, N));
    printf("worker %lld\n", sum1(b, N));
    printf("gang worker vector %lld\n", sum1(c, N));
    printf("worker reduction %lld\n", sum1(row, N));
    printf("mixed %lld %lld\n", sum1(&x[0][0], N * M), sum1(&y[0][0], R * N));

    // collapse(2): every element once (a count per element catches an
    // iteration run twice or skipped), and a worker reduction in a
    // collapsed gang worker nest's gangs.
    static int hits[N][M];
    static double tot[R];
#pragma acc kernels loop gang worker collapse(2) copy(hits)
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            hits[i][j] += 1 + (i + j) % 3;
#pragma acc kernels loop independent collapse(2) copy(hits)
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            hits[i][j] += 10;
#pragma acc kernels loop gang copyin(w) copyout(tot)
    for (int r = 0; r < R; r++) {
        double t = 0;
#pragma acc loop worker collapse(2) reduction(+:t)
        for (int i = 0; i < n; i++)
            for (int j = 0; j < m; j++)
                t += w[i][j] * (r + 1);
        tot[r] = t;
    }
    // A worker reduction into a host scalar (the loop takes the gangs too).
    double hs = 0;
#pragma acc kernels loop worker reduction(+:hs) copyin(w)
    for (int i = 0; i < n; i++)
        hs += w[i][i % M];
    printf("host reduction %.1f\n", hs);
    long long h = 0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < M; j++) {
            h += hits[i][j];
            ok &= hits[i][j] == 11 + (i + j) % 3;
        }
    printf("collapse %lld\n", h);
    for (int r = 0; r < R; r++) {
        printf("tot[%d] %.1f\n", r, tot[r]);
        ok &= tot[r] == tot[0] * (r + 1);
    }
    for (int i = 0; i < N; i++) {
        ok &= a[i] == 2 * i + 1 && b[i] == i % 9 && c[i] == 3 * i - 7;
        double s = 0;
        for (int j = 0; j < M; j++)
            s += w[i][j] * 6;
        ok &= row[i] == s;
    }
    printf("%s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
