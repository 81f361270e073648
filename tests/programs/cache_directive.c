// The `cache` directive: a 1-D stencil whose section becomes a shared-memory
// tile (several rounds per gang: more iterations than the grid's threads),
// a 2-D stencil over rows (a tile per row), and a matmul-like loop where the
// directive heads a sequential inner loop (a hint left unused); the
// results must equal plain cc's.
#include <stdio.h>

#define N 5000
#define R 40
#define C 70
#define M 24

static float a[N], b[N];
static int e[N], h[N];
static double u[R][C], v[R][C];
static float f2[R * C], g2[R * C];
static double x[M][M], y[M][M], z[M][M];

int main(void) {
    for (int i = 0; i < N; i++) {
        a[i] = (float)((i * 7) % 13) - 6.0f;
        e[i] = (i * 5) % 17 - 8;
        h[i] = -1;
    }
    for (int r = 0; r < R; r++)
        for (int c = 0; c < C; c++)
        {
            u[r][c] = (double)((r * 31 + c * 17) % 23);
            f2[r * C + c] = (float)((r * 13 + c * 7) % 19);
        }
    for (int r = 0; r < M; r++)
        for (int c = 0; c < M; c++) {
            x[r][c] = (double)((r + 2 * c) % 5);
            y[r][c] = (double)((3 * r + c) % 7);
        }
#pragma acc parallel loop gang vector num_gangs(4) vector_length(64) copyin(a) copyout(b)
    for (int i = 1; i < N - 1; i++) {
#pragma acc cache(a[i - 1:3])
        b[i] = 0.25f * a[i - 1] + 0.5f * a[i] + 0.25f * a[i + 1];
    }
    // A `<=` loop, a `continue` after the loads every iteration runs, and
    // loads after it (inside the window: from the tile) and under `?:`.
#pragma acc parallel loop gang vector num_gangs(3) vector_length(32) copyin(e) copy(h)
    for (int i = 2; i <= N - 3; i++) {
#pragma acc cache(e[i - 2:5])
        int t = e[i - 2] + e[i + 2];
        if (i % 7 == 0)
            continue;
        h[i] = t * e[i + 1] + (i > 100 ? e[i - 1] : e[i]);
    }
#pragma acc parallel loop gang copyin(u) copyout(v)
    for (int r = 1; r < R - 1; r++) {
#pragma acc loop vector
        for (int c = 1; c < C - 1; c++) {
#pragma acc cache(readonly: u[r][c - 1:3])
            double s = u[r][c - 1] + u[r][c + 1];
            v[r][c] = s + u[r - 1][c] + u[r + 1][c] - 4.0 * u[r][c];
        }
    }
    // A flattened row: the section's start has an invariant term (r * C).
#pragma acc parallel loop gang copyin(f2) copy(g2)
    for (int r = 1; r < R - 1; r++) {
#pragma acc loop vector
        for (int c = 1; c < C - 1; c++) {
#pragma acc cache(f2[r * C + c - 1:3])
            g2[r * C + c] = 3.0f * f2[r * C + c - 1] + f2[r * C + c + 1] - f2[(r - 1) * C + c];
        }
    }
#pragma acc parallel loop gang vector copyin(x, y) copyout(z)
    for (int r = 0; r < M; r++)
        for (int c = 0; c < M; c++) {
            double s = 0.0;
#pragma acc loop seq
            for (int k = 0; k < M; k++) {
#pragma acc cache(x[r][k], y[k][c], s)
                s += x[r][k] * y[k][c];
            }
            z[r][c] = s;
        }
    double sb = 0.0, sv = 0.0, sz = 0.0;
    long sh = 0;
    double sg = 0.0;
    for (int k = 0; k < R * C; k++)
        sg += g2[k] * (double)(k % 7 + 3);
    for (int i = 0; i < N; i++)
        sh += (long)h[i] * (i % 13 + 1);
    for (int i = 1; i < N - 1; i++)
        sb += b[i] * (double)(i % 11);
    for (int r = 1; r < R - 1; r++)
        for (int c = 1; c < C - 1; c++)
            sv += v[r][c] * (double)((r + c) % 5);
    for (int r = 0; r < M; r++)
        for (int c = 0; c < M; c++)
            sz += z[r][c] * (double)(r - c);
    printf("%.6e %.6e %.6e %ld %.6e\n", sb, sv, sz, sh, sg);
    printf("%.6e %.6e %.6e\n", (double)b[1], (double)b[N / 2], v[R / 2][C / 2]);
    int ok = b[N - 2] == 0.25f * a[N - 3] + 0.5f * a[N - 2] + 0.25f * a[N - 1];
    printf("%s\n", ok ? "PASS" : "FAIL");
    return 0;
}
