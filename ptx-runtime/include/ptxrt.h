/* ptxrt.h — the compiler ABI of libptxrt.
 *
 * Every entry point here is called only by code that accc generates (the host
 * rewrite of each OpenACC construct and the registration constructor of each
 * embedded device image). Users call the standard API in <openacc.h>.
 * Names: __ptxrt_ = compiler ABI, acc_ = user API (see shared/STYLE.md).
 *
 * Any failure (a variable that is not present, a failed copy, a failed
 * launch) stops the program with exit status 1 and one line on stderr:
 *   <file>:<line>: error: <construct>: <what>: <variable as written>: <device error>
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

/* 2: struct __ptxrt_image gained `relocatable`. */
#define PTXRT_ABI_VERSION 2

/* One device image: the PTX (and, when ptxas was available at compile time,
 * a cubin) of one translation unit. Defined by the object accc produces and
 * passed to __ptxrt_register_image from a constructor.
 *
 * A relocatable image (relocatable != 0) calls device functions defined in
 * other images (`.extern .func`) or defines some for them (`.visible .func`),
 * and its cubin was made with `ptxas -c`. It cannot be loaded alone: on a
 * device, all the registered relocatable images are linked into one module
 * the first time a kernel of any of them is launched (from their cubins when
 * all have one for the device's arch, else from their PTX). A kernel name is
 * then looked up in that module, so kernel and function names must be unique
 * across the relocatable images of a program. Other images load alone.
 *
 * `relocatable` sits in the padding after abi_version, so the size and every
 * other offset are those of ABI version 1 (8-byte pointers: 72 bytes). */
struct __ptxrt_image {
  __ptxrt_u32 abi_version;        /* PTXRT_ABI_VERSION */
  __ptxrt_u32 relocatable;        /* 1: link with the other relocatable images; 0: load alone */
  const char *source;          /* the .c file it was compiled from, for messages */
  const char *ptx;             /* NUL-terminated PTX text */
  __ptxrt_size_t ptx_len;              /* strlen(ptx) */
  const unsigned char *cubin;  /* ELF cubin for cubin_arch, or NULL */
  __ptxrt_size_t cubin_len;
  const char *cubin_arch;      /* e.g. "sm_90", or NULL */
  const char *plugin_dir;      /* accc's lib directory at compile time (where
                                  libptxrt-cuda.so was installed), or NULL */
  void *runtime_state;         /* owned by libptxrt; zero-initialised */
};
void __ptxrt_register_image(struct __ptxrt_image *img);

/* Where a construct is in the user's source. */
struct __ptxrt_loc {
  const char *file;
  int line;
  int col;
  const char *construct;       /* "parallel loop", "kernels", "data", ... */
};

/* Data clause kinds. */
enum __ptxrt_map_kind {
  PTXRT_MAP_COPY = 0,
  PTXRT_MAP_COPYIN = 1,
  PTXRT_MAP_COPYOUT = 2,
  PTXRT_MAP_CREATE = 3,
  PTXRT_MAP_PRESENT = 4
};

/* One data clause item: a contiguous host range. */
struct __ptxrt_map {
  const char *name;            /* as written in the clause, e.g. "a[0:n]" */
  const void *host;            /* first byte of the section */
  __ptxrt_size_t bytes;                /* length of the section in bytes (may be 0) */
  int kind;                    /* enum __ptxrt_map_kind */
};

/* Nonzero when the construct runs on the device: cond is the value of the
 * if clause (1 when absent). Initialises the runtime on first use, loading the
 * device plugin; 0 when ACC_DEVICE_TYPE=host or no device is usable. */
int __ptxrt_use_device(int cond);

/* Structured data lifetime (data construct, and the data clauses of a
 * compute construct). begin makes every map present (allocating and copying
 * in as its kind says, or incrementing the structured reference count), in
 * order; end undoes it in reverse order (copy out, free at count zero). The
 * returned handle is passed to end. */
void *__ptxrt_data_begin(const struct __ptxrt_loc *loc, const struct __ptxrt_map *maps, int n);
void __ptxrt_data_end(void *region);

/* The device address that corresponds to host address p. The present range is
 * found through `section` (an address inside a present range: the start of the
 * clause's section, or p itself when NULL); the result is that range's device
 * base plus (p - host base), computed with wrapping arithmetic so a pointer to
 * the start of an array whose section starts later still translates. A NULL p
 * gives NULL. Not present: a runtime error naming `name`. */
void *__ptxrt_deviceptr(const struct __ptxrt_loc *loc, const char *name, const void *p,
                        const void *section);

/* Launch geometry defaults: number of gangs (blocks) for a loop of `trip`
 * iterations run by blocks of `block` threads, chosen from the device (SM
 * count, occupancy); never 0. */
__ptxrt_u32 __ptxrt_default_gangs(__ptxrt_u64 trip, __ptxrt_u32 block);

/* Launch kernel `kernel` of `img` and wait for it. args[i] points at the
 * value of parameter i, as in cuLaunchKernel. */
void __ptxrt_launch(const struct __ptxrt_loc *loc, struct __ptxrt_image *img, const char *kernel,
                    __ptxrt_u32 grid_x, __ptxrt_u32 grid_y, __ptxrt_u32 grid_z,
                    __ptxrt_u32 block_x, __ptxrt_u32 block_y, __ptxrt_u32 block_z,
                    __ptxrt_u32 shared_bytes, void **args);

#endif
