// The trace file (PTXRT_TRACE): tests/trace.rs runs this program on the
// emulated device with PTXRT_TRACE set and checks the file's events in
// order: the data region of line L_DATA with its upload, the kernel of
// line L_SYNC on the default queue, the kernel of line L_ASYNC and its
// copies on queue 1, the wait of line L_WAIT. Keep the lines in step with
// tests/trace.rs.
#include <stdio.h>

#define N 4096
float a[N], b[N];

int main(void)
{
    for (int i = 0; i < N; i++) {
        a[i] = (float)i;
        b[i] = 0.0f;
    }
#pragma acc data copy(a[0:N])
    {
#pragma acc parallel loop present(a[0:N])
        for (int i = 0; i < N; i++)
            a[i] += 1.0f;
    }
#pragma acc parallel loop copy(b[0:N]) async(1)
    for (int i = 0; i < N; i++)
        b[i] = 2.0f * (float)i;
#pragma acc wait(1)
    int bad = 0;
    for (int i = 0; i < N; i++)
        bad += a[i] != (float)i + 1.0f || b[i] != 2.0f * (float)i;
    printf("%s\n", bad ? "FAIL" : "PASS");
    return bad != 0;
}
