// expect-error-at: 11:13
// expect-error: must be at the top of a loop body
// A cache directive must head a loop's body (OpenACC 3.3 2.10), not come
// after its first statement.
int main(void)
{
    float a[10] = {0};
#pragma acc parallel loop copy(a)
    for (int i = 0; i < 10; i++) {
        a[i] = 1;
#pragma acc cache(a[i:1])
        a[i] += 1;
    }
    return (int)a[3];
}
