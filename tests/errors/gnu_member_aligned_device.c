// expect-error-at: 14:42
// expect-error: 'struct slot' has the attribute 'aligned', whose layout device code does not support
// `aligned` on a member moves the members after it: accc does not lay that
// out, so device code may not use the struct (`aligned` on the whole struct
// it does apply: see programs/gnu_device_code.c).
struct slot {
    char tag;
    int value __attribute__((aligned(16)));
};

void read(int n, struct slot one, int *out)
{
#pragma acc parallel loop copyout(out[0:n])
    for (int i = 0; i < n; i++) out[i] = one.value;
}
