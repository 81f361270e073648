/* ptxrt.h — the compiler ABI of libptxrt.
 *
 * Every entry point here is called only by code that accc generates (the host
 * rewrite of each OpenACC construct and the registration constructor of each
 * embedded device image). Users call the standard API in <openacc.h>.
 * Names: __ptxrt_ = compiler ABI, acc_ = user API (see shared/STYLE.md).
 *
 * Any failure (a variable that is not present, a failed copy, a failed
 * launch) stops the program with exit status 1 and one line on stderr:
 *   <file>:<line>: error: <construct>: <what>: '<variable as written>'[: <detail>]
 * (an API routine of <openacc.h>, which has no location:
 *   accc runtime: error: <routine>: <what>: '<arguments>'[: <detail>]).
 */
#ifndef PTXRT_H
#define PTXRT_H
/* No system headers: accc includes this file into translation units that
 * already contain the preprocessed text of every system header they use, and
 * including those again would redefine their types. The compiler's own
 * predefined type macros give the exact types instead. */
typedef __SIZE_TYPE__ __ptxrt_size_t;
typedef __UINT32_TYPE__ __ptxrt_u32;
typedef __UINT64_TYPE__ __ptxrt_u64;

/* 2: struct __ptxrt_image gained `relocatable`.
 * 3: the whole data environment (OpenACC 3.3 2.6-2.8, 2.13): more map kinds
 *    and modifier flags in struct __ptxrt_map, enter/exit data, update,
 *    host_data, declare (struct __ptxrt_declare, device address cells in
 *    struct __ptxrt_image), region cleanup for early exits.
 * 4: async queues (struct __ptxrt_async, __ptxrt_wait).
 * 5: an image's device code is a list of (kind, arch, bytes) entries
 *    (struct __ptxrt_code): PTX, cubins, the emulator's SIMT bytecode.
 * 6: struct __ptxrt_image gained `flags` (PTXRT_IMAGE_RECURSIVE). */
#define PTXRT_ABI_VERSION 6

/* Kinds of device code (the plugin ABI's CODE_* numbers). */
#define PTXRT_CODE_PTX 0   /* PTX text, NUL-terminated (len without the NUL) */
#define PTXRT_CODE_CUBIN 1 /* an ELF cubin for `arch` (relocatable when the image is) */
#define PTXRT_CODE_SIMT 2  /* accc's SIMT bytecode, run by the emulated device
                              libptxrt-emu.so (accc -gpu=emu) */
#define PTXRT_CODE_CUDA 3  /* CUDA C source for nvcc: no plugin loads it yet (a cubin
                              nvcc made is a PTXRT_CODE_CUBIN entry); libptxrt skips
                              the entries of kinds it does not know */
#define PTXRT_CODE_HOST 4  /* the kernels as host code (accc -acc=multicore), for the
                              multicore device: `bytes` is the address of the module's
                              symbol table, an array of struct __ptxrt_host_sym ending
                              with a null name, `len` its number of symbols */

/* One symbol of a PTXRT_CODE_HOST table: a kernel's entry,
 * void entry(const __ptxrt_u32 grid[3], unsigned long long block, void **args),
 * which runs block `block` (linear: x fastest) of the grid with the kernel's
 * arguments (one pointer per parameter, as cuLaunchKernel takes them), or the
 * address of a device address cell. */
struct __ptxrt_host_sym {
  const char *name;
  void *addr;
};

/* One piece of device code of an image. */
struct __ptxrt_code {
  __ptxrt_u32 kind;            /* PTXRT_CODE_* */
  const char *arch;            /* the GPU architecture of a cubin ("sm_90"), else NULL */
  const unsigned char *bytes;
  __ptxrt_size_t len;
};

