/* Verification: the final norms against reference values of each class
   (those of the plain-cc build: the directives ignored, sequential C). */
#include <stdio.h>
#include "header.h"

struct reference {
    char cls;
    double rsdnm[NCOMP];
    double rsdmax;
    double errnm[NCOMP];
};

static const struct reference refs[] = {
    { 'S',
      { 9.8062393307e+00, 7.5633527561e+00, 6.7716725844e+00, 5.8087205138e+00,
        1.9196162611e+00 },
      1.6575176953e+01,
      { 3.0860287597e-01, 2.3429526751e-01, 2.0640417717e-01, 1.7445896596e-01,
        5.6501473134e-02 } },
    { 'W',
      { 1.5620901240e+01, 1.2021200249e+01, 1.0840186537e+01, 9.3263791517e+00,
        3.0871855766e+00 },
      2.7668375064e+01,
      { 4.1775792026e-01, 3.1868914498e-01, 2.8234858639e-01, 2.3989442270e-01,
        7.8280209028e-02 } },
    { 'A',
      { 2.3819568682e+01, 1.8190333487e+01, 1.6489406751e+01, 1.4195550778e+01,
        4.6683496591e+00 },
      5.0491468446e+01,
      { 4.8850787055e-01, 3.7334783071e-01, 3.3186820164e-01, 2.8269002271e-01,
        9.2537768789e-02 } },
};

void verify(char cls, const double rsdnm[NCOMP], double rsdmax, const double errnm[NCOMP],
            logical *verified)
{
    const struct reference *r = NULL;
    size_t n;
    int m;

    for (n = 0; n < sizeof refs / sizeof refs[0]; n++)
        if (refs[n].cls == cls)
            r = &refs[n];
    printf("\n Verification (class %c, epsilon %.1e):\n", cls, VERIFY_EPSILON);
    if (!r) {
        printf(" no reference values for class %c\n", cls);
        *verified = FALSE;
        return;
    }
    *verified = TRUE;
    for (m = 0; m < NCOMP; m++)
        *verified &= verify_value("residual", m, rsdnm[m], r->rsdnm[m], VERIFY_EPSILON);
    *verified &= verify_value("max-resid", 0, rsdmax, r->rsdmax, VERIFY_EPSILON);
    for (m = 0; m < NCOMP; m++)
        *verified &= verify_value("error", m, errnm[m], r->errnm[m], VERIFY_EPSILON);
}
