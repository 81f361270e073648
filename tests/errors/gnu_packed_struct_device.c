// expect-error-at: 13:34
// expect-error: 'struct rec' has the attribute 'packed', whose layout device code does not support
// expect-error-at: 19:18
// A struct whose layout a GNU attribute between `struct` and the tag changes:
// accc does not apply it, so device code may not use the type.
struct __attribute__((packed)) rec {
    char tag;
    double value;
};

void sum(int n, struct rec *r, struct rec one, double *out)
{
#pragma acc parallel loop copyin(r[0:n]) copyout(out[0:n])
    for (int i = 0; i < n; i++)
        out[i] = r[i].value;
#pragma acc parallel loop copy(out[0:n])
    for (int i = 0; i < n; i++)
        out[i] +=
                 one.value;
}
