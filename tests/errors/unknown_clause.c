// expect-error-at: 9:27
// expect-error: unknown clause
// expect-error: copyni
// A misspelt clause name.
void scale(int n, float *a)
{
    int i;

#pragma acc parallel loop copyni(a[0:n])
    for (i = 0; i < n; i++)
        a[i] = a[i] * 2.0f;
}
