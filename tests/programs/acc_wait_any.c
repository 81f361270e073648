// acc_wait_any and acc_wait_any_device (OpenACC 3.3): wait until one of the
// listed queues has completed and return its index (accc: the lowest when
// several have), -1 when no queue is named (count 0, or every element
// acc_async_sync). A queue never used is idle; once the call returns for a
// queue, its work is done, so a synchronous update sees its results. GCC
// 12's libgomp has no acc_wait_any, so there is no plain-cc oracle.
// oracle: none
// gpu-stdout: none to wait for -1 -1
// gpu-stdout: an idle queue is found 1
// gpu-stdout: after acc_wait 1
// gpu-stdout: the only busy queue 0 0
// gpu-stdout: sum 392944152
// gpu-stdout: PASS
#include <openacc.h>
#include <stdio.h>
#include <stdlib.h>

#define N (1 << 18)

int main(void)
{
    int ok = 1;
    int *a = malloc(N * sizeof *a);
    for (int i = 0; i < N; i++)
        a[i] = i % 1000;
    int sync_only[2] = {acc_async_sync, acc_async_sync};
    int r0 = acc_wait_any(0, sync_only), r1 = acc_wait_any(2, sync_only);
    printf("none to wait for %d %d\n", r0, r1);
    ok &= r0 == -1 && r1 == -1;
    int dev = acc_get_device_num(acc_get_device_type());
#pragma acc data copy(a[0:N])
    {
        /* Keep queue 1 busy for a while. */
#pragma acc parallel loop async(1)
        for (int i = 0; i < N; i++) {
            int x = a[i];
            for (int k = 0; k < 100; k++)
                x = (x * 3 + k) % 1000;
            a[i] = x + 1000;
        }
        /* Queue 2 was never used: index 1 is done whatever queue 1 does. */
        int idle[3] = {acc_async_sync, 2, 1};
        int r = acc_wait_any(3, idle);
        printf("an idle queue is found %d\n", r);
        ok &= r == 1;
        acc_wait(1);
        int one[2] = {acc_async_sync, 1};
        r = acc_wait_any(2, one);
        printf("after acc_wait %d\n", r);
        ok &= r == 1;
        /* The only queue named has work: the call waits for it. */
#pragma acc parallel loop async(3)
        for (int i = 0; i < N; i++)
            a[i] = a[i] - 1000 + i % 3;
        int three[1] = {3};
        r = acc_wait_any(1, three);
        int rd = acc_wait_any_device(1, three, dev);
        printf("the only busy queue %d %d\n", r, rd);
        ok &= r == 0 && rd == 0;
#pragma acc update self(a[0:N])
        long long s = 0;
        for (int i = 0; i < N; i++)
            s += a[i] >= 1000 ? 1000000 : a[i];
        printf("sum %lld\n", s);
    }
    printf(ok ? "PASS\n" : "FAIL\n");
    free(a);
    return 0;
}
