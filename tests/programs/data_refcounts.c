// Reference counts (OpenACC 3.3 2.6.7): structured (data constructs) and
// dynamic (enter/exit data) counts, finalize, and the copy-out that happens
// only when the last reference goes. acc_is_present reports presence.
// gpu-stdout: present after enter: 1
// gpu-stdout: present after second enter: 1
// gpu-stdout: present after one exit: 1
// gpu-stdout: host x[1] before the last exit: 1
// gpu-stdout: present after finalize: 0
// gpu-stdout: host x[1] after the last exit: 2
// gpu-stdout: data region: inner exit leaves it present: 1
// gpu-stdout: y after the data region: 12
// gpu-stdout: PASS
#include <stdio.h>
#include <openacc.h>

int main(void)
{
    static double x[64], y[4];
    for (int i = 0; i < 64; i++)
        x[i] = i;
#pragma acc enter data copyin(x)
    printf("present after enter: %d\n", acc_is_present(x, sizeof x) != 0);
#pragma acc enter data copyin(x)
    printf("present after second enter: %d\n", acc_is_present(x, sizeof x) != 0);
#pragma acc parallel loop present(x)
    for (int i = 0; i < 64; i++)
        x[i] *= 2;
#pragma acc exit data copyout(x)
    printf("present after one exit: %d\n", acc_is_present(x, sizeof x) != 0);
    printf("host x[1] before the last exit: %g\n", x[1]);
#pragma acc enter data copyin(x)
#pragma acc exit data copyout(x) finalize
    printf("present after finalize: %d\n", acc_is_present(x, sizeof x) != 0);
    printf("host x[1] after the last exit: %g\n", x[1]);

    for (int i = 0; i < 4; i++)
        y[i] = 1;
#pragma acc data copy(y)
    {
#pragma acc enter data copyin(y)
#pragma acc parallel loop
        for (int i = 0; i < 4; i++)
            y[i] += 2;
#pragma acc exit data delete(y)
        printf("data region: inner exit leaves it present: %d\n", acc_is_present(y, sizeof y) != 0);
    }
    printf("y after the data region: %g\n", y[0] + y[1] + y[2] + y[3]);
    printf("PASS\n");
    return 0;
}
