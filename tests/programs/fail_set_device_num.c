// gpu-expect-fail: fail_set_device_num\.c:14: error: set: no such device: the driver found [0-9]+: 'device_num\([0-9]+\)'
// A device number the driver does not have, in a set directive, stops the
// program with one line naming the directive, its line and the clause with
// its value.
#include <openacc.h>
#include <stdio.h>

int main(void)
{
    int n = acc_get_num_devices(acc_device_nvidia);
    double x = 1.0;
#pragma acc parallel copy(x)
    x += 1.0;
#pragma acc set device_num(n + 3)
    printf("not reached %f\n", x);
    return 0;
}
