/* pathfinder — dynamic programming over a grid (Rodinia "pathfinder").
 *
 * A rows x cols grid of integer weights (0..9). A path goes from the top row to
 * the bottom row, moving each row straight down or diagonally by one column.
 * The cheapest cost of reaching every cell of the bottom row is found row by
 * row: cost_r[c] = weight[r][c] + min(cost_{r-1}[c-1], cost_{r-1}[c],
 * cost_{r-1}[c+1]) (neighbours outside the grid left out), cost_0 = weight[0].
 * Two row buffers are used ping-pong; one parallel loop per row.
 *
 * Usage: pathfinder [cols [rows]]   default 1,000,000 columns x 100 rows (ints).
 * One repetition = the whole sweep (row 0 copied in, then rows-1 updates).
 * Rate: GB/s counting, per updated row, one read of the weight row, one read of
 * the previous cost row and one write of the new one: (rows-1) * 3 * cols * 4 bytes.
 * Check: the whole last row against a serial reference (exact).
 */
#include "../common/bench.h"

int main(int argc, char **argv)
{
    int cols = argc > 1 ? atoi(argv[1]) : 1000000;
    int rows = argc > 2 ? atoi(argv[2]) : 100;
    if (cols < 1 || rows < 1) {
        fprintf(stderr, "usage: pathfinder [cols [rows]]\n");
        return 1;
    }
    size_t nw = (size_t)rows * cols;
    int *wall = malloc(nw * sizeof(int));
    int *row_a = malloc((size_t)cols * sizeof(int));
    int *row_b = malloc((size_t)cols * sizeof(int));
    if (!wall || !row_a || !row_b) {
        fprintf(stderr, "pathfinder: out of memory\n");
        return 1;
    }
    for (size_t i = 0; i < nw; i++)
        wall[i] = (int)(10.0 * bench_rand(i, 3));

    int warmup = bench_warmup(), reps = bench_reps();
    double *times = malloc((size_t)reps * sizeof(double));
    int *prev = row_a, *next = row_b;

#pragma acc data copyin(wall[0:nw]) copyout(row_a[0:cols], row_b[0:cols])
    {
        for (int rep = 0; rep < warmup + reps; rep++) {
            double start = bench_now();
            prev = row_a;
            next = row_b;
#pragma acc parallel loop present(wall[0:nw], prev[0:cols])
            for (int c = 0; c < cols; c++)
                prev[c] = wall[c];

            for (int r = 1; r < rows; r++) {
                long base = (long)r * cols;
#pragma acc parallel loop present(wall[0:nw], prev[0:cols], next[0:cols])
                for (int c = 0; c < cols; c++) {
                    int m = prev[c];
                    if (c > 0 && prev[c - 1] < m)
                        m = prev[c - 1];
                    if (c < cols - 1 && prev[c + 1] < m)
                        m = prev[c + 1];
                    next[c] = wall[base + c] + m;
                }
                int *sw = prev;
                prev = next;
                next = sw;
            }
            double end = bench_now();
            if (rep >= warmup)
                times[rep - warmup] = end - start;
        }
    }
    /* prev is the last row (both buffers were copied out). */

    /* Serial reference. */
    int *ref = malloc((size_t)cols * sizeof(int));
    int *ref2 = malloc((size_t)cols * sizeof(int));
    for (int c = 0; c < cols; c++)
        ref[c] = wall[c];
    for (int r = 1; r < rows; r++) {
        const int *w = wall + (size_t)r * cols;
        for (int c = 0; c < cols; c++) {
            int m = ref[c];
            if (c > 0 && ref[c - 1] < m)
                m = ref[c - 1];
            if (c < cols - 1 && ref[c + 1] < m)
                m = ref[c + 1];
            ref2[c] = w[c] + m;
        }
        int *sw = ref;
        ref = ref2;
        ref2 = sw;
    }
    int pass = 1;
    for (int c = 0; c < cols; c++) {
        if (prev[c] != ref[c]) {
            if (pass)
                fprintf(stderr, "pathfinder: mismatch at %d: %d vs %d\n", c, prev[c], ref[c]);
            pass = 0;
        }
    }

    double sec = bench_median(times, reps);
    double bytes = (double)(rows - 1) * 3.0 * cols * sizeof(int);
    char size[64];
    snprintf(size, sizeof size, "%dx%d", cols, rows);
    bench_report("pathfinder", size, sec, bytes / sec * 1e-9, "GB/s", pass);

    free(wall);
    free(row_a);
    free(row_b);
    free(ref);
    free(ref2);
    free(times);
    return 0;
}
