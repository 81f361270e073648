// deviceptr and no_create on a kernels construct that becomes several
// kernels (one per loop nest, inside one data region): each kernel takes the
// device pointer as it is, and a no_create pointer only where it is present.
#include <stdio.h>
#include <openacc.h>

int main(void)
{
    enum { N = 1000 };
    static float b[N], c[N];
    float *d = (float *)acc_malloc(N * sizeof(float));
    float *absent = NULL;
    int bad = 0;
    if (d != NULL) {
#pragma acc kernels deviceptr(d) copyout(b)
        {
            for (int i = 0; i < N; i++)
                d[i] = 3.0f * i;
            for (int i = 0; i < N; i++)
                b[i] = d[i] + 1;
        }
        for (int i = 0; i < N; i++)
            bad += b[i] != 3.0f * i + 1;
        acc_free(d);
    } else {
        for (int i = 0; i < N; i++)
            b[i] = 3.0f * i + 1;
    }
    for (int i = 0; i < N; i++)
        c[i] = i;
#pragma acc data copy(c)
    {
#pragma acc kernels no_create(c, absent)
        {
            for (int i = 0; i < N; i++)
                c[i] += 1;
            for (int i = 0; i < N; i++)
                c[i] *= 2;
        }
    }
    for (int i = 0; i < N; i++)
        bad += c[i] != 2.0f * (i + 1);
    printf("%s\n", bad ? "FAIL" : "PASS");
    return bad != 0;
}
