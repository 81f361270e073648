// Lifetime of data attached to async operations (OpenACC 3.3 2.16.1 async
// clause with the data clauses and data lifetimes of 2.6-2.7): the device
// copy created for an async construct or an async enter data must live until
// its queue
// reaches the end of the construct / the exit data, the copy-back happens
// there (not when the host passes the directive), and only then is the
// device memory released, possibly to be reused by a later allocation while
// other queues still run. Tested:
//   1  64 async compute constructs, each with copyin(in[k*C:C])
//      copyout(out[k*C:C]) create(tmp[k*C:C]), round-robin over queues 1-3,
//      then one `#pragma acc wait` (device memory is allocated and released
//      while earlier chunks are still running);
//   2  the same with copy(io[k*C:C]) (read-modify-write per chunk);
//   3  per chunk: enter data copyin/create async(q), kernel async(q), exit
//      data copyout/delete async(q), round-robin over queues 4-6;
//   4  enter data copyin async(7) -> kernel async(7) -> exit data copyout
//      async(7), repeated 8 times on the same array and queue: each copyin
//      must read the host values the previous copyout brought back (the queue
//      orders them), so the increments accumulate;
//   5  the same with the data clause on the compute construct:
//      `parallel loop copy(in[0:n]) async(7)` 8 times.
// Every element is checked. On a device the kernels of 1 spin SPIN_DEVICE
// dependent steps per element (v = 1000 - v, even count: no change) so that
// chunks overlap; on the host 2 steps. Values are small integers: exact.
#include <openacc.h>
#include <stdio.h>
#include <stdlib.h>

#define N (1 << 20)
#define NCHUNK 64
#define C (N / NCHUNK)
#define SPIN_DEVICE 2000 /* even */
#define REPEAT 8

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

/* Mismatches of x[0:n] against want(i) and the sum of x, printed. */
static void check_array(const char *what, const float *x, int n, float (*want)(int))
{
    long long bad = 0;
    double s = 0, ws = 0;
    for (int i = 0; i < n; i++) {
        bad += x[i] != want(i);
        s += x[i];
        ws += want(i);
    }
    char name[64];
    snprintf(name, sizeof name, "%s_bad", what);
    check(name, bad, 0);
    snprintf(name, sizeof name, "%s_sum", what);
    check(name, (long long)s, (long long)ws);
}

static float out1(int i) { return 3.0f * in0(i) + 1.0f; }
static float io2(int i) { return in0(i) - (float)((i / C) % 3); }
static float out3(int i) { return 2.0f * in0(i) + 5.0f; }
static float x4(int i) { return in0(i) + (float)(REPEAT * (REPEAT + 1) / 2); }
static float x5(int i) { return x4(i) + (float)(REPEAT * (REPEAT + 1)); }

int main(void)
{
    const int n = N;
    const int spin = acc_get_device_type() == acc_device_host ? 2 : SPIN_DEVICE;
    float *in = malloc(n * sizeof(float)), *out = malloc(n * sizeof(float));
    float *tmp = malloc(n * sizeof(float)), *io = malloc(n * sizeof(float));
    for (int i = 0; i < n; i++) {
        in[i] = in0(i);
        io[i] = in0(i);
        out[i] = -1.0f;
    }

    /* 1: data clauses on async compute constructs, three queues. */
    for (int k = 0; k < NCHUNK; k++) {
        const int lo = k * C;
#pragma acc parallel loop copyin(in[lo:C]) copyout(out[lo:C]) create(tmp[lo:C]) async(k % 3 + 1)
        for (int i = lo; i < lo + C; i++) {
            float v = in[i];
            for (int s = 0; s < spin; s++)
                v = 1000.0f - v;
            tmp[i] = 3.0f * v;
            out[i] = tmp[i] + 1.0f;
        }
    }
#pragma acc wait
    check_array("p1_out", out, n, out1);

    /* 2: copy in place, chunk k minus its queue index. */
    for (int k = 0; k < NCHUNK; k++) {
        const int lo = k * C, q = k % 3;
#pragma acc parallel loop copy(io[lo:C]) async(q + 1)
        for (int i = lo; i < lo + C; i++)
            io[i] = io[i] - (float)q;
    }
#pragma acc wait
    check_array("p2_io", io, n, io2);

    /* 3: unstructured data per chunk, three other queues. */
    for (int i = 0; i < n; i++)
        out[i] = -1.0f;
    for (int k = 0; k < NCHUNK; k++) {
        const int lo = k * C, q = k % 3 + 4;
#pragma acc enter data copyin(in[lo:C]) create(out[lo:C]) async(q)
#pragma acc parallel loop present(in[lo:C], out[lo:C]) async(q)
        for (int i = lo; i < lo + C; i++)
            out[i] = 2.0f * in[i] + 5.0f;
#pragma acc exit data copyout(out[lo:C]) delete(in[lo:C]) async(q)
    }
#pragma acc wait
    check_array("p3_out", out, n, out3);

    /* 4: the same array in and out REPEAT times on one queue. */
    for (int r = 1; r <= REPEAT; r++) {
#pragma acc enter data copyin(in[0:n]) async(7)
#pragma acc parallel loop present(in[0:n]) async(7)
        for (int i = 0; i < n; i++)
            in[i] += (float)r;
#pragma acc exit data copyout(in[0:n]) async(7)
    }
#pragma acc wait(7)
    check_array("p4_in", in, n, x4);

    /* 5: copy clause on the construct, REPEAT times on one queue (2r each). */
    for (int r = 1; r <= REPEAT; r++) {
#pragma acc parallel loop copy(in[0:n]) async(7)
        for (int i = 0; i < n; i++)
            in[i] += (float)(2 * r);
    }
#pragma acc wait(7)
    check_array("p5_in", in, n, x5);

    printf("%s\n", failures == 0 ? "PASS" : "FAIL");
    free(in);
    free(out);
    free(tmp);
    free(io);
    return failures != 0;
}
