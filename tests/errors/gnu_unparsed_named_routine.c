// expect-error-at: 12:13
// expect-error: function 'helper' is a routine, but accc cannot parse its definition in this file
// expect-error: gnu_unparsed_named_routine.c:9:22: note: 'helper' is declared in code accc cannot parse
// A `routine(name)` directive naming a function defined in this file in
// code accc cannot parse (a GNU nested function): an error, not a device
// function expected from another file.
static int helper(int k)
{
    int twice(int a) { return 2 * a; }
    return twice(k);
}
#pragma acc routine(helper) seq

void apply(int n, int *out)
{
#pragma acc parallel loop copyout(out[0:n])
    for (int i = 0; i < n; i++)
        out[i] = helper(i);
}
