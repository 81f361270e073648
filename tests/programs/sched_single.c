// Gang-redundant, worker-single and vector-single code (OpenACC 3.3 2.2.3):
// statements outside worker and vector loops run once per gang (their
// stores and read-modify-writes happen once), and what they write is seen by
// the partitioned loops that follow, and vice versa (the compiler puts the
// barriers in). Inside a worker loop, code outside its vector loop runs once
// per worker.
#include <stdio.h>

#define G 9
#define W 4
#define V 37

int main(void)
{
    static int acc[G], row[G][V], scratch[G][V], wscratch[G][W][V], per_worker[G][W], wsum[G][W];
#pragma acc parallel num_gangs(G) num_workers(W) vector_length(32) copyout(acc, row, per_worker, wsum) create(scratch, wscratch)
    {
#pragma acc loop gang
        for (int g = 0; g < G; g++) {
            acc[g] = 0;
            acc[g] += 1;                 // once per gang: 1, not once per thread
            scratch[g][0] = g * 100;     // written by one thread ...
#pragma acc loop vector
            for (int v = 0; v < V; v++)  // ... read by all lanes after it
                row[g][v] = scratch[g][0] + v;
            int s = 0;
            for (int v = 0; v < V; v++)  // redundant: every lane reads the row
                s += row[g][v];
            acc[g] += s;
#pragma acc loop worker
            for (int w = 0; w < W; w++) {
                per_worker[g][w] = 0;
                per_worker[g][w] += 5;   // once per worker
#pragma acc loop vector
                for (int v = 0; v < V; v++)
                    wscratch[g][w][v] = w * 1000 + v;
                // what this worker's lanes wrote, read by the worker
                int t = 0;
                for (int v = 0; v < V; v++)
                    t += row[g][v] % (w + 2) + wscratch[g][w][v] % 7;
                wsum[g][w] = t;
            }
        }
    }
    long s = 0;
    for (int g = 0; g < G; g++) {
        s = s * 13 + acc[g];
        for (int w = 0; w < W; w++)
            s = s * 7 + per_worker[g][w] + wsum[g][w];
        for (int v = 0; v < V; v++)
            s += row[g][v];
        s %= 1000000007L;
    }
    printf("%ld %d %d %d\nPASS\n", s, acc[3], per_worker[2][1], wsum[4][2]);
    return 0;
}
