// private and firstprivate (OpenACC 3.3 2.5.13, 2.5.14, 2.9.10): a private
// scalar and a private array per iteration of a gang vector loop, a
// firstprivate scalar that every thread starts from, private copies on a
// worker loop and on the parallel construct itself, and a firstprivate
// pointer offset. Only results computed through the private copies are
// printed (the private variables' own values after the region differ
// between the host and the device).
#include <stdio.h>

#define N 1000
#define M 37

int main(void)
{
    static double a[N][M], out[N], out2[N];
    for (int i = 0; i < N; i++)
        for (int j = 0; j < M; j++)
            a[i][j] = (i * 7 + j * 3) % 19 - 9;
    double t;
    double w[3];
    int scale = 3;
#pragma acc parallel loop gang vector private(t, w) firstprivate(scale) copyin(a) copyout(out)
    for (int i = 0; i < N; i++) {
        w[0] = a[i][0];
        w[1] = a[i][1];
        w[2] = a[i][2];
        t = w[0] * w[1] - w[2];
        out[i] = t * scale;
        scale = scale + 0; // each thread's own copy
    }
    int k;
    double acc;
#pragma acc parallel num_gangs(4) num_workers(4) vector_length(32) copyin(a) copyout(out2) private(acc)
    {
#pragma acc loop gang worker private(k)
        for (int i = 0; i < N; i++) {
            acc = 0;
            for (k = 0; k < M; k++)
                acc += a[i][k] * (k % 3);
            out2[i] = acc;
        }
    }
    double s = 0, s2 = 0;
    for (int i = 0; i < N; i++) {
        s += out[i] * (i % 7 + 1);
        s2 += out2[i] * (i % 5 + 1);
    }
    printf("%.1f %.1f\n", s, s2);
    printf("%s\n", s != 0 && s2 != 0 ? "PASS" : "FAIL");
    return 0;
}
