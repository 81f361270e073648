// enter data / exit data and update: the device copy lives between them and
// is separate from the host array, so what the host sees depends on the
// updates. On the GPU the expected output is stated below; in the host
// fallback (and in the plain-cc oracle) memory is shared.
// gpu-stdout: after kernel, host a[5] = 5
// gpu-stdout: after update self, host a[5] = 10
// gpu-stdout: after update device + kernel + exit copyout, host a[5] = 107
// gpu-stdout: b: 0 3 6 9 12
// gpu-stdout: PASS
#include <stdio.h>

int main(void)
{
    enum { N = 1000 };
    static int a[N], b[N];
    for (int i = 0; i < N; i++)
        a[i] = i;

#pragma acc enter data copyin(a[0:N]) create(b[0:N])
#pragma acc parallel loop present(a[0:N], b[0:N])
    for (int i = 0; i < N; i++) {
        a[i] *= 2;
        b[i] = 3 * i;
    }
    printf("after kernel, host a[5] = %d\n", a[5]);
#pragma acc update self(a[0:N])
    printf("after update self, host a[5] = %d\n", a[5]);
    for (int i = 0; i < N; i++)
        a[i] += 100;
#pragma acc update device(a[0:N / 2]) if(N > 10)
#pragma acc parallel loop present(a)
    for (int i = 0; i < N; i++)
        a[i] -= 3;
#pragma acc exit data copyout(a[0:N]) copyout(b[0:N])
    printf("after update device + kernel + exit copyout, host a[5] = %d\n", a[5]);
    printf("b: %d %d %d %d %d\n", b[0], b[1], b[2], b[3], b[4]);
    printf("PASS\n");
    return 0;
}
