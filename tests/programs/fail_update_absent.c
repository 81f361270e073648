// gpu-expect-fail: fail_update_absent\.c:9: error: update: not present on the device: 'x'
// update self of data that is not on the device (and no if_present).
#include <stdio.h>

int main(void)
{
    double x[8] = { 0 };

#pragma acc update self(x)
    printf("%g\n", x[0]);
    return 0;
}
