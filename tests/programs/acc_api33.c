// Routines of OpenACC 3.3 that GCC 12's libgomp lacks, so this program has no
// plain-cc oracle (on CI its host-fallback run must pass its own checks; on a
// GPU its output must be the gpu-stdout lines): acc_memcpy_device(_async),
// acc_memcpy_d2d, acc_get/set_default_async and acc_async_default, the
// _device forms of init, shutdown, test and wait, and the
// acc_property_shared_memory_support property.
// oracle: none
// gpu-stdout: shared memory property matches the device type 1
// gpu-stdout: free memory <= memory 1
// gpu-stdout: memcpy_device 1 async 1
// gpu-stdout: d2d 1
// gpu-stdout: default async 0 5 0
// gpu-stdout: noval queue done 1
// gpu-stdout: device routines 1 1
// gpu-stdout: after shutdown_device sum 4950
// gpu-stdout: PASS
#include <openacc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
    int ok = 1;
    acc_device_t t = acc_get_device_type();
    size_t shared = acc_get_property(0, t, acc_property_shared_memory_support);
    int m1 = shared == (size_t)(t == acc_device_host);
    printf("shared memory property matches the device type %d\n", m1);
    size_t mem = acc_get_property(0, t, acc_property_memory);
    size_t free_mem = acc_get_property(0, t, acc_property_free_memory);
    int m2 = mem > 0 && free_mem <= mem;
    printf("free memory <= memory %d\n", m2);
    ok &= m1 && m2;

    int n = 3000;
    size_t bytes = n * sizeof(int);
    int *h = malloc(bytes), *back = malloc(bytes);
    for (int i = 0; i < n; i++) {
        h[i] = 7 * i;
        back[i] = 0;
    }
    int *d1 = acc_malloc(bytes), *d2 = acc_malloc(bytes);
    acc_memcpy_to_device(d1, h, bytes);
    acc_memcpy_device(d2, d1, bytes);
    acc_memcpy_from_device(back, d2, bytes);
    int c1 = memcmp(back, h, bytes) == 0;
    memset(back, 0, bytes);
    acc_memcpy_device_async(d1 + 1, d2, bytes - sizeof(int), 3);
    acc_wait(3);
    acc_memcpy_from_device(back, d1, bytes);
    int c2 = back[0] == 0 && back[1] == 0 && back[n - 1] == 7 * (n - 2);
    printf("memcpy_device %d async %d\n", c1, c2);
    ok &= c1 && c2;
    acc_free(d1);
    acc_free(d2);

    int *a = malloc(bytes), *b = malloc(bytes);
    for (int i = 0; i < n; i++) {
        a[i] = i;
        b[i] = -1;
    }
    acc_copyin(a, bytes);
    acc_create(b, bytes);
    acc_memcpy_d2d(b, a, bytes, acc_get_device_num(t), acc_get_device_num(t));
    acc_update_self(b, bytes);
    int c3 = memcmp(a, b, bytes) == 0;
    printf("d2d %d\n", c3);
    ok &= c3;

    int q0 = acc_get_default_async();
    acc_set_default_async(5);
    int q1 = acc_get_default_async();
    acc_set_default_async(acc_async_default);
    printf("default async %d %d %d\n", q0, q1, acc_get_default_async());
    acc_update_device_async(a, bytes, acc_async_noval);
    acc_wait(acc_get_default_async());
    printf("noval queue done %d\n", acc_async_test(acc_get_default_async()) != 0);
    acc_delete(a, bytes);
    acc_delete(b, bytes);

    int dev = acc_get_device_num(t);
    acc_wait_device(1, dev);
    acc_wait_device_async(1, 2, dev);
    acc_wait_all_device(dev);
    acc_wait_all_device_async(2, dev);
    printf("device routines %d %d\n", acc_async_test_device(1, dev) != 0,
           acc_async_test_all_device(dev) != 0);

    acc_init_device(dev, t);
    acc_shutdown_device(dev, t);
    int s = 0;
    int v[100];
#pragma acc parallel loop copyout(v[0:100])
    for (int i = 0; i < 100; i++)
        v[i] = i;
    for (int i = 0; i < 100; i++)
        s += v[i];
    printf("after shutdown_device sum %d\n", s);
    ok &= s == 4950;
    printf("%s\n", ok ? "PASS" : "FAIL");
    free(h);
    free(back);
    free(a);
    free(b);
    return 0;
}
