// Attaching a pointer whose target is not present is an error.
// gpu-expect-fail: ^accc runtime: error: acc_attach: the pointer's target is not present on the device: 'ptr_addr=0x[0-9a-f]+': the pointer holds 0x[0-9a-f]+$
#include <openacc.h>
#include <stdio.h>

struct holder {
    double *p;
};

int main(void)
{
    static double x[16];
    static struct holder h;
    h.p = x;
    acc_copyin(&h, sizeof h);
    acc_attach((void **)&h.p);
    printf("not reached\n");
    return 0;
}
