// acc routine vector, worker and gang: device functions whose loops are
// partitioned across the vector lanes, workers or gangs of the caller.
// A vector routine is called from a gang loop (one row per gang), a worker
// routine from a gang loop (its rows over workers, each row over vector
// lanes), a gang routine from the region itself (gang-redundant code). Code
// outside their partitioned loops runs once per caller, not once per thread.
#include <stdio.h>

#pragma acc routine vector
void scale_row(int n, double *row, double s)
{
    row[0] += 0.0;  // executed once per call (vector-single)
#pragma acc loop vector
    for (int j = 0; j < n; j++)
        row[j] = row[j] * s + j;
}

#pragma acc routine worker
void block_rows(int m, int n, double *blk, double *sums)
{
#pragma acc loop worker
    for (int r = 0; r < m; r++) {
#pragma acc loop vector
        for (int j = 0; j < n; j++)
            blk[r * n + j] = blk[r * n + j] * 2 + r;
        double t = 0;            // worker-private, one sum per row
#pragma acc loop seq
        for (int j = 0; j < n; j++)
            t += blk[r * n + j];
        sums[r] = t;
    }
}

#pragma acc routine gang
void fill(int n, int *v, int base)
{
#pragma acc loop gang vector
    for (int i = 0; i < n; i++)
        v[i] = base + i * 3;
}

#pragma acc routine seq
static int counter_bump(int *c) { c[0] += 1; return c[0]; }

int main(void)
{
    enum { R = 37, C = 130, B = 12, M = 9, K = 1000 };
    static double a[R][C], blk[B][M * C], sums[B][M];
    static int v[K], count[R];
    for (int i = 0; i < R; i++)
        for (int j = 0; j < C; j++)
            a[i][j] = i + j * 0.5;
    for (int b = 0; b < B; b++)
        for (int k = 0; k < M * C; k++)
            blk[b][k] = (b * 7 + k) % 11;

#pragma acc parallel loop gang vector_length(64) copy(a, count)
    for (int i = 0; i < R; i++) {
        count[i] = 0;
        scale_row(C, a[i], 1.0 + i);
        counter_bump(&count[i]);      // once per row, not once per lane
        counter_bump(&count[i]);
    }

#pragma acc parallel loop gang num_workers(4) vector_length(32) copy(blk) copyout(sums)
    for (int b = 0; b < B; b++)
        block_rows(M, C, blk[b], sums[b]);

#pragma acc parallel num_gangs(8) vector_length(128) copyout(v)
    {
        fill(K, v, 5);
    }

    double s = 0, t = 0;
    long vs = 0, cs = 0;
    for (int i = 0; i < R; i++)
        for (int j = 0; j < C; j++)
            s += a[i][j];
    for (int b = 0; b < B; b++)
        for (int r = 0; r < M; r++)
            t += sums[b][r] * (r + 1);
    for (int i = 0; i < K; i++)
        vs += v[i];
    for (int i = 0; i < R; i++)
        cs += count[i];
    printf("%.10e %.10e %ld %ld\n", s, t, vs, cs);
    printf("PASS\n");
    return 0;
}
