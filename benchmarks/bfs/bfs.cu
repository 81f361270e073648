// bfs.cu — hand-written CUDA reference for bfs.c (Rodinia "bfs"): the cost
// (depth) of every node reachable from node 0 in the same random CSR graph,
// same sizes, timing (one repetition = reset on the device + the whole
// search), check and RESULT line as bfs.c. Rate: the same byte count as bfs.c
// (4 E + 8 N + 2 N L, L = max cost + 1 levels) so that rates compare as
// inverse times, although this version moves less: it is the level-
// synchronous BFS a CUDA programmer writes, with frontier queues instead of
// full mask sweeps. Per level one kernel expands the current queue (a thread
// per frontier node, grid-stride), claims each unvisited neighbour with
// atomicCAS on its cost (cost = -1 means unvisited, so no visited/mask
// arrays), and appends the claimed nodes to the next queue through a
// per-block shared-memory queue (one global atomicAdd per block and chunk);
// the host reads the next queue's length (4 bytes) to decide whether to go on.
#include "../common/bench.h"
#include <cuda_runtime.h>

#define BLOCK 256
#define MAXDEG 11

static int check(cudaError_t e, const char *what)
{
    if (e != cudaSuccess) {
        fprintf(stderr, "bfs: %s: %s\n", what, cudaGetErrorString(e));
        return 0;
    }
    return 1;
}

__global__ void reset(int *__restrict__ cost, int n, int src, int *__restrict__ queue, int *__restrict__ counts)
{
    int stride = gridDim.x * blockDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) cost[i] = i == src ? 0 : -1;
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        queue[0] = src;
        counts[0] = 1; // length of the current queue
        counts[1] = 0; // length of the next queue
    }
}

