// acc_unmap_data of data acc_map_data did not map (here: made present by
// acc_copyin) is an error.
// gpu-expect-fail: ^accc runtime: error: acc_unmap_data: not mapped with acc_map_data: 'data_arg=0x[0-9a-f]+'$
#include <openacc.h>
#include <stdio.h>

int main(void)
{
    static int a[64];
    acc_copyin(a, sizeof a);
    acc_unmap_data(a);
    printf("not reached\n");
    return 0;
}
