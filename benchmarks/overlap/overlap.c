/* overlap.c — overlap of host <-> device copies with kernels through async
 * queues: the chunk pipeline of the PACC paper (shared/seeds/pacc-out-of-core-
 * stencil.txt, Figure 9 and section 5.3): copy chunk k in, compute chunk k,
 * copy chunk k out, with consecutive chunks on different queues (round-robin)
 * so that one chunk's copies run while another chunk's kernel does.
 *
 *   overlap [n] [chunks] [iter]
 *
 * n floats in and n floats out (default 2^27: 512 MiB each direction), split
 * into `chunks` chunks (default 16), in ordinary malloc'ed (pageable) host
 * memory: the runtime, not the program, must make async copies of pageable
 * memory overlap. The kernel runs `iter` (default 4096) dependent
 * multiply-adds per element, v = v * 0.5f + x from v = x, so the compute time
 * can be tuned to the copy time. Because v * 0.5f is exact, the result is the
 * same with or without fused multiply-add, and the serial reference stops at
 * the fixed point (2x, reached after about 25 steps) once it is reached.
 *
 * RESULT lines (median of BENCH_REPS after BENCH_WARMUP, like every benchmark;
 * rate = GB/s of the bytes the pipeline moves over the bus, 8 n, for every
 * row, so rows compare directly):
 *   overlap_copy      the chunked copies alone, synchronous: arrays resident
 *                     (enter data create), per chunk update device of in,
 *                     update self of out
 *   overlap_compute   the kernels alone, per chunk, data resident, synchronous
 *   overlap_sync      the pipeline without async: per chunk update device,
 *                     kernel, update self
 *   overlap_asyncQ    Q = 2, 3, 4: the same three steps with async(k % Q + 1)
 *                     on each, one `#pragma acc wait` at the end
 *   overlap_clauses4  no resident arrays: per chunk `parallel loop
 *                     copyin(in chunk) copyout(out chunk) async(k % 4 + 1)`
 *                     (device memory allocated and released per chunk)
 * and, at the end, one line per async variant:
 *   OVERLAP <name> speedup=<t_sync / t>x ideal=<max(t_copy, t_compute) / t * 100>%
 * (ideal: the fraction of perfect overlap achieved; 100% = the pipeline takes
 * only as long as its longer part; above 100% where the copies in and out
 * also overlap each other, which overlap_copy, one direction after the other,
 * does not). Every variant's output is checked
 * element by element against the serial reference (PASS/FAIL); before each
 * variant the output and the device copies are cleared, so each check covers
 * that variant's own copies and kernels. The CUDA reference (overlap.cu) runs
 * the same pipeline from pinned memory (cudaMallocHost) with one stream per
 * queue; the serial build (pragmas ignored) measures nothing useful. */
#include "../common/bench.h"
#ifdef _OPENACC
#include <openacc.h>
#endif

static float *in, *out, *ref;
static long n, chunk;
static int nchunks, iter;

/* The chunk k: [*off, *off + *len). */
static void chunk_range(int k, long *off, long *len)
{
    *off = (long)k * chunk;
    *len = k == nchunks - 1 ? n - *off : chunk;
}

static void pass_copy(void)
{
    for (int k = 0; k < nchunks; k++) {
        long off, len;
        chunk_range(k, &off, &len);
#pragma acc update device(in[off:len])
#pragma acc update self(out[off:len])
    }
}

static void pass_compute(void)
{
    const int it = iter;
    for (int k = 0; k < nchunks; k++) {
        long off, len;
        chunk_range(k, &off, &len);
#pragma acc parallel loop present(in[off:len], out[off:len])
        for (long i = off; i < off + len; i++) {
            float x = in[i], v = x;
            for (int j = 0; j < it; j++)
                v = v * 0.5f + x;
            out[i] = v;
        }
    }
}

static void pass_sync(void)
{
    const int it = iter;
    for (int k = 0; k < nchunks; k++) {
        long off, len;
        chunk_range(k, &off, &len);
#pragma acc update device(in[off:len])
#pragma acc parallel loop present(in[off:len], out[off:len])
        for (long i = off; i < off + len; i++) {
            float x = in[i], v = x;
            for (int j = 0; j < it; j++)
                v = v * 0.5f + x;
            out[i] = v;
        }
#pragma acc update self(out[off:len])
    }
}

static void pass_async(int nq)
{
    const int it = iter;
    for (int k = 0; k < nchunks; k++) {
        long off, len;
        chunk_range(k, &off, &len);
        const int q = k % nq + 1;
#pragma acc update device(in[off:len]) async(q)
#pragma acc parallel loop present(in[off:len], out[off:len]) async(q)
        for (long i = off; i < off + len; i++) {
            float x = in[i], v = x;
            for (int j = 0; j < it; j++)
                v = v * 0.5f + x;
            out[i] = v;
        }
#pragma acc update self(out[off:len]) async(q)
    }
}

static void pass_clauses(int nq)
{
    const int it = iter;
    for (int k = 0; k < nchunks; k++) {
        long off, len;
        chunk_range(k, &off, &len);
        const int q = k % nq + 1;
#pragma acc parallel loop copyin(in[off:len]) copyout(out[off:len]) async(q)
        for (long i = off; i < off + len; i++) {
            float x = in[i], v = x;
            for (int j = 0; j < it; j++)
                v = v * 0.5f + x;
            out[i] = v;
        }
    }
}

