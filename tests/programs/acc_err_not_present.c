// present() of data that is not on the device is a runtime error naming the
// construct and the item.
// gpu-expect-fail: acc_err_not_present\.c:[0-9]+: error: parallel loop: not present on the device: 'a\[0:n\]'$
#include <stdio.h>

int main(void)
{
    int n = 100;
    double a[100];
#pragma acc parallel loop present(a[0:n])
    for (int i = 0; i < n; i++)
        a[i] = i;
    printf("not reached %f\n", a[1]);
    return 0;
}
