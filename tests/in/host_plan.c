/* Every kind of host plan operation: data regions with if and async,
 * enter/exit data, update, wait, host_data, the device directives, a
 * file-scope and a local declare, a kernels region of two loop nests on one
 * bound queue, an implicit section, rows of a pointer to pointers, a
 * variable-length array's size, and an atomic's host version. */
float g[64];
#pragma acc declare create(g)

void use(float *p);

void plan(int n, int m, int q, float *a, float *b, double **rows, int k) {
    float vla[k];
#pragma acc init device_type(nvidia) device_num(q + 1)
#pragma acc set default_async(q)
#pragma acc enter data copyin(a[0:n]) async(q) wait(1, 2)
#pragma acc data copy(b[1:n]) if(n > 100) async
    {
#pragma acc parallel loop present(a[0:n])
        for (int i = 0; i < n; i++)
            b[i + 1] += a[i];
    }
#pragma acc kernels async(q + 2)
    {
        for (int i = 0; i < n; i++)
            a[i] = 2.0f * a[i];
        for (int i = 0; i < n; i++)
            b[i] = a[i] + g[i % 64];
    }
#pragma acc parallel loop copy(rows[0:n][1:m]) copyin(vla)
    for (int i = 0; i < n; i++)
        rows[i][1] += vla[0];
#pragma acc parallel loop
    for (int i = 2; i < n; i++)
        b[i - 2] = b[i - 2] + 1.0f;
#pragma acc update self(a[0:n]) if_present async(q)
#pragma acc wait(q) async(3)
#pragma acc host_data use_device(a)
    use(a);
    int count = 0;
#pragma acc parallel copy(count)
    {
#pragma acc atomic update
        count++;
    }
    {
        float t[8];
#pragma acc declare create(t)
        t[0] = count;
#pragma acc update device(t[0:1])
    }
#pragma acc exit data delete(a[0:n]) finalize
#pragma acc shutdown device_type(*)
}
