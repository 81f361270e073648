// expect-error-at: 14:32
// expect-error: 'struct particle' is an incomplete type
// expect-error: note: 'struct particle' is declared in code accc cannot parse
// A struct whose definition accc cannot parse (a member's type comes from
// __builtin_types_compatible_p) is left to the host compiler: a compute
// region that uses it gets an error naming the struct, and a note saying why.
struct particle {
    double x, v;
    char tag[__builtin_types_compatible_p(int, signed) + 1];
};

void push(int n, struct particle *p, double dt)
{
#pragma acc parallel loop copy(p[0:n])
    for (int i = 0; i < n; i++)
        p[i].x += p[i].v * dt;
}
