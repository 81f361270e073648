// expect-error-at: 12:39
// expect-error: a reduction variable must be a variable, an array element or a sub-array (not a member of a struct)
// OpenACC 3.3 2.5.15: a member of a composite variable may not be a
// reduction variable.
struct acc { int n; double sum; };

int main(void)
{
    struct acc a = { 0, 0.0 };
    double x[10] = { 0 };
    int i;
#pragma acc parallel loop reduction(+:a.sum) copyin(x)
    for (i = 0; i < 10; i++)
        a.sum += x[i];
    return (int)a.sum;
}
