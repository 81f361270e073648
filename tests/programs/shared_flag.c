// A scalar a data clause names is shared on purpose, even when every
// iteration assigns it before reading it: the frontier loop of a
// breadth-first search sets `stop = 1` wherever it finds work, and the host
// loops while the device's copy(stop) comes back 1 (benchmarks/bfs). It must
// not be made private to the loop (then the search stops after one level).
#include <stdio.h>

#define N 4096

static int next[N], mask[N], updating[N], visited[N], cost[N];

int main(void)
{
    for (int i = 0; i < N; i++)
        next[i] = (int)((i * 7L + 1) % N);
    for (int i = 0; i < N; i++) {
        mask[i] = visited[i] = i == 0;
        updating[i] = 0;
        cost[i] = i == 0 ? 0 : -1;
    }
    int levels = 0, stop;
#pragma acc data copyin(next) copy(mask, updating, visited, cost)
    do {
        stop = 0;
#pragma acc parallel loop present(next, mask, updating, visited, cost)
        for (int i = 0; i < N; i++) {
            if (mask[i]) {
                mask[i] = 0;
                int id = next[i];
                if (!visited[id]) {
                    cost[id] = cost[i] + 1;
                    updating[id] = 1;
                }
            }
        }
#pragma acc parallel loop present(mask, updating, visited) copy(stop)
        for (int i = 0; i < N; i++) {
            if (updating[i]) {
                mask[i] = 1;
                visited[i] = 1;
                updating[i] = 0;
                stop = 1;
            }
        }
        levels++;
    } while (stop && levels < 2 * N);
    /* The reference: follow the one edge out of each node from node 0. */
    static int ref[N];
    for (int i = 0; i < N; i++)
        ref[i] = -1;
    int failures = 0, v = 0, depth = 0;
    while (ref[v] < 0) {
        ref[v] = depth++;
        v = next[v];
    }
    long sum = 0;
    for (int i = 0; i < N; i++) {
        sum += cost[i];
        failures += cost[i] != ref[i];
    }
    failures += levels != depth; /* the last level finds nothing new */
    printf("levels %d cost sum %ld cost[N-1] %d\n", levels, sum, cost[N - 1]);
    printf("%s\n", failures ? "FAIL" : "PASS");
    return failures != 0;
}
