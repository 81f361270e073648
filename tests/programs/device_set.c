// The set directive (OpenACC 3.3 2.14.3) with each of its clauses and all
// three together: default_async(q) makes q the queue of `async` without an
// argument (as acc_set_default_async does), default_async(acc_async_default)
// restores the first one; device_type(host) / device_type(default) choose
// where regions run; if(0) changes nothing. GCC 12's libgomp lacks
// acc_get_default_async and acc_async_default, so this program has no
// oracle (tests/README.md); its output is the same on the host and on a GPU.
// oracle: none
// gpu-stdout: default 3 1
// gpu-stdout: queue 3 bad 0 idle 1
// gpu-stdout: if(0) kept 3
// gpu-stdout: restored 1
// gpu-stdout: host 1 1 default 4
// gpu-stdout: default type 1
// gpu-stdout: PASS
#include <openacc.h>
#include <stdio.h>

#define N (1 << 16)

static float b[N];

static int region_on_host(void)
{
    int on_host = -1;
#pragma acc parallel num_gangs(1) copyout(on_host)
    on_host = acc_on_device(acc_device_host);
    return on_host;
}

int main(void)
{
    int ok = 1, bad = 0;
    const int gpus = acc_get_num_devices(acc_device_nvidia);
    const int q0 = acc_get_default_async();
    int zero = 0;

#pragma acc set default_async(3)
    int q = acc_get_default_async();
    printf("default %d %d\n", q, q != q0);
    ok &= q == 3 && q != q0;

    /* `async` alone: queue 3, which `wait(3)` waits for. */
#pragma acc enter data create(b[0:N])
#pragma acc parallel loop present(b[0:N]) async
    for (int i = 0; i < N; i++)
        b[i] = 0.5f * i;
#pragma acc update self(b[0:N]) async
#pragma acc wait(3)
    for (int i = 0; i < N; i++)
        bad += b[i] != 0.5f * i;
    int idle = acc_async_test(3) != 0;
    printf("queue 3 bad %d idle %d\n", bad, idle);
    ok &= bad == 0 && idle;
#pragma acc exit data delete(b[0:N])

#pragma acc set default_async(7) if(zero)
    printf("if(0) kept %d\n", acc_get_default_async());
    ok &= acc_get_default_async() == 3;
#pragma acc set default_async(acc_async_default)
    printf("restored %d\n", acc_get_default_async() == q0);
    ok &= acc_get_default_async() == q0;

    /* All three clauses. */
#pragma acc set device_type(host) device_num(0) default_async(4)
    int on_host = region_on_host();
    printf("host %d %d default %d\n", acc_get_device_type() == acc_device_host, on_host,
           acc_get_default_async());
    ok &= on_host == 1 && acc_get_default_async() == 4;
    /* Back to the default type: the GPU when there is one. */
#pragma acc set device_type(default)
    on_host = region_on_host();
    printf("default type %d\n", on_host == (gpus == 0));
    ok &= on_host == (gpus == 0);
#pragma acc set default_async(acc_async_default) device_type(nvidia) if(gpus > 0)

    printf("%s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
