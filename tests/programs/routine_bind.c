// acc routine ... bind(name): on the device, calls of poly run poly_impl.
// The host version of poly deliberately differs, so the device result tells
// whether bind was honoured: where the loop ran on the device (acc_on_device)
// the value must be poly_impl's, and on the host poly's. The output is the
// same either way. (No openacc.h: GCC 12, the oracle for files using it,
// does not know bind; acc_on_device is declared here, with a weak stand-in
// for the plain-cc oracle.)
#include <stdio.h>

int acc_on_device(int devtype);
__attribute__((weak)) int acc_on_device(int devtype) { return devtype == 2; /* acc_device_host */ }

#pragma acc routine seq
static double poly_impl(double x) { return ((2.0 * x - 3.0) * x + 0.5) * x - 1.0; }

#pragma acc routine seq bind(poly_impl)
double poly(double x);
double poly(double x) { return -12345.0; }

int main(void)
{
    enum { N = 300 };
    int right[N];
#pragma acc parallel loop copyout(right)
    for (int i = 0; i < N; i++) {
        double x = i * 0.01;
        double want = acc_on_device(4 /* acc_device_not_host */) ? poly_impl(x) : -12345.0;
        right[i] = poly(x) == want;
    }
    int n = 0;
    for (int i = 0; i < N; i++)
        n += right[i];
    printf("%d of %d calls right\n", n, N);
    printf(n == N ? "PASS\n" : "FAIL\n");
    return 0;
}