/* One device image: the device code of one translation unit (PTX; a cubin
 * when ptxas was available at compile time; SIMT bytecode with -gpu=emu),
 * defined by the object accc produces and passed to __ptxrt_register_image
 * from a constructor. A device loads the code it takes (its plugin says
 * which kinds): a GPU the cubin for its arch, else the PTX, which the
 * driver JIT-compiles; the emulated device the SIMT bytecode.
 *
 * A relocatable image (relocatable != 0) calls device functions defined in
 * other images (`.extern .func`) or defines some for them (`.visible .func`),
 * and its cubin was made with `ptxas -c`. It cannot be loaded alone: on a
 * device, all the registered relocatable images are linked into one module
 * the first time a kernel of any of them is launched (from their cubins when
 * all have one for the device's arch, else from their PTX; on the emulated
 * device from their SIMT bytecode). A kernel name is then looked up in that
 * module, so kernel and function names must be unique across the
 * relocatable images of a program. Other images load alone.
 *
 * flags PTXRT_IMAGE_RECURSIVE: a device function of the image reaches itself
 * through its calls, so the stack a thread needs is known only at run time
 * (ptxas cannot size it). Before such code runs on a GPU, the runtime raises
 * the device's per-thread stack limit (CU_LIMIT_STACK_SIZE, 1 KiB by default
 * in CUDA) to 32 KiB, or to what PTXRT_STACK_SIZE (or
 * nvc's NV_ACC_CUDA_STACKSIZE) says; README.md "Runtime environment". */
#define PTXRT_IMAGE_RECURSIVE 1u
struct __ptxrt_image {
  __ptxrt_u32 abi_version;        /* PTXRT_ABI_VERSION */
  __ptxrt_u32 relocatable;        /* 1: link with the other relocatable images; 0: load alone */
  __ptxrt_u32 flags;              /* PTXRT_IMAGE_* bits */
  const char *source;          /* the .c file it was compiled from, for messages */
  const struct __ptxrt_code *code;   /* its device code */
  __ptxrt_size_t ncode;
  const char *plugin_dir;      /* accc's lib directory at compile time (where
                                  libptxrt-cuda.so was installed), or NULL */
  void *runtime_state;         /* owned by libptxrt; zero-initialised */
  const struct __ptxrt_cell *cells;  /* device address cells of this image (see below), or NULL */
  __ptxrt_size_t ncells;
};
void __ptxrt_register_image(struct __ptxrt_image *img);

/* Where libptxrt-cuda.so was when accc linked the program (accc's lib dir):
 * called from a constructor accc links into every program, so that programs
 * whose files hold no device code find the plugin too. Searched after the
 * program's own folder (PTXRT_PLUGIN first); PTXRT_DEBUG=1 lists every path
 * tried. */
void __ptxrt_register_plugin_dir(const char *dir);

/* A device address cell: a pointer-sized `.global` variable of the image's
 * device code (PTX symbol `symbol`) through which its device functions reach
 * the device copy of host global `host` (a variable in an `acc declare`
 * directive). Whenever the image's code is loaded on a device, and whenever
 * the device copy of `host` appears or goes (declare link: by data clauses),
 * the runtime stores into the cell the device address of `host` (or 0 when it
 * has none), before any kernel of the image runs. */
struct __ptxrt_cell {
  const char *symbol;
  const void *host;
};

/* Where a construct is in the user's source. */
struct __ptxrt_loc {
  const char *file;
  int line;
  int col;
  const char *construct;       /* "parallel loop", "kernels", "data", ... */
};

/* Data clause kinds (OpenACC 3.3 2.7). On a structured construct (data,
 * compute, declare in a function) a reference is taken at begin and dropped
 * at end; on enter data / exit data the dynamic reference count moves. */
