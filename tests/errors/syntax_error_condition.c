// expect-error-at: 12:19
// expect-error: in the condition of 'if' in function 'clip': expected ')', ',' or an operator, found '{'
// A parenthesis missing in the condition of an `if` inside a compute region.
void clip(int n, float *y)
{
#pragma acc parallel loop copy(y[0:n])
    for (int i = 0; i < n; i++) {
        float v = y[i];
        if (v < 0)
            v = 0;
        if (v > 1
                  { v = 1; }
        y[i] = v;
    }
}
