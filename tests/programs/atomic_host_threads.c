// oracle: none
// env: ACC_DEVICE_TYPE=host
// gpu-stdout: 800000 400000.0 1 800000 1
// gpu-stdout: PASS
// Atomics on the host fallback are atomic too (OpenACC 3.3 2.12): four host
// threads run the same compute region at once on the host, every iteration
// updating shared locations (int ++, float +=, a capture, a
// compare-and-swap form); the totals must be exact. (No oracle: the plain cc
// build, pragmas ignored, races.)
#include <pthread.h>
#include <stdio.h>

#define THREADS 4
#define ITERS 200000

static int count;
static float fsum;
static long long prod_sign = 1;
static int tickets_ok = 1;
static int next_ticket;

static void *work(void *arg)
{
    (void)arg;
    int n = ITERS;
    int ok = 1;
#pragma acc parallel loop reduction(&&:ok)
    for (int i = 0; i < n; i++) {
        int t;
#pragma acc atomic update
        count++;
#pragma acc atomic
        fsum += 0.5f;
#pragma acc atomic
        prod_sign *= -1;
#pragma acc atomic capture
        t = next_ticket++;
        ok = ok && t >= 0 && t < THREADS * ITERS;
    }
    if (!ok)
        tickets_ok = 0;
    return 0;
}

int main(void)
{
    pthread_t th[THREADS];
    for (int i = 0; i < THREADS; i++)
        pthread_create(&th[i], 0, work, 0);
    for (int i = 0; i < THREADS; i++)
        pthread_join(th[i], 0);
    int pass = count == THREADS * ITERS && fsum == 0.5f * THREADS * ITERS && prod_sign == 1 &&
               next_ticket == THREADS * ITERS && tickets_ok;
    printf("%d %.1f %lld %d %d\n", count, (double)fsum, prod_sign, next_ticket, tickets_ok);
    printf("%s\n", pass ? "PASS" : "FAIL");
    return 0;
}
