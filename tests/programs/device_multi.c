// Several GPUs (OpenACC 3.3 2.14.3 set device_num, 3.2.4-3.2.5): the
// program selects each NVIDIA device in turn with `set device_num(d)`,
// gives each its own copy of the same array with different contents, and
// checks that a region on device d sees device d's copy; data mapped on
// device 0 is not present on device 1, and the async queues of one device
// are not those of another. With one GPU only device 0 is used; on the host
// (and GCC's host-only build) there is no NVIDIA device and nothing runs,
// so the output is the same everywhere.
#include <openacc.h>
#include <stdio.h>

#define N 4096
#define MAXDEV 16

static double x[N], y[N];

int main(void)
{
    int ok = 1, bad = 0;
    int n = acc_get_num_devices(acc_device_nvidia);
    if (n > MAXDEV)
        n = MAXDEV;

    /* Each device gets x filled with its own number. */
    for (int d = 0; d < n; d++) {
#pragma acc set device_num(d)
        for (int i = 0; i < N; i++)
            x[i] = 1000.0 * d + i;
#pragma acc enter data copyin(x[0:N])
    }
    /* A region on device d sees device d's copy. */
    for (int d = 0; d < n; d++) {
#pragma acc set device_num(d)
        bad += acc_get_device_num(acc_device_nvidia) != d;
#pragma acc parallel loop present(x[0:N])
        for (int i = 0; i < N; i++)
            x[i] += 0.5;
#pragma acc update self(x[0:N])
        for (int i = 0; i < N; i++)
            bad += x[i] != 1000.0 * d + i + 0.5;
#pragma acc exit data delete(x[0:N])
        bad += acc_is_present(x, sizeof x) != 0;
    }

    if (n >= 2) {
        /* Mapped on device 0 only. */
#pragma acc set device_num(0)
#pragma acc enter data create(y[0:N])
        bad += !acc_is_present(y, sizeof y);
#pragma acc set device_num(1)
        bad += acc_is_present(y, sizeof y) != 0;
        /* Queue 1 of device 0 is busy or done; device 1's has no work. */
#pragma acc set device_num(0)
#pragma acc parallel loop present(y[0:N]) async(1)
        for (int i = 0; i < N; i++)
            y[i] = i;
#pragma acc set device_num(1)
        bad += acc_async_test(1) == 0;
#pragma acc set device_num(0)
#pragma acc wait(1)
#pragma acc exit data copyout(y[0:N])
        for (int i = 0; i < N; i++)
            bad += y[i] != i;
    }
    if (n > 0) {
#pragma acc set device_num(0)
    }
    printf("bad %d\n", bad);
    ok &= bad == 0;
    printf("%s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
