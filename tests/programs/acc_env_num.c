// ACC_DEVICE_NUM=0 selects device 0 (of the current device type); the device
// number the routines report follows it, and so does acc_set_device_num.
// env: ACC_DEVICE_NUM=0
#include <openacc.h>
#include <stdio.h>

int main(void)
{
    int n = 1000;
    double x[1000];
    acc_device_t t = acc_get_device_type();
    printf("device num %d\n", acc_get_device_num(t));
    acc_set_device_num(0, t);
    printf("after set %d\n", acc_get_device_num(t));
#pragma acc parallel loop copyout(x[0:n])
    for (int i = 0; i < n; i++)
        x[i] = 0.25 * i;
    double s = 0;
    for (int i = 0; i < n; i++)
        s += x[i];
    printf("sum %.2f\n", s);
    printf("%s\n", s == 0.25 * n * (n - 1) / 2 ? "PASS" : "FAIL");
    return 0;
}
