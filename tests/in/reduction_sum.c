double sum(int n, const double *x)
{
    double s = 0;
#pragma acc parallel loop gang vector reduction(+:s) copyin(x[0:n])
    for (int i = 0; i < n; i++)
        s += x[i];
    return s;
}
