/* The dependence test of kernels loops decides from the IR's affine
 * subscripts (GCD, bounds), not from C text: these loops are parallel
 * (tests/programs/kernels_affine.c checks their answers), but for the
 * inner j loop and the shifted copy, which carry a dependence. */
#define N 64
long m[N][N], v[4 * N], w[2 * N], z[N];

int main(void)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            m[i][j] = (i * 31 + j * 7) % 97;
    for (int i = 0; i < 4 * N; i++)
        v[i] = (i * 13) % 29;
    for (int i = 0; i < 2 * N; i++)
        w[i] = i % 11;
#pragma acc kernels copy(m, v, w, z)
    {
        // Rows are independent; inside a row each element takes its right
        // neighbour's old value (a dependence carried by j only).
        for (int i = 0; i < N; i++)
            for (int j = 0; j < N - 1; j++)
                m[i][j] = m[i][j + 1] + i;
        // Even elements from odd ones: never the same element (GCD).
        for (int i = 0; i < 2 * N; i++)
            v[2 * i] = v[2 * i + 1] * 3;
        // The upper half from the lower half: the ranges never meet.
        for (int i = 0; i < N; i++)
            w[i + N] = w[i] + 5;
        // A shifted copy inside one range: a real dependence.
        for (int i = 0; i < N; i++)
            w[i + 1] = w[i] + 1;
        // Pointer arithmetic on an array: `*(z + i)` is z[i].
        for (int i = 0; i < N; i++)
            *(z + i) = i * 3;
    }
    return 0;
}

// expect-remark: 17: generating copy(m)
// expect-remark: 17: generating copy(v)
// expect-remark: 17: generating copy(w)
// expect-remark: 17: generating copy(z)
// expect-remark: 21: loop parallelized across gangs(grid.x) and vector(block.x=128) (independent: no dependence found)
// expect-remark: 22: loop not parallelized: 'm' is written and accessed as m[i][j+1], m[i][j]
// expect-remark: 25: loop parallelized across gangs(grid.x) and vector(block.x=128) (independent: no dependence found)
// expect-remark: 28: loop parallelized across gangs(grid.x) and vector(block.x=128) (independent: no dependence found)
// expect-remark: 31: loop not parallelized: 'w' is written and accessed as w[i+1], w[i]
// expect-remark: 34: loop parallelized across gangs(grid.x) and vector(block.x=128) (independent: no dependence found)
