/* A kernel that faults (it writes through a bad device pointer) in a
 * synchronous construct whose results stay on the device. The host does not
 * wait for a synchronous kernel at its construct's end (the runtime waits where
 * the host next observes the device: here the update after it), yet the
 * error names the faulting construct and its line, not the update. The first
 * construct is waited for by the update after it, so only the faulting one
 * is pending when the failure is found. */
// gpu-expect-fail: acc_err_kernel_fault\.c:27: error: parallel loop: kernel execution failed: '[^']+': .*(ILLEGAL_ADDRESS|illegal|out of bounds|invalid)
#include <stdint.h>
#include <stdio.h>

#define N 256

static double x[N];

int main(void)
{
    double *bad = (double *)(uintptr_t)0x1000;
#pragma acc data copy(x)
    {
#pragma acc parallel loop present(x)
        for (int i = 0; i < N; i++)
            x[i] = i;
#pragma acc update self(x)
        if (x[N - 1] != N - 1)
            return 2;
#pragma acc parallel loop deviceptr(bad)
        for (int i = 0; i < N; i++)
            bad[i] = i;
#pragma acc update self(x)
        printf("not reached: %.1f\n", x[0]);
    }
    printf("FAIL\n");
    return 0;
}
