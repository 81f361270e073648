// expect-error-at: 8
// expect-error: expected
// A syntax error in host code without directives: accc leaves the function
// to the host compiler, whose error the user sees, and makes no object.
int broken(int x)
{
    int y = x * 2
    return y;
}
