/* A gang+vector loop over two arrays, with copyin/copyout sub-arrays. */
void vadd(int n, const float *a, const float *b, float *c) {
#pragma acc parallel loop copyin(a[0:n], b[0:n]) copyout(c[0:n])
    for (int i = 0; i < n; i++)
        c[i] = a[i] + b[i];
}
