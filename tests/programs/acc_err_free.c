// acc_free of device memory that acc_malloc did not return (here: the device
// copy of present data) is an error.
// gpu-expect-fail: ^accc runtime: error: acc_free: not allocated by acc_malloc: 'data_dev=0x[0-9a-f]+'$
#include <openacc.h>
#include <stdio.h>

int main(void)
{
    static int a[64];
    acc_copyin(a, sizeof a);
    acc_free(acc_deviceptr(a));
    printf("not reached\n");
    return 0;
}
