// Statements inside compute regions: nested blocks with initialised locals
// (scalars, fixed-size private arrays, with and without initialiser lists),
// if/else chains, for/while/do loops, break and continue, switch with
// fall-through and default, and sequential loops nested in parallel ones
// (in parallel, kernels and serial constructs).
#include <stdio.h>

int main(void)
{
    enum { N = 500 };
    int in[N], out1[N], out2[N], out3[N];
    long out4[N];
    for (int i = 0; i < N; i++)
        in[i] = (i * 2654435761u) % 1009;

#pragma acc parallel loop copyin(in) copyout(out1, out2)
    for (int i = 0; i < N; i++) {
        int v = in[i];
        int digits[8] = {0};                  // private array, zeroed
        int weights[] = {3, 1, 4, 1, 5, 9, 2, 6};
        int nd = 0;
        do {
            digits[nd++] = v % 10;
            v /= 10;
        } while (v > 0 && nd < 8);
        int acc = 0;
        for (int d = 0; d < nd; d++) {
            if (digits[d] == 0)
                continue;
            if (d > 5)
                break;
            acc += digits[d] * weights[d];
        }
        int r = 0;
        switch (in[i] % 9) {
        case 0:
            r += 1;
        case 1:
        case 2:
            r += 10;               // falls through from 0
            break;
        case 3: {
            int t = acc * 2;
            r = t;
            break;
        }
        default:
            r = -acc;
            if (in[i] % 2)
                break;
            r -= 1000;
        case 8:
            r += 7;                // reached from default when even, or directly
        }
        switch ((char)(i % 4)) {  // promoted controlling expression
        case 'a' - 'a':
            r *= 2;
            break;
        case 3:
            r *= 3;
        }
        out1[i] = acc;
        out2[i] = r;
    }

#pragma acc kernels loop independent copyin(in) copyout(out3)
    for (int i = 0; i < N; i++) {
        int steps = 0;
        unsigned x = (unsigned)in[i] + 1u;
        while (x != 1 && steps < 200) {       // Collatz, bounded
            x = (x & 1) ? 3 * x + 1 : x / 2;
            steps++;
        }
        {
            int inner = steps;
            {
                int inner2 = inner + 1;
                steps = inner2 * 2;
            }
        }
        out3[i] = steps;
    }

#pragma acc serial copyin(in) copyout(out4)
    {
        long run = 0;
        for (int i = 0; i < N; i++) {
            int j = 0;
            while (1) {
                if (j >= 3)
                    break;
                run += in[(i + j) % N];
                j++;
            }
            out4[i] = run;
        }
    }

    long long sum = 0;
    for (int i = 0; i < N; i++)
        sum += out1[i] * 3LL + out2[i] * 7LL + out3[i] * 11LL + out4[i];
    printf("%lld %d %d %d %ld\n", sum, out1[17], out2[17], out3[17], out4[17]);
    printf("PASS\n");
    return 0;
}
