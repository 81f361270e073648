/* bfs.c — breadth-first search (Rodinia "bfs"; "bfs" in the IPMACC paper):
 * the cost (depth) of every node reachable from source node 0 in a random
 * directed graph in CSR form (per node: first edge and degree; one edge
 * array of destination nodes), by the classic two-kernel frontier expansion:
 *   kernel 1: every node in the frontier mask leaves it and gives each
 *             unvisited neighbour cost + 1, marking it in the updating mask;
 *   kernel 2: every updated node joins the frontier and is visited; any such
 *             node sets the 'stop' flag (all writers write the same value);
 * repeated until a level updates nothing.
 * Graph: argv[1] = N nodes (default 2^22); node i has 1 + floor(11 u) edges
 * (average 6) to uniformly random nodes (deterministic, bench_rand).
 * One repetition = the whole search: the device arrays are reset on the
 * device (inside the data region), then levels run until no update.
 * Rate: GB/s of the graph and frontier arrays per full search: the edge array
 * (4 B per edge) and the node arrays (start, degree: 8 B per node) read once,
 * plus the two 1-byte masks swept once per level: 4 E + 8 N + 2 N L bytes,
 * L = number of levels run (max cost + 1: the last level finds nothing).
 * Check: every cost against a serial queue-based BFS. */
#include "../common/bench.h"

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1 << 22;
    if (n < 2 || n > (1 << 26)) {
        fprintf(stderr, "bfs: N must be in [2, 2^26]\n");
        return 1;
    }
    int *start = (int *)malloc(sizeof(int) * n), *degree = (int *)malloc(sizeof(int) * n);
    int *cost = (int *)malloc(sizeof(int) * n);
    char *mask = (char *)malloc(n), *updating = (char *)malloc(n), *visited = (char *)malloc(n);
    int reps = bench_reps(), warm = bench_warmup(), levels = 0;
    double *t = (double *)malloc(sizeof(double) * reps);
    if (!start || !degree || !cost || !mask || !updating || !visited || !t) {
        fprintf(stderr, "bfs: out of memory\n");
        return 1;
    }
    int ne = 0;
    for (int i = 0; i < n; i++) {
        start[i] = ne;
        degree[i] = 1 + (int)(11.0 * bench_rand(i, 1));
        ne += degree[i];
    }
    int *edges = (int *)malloc(sizeof(int) * ne);
    if (!edges) {
        fprintf(stderr, "bfs: out of memory\n");
        return 1;
    }
    for (int e = 0; e < ne; e++) edges[e] = (int)(n * bench_rand(e, 2));
    int src = 0;

#pragma acc data copyin(start[0:n], degree[0:n], edges[0:ne]) create(mask[0:n], updating[0:n], visited[0:n]) \
    copyout(cost[0:n])
    {
        for (int r = -warm; r < reps; r++) {
            double t0 = bench_now();
#pragma acc parallel loop present(mask[0:n], updating[0:n], visited[0:n], cost[0:n])
            for (int i = 0; i < n; i++) {
                mask[i] = i == src;
                visited[i] = i == src;
                updating[i] = 0;
                cost[i] = i == src ? 0 : -1;
            }
            int stop;
            levels = 0;
            do {
                stop = 0;
#pragma acc parallel loop present(start[0:n], degree[0:n], edges[0:ne], mask[0:n], updating[0:n], visited[0:n], \
                                  cost[0:n])
                for (int i = 0; i < n; i++) {
                    if (mask[i]) {
                        mask[i] = 0;
                        for (int e = start[i]; e < start[i] + degree[i]; e++) {
                            int id = edges[e];
                            if (!visited[id]) {
                                cost[id] = cost[i] + 1;
                                updating[id] = 1;
                            }
                        }
                    }
                }
#pragma acc parallel loop present(mask[0:n], updating[0:n], visited[0:n]) copy(stop)
                for (int i = 0; i < n; i++) {
                    if (updating[i]) {
                        mask[i] = 1;
                        visited[i] = 1;
                        updating[i] = 0;
                        stop = 1;
                    }
                }
                levels++;
            } while (stop);
            double t1 = bench_now();
            if (r >= 0) t[r] = t1 - t0;
        }
    }

    /* Reference: serial queue-based BFS. */
    int *ref = (int *)malloc(sizeof(int) * n), *queue = (int *)malloc(sizeof(int) * n);
    if (!ref || !queue) {
        fprintf(stderr, "bfs: out of memory\n");
        return 1;
    }
    for (int i = 0; i < n; i++) ref[i] = -1;
    int head = 0, tail = 0, maxcost = 0, reached = 0, pass = 1, bad = 0;
    ref[src] = 0;
    queue[tail++] = src;
    while (head < tail) {
        int u = queue[head++];
        for (int e = start[u]; e < start[u] + degree[u]; e++)
            if (ref[edges[e]] < 0) {
                ref[edges[e]] = ref[u] + 1;
                if (ref[u] + 1 > maxcost) maxcost = ref[u] + 1;
                queue[tail++] = edges[e];
            }
    }
    reached = tail;
    for (int i = 0; i < n; i++)
        if (cost[i] != ref[i]) {
            if (bad++ < 5) fprintf(stderr, "bfs: cost[%d] = %d, expected %d\n", i, cost[i], ref[i]);
            pass = 0;
        }
    if (levels != maxcost + 1) {
        fprintf(stderr, "bfs: %d levels run, expected %d\n", levels, maxcost + 1);
        pass = 0;
    }
    if (getenv("BFS_VERBOSE"))
        fprintf(stderr, "bfs: %d nodes, %d edges, %d reached, max cost %d\n", n, ne, reached, maxcost);

    double s = bench_median(t, reps);
    double bytes = 4.0 * ne + 8.0 * n + 2.0 * n * (maxcost + 1);
    char size[32];
    snprintf(size, sizeof size, "%d", n);
    bench_report("bfs", size, s, bytes / s * 1e-9, "GB/s", pass);
    free(start), free(degree), free(cost), free(mask), free(updating), free(visited), free(t), free(edges);
    free(ref), free(queue);
    return 0;
}