enum __ptxrt_map_kind {
  PTXRT_MAP_COPY = 0,       /* present, or allocate + copy in; at end copy out when the last reference goes */
  PTXRT_MAP_COPYIN = 1,     /* present, or allocate + copy in */
  PTXRT_MAP_COPYOUT = 2,    /* present, or allocate; copy out when the last reference goes */
  PTXRT_MAP_CREATE = 3,     /* present, or allocate */
  PTXRT_MAP_PRESENT = 4,    /* must be present: else a runtime error naming the item */
  PTXRT_MAP_NO_CREATE = 5,  /* a reference when present; else nothing (a kernel sees the host address) */
  PTXRT_MAP_DELETE = 6,     /* exit data: drop a reference, no copy out */
  PTXRT_MAP_ATTACH = 7,     /* host = address of a host pointer (bytes = its size): attach it
                               (its device copy, if present, gets the device address of its
                               target, counted per pointer); detach at end. The target must be
                               present (else a runtime error), found through the pointer's
                               value or, when that is not present and the item right before
                               this one is a data item whose section starts after the value
                               (`s->p[2:n]` then the ATTACH of `&s->p`), through that section.
                               Attach items run after the data items of the same call, detaches
                               before them. */
  PTXRT_MAP_DETACH = 8,     /* exit data: detach the pointer at host */
  PTXRT_MAP_DEVICEPTR = 9,  /* the item is a device address already: nothing to do */
  PTXRT_MAP_ROWS = 10       /* a sub-array through pointers to pointers (`double **a;
                               copy(a[0:n][0:m])`): the data item before it (or before the
                               ROWS items before it) is a section of pointers; each pointer's
                               row [target + offset, target + offset + bytes), with `host`
                               holding the byte offset as an integer, is mapped with that
                               item's kind and flags and the pointer attached to it (a null
                               pointer: no row, its device copy null). One ROWS item per
                               further level of pointers; detached (exit data: before the
                               copies) and released before the pointers that point at them. */
};

/* Modifier flags of struct __ptxrt_map. */
#define PTXRT_MAP_ZERO 1      /* create/copyout(zero:): new device memory is zeroed */
#define PTXRT_MAP_READONLY 2  /* copyin(readonly:), present(readonly:) */
#define PTXRT_MAP_ALWAYSIN 4  /* copy/copyin(alwaysin: or always:): copy in also when present */
#define PTXRT_MAP_ALWAYSOUT 8 /* copy/copyout(alwaysout: or always:): at the end (exit data:
                                 at the item) copy out also when the data stays present */
#define PTXRT_MAP_BLOCK 16    /* an implicit section derived from loop bounds, or a bare pointer:
                                 when a present range contains `host`, the item stands for that
                                 whole range (present-or-copy of the enclosing data); else for
                                 [host, host + bytes) */
#define PTXRT_MAP_NO_EXTENT 32 /* with BLOCK: the item has no extent of its own (a bare pointer
                                 in a clause, `present(p)`; an implicit section whose assumptions
                                 failed at run time): absent, a clause that must allocate is a
                                 runtime error naming the item, present is "not present", and
                                 no_create, delete and copyout on exit data are no action */

/* One data clause item: a contiguous host range. */
struct __ptxrt_map {
  const char *name;            /* as written in the clause, e.g. "a[0:n]" */
  const void *host;            /* first byte of the section */
  __ptxrt_size_t bytes;                /* length of the section in bytes (may be 0) */
  int kind;                    /* enum __ptxrt_map_kind */
  int flags;                   /* PTXRT_MAP_ZERO | PTXRT_MAP_READONLY */
};

/* The async and wait clauses of a construct (OpenACC 3.3 2.16). `async` is
 * the queue: PTXRT_ASYNC_NONE when there is no async clause (synchronous),
 * acc_async_noval (-1) for `async` without an argument (the thread's default
 * queue), or an acc_async_t value or non-negative queue number; `waits` are
 * the `nwaits` queues of a wait clause (nwaits = -1: `wait` with no list,
 * every queue; 0: no wait clause), of device `wait_dev` (`wait(devnum: d:
 * ...)`; -1: the current device). Any other negative value is a runtime
 * error. Functions take a pointer to it; NULL means synchronous, no wait.
 * Work on a queue is ordered after the queue's earlier work and runs while
 * the host goes on; the waits of a construct with `async` are done by its
 * queue on the device, those of a synchronous one by the host. */
#define PTXRT_ASYNC_NONE (-2)
struct __ptxrt_async {
  int async;
  int wait_dev;
  int nwaits;
  const int *waits;
};

