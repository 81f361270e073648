// The default async queue (OpenACC 3.3 2.16.1 async clause; the routines
// acc_get_default_async and acc_set_default_async): an `async`
// clause without argument, `async(acc_async_noval)` and the _async routines
// given acc_async_noval all use the queue acc_set_default_async chose, so
// `wait(q)` / acc_wait(q) / acc_async_test(q) on that number cover them;
// acc_set_default_async(acc_async_default) restores the initial default;
// `async(acc_async_sync)` is synchronous (the host may read right after the
// construct). GCC 12's libgomp lacks acc_get/set_default_async and
// acc_async_default, so this program has no oracle (see tests/README.md):
// its output is the same on the host and on a GPU.
// oracle: none
// gpu-stdout: default 5 1
// gpu-stdout: queue5 bad 0 test 1
// gpu-stdout: default 6 1
// gpu-stdout: queue6 bad 0 test 1
// gpu-stdout: restored 1
// gpu-stdout: sync bad 0
// gpu-stdout: PASS
#include <openacc.h>
#include <stdio.h>
#include <stdlib.h>

#define N (1 << 18)

int main(void)
{
    const int n = N;
    float *a = malloc(n * sizeof(float)), *b = malloc(n * sizeof(float));
    int ok = 1, bad;
    for (int i = 0; i < n; i++) {
        a[i] = (float)(i % 512);
        b[i] = -1.0f;
    }
    const int q0 = acc_get_default_async();

    /* async without argument and async(acc_async_noval) go to queue 5. */
    acc_set_default_async(5);
    int d5 = acc_get_default_async();
    printf("default %d %d\n", d5, d5 != q0);
    ok &= d5 == 5 && d5 != q0;
#pragma acc enter data copyin(a[0:n]) create(b[0:n]) async
#pragma acc parallel loop present(a[0:n], b[0:n]) async
    for (int i = 0; i < n; i++)
        b[i] = 3.0f * a[i];
#pragma acc parallel loop present(b[0:n]) async(acc_async_noval)
    for (int i = 0; i < n; i++)
        b[i] = b[i] + 1.0f;
#pragma acc update self(b[0:n]) async
#pragma acc wait(5)
    bad = 0;
    for (int i = 0; i < n; i++)
        bad += b[i] != 3.0f * (float)(i % 512) + 1.0f;
    int t5 = acc_async_test(5) != 0;
    printf("queue5 bad %d test %d\n", bad, t5);
    ok &= bad == 0 && t5;

    /* The routines with acc_async_noval follow the new default, queue 6,
       and a construct on queue 7 orders itself after it. */
    acc_set_default_async(6);
    int d6 = acc_get_default_async();
    printf("default %d %d\n", d6, d6 == 6);
    ok &= d6 == 6;
    for (int i = 0; i < n; i++)
        a[i] = 2.0f;
    acc_update_device_async(a, n * sizeof(float), acc_async_noval);
#pragma acc parallel loop present(a[0:n], b[0:n]) async(7) wait(6)
    for (int i = 0; i < n; i++)
        b[i] = b[i] * a[i];
    acc_wait_async(7, acc_async_noval);
    acc_update_self_async(b, n * sizeof(float), acc_async_noval);
    acc_wait(6);
    bad = 0;
    for (int i = 0; i < n; i++)
        bad += b[i] != 2.0f * (3.0f * (float)(i % 512) + 1.0f);
    int t6 = acc_async_test(6) != 0 && acc_async_test(7) != 0;
    printf("queue6 bad %d test %d\n", bad, t6);
    ok &= bad == 0 && t6;

    acc_set_default_async(acc_async_default);
    int restored = acc_get_default_async() == q0;
    printf("restored %d\n", restored);
    ok &= restored;

    /* acc_async_sync: no queue, the data is back when the construct ends. */
#pragma acc exit data delete(a[0:n], b[0:n])
#pragma acc parallel loop copyout(b[0:n]) async(acc_async_sync)
    for (int i = 0; i < n; i++)
        b[i] = (float)(i % 3);
    bad = 0;
    for (int i = 0; i < n; i++)
        bad += b[i] != (float)(i % 3);
    printf("sync bad %d\n", bad);
    ok &= bad == 0;

    printf("%s\n", ok ? "PASS" : "FAIL");
    free(a);
    free(b);
    return ok ? 0 : 1;
}
