// Expressions on device data: compound assignment and ++/-- on array elements,
// pointer arithmetic and dereference, ?:, && and || (short-circuit), casts,
// unsigned wrap-around and mixed signed/unsigned arithmetic. All results exact.
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    int n = 3001;
    int *a = malloc(n * sizeof(int));
    unsigned *u = malloc(n * sizeof(unsigned));
    double *d = malloc(n * sizeof(double));
    long *l = malloc(n * sizeof(long));
    for (int i = 0; i < n; i++) {
        a[i] = i * 7 - 1000;
        u[i] = (unsigned)i * 2654435761u;
        d[i] = i * 0.5;
        l[i] = (long)i << 20;
    }

#pragma acc parallel loop copy(a[0:n], u[0:n], d[0:n], l[0:n])
    for (int i = 0; i < n; i++) {
        a[i] += 3;
        a[i] -= i % 5;
        a[i] *= 2;
        a[i] /= 3;
        a[i] %= 1000;
        u[i] <<= 3;
        u[i] >>= 1;
        u[i] ^= 0x5a5a5a5au;
        u[i] |= 1u;
        u[i] &= 0xfffffff7u;
        u[i] += 4000000000u; /* wraps */
        d[i] /= 4.0;
        d[i] -= 0.125;
        l[i] >>= 3;
        l[i]++;
        ++l[i];
        l[i]--;
        int *p = a + i;
        *p = *p + (i > 100 && a[i] < 0 ? -1 : 1);
        if (i % 2 == 0 || d[i] > 100.0)
            d[i] = -d[i];
        int neg = -i;
        unsigned un = 10u;
        l[i] += (neg < (int)un) ? 1 : 0;     /* signed compare after the cast: true */
        l[i] += ((unsigned)neg > un) ? 2 : 0; /* unsigned compare: -i wraps large (i>0) */
        a[i] = (int)(char)(a[i] & 0x1ff);     /* truncation to char, sign extension back */
    }

    long sa = 0, sl = 0;
    unsigned su = 0;
    double sd = 0;
    for (int i = 0; i < n; i++) {
        sa += a[i];
        su += u[i];
        sd += d[i];
        sl += l[i];
    }
    printf("a %ld\nu %u\nd %.15e\nl %ld\n", sa, su, sd, sl);
    printf("%s\n", sa != 0 && sl != 0 ? "PASS" : "FAIL");
    free(a);
    free(u);
    free(d);
    free(l);
    return 0;
}
