// The device management directives (OpenACC 3.3 2.14.1-2.14.3): init and
// shutdown with and without device_type, device_num and if (a device type
// accc has no devices of, such as radeon, is skipped); compute and data
// regions after a shutdown (the device is opened again, data copied again);
// set device_num(0); set device_type(host), after which regions run on the
// host (acc_on_device inside the region says so) until the routine
// acc_set_device_type restores the type. GCC 12 ignores these directives,
// and its host-only build runs everything on the host, so every line
// printed is the same with and without a GPU.
#include <openacc.h>
#include <stdio.h>

#define N 1000

static double a[N];

/* sum of (a[i] + 1) * 2 over a region that copies a in and out. */
static double region(void)
{
#pragma acc parallel loop copy(a[0:N])
    for (int i = 0; i < N; i++)
        a[i] = (a[i] + 1.0) * 2.0;
    double s = 0;
    for (int i = 0; i < N; i++)
        s += a[i];
    return s;
}

/* Whether a region runs on the host. */
static int region_on_host(void)
{
    int on_host = -1;
#pragma acc parallel num_gangs(1) copyout(on_host)
    on_host = acc_on_device(acc_device_host);
    return on_host;
}

static void reset(void)
{
    for (int i = 0; i < N; i++)
        a[i] = i % 7;
}

int main(void)
{
    int ok = 1;
    const int gpus = acc_get_num_devices(acc_device_nvidia);
    const acc_device_t t = acc_get_device_type();
    int zero = 0, yes = 1;

    reset();
#pragma acc init
    double s0 = region();
    printf("after init %.1f\n", s0);

#pragma acc init device_num(0) if(yes)
#pragma acc init device_type(radeon, multicore)
#pragma acc init device_type(host) if(zero)
    /* NVIDIA only where there is one (else init would be an error). */
#pragma acc init device_type(nvidia) device_num(zero) if(gpus > 0)
    reset();
    double s1 = region();
    printf("after init with clauses %.1f\n", s1);
    ok &= s1 == s0;

    /* A shutdown frees the device's data; the next region opens it again. */
#pragma acc shutdown
    reset();
    double s2 = region();
    printf("after shutdown %.1f\n", s2);
    ok &= s2 == s0;
#pragma acc shutdown device_type(*)
#pragma acc shutdown device_num(0) if(gpus > 0)
#pragma acc shutdown device_type(radeon)
#pragma acc shutdown device_type(nvidia, host) if(zero)
    reset();
#pragma acc enter data copyin(a[0:N])
#pragma acc shutdown device_type(nvidia) if(gpus > 0)
    /* The device copy went with the shutdown: the region copies again. */
    double s3 = region();
    /* (On the host, where memory is shared, everything is present.) */
    int present = acc_is_present(a, sizeof a) != 0;
    printf("after enter data and shutdown %.1f present as expected %d\n", s3,
           present == (gpus == 0));
    ok &= s3 == s0 && present == (gpus == 0);

#pragma acc set device_num(0)
    printf("device num %d\n", acc_get_device_num(t));
    ok &= acc_get_device_num(t) == 0;
#pragma acc set device_num(zero) if(yes)

    /* set device_type(host): regions run on the host. */
#pragma acc set device_type(host) if(zero)
    int on_host = region_on_host();
    printf("on host as before %d\n", on_host == (gpus == 0));
    ok &= on_host == (gpus == 0);
#pragma acc set device_type(host)
    printf("type host %d\n", acc_get_device_type() == acc_device_host);
    on_host = region_on_host();
    printf("on host after set %d\n", on_host);
    ok &= on_host == 1;
    reset();
    double s4 = region();
    printf("on the host %.1f\n", s4);
    ok &= s4 == s0;
    acc_set_device_type(t);
    on_host = region_on_host();
    printf("type restored %d\n", on_host == (gpus == 0));
    ok &= on_host == (gpus == 0);

    printf("%s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
