// Reductions on the parallel construct with gang-redundant updates (OpenACC
// 3.3 2.5.15: "a private copy is created for each parallel gang ... the values
// for each gang are combined" with the original): code outside any gang loop
// runs once in every gang, so `s += 1` under num_gangs(7) adds 7. The host
// (plain cc, and any host fallback) runs one gang and adds 1: the GPU's
// answer is in the gpu-stdout lines. Covers + (int and double), * and ^
// (with an even number of gangs, so that the ^s cancel), gang-redundant
// updates next to a gang loop, and a worker loop with its own reduction
// clause run in full by every gang.
// gpu-stdout: num_gangs(7) +: 17
// gpu-stdout: num_gangs(7) *: 384
// gpu-stdout: num_gangs(6) ^: 4660
// gpu-stdout: num_gangs(5) double +: 3.250000000000000e+00
// gpu-stdout: num_gangs(4) + next to a gang loop: 4000
// gpu-stdout: num_gangs(3) worker loop in every gang: 35
// gpu-stdout: PASS
#include <stdio.h>

#define N 1000

static int a[N];

int main(void)
{
    int i, failures = 0;
    for (i = 0; i < N; i++)
        a[i] = (i * 37) % 11 - 5;
    int sa = 0;
    for (i = 0; i < N; i++)
        sa += a[i];

    int s = 10;
#pragma acc parallel num_gangs(7) reduction(+:s)
    {
        s += 1;
    }
    printf("num_gangs(7) +: %d\n", s);

    int p = 3;
#pragma acc parallel num_gangs(7) reduction(*:p)
    {
        p *= 2;
    }
    printf("num_gangs(7) *: %d\n", p);

    int x = 0x1234;
#pragma acc parallel num_gangs(6) reduction(^:x)
    {
        x ^= 0x5;
    }
    printf("num_gangs(6) ^: %d\n", x);

    double d = 0.75;
#pragma acc parallel num_gangs(5) reduction(+:d)
    {
        d += 0.5;
    }
    printf("num_gangs(5) double +: %.15e\n", d);

    int g = 0;
#pragma acc parallel num_gangs(4) reduction(+:g) copyin(a)
    {
        g += 1000;
#pragma acc loop gang
        for (i = 0; i < N; i++)
            g += a[i];
    }
    printf("num_gangs(4) + next to a gang loop: %d\n", g - sa);

    int w = 5;
#pragma acc parallel num_gangs(3) num_workers(4) reduction(+:w)
    {
#pragma acc loop worker reduction(+:w)
        for (i = 0; i < 10; i++)
            w += 1;
    }
    printf("num_gangs(3) worker loop in every gang: %d\n", w);

    // Whatever the number of gangs G of each region (at least 1): s = 10 + G,
    // p = 3 * 2^G (the same G), x = 0x1234 ^ (G odd ? 5 : 0), d = 0.75 + G/2,
    // g = 1000 G + sum, w = 5 + 10 G.
    failures += s < 11 || s > 17 || p != 3 << (s - 10);
    failures += x != 0x1234 && x != (0x1234 ^ 5);
    failures += d < 1.25 || (d - 0.75) * 2 != (int)((d - 0.75) * 2);
    failures += g - sa < 1000 || (g - sa) % 1000 != 0;
    failures += w < 15 || (w - 5) % 10 != 0;
    printf("%s\n", failures == 0 ? "PASS" : "FAIL");
    return failures != 0;
}
