// ACC_DEVICE_TYPE=host: constructs and routines run on the host even where a
// GPU is usable (the gpu bundle runs this program on one); data is present
// wherever the program has it.
// env: ACC_DEVICE_TYPE=host
#include <openacc.h>
#include <stdio.h>

int main(void)
{
    int n = 500;
    int a[500];
    printf("type host %d\n", acc_get_device_type() == acc_device_host);
#pragma acc parallel loop copyout(a[0:n])
    for (int i = 0; i < n; i++)
        a[i] = acc_on_device(acc_device_host) ? i : -1;
    long s = 0;
    for (int i = 0; i < n; i++)
        s += a[i];
    printf("ran on the host, sum %ld\n", s);
    printf("present %d deviceptr is host %d\n", acc_is_present(a, sizeof a),
           acc_deviceptr(a) == (void *)a);
    printf("%s\n", s == (long)n * (n - 1) / 2 ? "PASS" : "FAIL");
    return 0;
}
