// expect-error-at: 12:16
// expect-error: variable 'v' of type 'a vector of float' is not supported in device code
// A vector type of <immintrin.h> (GNU vector_size) in a compute region; the
// header itself, full of GNU C, compiles.
#include <immintrin.h>

void vectors(int n, float *out)
{
    __m128 host = _mm_set1_ps(1.0f);
#pragma acc parallel loop copyout(out[0:n])
    for (int i = 0; i < n; i++) {
        __m128 v = {0, 1, 2, 3};
        out[i] = v[0];
    }
    out[0] += _mm_cvtss_f32(host);
}