enum { V_COPY, V_COMPUTE, V_SYNC, V_ASYNC2, V_ASYNC3, V_ASYNC4, V_CLAUSES4, NV };
static const char *names[NV] = {"overlap_copy",   "overlap_compute", "overlap_sync",
                                "overlap_async2", "overlap_async3",  "overlap_async4",
                                "overlap_clauses4"};

/* One repetition of variant v; the async ones end with one wait for all
   queues. */
static void run_pass(int v)
{
    switch (v) {
    case V_COPY: pass_copy(); break;
    case V_COMPUTE: pass_compute(); break;
    case V_SYNC: pass_sync(); break;
    default:
        if (v == V_CLAUSES4)
            pass_clauses(4);
        else
            pass_async(v == V_ASYNC2 ? 2 : v == V_ASYNC3 ? 3 : 4);
#pragma acc wait
        break;
    }
}

/* Whether the device has memory of its own (not the host fallback, not a
   multicore CPU, not the serial build): only then may clear_device zero the
   device copies. in is present: its device copy is elsewhere. */
static int separate_memory(void)
{
#ifdef _OPENACC
    return acc_deviceptr(in) != (void *)in;
#else
    return 0;
#endif
}

/* Zeroes the device copies of in and out (they are present), so that a
   variant's check sees only its own copies and kernels. */
static void clear_device(void)
{
    if (!separate_memory())
        return;
    const long m = n;
#pragma acc parallel loop present(in[0:m], out[0:m])
    for (long i = 0; i < m; i++) {
        in[i] = 0.0f;
        out[i] = 0.0f;
    }
}

/* Median seconds of variant v over the repetitions. */
static double time_variant(int v)
{
    int warmup = bench_warmup(), reps = bench_reps();
    double *t = malloc((size_t)reps * sizeof(double));
    if (!t) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    for (int r = -warmup; r < reps; r++) {
        double t0 = bench_now();
        run_pass(v);
        double t1 = bench_now();
        if (r >= 0)
            t[r] = t1 - t0;
    }
    double s = bench_median(t, reps);
    free(t);
    return s;
}

/* Whether out equals the serial reference everywhere. */
static int check_out(const char *what)
{
    for (long i = 0; i < n; i++) {
        if (out[i] != ref[i]) {
            fprintf(stderr, "%s: out[%ld] = %.9g, want %.9g\n", what, i, out[i], ref[i]);
            return 0;
        }
    }
    return 1;
}

int main(int argc, char **argv)
{
    n = argc > 1 ? atol(argv[1]) : 1L << 27;
    nchunks = argc > 2 ? atoi(argv[2]) : 16;
    iter = argc > 3 ? atoi(argv[3]) : 4096;
    if (n < 1 || nchunks < 1 || nchunks > n || iter < 0) {
        fprintf(stderr, "usage: %s [n] [chunks] [iter]\n", argv[0]);
        return 1;
    }
    chunk = n / nchunks;
    size_t bytes = (size_t)n * sizeof(float);
    in = malloc(bytes);
    out = malloc(bytes);
    ref = malloc(bytes);
    if (!in || !out || !ref) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    for (long i = 0; i < n; i++) {
        in[i] = (float)(1.0 + bench_rand((unsigned long long)i, 7));
        out[i] = 0.0f;
        float x = in[i], v = x;
        for (int j = 0; j < iter; j++) {
            float w = v * 0.5f + x;
            if (w == v)
                break; /* a fixed point: the remaining steps change nothing */
            v = w;
        }
        ref[i] = v;
    }

    double sec[NV];
    int pass[NV];
    long m = n;
#pragma acc enter data create(in[0:m], out[0:m])
    /* The kernels alone: in is on the device first (not timed). */
    clear_device();
#pragma acc update device(in[0:m])
    sec[V_COMPUTE] = time_variant(V_COMPUTE);
#pragma acc update self(out[0:m])
    pass[V_COMPUTE] = check_out(names[V_COMPUTE]);
    /* The copies alone: out comes back from the device's results of the
       kernels above, in goes over unchanged. (Without device memory of its
       own, out already holds those results.) */
    if (separate_memory())
        memset(out, 0, bytes);
    sec[V_COPY] = time_variant(V_COPY);
    pass[V_COPY] = check_out(names[V_COPY]);
    /* The pipelines with resident arrays. */
    for (int v = V_SYNC; v <= V_ASYNC4; v++) {
        clear_device();
        memset(out, 0, bytes);
        sec[v] = time_variant(v);
        pass[v] = check_out(names[v]);
    }
#pragma acc exit data delete(in[0:m], out[0:m])
    /* Data clauses on the compute construct, nothing resident. */
    memset(out, 0, bytes);
    sec[V_CLAUSES4] = time_variant(V_CLAUSES4);
    pass[V_CLAUSES4] = check_out(names[V_CLAUSES4]);

    char size[64];
    snprintf(size, sizeof size, "%ldx%d,iter%d", n, nchunks, iter);
    double moved = 2.0 * (double)bytes;
    for (int v = 0; v < NV; v++)
        bench_report(names[v], size, sec[v], moved / sec[v] * 1e-9, "GB/s", pass[v]);
    double ideal = sec[V_COPY] > sec[V_COMPUTE] ? sec[V_COPY] : sec[V_COMPUTE];
    for (int v = V_ASYNC2; v <= V_CLAUSES4; v++)
        printf("OVERLAP %s speedup=%.2fx ideal=%.0f%%\n", names[v], sec[V_SYNC] / sec[v],
               ideal / sec[v] * 100.0);
    free(in);
    free(out);
    free(ref);
    return 0;
}
