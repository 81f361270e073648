// Wait arguments with a device number and the `queues:` keyword (OpenACC 3.3
// 2.16.2: wait-argument is `[devnum : int-expr :] [queues :]
// async-argument-list`; the queues are those of device `devnum` of the
// current device type), on compute constructs, on an update and on the wait
// directive (2.16.3), next to the async routines that name a device
// (acc_wait_device, acc_wait_device_async, acc_wait_all_device,
// acc_async_test_device, acc_async_test_all_device). Device 0 is the current
// device here (one device, or the host fallback), so every wait below orders
// the same queues as the plain form would. GCC 12 rejects the `devnum:` and
// `queues:` syntax ("expected ')' before ':' token") and lacks the _device
// routines, so this program has no oracle (tests/README.md).
// oracle: none
// gpu-stdout: dev 0
// gpu-stdout: chain_bad 0
// gpu-stdout: test_device 1 1
// gpu-stdout: routines_bad 0
// gpu-stdout: PASS
#include <openacc.h>
#include <stdio.h>
#include <stdlib.h>

#define N (1 << 18)

int main(void)
{
    const int n = N;
    float *a = malloc(n * sizeof(float)), *b = malloc(n * sizeof(float));
    float *c = malloc(n * sizeof(float));
    int ok = 1, bad;
    for (int i = 0; i < n; i++) {
        a[i] = (float)(i % 100);
        b[i] = c[i] = -1.0f;
    }
    const int dev = acc_get_device_num(acc_get_device_type());
    printf("dev %d\n", dev);
    ok &= dev == 0;

#pragma acc enter data copyin(a[0:n]) create(b[0:n], c[0:n]) async(1)
#pragma acc parallel loop present(a[0:n], b[0:n]) async(1)
    for (int i = 0; i < n; i++)
        b[i] = a[i] + 1.0f;
#pragma acc parallel loop present(a[0:n], c[0:n]) async(2) wait(devnum: 0: 1)
    for (int i = 0; i < n; i++)
        c[i] = a[i] * 2.0f;
    /* Queue 3 after queues 1 and 2 of device 0. */
#pragma acc parallel loop present(b[0:n], c[0:n]) async(3) wait(devnum: 0: 1, 2)
    for (int i = 0; i < n; i++)
        c[i] = c[i] + b[i];
    /* Queue 4 after queue 3, with `queues:` and an expression for devnum. */
#pragma acc wait(devnum: dev: queues: 3) async(4)
#pragma acc update self(c[0:n]) async(4)
#pragma acc update self(b[0:n]) async(5) wait(queues: 4)
#pragma acc wait(devnum: 0: 5)
    bad = 0;
    for (int i = 0; i < n; i++)
        bad += b[i] != (float)(i % 100) + 1.0f || c[i] != 3.0f * (float)(i % 100) + 1.0f;
    printf("chain_bad %d\n", bad);
    ok &= bad == 0;
    printf("test_device %d %d\n", acc_async_test_device(5, 0) != 0,
           acc_async_test_device(4, dev) != 0);

    /* The routines. */
#pragma acc parallel loop present(a[0:n], b[0:n]) async(1)
    for (int i = 0; i < n; i++)
        b[i] = a[i] - 1.0f;
    acc_wait_device_async(1, 2, dev);
    acc_update_self_async(b, n * sizeof(float), 2);
#pragma acc parallel loop present(a[0:n], c[0:n]) async(6)
    for (int i = 0; i < n; i++)
        c[i] = a[i] - 2.0f;
    acc_wait_device(1, 0);
    acc_wait_device(2, 0);
    acc_wait_all_device_async(7, dev);
    acc_update_self_async(c, n * sizeof(float), 7);
    acc_wait_all_device(dev);
    bad = !acc_async_test_all_device(dev);
    for (int i = 0; i < n; i++)
        bad += b[i] != (float)(i % 100) - 1.0f || c[i] != (float)(i % 100) - 2.0f;
    printf("routines_bad %d\n", bad);
    ok &= bad == 0;
#pragma acc exit data delete(a[0:n], b[0:n], c[0:n])

    printf("%s\n", ok ? "PASS" : "FAIL");
    free(a);
    free(b);
    free(c);
    return ok ? 0 : 1;
}
