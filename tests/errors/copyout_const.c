// expect-error-at: 10:48
// expect-error: 'w' is const-qualified; 'copyout' would write to it
// Copying device data back into a const object would write memory the
// host may keep read-only.
static const double w[4] = { 1, 2, 3, 4 };
double out[4];

int main(void)
{
#pragma acc parallel loop copyout(out) copyout(w)
    for (int i = 0; i < 4; i++)
        out[i] = w[i];
    return 0;
}
