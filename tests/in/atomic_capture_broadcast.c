/* A value an atomic capture gives a variable of each thread, where one
 * thread performs the atomic for a whole gang (or a worker's vector lanes):
 * it goes through a shared slot between two barriers (of the block, or of
 * the worker's row), so that the vector loop after it sees it in every
 * lane. A capture into device memory needs no broadcast. */
void slots(int n, int *next, int *out, int *log)
{
#pragma acc parallel loop gang num_workers(2) vector_length(32) copy(next[0:1], out[0:64 * n], log[0:n])
    for (int g = 0; g < n; g++) {
        int slot;
#pragma acc atomic capture
        slot = next[0]++;
#pragma acc atomic capture
        log[g] = next[0]++;
#pragma acc loop worker
        for (int w = 0; w < 2; w++) {
            int mine;
#pragma acc atomic capture
            {
                mine = next[0];
                next[0] += 2;
            }
#pragma acc loop vector
            for (int j = 0; j < 32; j++)
                out[(slot + mine) * 32 + j] = g;
        }
    }
}
