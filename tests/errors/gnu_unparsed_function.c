// expect-error-at: 20:18
// expect-error: function 'scale' is called in device code, but accc cannot parse its definition in this file
// expect-error: gnu_unparsed_function.c:9:19: note: 'scale' is declared in code accc cannot parse (only the host compiler compiles it): in the body of function 'scale'
// A function whose body accc cannot parse (a GNU nested function) is left
// to the host compiler; a compute region that calls it gets an error, and a
// note saying why.
static int scale(int x)
{
    int by(int k) { return k * 3; }
    return by(x);
}

int host_use(void) { return scale(2); }

void apply(int n, int *out)
{
#pragma acc parallel loop copyout(out[0:n])
    for (int i = 0; i < n; i++)
        out[i] =
                 scale(i);
}
