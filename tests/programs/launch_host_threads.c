// Several host threads launch compute regions at once, each on its own
// arrays in its own data region: on a GPU the runtime serialises them; on
// the multicore device (-acc=multicore) each launch runs its gangs without
// the runtime lock, so the launches of different threads overlap (one on
// the gang threads' pool, the others on their own thread). Every thread's
// arrays must hold exactly its own updates.
#include <pthread.h>
#include <stdio.h>

#define THREADS 4
#define N 256
#define ROUNDS 200

static long data[THREADS][N];
static long sums[THREADS];

static void *work(void *arg)
{
    int t = (int)(long)arg;
    long *a = data[t];
    long s = 0;
#pragma acc data copy(a[0:N])
    {
        for (int r = 0; r < ROUNDS; r++) {
#pragma acc parallel loop present(a[0:N])
            for (int i = 0; i < N; i++)
                a[i] += i + t;
        }
#pragma acc parallel loop present(a[0:N]) reduction(+:s)
        for (int i = 0; i < N; i++)
            s += a[i];
    }
    sums[t] = s;
    return 0;
}

int main(void)
{
    pthread_t th[THREADS];
    for (long t = 0; t < THREADS; t++)
        pthread_create(&th[t], 0, work, (void *)t);
    for (int t = 0; t < THREADS; t++)
        pthread_join(th[t], 0);
    int ok = 1;
    for (int t = 0; t < THREADS; t++) {
        long want = 0;
        for (int i = 0; i < N; i++) {
            if (data[t][i] != (long)ROUNDS * (i + t))
                ok = 0;
            want += (long)ROUNDS * (i + t);
        }
        if (sums[t] != want)
            ok = 0;
        printf("%d %ld\n", t, sums[t]);
    }
    printf("%s\n", ok ? "PASS" : "FAIL");
    return !ok;
}
