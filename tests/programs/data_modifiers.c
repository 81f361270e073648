// The data clause modifiers of OpenACC 3.4 (2.7.4): `alwaysin` copies to
// the device although the data is present, `alwaysout` copies back at the
// end although it stays present, `always` does both (copyin: in, copyout:
// out, also on enter/exit data), and `capture` gives the construct a
// discrete copy. The host (the oracle, and CI's host fallback) shares its
// memory with the "device", so its answers differ: the GPU's are below.
// gpu-stdout: copy: 2
// gpu-stdout: alwaysin: 2
// gpu-stdout: alwaysout: 22
// gpu-stdout: always: 32
// gpu-stdout: copyin(always) copyout(always): 42 52
// gpu-stdout: last exit copies out: 52
// gpu-stdout: capture: 36
// gpu-stdout: PASS
#include <stdio.h>

static double a[8], b[8];

int main(void)
{
    for (int i = 0; i < 8; i++)
        a[i] = 1;
#pragma acc enter data copyin(a)
    for (int i = 0; i < 8; i++)
        a[i] = 2; /* the device copy keeps 1 */
#pragma acc parallel loop copy(a)
    for (int i = 0; i < 8; i++)
        a[i] += 10; /* device 11; present: nothing moves */
    printf("copy: %g\n", a[0]);
#pragma acc parallel loop copy(alwaysin: a)
    for (int i = 0; i < 8; i++)
        a[i] += 10; /* device 2 + 10 = 12, not copied back */
    printf("alwaysin: %g\n", a[0]);
#pragma acc parallel loop copy(alwaysout: a)
    for (int i = 0; i < 8; i++)
        a[i] += 10; /* device 22, copied back */
    printf("alwaysout: %g\n", a[0]);
#pragma acc parallel loop copy(always: a)
    for (int i = 0; i < 8; i++)
        a[i] += 10; /* host 22 in, 32 out */
    printf("always: %g\n", a[0]);
    for (int i = 0; i < 8; i++)
        a[i] += 10; /* host 42, device 32 */
#pragma acc enter data copyin(always: a)
#pragma acc parallel loop present(a)
    for (int i = 0; i < 8; i++)
        a[i] += 10; /* device 52 */
    double before = a[0];
#pragma acc exit data copyout(always: a)
    printf("copyin(always) copyout(always): %g %g\n", before, a[0]);
    for (int i = 0; i < 8; i++)
        a[i] = -1;
#pragma acc exit data copyout(a)
    printf("last exit copies out: %g\n", a[0]);

    /* capture: the region's copy is its own; the host's later writes do
       not reach it. */
    for (int i = 0; i < 8; i++)
        b[i] = i;
    double s = 0;
#pragma acc data copy(capture: b) copy(s)
    {
        for (int i = 0; i < 8; i++)
            b[i] = 100; /* the host copy only */
#pragma acc parallel loop reduction(+:s)
        for (int i = 0; i < 8; i++)
            s += b[i] + 1;
    }
    printf("capture: %g\n", s);
    printf("PASS\n");
    return 0;
}
