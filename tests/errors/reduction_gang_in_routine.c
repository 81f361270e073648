// expect-error-at: 10:13
// expect-error: reduction of 'totals' across gangs in a routine is not supported
// A gang reduction into memory needs the end of a construct, which a
// routine does not have.
float totals[4];
#pragma acc declare create(totals)
#pragma acc routine gang
void total(int n, const float *a)
{
#pragma acc loop gang reduction(+:totals[0])
    for (int i = 0; i < n; i++)
        totals[0] += a[i];
}
