// The CUDA stream of an async queue (OpenACC 3.3 A.2.1): acc_get_cuda_stream
// gives each queue of the device its stream (the same one each time, a
// different one per queue, none for acc_async_sync); acc_set_cuda_stream
// makes queue 5 use queue 1's stream, after which work on both queues is
// one stream's work, in order. On the host (and in GCC's host-only build,
// the oracle) there are no streams: the `gpu-stdout` lines are the GPU's.
// gpu-stdout: stream 1
// gpu-stdout: same 1
// gpu-stdout: distinct 1
// gpu-stdout: sync 1
// gpu-stdout: set 1
// gpu-stdout: a[7] 17 b[7] 34
// gpu-stdout: PASS
#include <openacc.h>
#include <stdio.h>

#define N 4096

int main(void)
{
    static int a[N], b[N];
    acc_init(acc_device_default);
    void *s1 = acc_get_cuda_stream(1);
    printf("stream %d\n", s1 != NULL);
    printf("same %d\n", s1 == acc_get_cuda_stream(1));
    printf("distinct %d\n", s1 == NULL || s1 != acc_get_cuda_stream(2));
    printf("sync %d\n", acc_get_cuda_stream(acc_async_sync) == NULL);
    int set = acc_set_cuda_stream(5, s1);
    printf("set %d\n", set);
    int q = set ? 1 : 5;
#pragma acc data copyout(a, b)
    {
        /* Queue 5 runs on queue 1's stream: b, computed on 1, sees a from 5. */
#pragma acc parallel loop async(5)
        for (int i = 0; i < N; i++)
            a[i] = i + 10;
#pragma acc parallel loop async(q)
        for (int i = 0; i < N; i++)
            b[i] = 2 * a[i];
#pragma acc wait
    }
    printf("a[7] %d b[7] %d\n", a[7], b[7]);
    int ok = 1;
    for (int i = 0; i < N; i++)
        ok &= a[i] == i + 10 && b[i] == 2 * (i + 10);
    printf("%s\n", ok ? "PASS" : "FAIL");
    return 0;
}
