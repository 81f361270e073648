// expect-error-at: 11:9
// expect-error: atomic operations on a 'long double' in memory are not supported on the device
// The device has no atomics as wide as a 16-byte x87 'long double' object.
int main(void)
{
    long double sum = 0;
    int i;
#pragma acc parallel loop copy(sum)
    for (i = 0; i < 10; i++) {
#pragma acc atomic update
        sum += i;
    }
    return (int)sum;
}
