// printf in device code (CUDA's vprintf): in a serial region, so the order
// of the lines is the program's; in gang-redundant code of a one-gang
// parallel region, once (not once per lane); with every promoted argument
// kind (char, short, int, long, unsigned, float, double, pointer-free).
// stdout is flushed before each region so host and device lines interleave
// as written.
#include <stdio.h>

int main(void)
{
    int n = 5;
    double x[5] = { 0.5, 1.5, -2.25, 1e10, 3.0 };
    fflush(stdout);
#pragma acc serial copyin(x)
    {
        for (int i = 0; i < n; i++) {
            char c = (char)('a' + i);
            short s = (short)(-i * 1000);
            float f = (float)x[i] * 0.5f;
            printf("row %d: %c %hd %u %ld %.3f %e|%5d|%-4x|\n", i, c, s, (unsigned)i * 3000000000u,
                   (long)i * 10000000000L, f, x[i], i * 7, i * 255);
        }
    }
    printf("host line between regions\n");
    fflush(stdout);
#pragma acc parallel num_gangs(1) vector_length(32)
    {
        printf("once from the gang: %d\n", 42);
    }
    printf("PASS\n");
    return 0;
}
