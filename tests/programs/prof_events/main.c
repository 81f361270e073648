// The OpenACC profiling interface (acc_prof.h): tool.c registers a callback
// for every event from its acc_register_library, records what it gets, and
// checks the order and fields of the events at exit (printing PASS or FAIL).
// Here the tool is linked into the program (the runtime finds its
// acc_register_library); tests/prof.rs also builds tool.c as a shared
// library loaded through ACC_PROFLIB. On the host fallback only the data
// directives' events come (nothing is allocated or launched there), on
// the multicore device also compute constructs and launches, on a device
// (the emulator, a GPU) every kind.
// oracle: none
// gpu-stdout: PASS
#include <stdio.h>
#include "lines.h"

#define N 1000
float a[N], b[N], c[N], d[N];

int main(void)
{
    for (int i = 0; i < N; i++) {
        a[i] = (float)i;
        b[i] = 0.0f;
        c[i] = 1.0f;
        d[i] = 2.0f;
    }
    int n = N;
    /* The lines must be those of lines.h. */
    _Static_assert(__LINE__ + 1 == L_ENTER, "L_ENTER");
#pragma acc enter data copyin(a[0:n]) create(b[0:n])
    _Static_assert(__LINE__ + 1 == L_PAR, "L_PAR");
#pragma acc parallel loop present(a[0:n], b[0:n])
    for (int i = 0; i < n; i++)
        b[i] = 2.0f * a[i];
    _Static_assert(__LINE__ + 1 == L_UPDATE, "L_UPDATE");
#pragma acc update self(b[0:n])
    _Static_assert(__LINE__ + 1 == L_ASYNC, "L_ASYNC");
#pragma acc parallel loop copy(c[0:n]) async(1)
    for (int i = 0; i < n; i++) c[i] += 1.0f;
    _Static_assert(__LINE__ + 1 == L_WAIT, "L_WAIT");
#pragma acc wait(1)
    _Static_assert(__LINE__ + 1 == L_EXIT, "L_EXIT");
#pragma acc exit data copyout(b[0:n]) delete(a[0:n])
    _Static_assert(__LINE__ + 1 == L_DATA, "L_DATA");
#pragma acc data copyin(d[0:n])
    {
    }
    int bad = 0;
    for (int i = 0; i < N; i++)
        bad += b[i] != 2.0f * (float)i || c[i] != 2.0f;
    if (bad)
        printf("FAIL: %d wrong values\n", bad);
    return bad != 0;
}
