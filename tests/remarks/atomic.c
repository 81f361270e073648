/* Remarks of atomics: a scalar an atomic updates is shared with the host
 * (implicitly copy), not firstprivate. */
int main(void)
{
    int n = 100, hits = 0;
    float total = 0;
#pragma acc parallel loop
    for (int i = 0; i < n; i++) {
#pragma acc atomic
        hits++;
#pragma acc atomic update
        total += 0.5f;
    }
    return hits + (int)total;
}
// expect-remark: 7: generating implicit copy(hits)
// expect-remark: 7: generating implicit copy(total)
// expect-remark: 7: loop parallelized across gangs(grid.x) and vector(block.x=128)
