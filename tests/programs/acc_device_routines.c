// The device management routines of <openacc.h> (OpenACC 3.3 3.2.1-3.2.8):
// device types and numbers, properties, init/shutdown, and data regions that
// still work after a shutdown (the device is opened again). Only answers that
// do not depend on whether a GPU is present are printed, so the output equals
// GCC's host-only build (-fopenacc -foffload=disable).
#include <openacc.h>
#include <stdio.h>

static long sum_squares(int n)
{
    long out[256];
#pragma acc parallel loop copyout(out[0:n])
    for (int i = 0; i < n; i++)
        out[i] = (long)i * i;
    long s = 0;
    for (int i = 0; i < n; i++)
        s += out[i];
    return s;
}

int main(void)
{
    acc_device_t t = acc_get_device_type();
    printf("host devices %d\n", acc_get_num_devices(acc_device_host));
    printf("devices of the current type %d\n", acc_get_num_devices(t) >= 1);
    printf("devices of type none %d\n", acc_get_num_devices(acc_device_none));
    printf("host device num %d\n", acc_get_device_num(acc_device_host));
    acc_set_device_num(0, t);
    printf("device num %d\n", acc_get_device_num(t));
    printf("name %d vendor %d driver %d\n", acc_get_property_string(0, t, acc_property_name) != NULL,
           acc_get_property_string(0, t, acc_property_vendor) != NULL,
           acc_get_property_string(0, t, acc_property_driver) != NULL);
    printf("string property as number %d\n", (int)acc_get_property(0, t, acc_property_name));
    printf("numeric property as string %d\n",
           acc_get_property_string(0, t, acc_property_memory) == NULL);
    printf("sum %ld\n", sum_squares(200));

    /* The host, then back to the device type the program started with. */
    acc_set_device_type(acc_device_host);
    printf("type is host %d\n", acc_get_device_type() == acc_device_host);
    printf("sum on the host %ld\n", sum_squares(100));
    acc_set_device_type(t);
    printf("type restored %d\n", acc_get_device_type() == t);

    /* Shut down (freeing everything), initialise again, run again. */
    acc_shutdown(t);
    acc_init(t);
    printf("sum after init %ld\n", sum_squares(50));
    acc_shutdown(t);
    printf("sum after shutdown %ld\n", sum_squares(64));
    printf("on host %d\n", acc_on_device(acc_device_host));
    printf("PASS\n");
    return 0;
}
