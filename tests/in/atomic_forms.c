/* The IR of atomics: a hardware add on an int and on a float, a
 * compare-and-swap loop for a product and for a short, a read and a write;
 * the updated arrays stay writable parameters (not readonly), and the
 * scalar an atomic updates is shared (a device pointer), not firstprivate. */
int count;
void forms(int n, float *restrict hist, const int *restrict key, short *small, double *prod)
{
#pragma acc parallel loop copy(hist[0:64], small[0:4], prod[0:1]) copyin(key[0:n])
    for (int i = 0; i < n; i++) {
        int seen;
#pragma acc atomic update
        hist[key[i]] += 1.0f;
#pragma acc atomic
        count++;
#pragma acc atomic
        prod[0] *= -1.0;
#pragma acc atomic
        small[i % 4] += 3;
#pragma acc atomic read
        seen = count;
#pragma acc atomic write
        small[0] = (short)seen;
    }
}
