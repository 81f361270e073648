// expect-error-at: 10:25
// expect-error: use of undeclared identifier 'j'
// The names of a cache directive's sections must be visible where it is,
// even though it is only a hint.
int main(void)
{
    float a[10] = {0}, b[10];
#pragma acc parallel loop copyin(a) copyout(b)
    for (int i = 1; i < 9; i++) {
#pragma acc cache(a[i], a[j - 1:3])
        b[i] = a[i];
    }
    return (int)b[3];
}
