/* A sequential inner loop with a local accumulator, in a parallel region. */
void rowsum(int n, int m, const float *a, float *out) {
#pragma acc parallel copyin(a[0:n*m]) copyout(out[0:n]) vector_length(64)
    {
#pragma acc loop gang vector
        for (int i = 0; i < n; i++) {
            float s = 0.0f;
#pragma acc loop seq
            for (int j = 0; j < m; j++)
                s += a[i * m + j];
            out[i] = s;
        }
    }
}
