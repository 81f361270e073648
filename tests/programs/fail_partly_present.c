// gpu-expect-fail: fail_partly_present\.c:12: error: parallel loop: only partly present on the device: 'a\[0:200\]'
// A section that extends beyond the present data is an error naming it.
#include <stdio.h>

int main(void)
{
    static float a[200];
#pragma acc data copyin(a[0:100])
    {
        // The kernel needs a[0:200]; only its first half is present.

#pragma acc parallel loop copy(a[0:200])
        for (int i = 0; i < 200; i++)
            a[i] = i;
    }
    printf("not reached\n");
    return 0;
}
