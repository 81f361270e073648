// expect-error-at: 9:32
// expect-error: array
// A sub-array of a variable that is neither an array nor a pointer.
int main(void)
{
    int x = 3;
    int out[4];

#pragma acc parallel loop copy(x[0:4]) copyout(out)
    for (int i = 0; i < 4; i++)
        out[i] = x + i;
    return out[0];
}
