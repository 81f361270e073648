// The data routines of <openacc.h> for dynamic data lifetimes (OpenACC 3.3
// 3.2.18-3.2.25): acc_copyin/acc_create count dynamic references,
// acc_copyout/acc_delete drop them (copying out only at the last one),
// the _finalize forms drop all, acc_update_device/self copy present data,
// acc_deviceptr/acc_hostptr translate, acc_is_present tests whole ranges.
// On a GPU host and device memory are separate, so the values a kernel writes
// reach the host only when the program says so; the host fallback (and GCC's
// host-only build) shares memory: those answers are the `gpu-stdout` lines.
//
// gpu-stdout: present 1 1
// gpu-stdout: translate 1 1 1
// gpu-stdout: after kernel a[3] 3 b[3] 0
// gpu-stdout: after update_self a[3] 103
// gpu-stdout: after first copyout a[5] 5 present 1
// gpu-stdout: after last copyout a[5] 105
// gpu-stdout: delete keeps host b[7] 0
// gpu-stdout: finalize c[9] 36
// gpu-stdout: update_device then kernel d[2] 1001
// gpu-stdout: PASS
#include <openacc.h>
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    int n = 1000;
    size_t bytes = n * sizeof(int);
    int *a = malloc(bytes), *b = malloc(bytes), *c = malloc(bytes), *d = malloc(bytes);
    for (int i = 0; i < n; i++) {
        a[i] = i;
        b[i] = 0;
        c[i] = 2 * i;
        d[i] = 0;
    }

    int *da = acc_copyin(a, bytes);
    acc_copyin(a, bytes); /* a second dynamic reference */
    acc_create(b, bytes);
    printf("present %d %d\n", acc_is_present(a, bytes), acc_is_present(b + 10, 40));
    printf("translate %d %d %d\n", acc_deviceptr(a) == (void *)da,
           acc_deviceptr(a + 5) == (void *)(da + 5), acc_hostptr(da + 7) == (void *)(a + 7));

#pragma acc parallel loop present(a[0:n], b[0:n])
    for (int i = 0; i < n; i++) {
        a[i] += 100;
        b[i] = a[i];
    }
    printf("after kernel a[3] %d b[3] %d\n", a[3], b[3]);
    acc_update_self(a + 3, sizeof(int));
    printf("after update_self a[3] %d\n", a[3]);
    a[5] = 5; /* the host's own value, until the last copyout */
    acc_copyout(a, bytes);
    printf("after first copyout a[5] %d present %d\n", a[5], acc_is_present(a, bytes));
    acc_copyout(a, bytes);
    printf("after last copyout a[5] %d\n", a[5]);
    acc_delete(b, bytes);
    printf("delete keeps host b[7] %d\n", b[7]);

    /* Three references, one finalize: gone, and copied out. */
    acc_copyin(c, bytes);
    acc_copyin(c, bytes);
    acc_create(c, bytes);
#pragma acc parallel loop present(c[0:n])
    for (int i = 0; i < n; i++)
        c[i] = 2 * c[i];
    acc_copyout_finalize(c, bytes);
    printf("finalize c[9] %d\n", c[9]);

    acc_create(d, bytes);
    for (int i = 0; i < n; i++)
        d[i] = 1000 + i;
    acc_update_device(d, bytes);
#pragma acc parallel loop present(d[0:n])
    for (int i = 0; i < n; i++)
        d[i] = d[i] - i + i / 2;
    acc_update_self(d, bytes);
    printf("update_device then kernel d[2] %d\n", d[2]);
    acc_delete_finalize(d, bytes);

    int errors = 0;
    for (int i = 0; i < n; i++)
        errors += c[i] != 4 * i || d[i] != 1000 + i / 2;
    printf("%s\n", errors == 0 ? "PASS" : "FAIL");
    free(a);
    free(b);
    free(c);
    free(d);
    return 0;
}