/* Nonzero when the construct runs on the device: cond is the value of the
 * if clause (1 when absent). Initialises the runtime on first use, loading the
 * device plugin; 0 when ACC_DEVICE_TYPE=host or no device is usable. */
int __ptxrt_use_device(int cond);

/* Structured data lifetime (data construct, and the data clauses of a
 * compute construct). begin makes every map present (allocating and copying
 * in as its kind says, or incrementing the structured reference count), in
 * order; end undoes it in reverse order (copy out, free at count zero). The
 * returned handle is passed to end. With an async queue (`a`), the copies
 * of both go to that queue, and device memory is reused only after the
 * queue got past its last use. */
void *__ptxrt_data_begin(const struct __ptxrt_loc *loc, const struct __ptxrt_map *maps, int n,
                         const struct __ptxrt_async *a);
void __ptxrt_data_end(void *region);
/* __ptxrt_data_end for `void *r __attribute__((cleanup(__ptxrt_data_cleanup)))`:
 * ends the region *r (if not null) when control leaves its scope by any
 * route (return, break, goto); sets *r to null. */
void __ptxrt_data_cleanup(void **region);

/* enter data / exit data (2.14.6, 2.14.7): the items in order, moving the
 * dynamic reference counts; `finalize` drops them to zero. With `async`, the
 * copies go to that queue (device memory is freed only after they ran). */
void __ptxrt_enter_data(const struct __ptxrt_loc *loc, const struct __ptxrt_map *maps, int n,
                        const struct __ptxrt_async *a);
void __ptxrt_exit_data(const struct __ptxrt_loc *loc, const struct __ptxrt_map *maps, int n,
                       int finalize, const struct __ptxrt_async *a);

/* update (2.14.4): copy each present range to the device or to the host.
 * Not present: a runtime error naming the item, or nothing with if_present. */
struct __ptxrt_update {
  const char *name;
  const void *host;
  __ptxrt_size_t bytes;
  int to_device;               /* bit 0 — 1: device(…); 0: self(…) / host(…);
                                  bit 1 (PTXRT_UPDATE_BLOCK): a bare pointer: the present
                                  range containing host (bytes 0) */
};
#define PTXRT_UPDATE_BLOCK 2
void __ptxrt_update(const struct __ptxrt_loc *loc, const struct __ptxrt_update *items, int n,
                    int if_present, const struct __ptxrt_async *a);

/* The wait directive (2.16.3): without async, the host waits for the
 * queues of `a` (all when nwaits is -1); with it, queue a->async waits for
 * them on the device and the host goes on. */
void __ptxrt_wait(const struct __ptxrt_loc *loc, const struct __ptxrt_async *a);

/* The init, shutdown and set directives (2.14.1-2.14.3), one call per
 * device type of the device_type clause (the compiler evaluates the if
 * clause first). dev_type is an acc_device_t value (acc_device_current, -1,
 * without a device_type clause), PTXRT_DEVICE_ANY for device_type(*), or
 * PTXRT_DEVICE_OTHER for a name accc drives no devices of (radeon, ...;
 * multicore is acc_device_multicore: the host); type_name is the name as
 * written, for messages (or NULL).
 * has_num: a device_num clause gave dev_num.
 * init: as acc_init_device(dev_num or the current number, dev_type); other
 *   types: nothing; *: the NVIDIA device when usable.
 * shutdown: as acc_shutdown_device (with device_num) or acc_shutdown; other
 *   types: nothing; *: every device.
 * set: dev_type becomes the thread's device type (acc_device_current: kept;
 *   other types and * are an error), then dev_num its device number (as
 *   acc_set_device_num for that type), then `async` its default queue (as
 *   acc_set_default_async) when has_async.
 * A device number the driver does not have is a runtime error at loc. */
#define PTXRT_DEVICE_ANY (-100)
#define PTXRT_DEVICE_OTHER (-101)
void __ptxrt_init(const struct __ptxrt_loc *loc, int dev_type, const char *type_name, int has_num,
                  int dev_num);
