// acc_map_data on a host range that is already present is an error naming the
// routine and its arguments.
// gpu-expect-fail: ^accc runtime: error: acc_map_data: already present on the device: 'data_arg=0x[0-9a-f]+, data_dev=0x[0-9a-f]+, bytes=800': the present data is 800 bytes at 0x
#include <openacc.h>
#include <stdio.h>

int main(void)
{
    static double a[100];
    acc_copyin(a, sizeof a);
    void *d = acc_malloc(sizeof a);
    acc_map_data(a, d, sizeof a);
    printf("not reached\n");
    return 0;
}
