//! The names the CUDA-C output uses itself, which no user name may take
//! (a local called `min` would hide the function `min` the writer calls),
//! and the helpers it defines once, above the code that uses them.
//!
//! Owns: [`BUILTINS`], [`Helper`] and the helpers' text. May call: `ir`.

use crate::ir::MathFunc;

/// Functions and objects of CUDA C the writer calls or reads, and macros
/// the headers nvcc includes define (a local of such a name would be
/// expanded).
pub const BUILTINS: &[&str] = &[
    "min",
    "max",
    "printf",
    "memcpy",
    "atomicAdd",
    "atomicSub",
    "atomicMin",
    "atomicMax",
    "atomicAnd",
    "atomicOr",
    "atomicXor",
    "atomicExch",
    "atomicInc",
    "atomicCAS",
    "__shfl_xor_sync",
    "__syncthreads",
    "__syncwarp",
    "__threadfence",
    "__float_as_uint",
    "__uint_as_float",
    "__double_as_longlong",
    "__longlong_as_double",
    // Macros of the C headers CUDA's runtime header includes.
    "NULL",
    "EOF",
    "BUFSIZ",
    "stdin",
    "stdout",
    "stderr",
    "errno",
    "assert",
    "offsetof",
    "INFINITY",
    "NAN",
    "HUGE_VAL",
    "HUGE_VALF",
    "RAND_MAX",
    "EXIT_SUCCESS",
    "EXIT_FAILURE",
    "isnan",
    "isinf",
    "isfinite",
    "signbit",
    "fpclassify",
];

/// Every identifier the output may use of its own: [`BUILTINS`] and the
/// math functions (double and float versions).
pub fn reserved() -> Vec<String> {
    let mut v: Vec<String> = BUILTINS.iter().map(|s| s.to_string()).collect();
    for f in MathFunc::ALL {
        v.push(f.c_name().to_string());
        v.push(format!("{}f", f.c_name()));
    }
    v
}

/// A helper function the output defines when some code needs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Helper {
    /// `__accc_row_barrier()`: [`crate::ir::BarrierScope::Row`].
    RowBarrier,
    /// `__accc_cas8(p, expected, desired)`: compare-and-swap of a byte
    /// through its 32-bit word.
    Cas8,
}

/// What the host C (`Dialect::HostC`) starts with: the C headers of the
/// functions the output calls (the names [`BUILTINS`] reserves), the
/// launch registers a kernel's entry sets, and the reinterpretations of
/// float bits.
pub const HOST_PRELUDE: &str = "#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <math.h>

/* The block (gang) this thread runs and the grid's size, set by each kernel's entry. */
static __thread unsigned int __accc_bid[3];
static __thread unsigned int __accc_gdim[3];

static inline unsigned int __accc_float_bits(float x) { unsigned int u; memcpy(&u, &x, sizeof u); return u; }
static inline float __accc_bits_float(unsigned int u) { float x; memcpy(&x, &u, sizeof x); return x; }
static inline long long __accc_double_bits(double x) { long long u; memcpy(&u, &x, sizeof u); return u; }
static inline double __accc_bits_double(long long u) { double x; memcpy(&x, &u, sizeof x); return x; }
";

impl Helper {
    /// The helper's definition (`host`: in host C, where a row is one
    /// thread and bytes have atomics of their own).
    pub fn text(self, host: bool) -> &'static str {
        match self {
            Helper::RowBarrier if host => "static inline void __accc_row_barrier(void) {}\n",
            Helper::Cas8 if host => {
                "static inline unsigned char __accc_cas8(unsigned char *p, unsigned char expected, unsigned char desired)
{
    __atomic_compare_exchange_n(p, &expected, desired, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
    return expected;
}
"
            }
            // As the NVPTX back end: a named barrier 1 + row of ntid.x
            // threads when the row is whole warps (and there are at most
            // 15 rows), a warp sync of the row's lanes when it lies in one
            // warp, else nothing.
            Helper::RowBarrier => {
                "static __device__ __forceinline__ void __accc_row_barrier(void)
{
    unsigned int nx = blockDim.x, ny = blockDim.y, nz = blockDim.z;
    unsigned int row = threadIdx.y + threadIdx.z * ny;
    if (nx % 32u == 0u && ny * nz <= 15u) {
        asm volatile(\"barrier.sync %0, %1;\" :: \"r\"(row + 1u), \"r\"(nx) : \"memory\");
    } else if (32u % nx == 0u) {
        unsigned int lane = (threadIdx.x + nx * row) % 32u;
        unsigned int base = lane - threadIdx.x;
        __syncwarp((unsigned int)((((1ULL << nx) - 1ULL) << base) & 0xffffffffULL));
    }
}
"
            }
            // Bytes have no atomics: a loop of 32-bit compare-and-swaps on
            // the word that holds the byte, until the byte compares
            // unequal or the swap lands.
            Helper::Cas8 => {
                "static __device__ __forceinline__ unsigned char __accc_cas8(unsigned char *p, unsigned char expected, unsigned char desired)
{
    unsigned int *word = (unsigned int *)((unsigned long long)p & ~3ULL);
    unsigned int shift = ((unsigned int)(unsigned long long)p & 3u) * 8u;
    unsigned int old = *(volatile unsigned int *)word;
    for (;;) {
        unsigned char found = (unsigned char)(old >> shift);
        if (found != expected) {
            return found;
        }
        unsigned int next = (old & ~(0xffu << shift)) | ((unsigned int)desired << shift);
        unsigned int seen = atomicCAS(word, old, next);
        if (seen == old) {
            return found;
        }
        old = seen;
    }
}
"
            }
        }
    }
}
