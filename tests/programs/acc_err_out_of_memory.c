// Asking for more device memory than there is is an error naming the size
// and the driver's error.
// gpu-expect-fail: ^accc runtime: error: acc_malloc: out of device memory: cannot allocate 1125899906842624 bytes: 'bytes=1125899906842624': cuMemAlloc: CUDA_ERROR_OUT_OF_MEMORY
#include <openacc.h>
#include <stdio.h>

int main(void)
{
    void *d = acc_malloc((size_t)1 << 50);
    printf("not reached %p\n", d);
    return 0;
}
