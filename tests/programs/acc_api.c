// The runtime API of <openacc.h> from host code and inside a compute region.
// Only answers that do not depend on whether a GPU is present are printed, so
// the output equals GCC's host-only OpenACC build (-fopenacc -foffload=disable).
#include <openacc.h>
#include <stdio.h>

int main(void)
{
    int n = 1000;
    int flags[1000];
    acc_init(acc_device_default);
    printf("host devices %d\n", acc_get_num_devices(acc_device_host));
    printf("on host here %d\n", acc_on_device(acc_device_host));
    printf("not_host here %d\n", acc_on_device(acc_device_not_host));
#pragma acc parallel loop copyout(flags[0:n])
    for (int i = 0; i < n; i++) {
        /* Exactly one of the two is true wherever the loop runs. */
        flags[i] = acc_on_device(acc_device_host) + acc_on_device(acc_device_not_host);
    }
    int ok = 1;
    for (int i = 0; i < n; i++)
        ok &= flags[i] == 1;
    acc_shutdown(acc_device_default);
    printf("%s\n", ok ? "PASS" : "FAIL");
    return 0;
}
