// expect-error-at: 13:19
// expect-error: must not refer to 'x'
// '{v = x; x = expr;}' exchanges x with a value computed before the atomic
// access, so an expr that reads x is not a conforming capture (OpenACC 3.3
// 2.12): accc must not compile it as a swap.
int main(void)
{
    int x = 1, v = 0;
#pragma acc parallel loop copy(x, v)
    for (int i = 0; i < 10; i++) {
#pragma acc atomic capture
        { v = x;
          x = 2 * x + 1; }
    }
    return v;
}
