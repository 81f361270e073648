// expect-error-at: 13:12
// expect-error: unknown clause 'bogus'
// A directive continued with '\' reaches accc as one preprocessed line,
// its blanks collapsed; the error still names the line and column where
// the clause is written (gcc and nvc point there too), not a column past
// the end of the directive's first line.
int main(void)
{
    int n = 10;
    float a[10];
#pragma acc parallel loop copy(a[0:n]) \
        num_gangs(n)   \
           bogus(3)
    for (int i = 0; i < n; i++)
        a[i] = i;
    return 0;
}
