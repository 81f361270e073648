// Every C operator inside compute regions: arithmetic incl. % and shifts,
// bitwise, && and || short-circuit (with side effects that must not
// happen), ?:, the comma operator, pre/post increment and decrement,
// compound assignment on array elements and struct members, pointer
// arithmetic, pointer comparison and difference, address-of and
// dereference of device data and of private variables.
#include <stdio.h>

struct acc { int count; long total; double mean; int hist[4]; };

int main(void)
{
    enum { N = 257 };
    int a[N], o1[N], o2[N], o3[N];
    long o4[N];
    double o5[N];
    struct acc s[N];
    for (int i = 0; i < N; i++)
        a[i] = (i * 7919) % 1000 - 500;

#pragma acc parallel loop copyin(a) copyout(o1, o2, o3, o4, o5, s)
    for (int i = 0; i < N; i++) {
        int x = a[i], y = a[(i + 1) % N] | 1;
        o1[i] = x % 7 + x / 3 * 2 - (int)((unsigned)x << 2) + (x >> 1) + (unsigned)x % 13u + (~x & 0xff) + (x ^ y) + (x | 3);
        // short-circuit: the right operands would divide by zero or write
        int zero = 0, side = 0;
        int t = (zero && (x / zero > 1)) + (1 || (x / zero > 1)) * 10 + ((side = 5) && side) * 100;
        t += (x > 0 ? x : -x) + (zero ? 1 / zero : 2);
        int c = (side++, side += 2, side * 3);
        o2[i] = t + c + side;
        // increments and compound assignments
        int k = i;
        int pre = ++k, post = k++, pd = --k, pod = k--;
        o3[i] = pre * 1000 + post * 100 + pd * 10 + pod + k;
        o3[i] += 5;
        o3[i] -= 2;
        o3[i] *= 3;
        o3[i] /= 2;
        o3[i] %= 100000;
        o3[i] <<= 2;
        o3[i] >>= 1;
        o3[i] &= 0x7ffff;
        o3[i] |= 0x100;
        o3[i] ^= 0x55;
        // struct members
        s[i].count = 0;
        s[i].total = 0;
        s[i].mean = 0.0;
        for (int h = 0; h < 4; h++)
            s[i].hist[h] = 0;
        for (int j = 0; j < 10; j++) {
            s[i].count++;
            s[i].total += a[(i + j) % N];
            s[i].hist[(a[(i + j) % N] & 0x7fffffff) % 4] += 1;
        }
        s[i].mean = (double)s[i].total / s[i].count;
        // pointers to device data and to private variables
        const int *p = &a[0], *q = a + i, *r = &a[N - 1];
        long diff = q - p + (r - q) * 1000;
        diff += (q > p) + (q >= q) * 2 + (p < r) * 4 + (q != r) * 8 + (p == a) * 16;
        int priv = x;
        int *pp = &priv;
        *pp += 1;
        (*pp)++;
        diff += priv + *(a + (i + 3) % N) + (&a[5])[1] + *(q - (i > 0));
        o4[i] = diff;
        double acc2 = 0.5;
        double *ap = &acc2;
        *ap *= (double)x;
        o5[i] = acc2 + (double)(p[i] == *q);
    }

    long long sum = 0;
    double dsum = 0;
    for (int i = 0; i < N; i++) {
        sum += o1[i] + 3LL * o2[i] + 5LL * o3[i] + o4[i] + s[i].count + s[i].total
             + s[i].hist[0] * 7 + s[i].hist[1] * 11 + s[i].hist[2] * 13 + s[i].hist[3] * 17;
        dsum += o5[i] + s[i].mean;
    }
    printf("%lld %.15e\n", sum, dsum);
    printf("%d %d %d %ld %.15e %.15e\n", o1[100], o2[100], o3[100], o4[100], o5[100], s[100].mean);
    printf("PASS\n");
    return 0;
}
