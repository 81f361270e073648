// expect-error-at: 10:31
// expect-error: 'capture' modifier is only allowed on structured data and compute constructs
// OpenACC 3.4 2.7.4: capture appears only on structured data and compute
// constructs, not on enter data.
static double a[16];

int main(void)
{
    a[0] = 1;
#pragma acc enter data copyin(capture: a)
    return (int)a[0];
}
