// acc_update_device of data that is not present is an error.
// gpu-expect-fail: ^accc runtime: error: acc_update_device: not present on the device: 'data_arg=0x[0-9a-f]+, bytes=256'$
#include <openacc.h>
#include <stdio.h>

int main(void)
{
    static int a[64];
    acc_init(acc_device_default);
    acc_update_device(a, sizeof a);
    printf("not reached\n");
    return 0;
}
