// Waiting for queues that were never used (OpenACC 3.3 2.16.2 wait clause,
// 2.16.3 wait directive, the async routines): a queue with nothing on it has
// completed everything queued there, so every wait on it returns at once and
// every test says done.
// Tested before anything was ever queued and again with other queues busy:
// acc_wait(99), `#pragma acc wait(42)`, `#pragma acc wait(7) async(8)` (and
// then waiting for 8), acc_wait_async(11, 12), acc_wait_all_async(13),
// acc_async_test(1234) and acc_async_test_all() nonzero, acc_wait_all() with
// nothing queued, `wait(77)`, `wait(78, 79)`, `wait(76)` and `wait(75)`
// clauses on compute constructs, enter/exit data and an update, and a `wait`
// directive without argument with nothing queued. acc_init comes first:
// GCC's libgomp (the oracle) stops with "no device active" on acc_async_test
// before any device is initialised.
#include <openacc.h>
#include <stdio.h>
#include <stdlib.h>

#define N 100000

static int failures;

static void check(const char *what, long long got, long long want)
{
    printf("%s %lld\n", what, got);
    if (got != want) {
        failures++;
        fprintf(stderr, "%s: got %lld, want %lld\n", what, got, want);
    }
}

int main(void)
{
    const int n = N;
    int *a = malloc(n * sizeof(int));
    for (int i = 0; i < n; i++)
        a[i] = i % 100;

    /* Nothing was ever queued (GCC's libgomp wants an initialised device). */
    acc_init(acc_device_default);
    check("test_1234", acc_async_test(1234) != 0, 1);
    check("test_all", acc_async_test_all() != 0, 1);
    acc_wait(99);
    acc_wait_all();
#pragma acc wait(42)
#pragma acc wait
#pragma acc wait(7) async(8)
#pragma acc wait(8)
    acc_wait_async(11, 12);
    acc_wait(12);
    acc_wait_all_async(13);
    acc_wait(13);
    check("test_after_waits", (acc_async_test(8) != 0) + (acc_async_test(12) != 0) +
                                  (acc_async_test(13) != 0) + (acc_async_test_all() != 0),
          4);

    /* Constructs that wait for unused queues, synchronous and async. */
#pragma acc parallel loop copy(a[0:n]) wait(77)
    for (int i = 0; i < n; i++)
        a[i] += 1;
    check("sync_wait77", a[n - 1], 100);
#pragma acc enter data copyin(a[0:n]) wait(78, 79)
#pragma acc kernels loop present(a[0:n]) async(3) wait(77)
    for (int i = 0; i < n; i++)
        a[i] *= 2;
    /* While queue 3 may be busy, waits on unused queues still return. */
    acc_wait(98);
#pragma acc wait(97) async(96)
    acc_wait_async(95, 94);
#pragma acc serial present(a[0:n]) async(3) wait(78, 79)
    a[0] = -5;
#pragma acc update self(a[0:n]) async(3) wait(76)
#pragma acc wait(3)
    {
        long long s = 0;
        for (int i = 0; i < n; i++)
            s += a[i];
        check("sum_after_queue3", s, -5 + 2 * (long long)(n / 100) * 5050 - 2);
    }
    check("test_end", (acc_async_test(3) != 0) + (acc_async_test(99) != 0), 2);
#pragma acc exit data delete(a[0:n]) wait(75)
    acc_wait_all();

    printf("%s\n", failures == 0 ? "PASS" : "FAIL");
    free(a);
    return failures != 0;
}
