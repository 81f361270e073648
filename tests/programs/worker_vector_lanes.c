// A worker loop holding a vector loop whose body walks memory
// contiguously in the worker's index (NPB SP's lhsp fill, LU's flux
// loops): schedule/interchange.rs gives the lanes the worker's index.
// Every (k, j, i) must still run exactly once, with each loop's own
// bounds (the ranges differ, and the vector loop's depends on the gang
// index); a triangular nest (the vector bounds use the worker index) and
// a nest with a reduction clause on its vector loop keep their mapping;
// a gang reduction the inner loops take over does not stop it. Printed: checksums and the
// number of cells each nest wrote, against plain C.
#include <stdio.h>

#define NK 6
#define NJ 37
#define NI 45

static double a[NK][NI][NJ], b[NK][NI][NJ], c[NK][NJ][NI];
static int hits[NK][NI][NJ];

int main(void)
{
    for (int k = 0; k < NK; k++)
        for (int i = 0; i < NI; i++)
            for (int j = 0; j < NJ; j++) {
                b[k][i][j] = 0.5 * k + 0.25 * i - 0.125 * j;
                c[k][j][i] = 0.1 * (k + i * j % 7);
                a[k][i][j] = 0;
                hits[k][i][j] = 0;
            }
    double total = 0, total2 = 0;
#pragma acc data copy(a, hits, total, total2) copyin(b, c)
    {
#pragma acc parallel loop gang num_workers(4) vector_length(32)
        for (int k = 0; k < NK; k++) {
#pragma acc loop worker
            for (int j = 1; j < NJ - 1; j++) {
#pragma acc loop vector
                for (int i = 0; i < NI - k; i++) {
                    a[k][i][j] = b[k][i][j] * 2 + b[k][i][j - 1] + b[k][i][j + 1] + c[k][j][i];
                    hits[k][i][j] += 1;
                }
            }
        }
        // Triangular: i's bounds use j, so the loops keep their levels.
#pragma acc parallel loop gang num_workers(4) vector_length(32)
        for (int k = 0; k < NK; k++) {
#pragma acc loop worker
            for (int j = 0; j < NJ; j++) {
#pragma acc loop vector
                for (int i = 0; i < (j < NI ? j : NI); i++)
                    hits[k][i][j] += 10;
            }
        }
        // A reduction on the vector loop: no interchange.
#pragma acc parallel loop gang num_workers(4) vector_length(32) reduction(+:total)
        for (int k = 0; k < NK; k++) {
#pragma acc loop worker reduction(+:total)
            for (int j = 0; j < NJ; j++) {
                double s = 0;
#pragma acc loop vector reduction(+:s)
                for (int i = 0; i < NI; i++)
                    s += a[k][i][j];
                total += s;
            }
        }
        // A gang reduction updated inside the nest: the worker and vector
        // loops take it over (implicit reductions) and still interchange;
        // the sum is over the same iterations.
#pragma acc parallel loop gang num_workers(4) vector_length(32) reduction(+:total2)
        for (int k = 0; k < NK; k++) {
#pragma acc loop worker
            for (int j = 0; j < NJ; j++) {
#pragma acc loop vector
                for (int i = 0; i < NI; i++)
                    total2 += a[k][i][j] * (1 + j % 3);
            }
        }
    }
    /* The check: the first nest on the host, and every count. */
    int ok = 1;
    for (int k = 0; k < NK; k++)
        for (int j = 1; j < NJ - 1; j++)
            for (int i = 0; i < NI - k; i++)
                ok &= a[k][i][j] == b[k][i][j] * 2 + b[k][i][j - 1] + b[k][i][j + 1] + c[k][j][i];
    for (int k = 0; k < NK; k++)
        for (int i = 0; i < NI; i++)
            for (int j = 0; j < NJ; j++)
                ok &= hits[k][i][j] == (j >= 1 && j < NJ - 1 && i < NI - k) + 10 * (i < j);
    double sum = 0;
    long cells = 0, tri = 0;
    for (int k = 0; k < NK; k++)
        for (int i = 0; i < NI; i++)
            for (int j = 0; j < NJ; j++) {
                sum += a[k][i][j] * (1 + (i + 2 * j + 3 * k) % 5);
                cells += hits[k][i][j] % 10;
                tri += hits[k][i][j] / 10;
            }
    printf("checksum %.6f\n", sum);
    printf("reduction %.6f\n", total);
    printf("promoted reduction %.6f\n", total2);
    printf("cells written once %ld\n", cells);
    printf("triangle cells %ld\n", tri);
    printf("%s\n", ok ? "PASS" : "FAIL");
    return 0;
}
