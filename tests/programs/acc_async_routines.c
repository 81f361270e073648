// The async routines of <openacc.h> (OpenACC 3.3 3.2.9-3.2.10) and the _async
// forms of the data routines: work queued on async queues is complete after
// acc_wait / acc_wait_all, acc_async_test says so, and acc_wait_async /
// acc_wait_all_async order queues. The answers are the same whether the queues
// run asynchronously or not, on a GPU or on the host.
#include <openacc.h>
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    int n = 100000;
    size_t bytes = n * sizeof(float);
    float *a = malloc(bytes), *b = malloc(bytes);
    for (int i = 0; i < n; i++) {
        a[i] = (float)(i % 100);
        b[i] = 0;
    }
    acc_init(acc_device_default);
    printf("idle %d %d %d\n", acc_async_test(0) != 0, acc_async_test(7) != 0,
           acc_async_test_all() != 0);

    acc_copyin_async(a, bytes, 1);
    acc_create_async(b, bytes, 2);
    acc_wait(1);
    acc_wait_async(2, 1); /* queue 1 waits for queue 2 */
    acc_wait(1);
    printf("after wait %d %d\n", acc_async_test(1) != 0, acc_async_test(2) != 0);
#pragma acc parallel loop present(a[0:n], b[0:n])
    for (int i = 0; i < n; i++)
        b[i] = 2.0f * a[i] + 1.0f;
    acc_update_self_async(b, bytes / 2, 3);
    acc_wait_all_async(4);
    acc_wait_all();
    printf("b[1] %.1f b[n/2-1] %.1f\n", b[1], b[n / 2 - 1]);

    for (int i = 0; i < n; i++)
        a[i] = 1.0f;
    acc_update_device_async(a, bytes, 5);
    acc_async_wait(5);
#pragma acc parallel loop present(a[0:n], b[0:n])
    for (int i = 0; i < n; i++)
        b[i] += a[i];
    acc_copyout_async(b, bytes, 6);
    acc_delete_async(a, bytes, 6);
    acc_async_wait_all();
    printf("done %d\n", acc_async_test_all() != 0);

    int errors = 0;
    for (int i = 0; i < n; i++)
        errors += b[i] != 2.0f * (float)(i % 100) + 2.0f;
    printf("b[3] %.1f errors %d\n", b[3], errors);
    printf("%s\n", errors == 0 ? "PASS" : "FAIL");
    free(a);
    free(b);
    return 0;
}
