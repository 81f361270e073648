// An async argument that is neither a queue number nor an acc_async_t value
// is an error.
// gpu-expect-fail: ^accc runtime: error: acc_wait: invalid async argument -7: 'wait_arg=-7'$
#include <openacc.h>
#include <stdio.h>

int main(void)
{
    acc_init(acc_device_default);
    acc_wait(-7);
    printf("not reached\n");
    return 0;
}
