/* A stand-in for Nsight Systems' NVTX injection library (tests/trace.rs):
 * loaded by the runtime from NVTX_INJECTION64_PATH through NVTX 3's
 * protocol (InitializeInjectionNvtx2, the export table of callbacks, the
 * core module's function table), it takes nvtxRangePushA and nvtxRangePop
 * and prints one stderr line per push (its depth and name) and, at exit,
 * the counts: every pop must match a push. */
#include <stddef.h>
#include <stdio.h>

typedef void (*nvtx_fn)(void);
typedef nvtx_fn **nvtx_table;
typedef struct {
    size_t struct_size;
    int (*get_module_function_table)(int module, nvtx_table *table, unsigned *size);
} nvtx_callbacks;
typedef const void *(*nvtx_get_export_table)(unsigned id);

enum { ETID_CALLBACKS = 1, MODULE_CORE = 1, CORE_RANGE_PUSH_A = 9, CORE_RANGE_POP = 11 };

static int depth, max_depth, pushes, pops, unmatched;

static int range_push_a(const char *name)
{
    fprintf(stderr, "nvtx-tool: push %d %s\n", depth, name ? name : "(null)");
    pushes++;
    if (++depth > max_depth)
        max_depth = depth;
    return depth - 1;
}

static int range_pop(void)
{
    pops++;
    if (depth == 0) {
        unmatched++;
        return -1;
    }
    return --depth;
}

__attribute__((destructor)) static void report(void)
{
    fprintf(stderr, "nvtx-tool: pushes=%d pops=%d depth=%d max=%d unmatched=%d\n", pushes,
            pops, depth, max_depth, unmatched);
}

int InitializeInjectionNvtx2(nvtx_get_export_table get)
{
    const nvtx_callbacks *cb = get ? (const nvtx_callbacks *)get(ETID_CALLBACKS) : NULL;
    nvtx_table table = NULL;
    unsigned size = 0;
    if (!cb || cb->struct_size < sizeof *cb || !cb->get_module_function_table)
        return 0;
    /* As strict tools do: every module's table, of its size, or no attaching. */
    static const unsigned sizes[] = {0, 16, 9, 15, 7, 16, 7};
    for (int m = 1; m <= 6; m++) {
        nvtx_table t = NULL;
        unsigned n = 0;
        if (!cb->get_module_function_table(m, &t, &n) || !t || n != sizes[m] || t[0] || t[n])
            return 0;
        for (unsigned i = 1; i < n; i++)
            if (!t[i])
                return 0;
    }
    if (cb->get_module_function_table(7, &table, &size))
        return 0;
    if (!cb->get_module_function_table(MODULE_CORE, &table, &size) || !table ||
        size <= CORE_RANGE_POP)
        return 0;
    *table[CORE_RANGE_PUSH_A] = (nvtx_fn)range_push_a;
    *table[CORE_RANGE_POP] = (nvtx_fn)range_pop;
    fprintf(stderr, "nvtx-tool: attached\n");
    return 1;
}