// Expands in[0..nin-1] (all of cost 'level') into out, whose length is *nout.
__global__ void __launch_bounds__(BLOCK) expand(const int *__restrict__ start, const int *__restrict__ degree,
                                                const int *__restrict__ edges, int *__restrict__ cost,
                                                const int *__restrict__ in, int nin, int *__restrict__ out,
                                                int *__restrict__ nout, int level)
{
    __shared__ int local[BLOCK * MAXDEG];
    __shared__ int nlocal, base;
    for (int chunk = blockIdx.x * BLOCK; chunk < nin; chunk += gridDim.x * BLOCK) { // uniform per block
        if (threadIdx.x == 0) nlocal = 0;
        __syncthreads();
        int i = chunk + threadIdx.x;
        if (i < nin) {
            int u = in[i], e0 = start[u], e1 = e0 + degree[u];
            for (int e = e0; e < e1; e++) {
                int v = edges[e];
                if (cost[v] < 0 && atomicCAS(&cost[v], -1, level + 1) == -1) local[atomicAdd(&nlocal, 1)] = v;
            }
        }
        __syncthreads();
        if (threadIdx.x == 0) base = nlocal ? atomicAdd(nout, nlocal) : 0;
        __syncthreads();
        for (int j = threadIdx.x; j < nlocal; j += BLOCK) out[base + j] = local[j];
        __syncthreads();
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1 << 22;
    if (n < 2 || n > (1 << 26)) {
        fprintf(stderr, "bfs: N must be in [2, 2^26]\n");
        return 1;
    }
    char size[32];
    snprintf(size, sizeof size, "%d", n);
    int *start = (int *)malloc(sizeof(int) * n), *degree = (int *)malloc(sizeof(int) * n);
    int *cost = (int *)malloc(sizeof(int) * n);
    int reps = bench_reps(), warm = bench_warmup(), levels = 0, ok = 1;
    double *t = (double *)malloc(sizeof(double) * reps);
    if (!start || !degree || !cost || !t) {
        fprintf(stderr, "bfs: out of memory\n");
        return 1;
    }
    int ne = 0;
    for (int i = 0; i < n; i++) {
        start[i] = ne;
        degree[i] = 1 + (int)(11.0 * bench_rand(i, 1)); // at most MAXDEG
        ne += degree[i];
    }
    int *edges = (int *)malloc(sizeof(int) * ne);
    if (!edges) {
        fprintf(stderr, "bfs: out of memory\n");
        return 1;
    }
    for (int e = 0; e < ne; e++) edges[e] = (int)(n * bench_rand(e, 2));
    int src = 0;

    int dev = 0, sms = 0, maxthr = 0;
    ok &= check(cudaGetDevice(&dev), "cudaGetDevice");
    ok &= check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev), "attribute");
    ok &= check(cudaDeviceGetAttribute(&maxthr, cudaDevAttrMaxThreadsPerMultiProcessor, dev), "attribute");
    int *d_start = 0, *d_degree = 0, *d_edges = 0, *d_cost = 0, *d_q[2] = {0, 0}, *d_counts = 0;
    ok &= check(cudaMalloc(&d_start, sizeof(int) * n), "cudaMalloc");
    ok &= check(cudaMalloc(&d_degree, sizeof(int) * n), "cudaMalloc");
    ok &= check(cudaMalloc(&d_edges, sizeof(int) * (size_t)ne), "cudaMalloc");
    ok &= check(cudaMalloc(&d_cost, sizeof(int) * n), "cudaMalloc");
    ok &= check(cudaMalloc(&d_q[0], sizeof(int) * n), "cudaMalloc");
    ok &= check(cudaMalloc(&d_q[1], sizeof(int) * n), "cudaMalloc");
    ok &= check(cudaMalloc(&d_counts, sizeof(int) * 2), "cudaMalloc");
    if (!ok) {
        bench_report("bfs", size, 0, 0, "GB/s", 0);
        return 0;
    }
    ok &= check(cudaMemcpy(d_start, start, sizeof(int) * n, cudaMemcpyHostToDevice), "copy in");
    ok &= check(cudaMemcpy(d_degree, degree, sizeof(int) * n, cudaMemcpyHostToDevice), "copy in");
    ok &= check(cudaMemcpy(d_edges, edges, sizeof(int) * (size_t)ne, cudaMemcpyHostToDevice), "copy in");

    int reset_blocks = (n + BLOCK - 1) / BLOCK, cap = sms * (maxthr / BLOCK);
    if (reset_blocks > cap) reset_blocks = cap;
    for (int r = -warm; r < reps && ok; r++) {
        double t0 = bench_now();
        reset<<<reset_blocks, BLOCK>>>(d_cost, n, src, d_q[0], d_counts);
        ok &= check(cudaGetLastError(), "reset launch");
        int nin = 1, cur = 0;
        levels = 0;
        while (ok) {
            int blocks = (nin + BLOCK - 1) / BLOCK;
            if (blocks > cap) blocks = cap;
            // the next queue's length lives in counts[1 - cur]; it was zeroed before
            expand<<<blocks, BLOCK>>>(d_start, d_degree, d_edges, d_cost, d_q[cur], nin, d_q[1 - cur],
                                      d_counts + 1 - cur, levels);
            ok &= check(cudaGetLastError(), "expand launch");
            levels++;
            int nout = 0;
            ok &= check(cudaMemcpy(&nout, d_counts + 1 - cur, sizeof(int), cudaMemcpyDeviceToHost), "count");
            if (!ok || nout == 0) break;
            ok &= check(cudaMemsetAsync(d_counts + cur, 0, sizeof(int)), "memset");
            nin = nout;
            cur = 1 - cur;
        }
        ok &= check(cudaDeviceSynchronize(), "search");
        double t1 = bench_now();
        if (r >= 0) t[r] = t1 - t0;
    }
    ok &= check(cudaMemcpy(cost, d_cost, sizeof(int) * n, cudaMemcpyDeviceToHost), "copy out");
    cudaFree(d_start), cudaFree(d_degree), cudaFree(d_edges), cudaFree(d_cost);
    cudaFree(d_q[0]), cudaFree(d_q[1]), cudaFree(d_counts);
    if (!ok) {
        bench_report("bfs", size, 0, 0, "GB/s", 0);
        return 0;
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
    bench_report("bfs", size, s, bytes / s * 1e-9, "GB/s", pass);
    free(start), free(degree), free(cost), free(t), free(edges), free(ref), free(queue);
    return 0;
}
