// expect-error-at: 12:20
// expect-error: 'goto' is not supported in device code
// Computed goto (GNU C) in a compute region; the same in host code compiles.
void jump(int n, int *out)
{
    void *target = &&done;
    goto *target;
done:
#pragma acc parallel loop copyout(out[0:n])
    for (int i = 0; i < n; i++) {
        void *p = 0;
        if (i < 0) goto *p;
        out[i] = i;
    }
}