void __ptxrt_shutdown(const struct __ptxrt_loc *loc, int dev_type, const char *type_name,
                      int has_num, int dev_num);
void __ptxrt_set(const struct __ptxrt_loc *loc, int dev_type, const char *type_name, int has_num,
                 int dev_num, int has_async, int async);

/* host_data use_device (2.8): the device address of host address p, found
 * through the present range containing it; not present: a runtime error, or
 * p itself with if_present. */
void *__ptxrt_host_data_ptr(const struct __ptxrt_loc *loc, const char *name, const void *p,
                         int if_present);

/* A global in an `acc declare` directive (2.13), registered by a constructor
 * of every translation unit whose directive names it (the same range more
 * than once is one entry). create / copyin / device_resident: the device copy
 * exists from the device's initialisation until shutdown (copyin: filled from
 * the host then). link: no copy of its own; its cells follow whatever data
 * clause maps the range. */
struct __ptxrt_declare {
  const char *name;            /* the variable as written */
  const void *host;
  __ptxrt_size_t bytes;
  int kind;                    /* PTXRT_MAP_CREATE, PTXRT_MAP_COPYIN, or PTXRT_DECLARE_LINK */
  struct __ptxrt_loc loc;      /* where the directive is */
};
#define PTXRT_DECLARE_LINK 100
void __ptxrt_register_declare(const struct __ptxrt_declare *d);

/* The device address that corresponds to host address p. The present range is
 * found through `section` (an address inside a present range: the start of the
 * clause's section, or p itself when NULL); the result is that range's device
 * base plus (p - host base), computed with wrapping arithmetic so a pointer to
 * the start of an array whose section starts later still translates. A NULL p
 * gives NULL. Not present: a runtime error naming `name`; with `if_present`
 * (a no_create item) p itself. */
void *__ptxrt_deviceptr(const struct __ptxrt_loc *loc, const char *name, const void *p,
                        const void *section, int if_present);

/* Launch geometry defaults: number of gangs (blocks) for a loop of `trip`
 * iterations run by blocks of `block` threads, chosen from the device (SM
 * count, occupancy); never 0. */
__ptxrt_u32 __ptxrt_default_gangs(__ptxrt_u64 trip, __ptxrt_u32 block);

/* A vector length fit for reductions: rounded up to a power of two up to
 * 32, else to a multiple of 32 (at most 1024). */
static inline __ptxrt_u32 __ptxrt_warp_friendly(__ptxrt_u32 n)
{
    __ptxrt_u32 p = 1;
    if (n == 0)
        return 0;
    if (n > 32) {
        n = (n + 31u) / 32u * 32u;
        return n > 1024u ? 1024u : n;
    }
    while (p < n)
        p <<= 1;
    return p;
}

/* A launch size a clause gives (num_gangs, num_workers, vector_length, …):
 * its value when positive (at most 2^31 - 1), else the size the compiler
 * would have chosen without the clause. A launch size is never 0. */
static inline __ptxrt_u32 __ptxrt_size_or(long long v, __ptxrt_u32 dflt)
{
    if (v <= 0)
        return dflt;
    return v > 2147483647LL ? 2147483647u : (__ptxrt_u32)v;
}

/* Fits block sizes b[3] (vector lanes, workers, z) to at most `most`
 * threads in all (at most 1024: the limit of every NVIDIA GPU, or what a
 * kernel's registers allow, __ptxrt_kernel_threads) and 1024, 1024 and 64
 * along x, y and z. Dimensions whose bit is set in `fixed` are constants
 * the kernel's code was compiled for (and already fit); the others shrink:
 * workers first, then z, then the vector lanes (kept whole warps, or a
 * power of two below 32). Kernels stride over their loops, so fewer
 * threads are always correct. */
