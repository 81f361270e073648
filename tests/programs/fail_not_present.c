// gpu-expect-fail: fail_not_present\.c:10: error: parallel loop: not present on the device: 'a\[0:n\]'
// A present clause on data that is not on the device stops the program with
// one line naming the variable, the construct and the line.
#include <stdio.h>

int main(void)
{
    int n = 100;
    static double a[100];
#pragma acc parallel loop present(a[0:n])
    for (int i = 0; i < n; i++)
        a[i] = i;
    printf("not reached\n");
    return 0;
}
