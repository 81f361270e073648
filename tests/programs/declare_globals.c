// declare at file scope: create, copyin and device_resident globals live on
// the device for the whole program; routines reach them through the
// runtime-filled address cells, kernels through the present table; update
// moves data between the copies. declare link: the global's device copy is
// whatever a data clause maps.
// gpu-stdout: table on host after the device wrote it: 0
// gpu-stdout: after update self: 3
// gpu-stdout: acc 60 scale 2.5 linked 60
// gpu-stdout: PASS
#include <stdio.h>

#define N 16
double table[N];
#pragma acc declare create(table)
float scale = 2.5f;
#pragma acc declare copyin(scale)
static int counts[4];
#pragma acc declare device_resident(counts)
double linked[3] = { 5, 10, 15 };
#pragma acc declare link(linked)

#pragma acc routine seq
static double lookup(int i) { return table[i % N] * scale; }

#pragma acc routine seq
static double link_sum(void) { return linked[0] + linked[1] + linked[2]; }

int main(void)
{
#pragma acc parallel loop
    for (int i = 0; i < N; i++)
        table[i] = i % 4;
    printf("table on host after the device wrote it: %g\n", table[3]);
#pragma acc update self(table)
    printf("after update self: %g\n", table[3]);

    double acc = 0, s = 0, l = 0;
#pragma acc serial copy(acc)
    for (int k = 0; k < N; k++)
        acc += lookup(k);
#pragma acc serial copyout(s)
    s = scale;
    for (int i = 0; i < 3; i++)
        linked[i] *= 2;
#pragma acc data copyin(linked)
    {
#pragma acc serial copyout(l)
        l = link_sum();
    }
    printf("acc %g scale %g linked %g\n", acc, s, l);
    printf("PASS\n");
    return 0;
}
