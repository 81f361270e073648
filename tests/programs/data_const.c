// Const objects used in compute constructs: the host may keep them in
// read-only memory, so they are copied in and never back, whether the
// map is implicit or an explicit `copy` (a copy-out there would crash).
#include <stdio.h>

static const double weights[5] = { 0.0625, 0.25, 0.375, 0.25, 0.0625 };
const int offsets[3][2] = { { -1, 0 }, { 0, 0 }, { 1, 0 } };
#define N 1000
double in[N], out[N], out2[N];

int main(void)
{
    for (int i = 0; i < N; i++)
        in[i] = (i * 7919) % 101 * 0.5;
#pragma acc parallel loop copyin(in) copyout(out)
    for (int i = 2; i < N - 2; i++) {
        double s = 0;
        for (int k = -2; k <= 2; k++)
            s += weights[k + 2] * in[i + k];
        out[i] = s;
    }
#pragma acc kernels copy(offsets, out2) copyin(in)
    for (int i = 1; i < N - 1; i++)
        out2[i] = in[i + offsets[0][0]] + in[i + offsets[2][0]] + offsets[1][1];
    double sum = 0, sum2 = 0;
    for (int i = 0; i < N; i++) {
        sum += out[i] * (i % 3 + 1);
        sum2 += out2[i] * (i % 5 + 1);
    }
    printf("sum %.6e\nsum2 %.6e\n", sum, sum2);
    printf("%s\n", sum > 0 && sum2 > 0 ? "PASS" : "FAIL");
    return 0;
}
