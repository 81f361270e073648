// Polling async queues (OpenACC 3.3 runtime routines acc_async_test and
// acc_async_test_all): a nonzero answer means every operation queued there has
// completed, including the copy-back of a `copyout` clause at the end of an
// async compute construct, so the host may read the data without any wait.
//   1  a long kernel with copyin/copyout on queue 5, `while
//      (!acc_async_test(5))`, then b is read directly;
//   2  a long kernel on queue 6 and a short one on queue 7, then
//      `while (!acc_async_test_all())`, then both results are read;
//   3  the chunk pipeline of the PACC paper (shared/seeds/pacc-out-of-core-
//      stencil.txt, Figure 9): for each chunk, pick a queue that
//      acc_async_test says is idle, move that queue's previous chunk from its
//      host buffer to the output, refill the buffer, then update device,
//      kernel and update self on that queue; `wait(q)` per queue at the end
//      (a wait directive followed by a declaration).
// On a device the kernels of 1 and 2 run POLL_INNER_DEVICE dependent steps
// per element (tens of milliseconds on an H100, so the polling loops really
// spin); on the host POLL_INNER_HOST, to stay fast. The steps v = 1000 - v
// come back to v after an even count, so the answer does not depend on the
// count, and nothing printed depends on the number of polls (stderr has it).
#include <openacc.h>
#include <stdio.h>
#include <stdlib.h>

#define N (1 << 16)
#define POLL_INNER_HOST 256       /* even */
#define POLL_INNER_DEVICE (1 << 22) /* even */
#define NQ 3                      /* queues of the pipeline */
#define CHUNK 4096
#define NCHUNK 37
#define NONE (-1)

static int failures;

static void check(const char *what, long long got, long long want)
{
    printf("%s %lld\n", what, got);
    if (got != want) {
        failures++;
        fprintf(stderr, "%s: got %lld, want %lld\n", what, got, want);
    }
}

static float in0(int i) { return (float)(i % 1000); }

/* Mismatches of x[0:n] against 2 * in0(i) + add. */
static long long bad_count(const float *x, int n, float add)
{
    long long bad = 0;
    for (int i = 0; i < n; i++)
        bad += x[i] != 2.0f * in0(i) + add;
    return bad;
}

int main(void)
{
    const int n = N;
    const int inner = acc_get_device_type() == acc_device_host ? POLL_INNER_HOST
                                                                : POLL_INNER_DEVICE;
    float *a = malloc(n * sizeof(float)), *b = malloc(n * sizeof(float));
    float *c = malloc(n * sizeof(float)), *d = malloc(n * sizeof(float));
    for (int i = 0; i < n; i++) {
        a[i] = in0(i);
        b[i] = c[i] = d[i] = -1.0f;
    }

    /* 1: one long region, polled until its queue is done. */
    long polls = 0;
#pragma acc parallel loop copyin(a[0:n]) copyout(b[0:n]) async(5)
    for (int i = 0; i < n; i++) {
        float v = a[i];
        for (int k = 0; k < inner; k++)
            v = 1000.0f - v;
        b[i] = 2.0f * v + 1.0f;
    }
    while (!acc_async_test(5))
        polls++;
    fprintf(stderr, "part 1: %ld polls\n", polls);
    check("p1_bad", bad_count(b, n, 1.0f), 0);
    check("p1_test_again", acc_async_test(5) != 0, 1);

    /* 2: two queues, polled together. */
    polls = 0;
#pragma acc parallel loop copyin(a[0:n]) copyout(c[0:n]) async(6)
    for (int i = 0; i < n; i++) {
        float v = a[i];
        for (int k = 0; k < inner; k++)
            v = 1000.0f - v;
        c[i] = 2.0f * v + 2.0f;
    }
#pragma acc parallel loop copyin(a[0:n]) copyout(d[0:n]) async(7)
    for (int i = 0; i < n; i++)
        d[i] = 2.0f * a[i] + 3.0f;
    while (!acc_async_test_all())
        polls++;
    fprintf(stderr, "part 2: %ld polls\n", polls);
    check("p2_bad_c", bad_count(c, n, 2.0f), 0);
    check("p2_bad_d", bad_count(d, n, 3.0f), 0);
    check("p2_test", (acc_async_test(6) != 0) + (acc_async_test(7) != 0), 2);

    /* 3: the PACC pipeline; queue q + 1 owns host buffer buf[q*CHUNK:CHUNK]
       and the device copy of it, g[q] is the chunk it holds (or NONE). */
    const int total = NCHUNK * CHUNK;
    float *src = malloc(total * sizeof(float)), *dst = malloc(total * sizeof(float));
    float *buf = malloc(NQ * CHUNK * sizeof(float));
    int g[NQ];
    for (int i = 0; i < total; i++) {
        src[i] = in0(i);
        dst[i] = -1.0f;
    }
    for (int q = 0; q < NQ; q++)
        g[q] = NONE;
#pragma acc enter data create(buf[0:NQ*CHUNK])
    long idle_checks = 0;
    int q = 0;
    for (int chunk = 0; chunk < NCHUNK; q = (q + 1) % NQ) {
        idle_checks++;
        if (!acc_async_test(q + 1))
            continue; /* queue q + 1 is still busy: try the next one */
        float *mine = buf + q * CHUNK;
        if (g[q] != NONE)
            for (int i = 0; i < CHUNK; i++)
                dst[g[q] * CHUNK + i] = mine[i];
        for (int i = 0; i < CHUNK; i++)
            mine[i] = src[chunk * CHUNK + i];
        const int off = q * CHUNK;
#pragma acc update device(buf[off:CHUNK]) async(q + 1)
#pragma acc parallel loop present(buf[0:NQ*CHUNK]) async(q + 1)
        for (int i = off; i < off + CHUNK; i++) {
            float v = buf[i];
            for (int k = 0; k < 64; k++)
                v = 1000.0f - v;
            buf[i] = 2.0f * v + 4.0f;
        }
#pragma acc update self(buf[off:CHUNK]) async(q + 1)
        g[q] = chunk;
        chunk++;
    }
    for (int r = 0; r < NQ; r++) {
#pragma acc wait(r + 1)
        const int last = g[r];
        if (last != NONE)
            for (int i = 0; i < CHUNK; i++)
                dst[last * CHUNK + i] = buf[r * CHUNK + i];
    }
#pragma acc exit data delete(buf[0:NQ*CHUNK])
    fprintf(stderr, "part 3: %ld idle checks\n", idle_checks);
    check("p3_bad", bad_count(dst, total, 4.0f), 0);

    printf("%s\n", failures == 0 ? "PASS" : "FAIL");
    free(a);
    free(b);
    free(c);
    free(d);
    free(src);
    free(dst);
    free(buf);
    return failures != 0;
}
