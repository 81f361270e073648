// Structs and unions in compute regions: arrays of structs, structs of
// arrays, nested structs, unions, typedefs, struct assignment and
// initialisation (lists, designators, nested), passing and returning
// structs to/from device functions, and a global struct used implicitly.
#include <stdio.h>

typedef struct { float x, y, z; } vec3;
typedef struct particle {
    vec3 pos, vel;
    double mass;
    int id;
    char kind;
} particle;
struct soa { double u[64]; double v[64]; int n; };
union bits { double d; unsigned long long u; int i[2]; };
struct header { short tag; struct { int lo, hi; }; union { float f; int raw; }; };

struct soa field;   // a global used in a region (implicitly copied)

#pragma acc routine seq
static vec3 add3(vec3 a, vec3 b)
{
    vec3 r = { a.x + b.x, a.y + b.y, a.z + b.z };
    return r;
}

#pragma acc routine seq
static float dot3(const vec3 *a, const vec3 *b) { return a->x * b->x + a->y * b->y + a->z * b->z; }

int main(void)
{
    enum { N = 64 };
    particle p[N];
    double energy[N];
    unsigned long long hi[N];
    struct header hd[N];
    for (int i = 0; i < N; i++) {
        vec3 pos = { (float)i, (float)(i % 7), 0.5f * i };
        vec3 vel = { 1.0f, -0.5f * (i % 3), 0.25f };
        p[i].pos = pos;
        p[i].vel = vel;
        p[i].mass = 1.0 + i % 5;
        p[i].id = i;
        p[i].kind = (char)('a' + i % 3);
        field.u[i] = i * 0.5;
        field.v[i] = 0.0;
    }
    field.n = N;

#pragma acc parallel loop copy(p) copyout(energy, hi, hd)
    for (int i = 0; i < N; i++) {
        particle q = p[i];                    // struct copy from device memory
        q.pos = add3(q.pos, q.vel);           // struct argument and result
        vec3 half = { .z = 2.0f, .x = 0.5f };   // designators, y zeroed
        q.vel.x *= half.x;
        q.vel.z += half.z + half.y;
        energy[i] = 0.5 * q.mass * dot3(&q.vel, &q.vel);
        if (q.kind == 'b')
            q.id += 1000;
        p[i] = q;                             // struct copy to device memory
        union bits b;
        b.d = energy[i];
        hi[i] = b.u >> 32;
        struct header h = { (short)i, { -i, i * 2 }, { .raw = 0x3f800000 } };
        h.lo += h.hi;
        hd[i] = h;
    }

#pragma acc parallel loop
    for (int i = 0; i < N; i++)
        field.v[i] = field.u[(i + 1) % field.n] * 2.0 + field.n;

    double e = 0, v = 0;
    long ids = 0;
    unsigned long long hs = 0;
    for (int i = 0; i < N; i++) {
        e += energy[i] + p[i].pos.x + p[i].pos.y * 3 + p[i].pos.z * 5 + p[i].vel.x + p[i].vel.z;
        ids += p[i].id + p[i].kind + hd[i].tag + hd[i].lo * 3 + hd[i].hi * 7 + (long)hd[i].f;
        hs += hi[i];
        v += field.v[i];
    }
    printf("%.6e %ld %llu %.6e\n", e, ids, hs, v);
    printf("sizes %zu %zu %zu %zu\n", sizeof(particle), sizeof(struct soa), sizeof(union bits), sizeof(struct header));
    printf("PASS\n");
    return 0;
}
