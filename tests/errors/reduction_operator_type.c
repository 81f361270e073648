// expect-error-at: 10:39
// expect-error: reduction operator '^' cannot be applied to 'd' of type 'double'
// Bitwise reduction operators apply to integers only.
int main(void)
{
    double d = 0;
    double x[10] = { 0 };
    int i;

#pragma acc parallel loop reduction(^:d) copyin(x)
    for (i = 0; i < 10; i++)
        d += x[i];
    return (int)d;
}
