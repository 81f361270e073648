/* gang on the outer loop, vector on the inner (un-braced) loop. */
#define N 64
double u[N][N];
void init(int m) {
#pragma acc parallel loop gang
    for (int i = 0; i < m; i++)
#pragma acc loop vector
        for (int j = 0; j < N; j++)
            u[i][j] = i * 0.5 + j;
}
