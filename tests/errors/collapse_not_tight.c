// expect-error-at: 6:13
// expect-error: must be tightly nested (or use 'collapse(force:n)')
int main(void)
{
    double a[8][8], w[8];
#pragma acc parallel loop collapse(2)
    for (int i = 0; i < 8; i++) {
        double s = w[i];
        for (int j = 0; j < 8; j++)
            a[i][j] = s;
    }
    return 0;
}
