// Stores into a gang's own local array (outside its vector loop) are done by
// every thread (each has its own copy); the store to r inside the vector loop
// is every thread's too, and one to shared memory outside it only thread 0's.
void f(int n, double r[][64], double *g)
{
#pragma acc parallel loop gang copyout(r[0:n]) copy(g[0:n])
    for (int j = 0; j < n; j++) {
        double v[2];
        v[0] = j;
        v[1] = v[0] * 2.0;
        v[1] += 1.0;
        g[j] = v[0];
#pragma acc loop vector
        for (int i = 0; i < 64; i++)
            r[j][i] = v[i % 2];
    }
}
