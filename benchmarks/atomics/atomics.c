/* atomics.c — `#pragma acc atomic` under contention: a float-add histogram,
 * n = 2^24 updates (argv[1]) of `hist[key[i]] += w[i]` into `bins` bins
 * (argv[2], default 64), keys and weights in device memory, plus an integer
 * count histogram and a compare-and-swap form (`hist[k] = hist[k] * s`,
 * which no hardware atomic computes). One repetition = one kernel, data
 * resident. Rate: million updates per second. RESULT names:
 * atomics_float_add, atomics_int_inc, atomics_cas_mul.
 * Verification: the float histogram against a serial double-precision one
 * (weights are multiples of 1/64, sums exact in float up to 2^24/64 ...
 * checked to 1e-6 relative), the integer counts exactly, the products
 * exactly (scales are +-1). */
#include "../common/bench.h"

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1 << 24;
    int bins = argc > 2 ? atoi(argv[2]) : 64;
    if (n < 1 || bins < 1) {
        fprintf(stderr, "usage: %s [n] [bins]\n", argv[0]);
        return 1;
    }
    int *key = malloc((size_t)n * sizeof(int));
    float *w = malloc((size_t)n * sizeof(float));
    float *hist = calloc((size_t)bins, sizeof(float));
    int *count = calloc((size_t)bins, sizeof(int));
    float *prod = malloc((size_t)bins * sizeof(float));
    int warmup = bench_warmup(), reps = bench_reps();
    double *tf = malloc((size_t)reps * sizeof(double));
    double *ti = malloc((size_t)reps * sizeof(double));
    double *tc = malloc((size_t)reps * sizeof(double));
    if (!key || !w || !hist || !count || !prod || !tf || !ti || !tc) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    for (int i = 0; i < n; i++) {
        key[i] = (int)(bench_rand(i, 3) * bins) % bins;
        w[i] = (float)((int)(bench_rand(i, 5) * 64)) / 64.0f;
    }
#pragma acc data copyin(key[0:n], w[0:n]) create(hist[0:bins], count[0:bins], prod[0:bins])
    {
        for (int r = -warmup; r < reps; r++) {
#pragma acc parallel loop present(hist[0:bins], count[0:bins], prod[0:bins])
            for (int b = 0; b < bins; b++) {
                hist[b] = 0;
                count[b] = 0;
                prod[b] = 1;
            }
            double t0 = bench_now();
#pragma acc parallel loop present(key[0:n], w[0:n], hist[0:bins])
            for (int i = 0; i < n; i++) {
#pragma acc atomic update
                hist[key[i]] += w[i];
            }
            double t1 = bench_now();
#pragma acc parallel loop present(key[0:n], count[0:bins])
            for (int i = 0; i < n; i++) {
#pragma acc atomic update
                count[key[i]]++;
            }
            double t2 = bench_now();
#pragma acc parallel loop present(key[0:n], prod[0:bins])
            for (int i = 0; i < n; i++) {
#pragma acc atomic update
                prod[key[i]] = prod[key[i]] * (i % 3 == 0 ? -1.0f : 1.0f);
            }
            double t3 = bench_now();
            if (r >= 0) {
                tf[r] = t1 - t0;
                ti[r] = t2 - t1;
                tc[r] = t3 - t2;
            }
        }
#pragma acc update self(hist[0:bins], count[0:bins], prod[0:bins])
    }
    double *ref = calloc((size_t)bins, sizeof(double));
    int *rc = calloc((size_t)bins, sizeof(int));
    int *neg = calloc((size_t)bins, sizeof(int));
    if (!ref || !rc || !neg) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    for (int i = 0; i < n; i++) {
        ref[key[i]] += w[i];
        rc[key[i]]++;
        neg[key[i]] ^= i % 3 == 0;
    }
    int pf = 1, pi = 1, pc = 1;
    for (int b = 0; b < bins; b++) {
        pf &= bench_close(hist[b], ref[b], 1e-6);
        pi &= count[b] == rc[b];
        pc &= prod[b] == (neg[b] ? -1.0f : 1.0f);
    }
    if (!pf || !pi || !pc)
        fprintf(stderr, "atomics: float %d int %d cas %d\n", pf, pi, pc);
    char size[48];
    snprintf(size, sizeof size, "%dx%dbins", n, bins);
    double s;
    s = bench_median(tf, reps);
    bench_report("atomics_float_add", size, s, n / s * 1e-6, "Mupd/s", pf);
    s = bench_median(ti, reps);
    bench_report("atomics_int_inc", size, s, n / s * 1e-6, "Mupd/s", pi);
    s = bench_median(tc, reps);
    bench_report("atomics_cas_mul", size, s, n / s * 1e-6, "Mupd/s", pc);
    return 0;
}
