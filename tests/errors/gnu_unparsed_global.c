// expect-error-at: 12:42
// expect-error: use of undeclared identifier 'same'
// expect-error: gnu_unparsed_global.c:7:57: note: 'same' is declared in code accc cannot parse (only the host compiler compiles it): in the arguments of '__builtin_types_compatible_p' in the initializer of 'same'
// A global whose initialiser accc cannot parse (__builtin_types_compatible_p
// takes type names) is left to the host compiler; device code using it gets
// an error with a note.
static const int same = __builtin_types_compatible_p(int, signed);

void fill(int n, int *out)
{
#pragma acc parallel loop copyout(out[0:n])
    for (int i = 0; i < n; i++) out[i] = same;
}
