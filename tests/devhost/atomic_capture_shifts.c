/* The atomic capture forms with shifts and with ++/-- in structured blocks,
 * in one thread: each must capture the value before or after the update
 * that the form names (OpenACC 3.3 2.12), and update the location as C
 * would, on 8- to 64-bit types; the locations are written with grouping
 * parentheses in places. */
#include <stdio.h>

#define M 24

void f(unsigned char *uc, short *sh, int *in, unsigned *un, long long *ll, long long *cap)
{
#pragma acc serial copy(uc[0:1], sh[0:1], in[0:2], un[0:1], ll[0:2]) copyout(cap[0:M])
    {
        int k = 0, v;
        long long w;
        unsigned char c;
        short s;
        unsigned u;
        for (int rep = 0; rep < 2; rep++) {
#pragma acc atomic capture
            c = uc[0] <<= 1;
            cap[k++] = c;
#pragma acc atomic capture
            s = (sh[0]) >>= 2;
            cap[k++] = s;
#pragma acc atomic capture
            u = un[0] = un[0] << 3;
            cap[k++] = u;
#pragma acc atomic capture
            {
                v = in[0];
                in[0] = (in[0]) >> 1;
            }
            cap[k++] = v;
#pragma acc atomic capture
            {
                ll[0] <<= 5;
                w = ll[0];
            }
            cap[k++] = w;
#pragma acc atomic capture
            w = ll[1] = (ll[1]) >> 1;
            cap[k++] = w;
#pragma acc atomic capture
            {
                v = in[1];
                (in[1])--;
            }
            cap[k++] = v;
#pragma acc atomic capture
            {
                --in[1];
                v = in[1];
            }
            cap[k++] = v;
#pragma acc atomic capture
            {
                in[1]++;
                v = (in[1]);
            }
            cap[k++] = v;
#pragma acc atomic capture
            {
                v = in[1];
                ++in[1];
            }
            cap[k++] = v;
#pragma acc atomic capture
            v = in[1] = 3 >> in[1];
            cap[k++] = v;
#pragma acc atomic capture
            v = in[1] = 1 << in[1];
            cap[k++] = v;
        }
    }
}

#ifdef DEVHOST_MAIN
void KERNEL();

int main(void)
{
    unsigned char uc[1] = { 3 }, uc0[1] = { 3 };
    short sh[1] = { -1000 }, sh0[1] = { -1000 };
    int in[2] = { -77777, 5 }, in0[2] = { -77777, 5 };
    unsigned un[1] = { 0x10000001u }, un0[1] = { 0x10000001u };
    long long ll[2] = { -3, 7 }, ll0[2] = { -3, 7 };
    long long cap[M], cap0[M];
    f(uc0, sh0, in0, un0, ll0, cap0);
    KERNEL(KERNEL_ARGS);
    int bad = uc[0] != uc0[0] || sh[0] != sh0[0] || in[0] != in0[0] || in[1] != in0[1] ||
              un[0] != un0[0] || ll[0] != ll0[0] || ll[1] != ll0[1];
    for (int k = 0; k < M; k++)
        if (cap[k] != cap0[k]) {
            bad = 1;
            printf("capture %d: device %lld host %lld\n", k, cap[k], cap0[k]);
        }
    printf("%u %d %d %d %u %lld %lld\n%s\n", uc[0], sh[0], in[0], in[1], un[0], ll[0], ll[1],
           bad ? "FAIL" : "PASS");
    return bad;
}
#endif
