// expect-error-at: 11:31
// expect-error: must not refer to the updated location 'a[i % 4]'
// In an atomic update 'x = x binop expr', expr must not reference x (OpenACC
// 3.3 2.12): it is evaluated outside the atomic access.
int main(void)
{
    int a[4] = { 0 };
#pragma acc parallel loop copy(a)
    for (int i = 0; i < 16; i++) {
#pragma acc atomic update
        a[i % 4] = a[i % 4] + (a[i % 4]) * 2;
    }
    return a[0];
}
