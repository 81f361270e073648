/* A negative step, a scalar read in the kernel, if/else in the body. */
void f(long n, double s, double *x) {
#pragma acc kernels loop present(x[0:n])
    for (long i = n - 1; i >= 0; i -= 2) {
        if (x[i] > s)
            x[i] -= s;
        else
            x[i] = s * 2.0;
    }
}
