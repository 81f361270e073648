// expect-error-at: 8:32
// expect-error: is not contiguous
// A sub-array that skips elements between rows cannot be one copy.
double grid[10][20];

void k(int n)
{
#pragma acc parallel loop copy(grid[0:10][2:5])
    for (int i = 0; i < 10; i++)
        grid[i][3] += n;
}
