// Data clauses beyond copy/copyin/copyout/create/present: no_create,
// deviceptr (with acc_malloc), attach/detach (the readonly and zero modifiers,
// unknown to GCC 12, the oracle here, are in data_zero_update.c)
// the present_or_ and p spellings, default(present).
#include <stdio.h>
#include <openacc.h>

int main(void)
{
    enum { N = 256 };
    static float a[N], b[N], c[N], z[N];
    for (int i = 0; i < N; i++) {
        a[i] = i;
        b[i] = 2 * i;
        z[i] = 0;
    }
    float *d = (float *)acc_malloc(N * sizeof(float));
    int have_dev = d != NULL;

#pragma acc data pcopyin(a) present_or_copyout(c) pcreate(b)
    {
#pragma acc parallel loop no_create(b) copyin(a) copyout(z[0:N / 2])
        for (int i = 0; i < N; i++) {
            c[i] = a[i] + 1;
            if (i < N / 2)
                z[i] += 1;   // zero: starts from 0 on the device
        }
    }
    if (have_dev) {
#pragma acc parallel loop deviceptr(d)
        for (int i = 0; i < N; i++)
            d[i] = 3.0f * i;
#pragma acc parallel loop deviceptr(d) copyout(b)
        for (int i = 0; i < N; i++)
            b[i] = d[i] + 1;
        acc_free(d);
    }

    struct { float *q; int n; } h = { a, N };
#pragma acc data copyin(a) copyin(h)
    {
#pragma acc enter data attach(h.q)
#pragma acc parallel loop default(present) copy(c)
        for (int i = 0; i < h.n; i++)
            c[i] += h.q[i] + a[i];
#pragma acc exit data detach(h.q)
    }


    double s = 0;
    for (int i = 0; i < N; i++)
        s += a[i] + b[i] * 2 + c[i] * 3 + (i < N / 2 ? z[i] : 0);
    printf("%.1f\n", s);
    printf("PASS\n");
    return 0;
}
