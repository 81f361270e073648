// acc_device_multicore means the host until accc has a multicore device
// (issue 15): acc_set_device_type and the set and init directives'
// device_type(multicore) make constructs run on the host, where
// acc_get_device_type reports acc_device_multicore. GCC's libgomp has no
// acc_device_multicore, so there is no plain-cc oracle. The last construct
// runs with the default device type: on the GPU when there is one.
// oracle: none
// gpu-stdout: multicore type 1 devices 1 num 0
// gpu-stdout: routine: construct on the host 1
// gpu-stdout: set directive: type 1, construct on the host 1
// gpu-stdout: init directive: type 1
// gpu-stdout: default: construct on the host 0
// gpu-stdout: PASS
#include <openacc.h>
#include <stdio.h>

/* 1 when a compute construct runs on the host. */
static int construct_on_host(void)
{
    int on = -1;
#pragma acc parallel num_gangs(1) copyout(on)
    on = acc_on_device(acc_device_host);
    return on;
}

int main(void)
{
    int ok = 1;
    acc_set_device_type(acc_device_multicore);
    int t = acc_get_device_type() == acc_device_multicore;
    int n = acc_get_num_devices(acc_device_multicore);
    int num = acc_get_device_num(acc_device_multicore);
    printf("multicore type %d devices %d num %d\n", t, n, num);
    ok &= t && n == 1 && num == 0;
    int h = construct_on_host();
    printf("routine: construct on the host %d\n", h);
    ok &= h == 1;

    acc_set_device_type(acc_device_default);
#pragma acc set device_type(multicore)
    t = acc_get_device_type() == acc_device_multicore;
    h = construct_on_host();
    printf("set directive: type %d, construct on the host %d\n", t, h);
    ok &= t && h == 1;

    acc_set_device_type(acc_device_host);
#pragma acc init device_type(multicore)
    t = acc_get_device_type() == acc_device_multicore;
    printf("init directive: type %d\n", t);
    ok &= t;

#pragma acc set device_type(default)
    h = construct_on_host();
    printf("default: construct on the host %d\n", h);
    ok &= h == (acc_get_device_type() == acc_device_host);
    printf(ok ? "PASS\n" : "FAIL\n");
    return 0;
}
