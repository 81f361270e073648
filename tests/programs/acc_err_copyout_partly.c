// acc_copyout of a range that is only partly present is an error.
// gpu-expect-fail: ^accc runtime: error: acc_copyout: only partly present on the device: 'data_arg=0x[0-9a-f]+, bytes=800': the section is 800 bytes at
#include <openacc.h>
#include <stdio.h>

int main(void)
{
    static double a[200];
    acc_copyin(a, 100 * sizeof(double));
    acc_copyout(a + 50, 100 * sizeof(double));
    printf("not reached\n");
    return 0;
}
