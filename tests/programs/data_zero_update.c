// The zero modifier (create(zero:), copyout(zero:)): new device memory
// starts zeroed whatever the host array holds; update if_present on data
// that is not present does nothing; a return out of a data region (not
// allowed in a structured block by the spec, but accc ends the region on
// the way out) still copies out.
// gpu-stdout: z: 1 1 1 1 99
// gpu-stdout: w: 0 0 7
// gpu-stdout: early: 1000 1007
// gpu-stdout: PASS
#include <stdio.h>

static int early(int *v, int n)
{
#pragma acc data copy(v[0:n])
    {
#pragma acc parallel loop
        for (int i = 0; i < n; i++)
            v[i] += 1000;
        if (n > 0)
            return v[0];   // leaves the region: v must still be copied out
    }
    return -1;
}

int main(void)
{
    int z[5] = { 99, 99, 99, 99, 99 }, w[3] = { 5, 5, 7 };
#pragma acc parallel loop copyout(zero: z[0:4]) copyin(readonly: w)
    for (int i = 0; i < 4; i++)
        z[i] += 1;
#pragma acc data create(zero: w[0:2])
    {
#pragma acc update self(w[0:2])
    }
#pragma acc update self(w) if_present
    printf("z: %d %d %d %d %d\n", z[0], z[1], z[2], z[3], z[4]);
    printf("w: %d %d %d\n", w[0], w[1], w[2]);
    int v[8];
    for (int i = 0; i < 8; i++)
        v[i] = i;
    early(v, 8);
    printf("early: %d %d\n", v[0], v[7]);
    printf("PASS\n");
    return 0;
}
