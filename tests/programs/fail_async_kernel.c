// gpu-expect-fail: fail_async_kernel\.c:23: error: wait: async queue 3 failed \(its last kernel: '[^']+' of the parallel loop at [^ ]*fail_async_kernel\.c:19\): cuStreamSynchronize: CUDA_ERROR_ILLEGAL_ADDRESS
// A kernel that fails on an async queue is reported where the program
// waits for the queue (the launch has returned long before): one line
// naming the wait, the queue, the kernel and its construct, and the
// device error. (GPU only: the pointer is not host memory either.)
#include <stdio.h>
#include <stdint.h>

int main(void)
{
    int n = 1 << 20;
    /* A device address no allocation has: every store faults. */
    int *p = (int *)(uintptr_t)0x10;
    static int a[16];
#pragma acc data copy(a)
    {
#pragma acc parallel loop present(a) async(1)
        for (int i = 0; i < 16; i++) a[i] = i;
#pragma acc parallel loop deviceptr(p) async(3)
        for (int i = 0; i < n; i++)
            p[i] = i;
        fprintf(stderr, "the launch returned\n");
#pragma acc wait(3)
        printf("not reached\n");
    }
    return 0;
}
