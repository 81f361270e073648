void rows(int n, int m, const float *a, float *out)
{
#pragma acc parallel loop gang num_workers(4) copyin(a[0:n*m]) copyout(out[0:n])
    for (int i = 0; i < n; i++) {
        float r = 0;
#pragma acc loop worker reduction(max:r)
        for (int j = 0; j < m; j++)
            r = r > a[i * m + j] ? r : a[i * m + j];
        out[i] = r;
    }
}
