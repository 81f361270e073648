// A data clause on a section that is only partly present is a runtime error
// naming the construct, the clause item as written and the present range.
// gpu-expect-fail: acc_err_partly_present\.c:[0-9]+: error: data: only partly present on the device: 'a\[50:100\]': the section is 800 bytes at 0x[0-9a-f]+, the present data 800 bytes at 0x[0-9a-f]+
#include <openacc.h>
#include <stdio.h>

int main(void)
{
    static double a[200];
    acc_copyin(a, 100 * sizeof(double));
#pragma acc data copy(a[50:100])
    {
        a[60] = 1;
    }
    printf("not reached\n");
    return 0;
}
