/* transfer.c — host <-> device transfer bandwidth of a data region: an array of
 * n doubles (argv[1], default 2^27 = 1 GiB) in ordinary (pageable) host memory
 * is copied to the device at the entry of `#pragma acc data copy(a[0:n])` and
 * back at its exit; each direction is timed on its own (transfer_copyin: from
 * before the region to its first statement; transfer_copyout: from its last
 * statement to after it), GB/s = bytes / seconds. A kernel inside the region
 * (not timed) adds 1 to every element, so the result checks both copies. The
 * CUDA reference (transfer.cu) times plain cudaMemcpy of the same size from
 * pageable memory (the same rows) and from pinned memory (the _pinned rows,
 * the PCIe ceiling). The serial build has no device: its rows are meaningless. */
#include "../common/bench.h"

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 1L << 27;
    if (n < 1) {
        fprintf(stderr, "usage: %s [n]\n", argv[0]);
        return 1;
    }
    size_t bytes = (size_t)n * sizeof(double);
    double *a = malloc(bytes);
    int warmup = bench_warmup(), reps = bench_reps();
    double *tin = malloc(2 * (size_t)reps * sizeof(double));
    if (!a || !tin) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    double *tout = tin + reps;
    for (long i = 0; i < n; i++)
        a[i] = (double)(i % 1000);

    for (int r = -warmup; r < reps; r++) {
        double t0 = bench_now(), t1 = 0, t2 = 0;
#pragma acc data copy(a[0:n])
        {
            t1 = bench_now();
#pragma acc parallel loop present(a[0:n])
            for (long i = 0; i < n; i++)
                a[i] += 1.0;
            t2 = bench_now();
        }
        double t3 = bench_now();
        if (r >= 0) {
            tin[r] = t1 - t0;
            tout[r] = t3 - t2;
        }
    }

    int pass = 1;
    double want = (double)(warmup + reps);
    for (long i = 0; i < n && pass; i++) {
        if (a[i] != (double)(i % 1000) + want) {
            fprintf(stderr, "transfer: a[%ld] = %.17g, want %.17g\n", i, a[i],
                    (double)(i % 1000) + want);
            pass = 0;
        }
    }
    char size[32];
    snprintf(size, sizeof size, "%zu", bytes);
    double sin = bench_median(tin, reps), sout = bench_median(tout, reps);
    bench_report("transfer_copyin", size, sin, (double)bytes / sin * 1e-9, "GB/s", pass);
    bench_report("transfer_copyout", size, sout, (double)bytes / sout * 1e-9, "GB/s", pass);
    free(a);
    free(tin);
    return 0;
}