static inline void __ptxrt_fit_block_to(__ptxrt_u32 b[3], __ptxrt_u32 fixed, __ptxrt_u32 most_all)
{
    static const __ptxrt_u32 most_dim[3] = {1024u, 1024u, 64u};
    static const int order[3] = {1, 2, 0};
    int k;
    if (most_all == 0 || most_all > 1024u)
        most_all = 1024u;
    for (k = 0; k < 3; k++) {
        if (b[k] == 0)
            b[k] = 1;
        if (!(fixed & (1u << k)) && b[k] > most_dim[k])
            b[k] = most_dim[k];
    }
    for (k = 0; k < 3; k++) {
        int d = order[k];
        __ptxrt_u32 others = 1, most, p = 1;
        int j;
        if (fixed & (1u << d))
            continue;
        for (j = 0; j < 3; j++)
            if (j != d)
                others *= b[j];
        most = most_all / (others ? others : 1u);
        if (most == 0)
            most = 1;
        if (b[d] <= most)
            continue;
        if (d != 0 || most < 32u) {
            if (d == 0) {
                while (p * 2u <= most)
                    p *= 2u;
                most = p;
            }
            b[d] = most;
        } else {
            b[d] = most / 32u * 32u;
        }
    }
    /* Rows wider than a warp synchronise on named barriers, of which a
     * block has 15 for rows: no more workers than that. */
    if (b[0] > 32u && b[1] * b[2] > 15u && !(fixed & 2u)) {
        b[1] = 15u / b[2];
        if (b[1] == 0)
            b[1] = 1;
    }
}

/* __ptxrt_fit_block_to the limits of every NVIDIA GPU (1024 threads). */
static inline void __ptxrt_fit_block(__ptxrt_u32 b[3], __ptxrt_u32 fixed)
{
    __ptxrt_fit_block_to(b, fixed, 1024u);
}

/* Launch sizes from the kernel: `kernel` of image `img` on the device
 * constructs run on now (loaded on first use, as __ptxrt_launch loads it).
 * __ptxrt_kernel_threads: the most threads a block of it may have (its
 * registers decide; at most 1024), for __ptxrt_fit_block_to.
 * __ptxrt_kernel_gangs: gangs along x for a loop of `trip` iterations (~0:
 * unknown) of which a gang takes `per`, in blocks of `threads` threads:
 * enough for the loop, at most one wave of the blocks the device holds at
 * once (the driver's occupancy calculator on the kernel's registers and
 * shared memory); never 0. On the host device: as __ptxrt_default_gangs. */
__ptxrt_u32 __ptxrt_kernel_threads(const struct __ptxrt_loc *loc, struct __ptxrt_image *img,
                                   const char *kernel);
__ptxrt_u32 __ptxrt_kernel_gangs(const struct __ptxrt_loc *loc, struct __ptxrt_image *img,
                                 const char *kernel, __ptxrt_u64 trip, __ptxrt_u32 per,
                                 __ptxrt_u32 threads);

/* Device memory for the reductions across gangs of the next launch on
 * queue `async` (as in struct __ptxrt_async): at least `bytes`, its leading
 * counters zero (kernels leave them at zero). */
void *__ptxrt_scratch(const struct __ptxrt_loc *loc, __ptxrt_u64 bytes, int async);

/* Launch kernel `kernel` of `img` on queue `async` (as in struct
 * __ptxrt_async). A synchronous launch is ordered before everything the
 * program does next on the device; the host waits for it where it next
 * observes the device (a copy to the host, an update, an acc_* routine, a
 * host fallback, async work, the exit) or at __ptxrt_settle, not here.
 * args[i] points at the value of parameter i, as in cuLaunchKernel (read
 * before the call returns). */
void __ptxrt_launch(const struct __ptxrt_loc *loc, struct __ptxrt_image *img, const char *kernel,
                    __ptxrt_u32 grid_x, __ptxrt_u32 grid_y, __ptxrt_u32 grid_z,
                    __ptxrt_u32 block_x, __ptxrt_u32 block_y, __ptxrt_u32 block_z,
                    __ptxrt_u32 shared_bytes, void **args, int async);

/* Wait for the synchronous kernels not yet waited for: after a construct
 * whose kernel prints, whose output the host sees without a runtime call. */
void __ptxrt_settle(void);

#endif
