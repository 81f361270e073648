// GNU C that accc compiles for the device: __auto_type (typed from its
// initialiser, arrays decaying to pointers; also host variables so declared
// that a region uses), __typeof__ of expressions and
// of types (nested, and in a macro that swaps through a temporary),
// statement attributes (fallthrough), __extension__ on expressions and
// declarations, _Float32/_Float64/_Float32x, attributes between `struct` and
// the tag (one that does not change the layout, and `aligned`, which makes
// the struct larger: arrays of it must have the host's stride on the
// device), and a routine written with them. The output must be the plain gcc
// build's.
#include <stdio.h>

#define SWAP(a, b)                                                           \
    do {                                                                     \
        __typeof__(a) swap_tmp_ = (a);                                       \
        (a) = (b);                                                           \
        (b) = swap_tmp_;                                                     \
    } while (0)

struct __attribute__((__may_alias__)) pair {
    int lo, hi;
};

struct __attribute__((aligned(16))) trio {
    float x, y, z;
};

typedef struct {
    double v;
    int tag;
} __attribute__((__aligned__(32))) cell;

#pragma acc routine seq
static __typeof__(1.0) weigh(__typeof__(1.0f) x, int k)
{
    __auto_type y = x * k;       // float
    __typeof__(y + 1.0) z = y;   // double
    switch (k & 3) {
    case 0:
        z += 0.5;
        __attribute__((fallthrough));
    case 1:
        z *= 2;
        break;
    default:
        z -= 1;
    }
    return z;
}

int main(void)
{
    enum { N = 200 };
    static double a[N], b[N], w[N];
    static struct pair p[N];
    static long long big[N];
    static float f[N];
    static struct trio t[N];
    static cell cells[N];
    for (int i = 0; i < N; i++) {
        a[i] = i * 0.5;
        b[i] = N - i;
        p[i].lo = i;
        p[i].hi = 3 * i + 1;
        t[i].x = i;
        t[i].y = 2 * i;
        t[i].z = 0;
        cells[i].v = 0.5 * i;
        cells[i].tag = i % 3;
    }

    __auto_type scale = 2.5f;          // host variables the region reads
    __typeof__(scale * 2.0) bias = 0.25; // double
#pragma acc parallel loop copy(a, b, p, t, cells) copyout(w, big, f)
    for (int i = 0; i < N; i++) {
        __auto_type x = a[i];                       // double
        __auto_type row = &a[0];                    // double *
        __typeof__(__typeof__(x) *) px = &x;        // double *
        __typeof__(int) k = i % 7;
        if (i % 2 == 0)
            SWAP(a[i], b[i]);
        SWAP(p[i].lo, p[i].hi);
        __extension__ long long wide = (__extension__ 1LL << 40) + i;
        _Float32 g = (_Float32)*px;
        _Float64 h = row[i] + g;
        _Float32x m = h * 2;
        w[i] = weigh((float)(x + k), i) + m + scale * bias;
        big[i] = wide;
        f[i] = g;
        t[i].z = t[i].x + t[i].y;
        cells[i].v += cells[i].tag;
    }

    double sw = 0, sa = 0, sb = 0, sf = 0;
    long long sbig = 0, sp = 0;
    double st = 0, sc = 0;
    for (int i = 0; i < N; i++) {
        sw += w[i] * (i % 5 + 1);
        sa += a[i] * (i + 1);
        sb += b[i];
        sf += f[i];
        sbig += big[i] % 1000;
        sp += p[i].lo * 2 + p[i].hi;
        st += t[i].z;
        sc += cells[i].v * (i % 4);
    }
    printf("%.15e %.15e %.15e %.6e\n", sw, sa, sb, sf);
    printf("%lld %lld\n", sbig, sp);
    printf("%zu %zu %.6e %.15e\n", sizeof(struct trio), sizeof(cell), st, sc);
    printf("%.15e %.15e\n", weigh(2.5f, 4), weigh(1.0f, 7));
    int ok = p[3].lo == 10 && p[3].hi == 3 && a[0] == N && b[1] == N - 1;
    printf("%s\n", ok ? "PASS" : "FAIL");
    return 0;
}
