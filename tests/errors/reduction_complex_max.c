// expect-error-at: 11:41
// expect-error: reduction operator 'max' cannot be applied to 'z'
// OpenACC 3.3 2.5.15: 'max' and 'min' do not apply to complex numbers.
#include <complex.h>
int main(void)
{
    double _Complex z = 0;
    double _Complex x[10] = { 0 };
    int i;

#pragma acc parallel loop reduction(max:z) copyin(x)
    for (i = 0; i < 10; i++)
        z += x[i];
    return (int)creal(z);
}
