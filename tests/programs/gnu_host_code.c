// GNU C in host code, as glibc's and GCC's headers and real programs write
// it: statement attributes, computed goto and label addresses, __int128,
// _Float128 and _Float64x, vector types (<immintrin.h> and vector_size),
// __auto_type, asm goto, _Atomic, __extension__, nested __typeof__, K&R
// definitions, attributes between struct/enum and the tag, __thread,
// __real__/__imag__. Some sit in functions without directives, some in the
// host part of the function with the compute regions (which accc must
// parse); the regions run twice, reached through a computed goto. The
// output must be the plain gcc build's.
#include <complex.h>
#include <immintrin.h>
#include <stdatomic.h>
#include <stdio.h>

struct __attribute__((aligned(16))) vec3 {
    double x, y, z;
};
enum __attribute__((packed)) small { S0, S1, S2 };
static __thread int calls;

// A K&R definition.
static long knr_mix(a, b, c)
long a;
int b;
double c;
{
    calls++;
    return a * b + (long)c;
}

// Computed goto: a small bytecode interpreter (0: add k, 1: mul k, 2:
// negate, 3: end).
static long interpret(const unsigned char *code, long x)
{
    static void *ops[] = {&&op_add, &&op_mul, &&op_neg, &&op_end};
    const unsigned char *pc = code;
#define NEXT goto *ops[*pc++]
    NEXT;
op_add:
    x += *pc++;
    NEXT;
op_mul:
    x *= *pc++;
    NEXT;
op_neg:
    x = -x;
    NEXT;
op_end:
    return x;
#undef NEXT
}

static unsigned long long mul_high(unsigned long long a, unsigned long long b)
{
    unsigned __int128 p = (unsigned __int128)a * b;
    return (unsigned long long)(p >> 64);
}

// Newton's square root of 2 in _Float128, narrowed through _Float64x.
static double quad_sqrt2(void)
{
    _Float128 x = 2, r = 1;
    for (int i = 0; i < 8; i++)
        r = (r + x / r) / 2;
    _Float64x e = (_Float64x)r;
    return (double)e;
}

static float sse_dot(const float *a, const float *b)
{
    __m128 p = _mm_mul_ps(_mm_loadu_ps(a), _mm_loadu_ps(b));
    float out[4];
    _mm_storeu_ps(out, p);
    return out[0] + out[1] + out[2] + out[3];
}

typedef int v4si __attribute__((vector_size(16)));
static int vec_sum(int k)
{
    v4si v = {k, k + 1, k + 2, k + 3};
    v = v * 2 + 1;
    return v[0] + v[1] + v[2] + v[3];
}

static int asm_goto_sign(int x)
{
#if defined(__x86_64__)
    asm goto("testl %0, %0\n\tjs %l1" : : "r"(x) : "cc" : negative);
    return 1;
negative:
    return -1;
#else
    return x < 0 ? -1 : 1;
#endif
}

static atomic_int counter;
static int atomics(int n)
{
    for (int i = 0; i < n; i++)
        atomic_fetch_add(&counter, 2);
    _Atomic long q = 5;
    q += n;
    return (int)q + atomic_load(&counter);
}

#define MAX(a, b)                                                            \
    __extension__({                                                          \
        __auto_type a_ = (a);                                                \
        __auto_type b_ = (b);                                                \
        a_ > b_ ? a_ : b_;                                                   \
    })

static double complex_parts(void)
{
    double _Complex z = 3.0 + 4.0 * I;
    __real__ z = 6.0;
    return __real__ z * 10 + __imag__ z;
}

static int fall(int k)
{
    int r = 0;
    switch (k) {
    case 0:
        r += 1;
        __attribute__((fallthrough));
    case 1:
        r += 10;
        __attribute__((fallthrough));
    default:
        r += 100;
    }
    return r;
}

int main(void)
{
    enum { N = 64 };
    static long in[N], out[N];
    const unsigned char code[] = {0, 3, 1, 5, 2, 3}; // -((x + 3) * 5)

    // The host part of a function with compute regions: GNU C here too.
    __auto_type base = knr_mix(3, 4, 2.5);
    __typeof__(__typeof__(base) *) pb = &base;
    unsigned __int128 wide = (unsigned __int128)*pb << 70;
    __extension__ long long ll = (long long)(wide >> 70);
    int rounds = 0;
    long total = 0;
    void *next = &&region;
region:
    for (int i = 0; i < N; i++)
        in[i] = interpret(code, i) + ll + rounds;
#pragma acc parallel loop copyin(in) copyout(out)
    for (int i = 0; i < N; i++) {
        __auto_type v = in[i];
        __typeof__(v) w = v * 2;
        switch (i % 3) {
        case 0:
            w += 1;
            __attribute__((fallthrough));
        default:
            w += 2;
        }
        out[i] = __extension__ w;
    }
    for (int i = 0; i < N; i++)
        total += out[i] * (i + 1);
    rounds++;
    next = rounds < 2 ? &&region : &&done;
    goto *next;
done:
    printf("total %ld rounds %d\n", total, rounds);

    float a[4] = {1, 2, 3, 4}, b[4] = {0.5f, 0.25f, 2, 1};
    struct vec3 v = {1, 2, 3};
    enum small s = S2;
    long knr = knr_mix(7, -2, 9.75);
    printf("knr %ld calls %d\n", knr, calls);
    printf("interpret %ld %ld\n", interpret(code, 4), interpret((const unsigned char[]){2, 0, 9, 3}, 5));
    printf("mul_high %llu\n", mul_high(0xfedcba9876543210ull, 0x0123456789abcdefull));
    printf("quad %.15e\n", quad_sqrt2());
    printf("sse %.6e vec %d\n", sse_dot(a, b), vec_sum(5));
    printf("asm_goto %d %d\n", asm_goto_sign(-7), asm_goto_sign(7));
    printf("atomics %d\n", atomics(3));
    printf("max %d %.6e\n", MAX(3, 9), MAX(2.5, -1.0));
    printf("complex %.6e\n", complex_parts());
    printf("fall %d %d %d\n", fall(0), fall(1), fall(2));
    printf("sizes %zu %zu %d\n", sizeof(struct vec3), _Alignof(struct vec3), (int)sizeof(s));
    printf("vec3 %.6e\n", v.x + v.y + v.z);
    int ok = total != 0 && fall(0) == 111 && mul_high(1ull << 63, 4) == 2 && sizeof(s) == 1;
    printf("%s\n", ok ? "PASS" : "FAIL");
    return 0;
}
