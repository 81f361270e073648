/* bench.h — what every benchmark variant shares: a monotonic clock, the
 * median of repeated timings, deterministic input data, and the one
 * machine-readable result line that scripts/bench.sh collects:
 *
 *   RESULT <name> <size> <seconds> <rate> <unit> <PASS|FAIL>
 *
 * <seconds> is the median of BENCH_REPS timed repetitions (environment,
 * default 10) after BENCH_WARMUP untimed ones (default 2); <rate> is GB/s of
 * the minimal device-memory traffic (each input read once, each output
 * written once) or GFLOP/s, as <unit> says. The same header compiles as C (the
 * OpenACC and serial builds) and as CUDA C++ (the .cu references). */
#ifndef BENCH_H
#define BENCH_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef __ACCC__
#include <openacc.h>
#endif

/* The clock, once the device has finished the work queued so far: accc's
 * synchronous compute construct may return before its kernel ends (accc
 * waits where the host next observes the device, as CUDA's launches do),
 * so reading the clock waits for it, as the CUDA references call
 * cudaDeviceSynchronize before theirs. (GCC's constructs wait at their end,
 * and its acc_wait_all crashes before the device is initialised.) */
static inline double bench_now(void)
{
#ifdef __ACCC__
    acc_wait_all();
#endif
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static inline int bench_env_int(const char *name, int fallback)
{
    const char *v = getenv(name);
    int n = v ? atoi(v) : 0;
    return n > 0 ? n : fallback;
}

/* Timed repetitions and warm-up runs. */
static inline int bench_reps(void) { return bench_env_int("BENCH_REPS", 10); }
static inline int bench_warmup(void) { return bench_env_int("BENCH_WARMUP", 2); }

static inline int bench_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median of t[0..n-1] (sorts t). */
static inline double bench_median(double *t, int n)
{
    qsort(t, (size_t)n, sizeof(double), bench_cmp_double);
    return n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
}

/* A deterministic pseudo-random value in [0, 1) for index i and seed s. */
static inline double bench_rand(unsigned long long i, unsigned long long s)
{
    unsigned long long x = (i + 1) * 0x9E3779B97F4A7C15ULL ^ (s * 0xBF58476D1CE4E5B9ULL);
    x ^= x >> 31;
    x *= 0x94D049BB133111EBULL;
    x ^= x >> 29;
    return (double)(x >> 11) * (1.0 / 9007199254740992.0);
}

/* Prints the result line. */
static inline void bench_report(const char *name, const char *size, double seconds, double rate,
                                const char *unit, int pass)
{
    printf("RESULT %s %s %.6e %.3f %s %s\n", name, size, seconds, rate, unit, pass ? "PASS" : "FAIL");
    fflush(stdout);
}

/* |a - b| <= tol * max(|a|, |b|, 1). */
static inline int bench_close(double a, double b, double tol)
{
    double m = a < 0 ? -a : a, n = b < 0 ? -b : b, d = a - b;
    if (n > m) m = n;
    if (m < 1) m = 1;
    return (d < 0 ? -d : d) <= tol * m;
}
#endif
