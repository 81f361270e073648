//! The CUDA-C back end (the "nvcc path"): scheduled IR → CUDA C text, and
//! nvcc to turn it into the PTX and cubin of the device image.
//!
//! Owns: [`Options`], [`Error`], [`write_cuda`] (takes the module, its
//! `analysis::ModuleInfo` and the options, and only translates),
//! [`nvcc::compile`], and the host-C dialect of the same writer
//! ([`Dialect::HostC`], [`write_host_c`], [`host_table`]: the code of the
//! multicore device, `-acc=multicore`). Shapes of the output, so that the runtime launches
//! its kernels exactly as it launches the NVPTX back end's:
//! * each kernel is an `extern "C" __global__` function of the kernel's
//!   name with the parameters of [`Kernel::params`] in order, each of its
//!   local's type (a blob by value as a struct of its size and alignment:
//!   the same `.param` bytes); `__launch_bounds__` of a block size fixed at
//!   compile time, else at most 64 registers (`__maxnreg__`), as the NVPTX
//!   back end bounds them;
//! * each device function is a `__device__` function: `static` when
//!   internal, `extern "C"` of its symbol name when exported or imported
//!   (nvcc then compiles with `-rdc=true`);
//! * declared globals' cells are `extern "C" __device__ void *` of their
//!   symbols, shared arrays `__shared__` arrays of the kernel;
//! * statements keep their structure (`while`/`for`, `if`, `switch`),
//!   locals their source names (legalised, see [`crate::codegen::c::Namer`])
//!   and statements their source lines (`#line` before each statement whose
//!   expressions the front end or the schedule located, a loop's control
//!   code at its `for`, code the compiler wrote inside a statement at that
//!   statement's line, the rest at the generated file's own lines).
//!
//! `types.rs` spells types, `expr.rs` writes expressions, `writer.rs` the
//! module and statements, `atomic.rs` atomics and barriers, `names.rs` the
//! names the output uses itself. May call: `ir`, `codegen::c`, and
//! `analysis` for the [`ModuleInfo`] type.
//!
//! [`Kernel::params`]: crate::ir::Kernel::params

mod atomic;
mod expr;
mod names;
pub mod nvcc;
mod types;
mod writer;

#[cfg(test)]
mod host_tests;
#[cfg(test)]
mod tests;

use crate::analysis::ModuleInfo;
use crate::ir::Module;

/// Back-end options (the writer's; nvcc's are [`nvcc::Flags`]).
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Write `#line` directives naming the source (on by default in the
    /// driver; off gives text that numbers its own lines).
    pub line_directives: bool,
    /// CUDA C for nvcc, or host C for the host cc.
    pub dialect: Dialect,
}

/// What the writer writes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Dialect {
    /// CUDA C (nvcc).
    #[default]
    Cuda,
    /// GNU C for the host compiler, of a module scheduled for
    /// `ir::Target::Host` (`-acc=multicore`): see [`write_host_c`].
    HostC,
}

/// A back-end failure.
#[derive(Debug)]
pub enum Error {
    /// The IR broke an invariant the back end relies on (a compiler bug).
    Internal(String),
    /// nvcc rejected the CUDA C (a compiler bug, since accc wrote it).
    Nvcc(String),
    /// nvcc cannot run here: missing, or without the CUDA headers it
    /// includes (the message says how to fix it).
    Setup(String),
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::Internal(m) => write!(f, "internal compiler error in the CUDA back end: {m}"),
            Error::Nvcc(m) | Error::Setup(m) => write!(f, "{m}"),
        }
    }
}

impl std::error::Error for Error {}

/// The CUDA C of the module's kernels and device functions. Expects
/// scheduled IR; flattens its indexed accesses first (`ir::flattened`).
pub fn write_cuda(m: &Module, info: &ModuleInfo, o: &Options) -> Result<String, Error> {
    let flat = crate::ir::flattened(m);
    writer::write_module(&flat, info, o)
}

/// The host C (GNU C, its own translation unit) of a module scheduled for
/// the host's cores (`ir::Target::Host`: every block one thread), the
/// code of the multicore device: the same text as [`write_cuda`]'s in the
/// host's spelling —
/// * each kernel is a `static` function of its parameters that runs one
///   block (a gang); its entry `void (const unsigned grid[3], unsigned
///   long long block, void **args)` sets the block's index (the linear
///   `block` along x, then y, then z) and the grid's size, and calls it
///   with the arguments `args` points to (one pointer per parameter, as
///   `cuLaunchKernel` takes them);
/// * `blockIdx`/`gridDim` are thread-local variables the entry sets,
///   `threadIdx` is 0 and `blockDim` 1; shared arrays are locals of the
///   kernel's call; barriers are no-ops (one thread a block), a fence is
///   `__atomic_thread_fence`; atomics are GCC's `__atomic` builtins
///   (compare-and-swap loops for floats and for minimum, maximum and the
///   wrapping increment); a warp shuffle gives its own value (rows of one
///   lane never execute one);
/// * exported and imported device functions are external functions named
///   `__accc_host_` + their symbol (so they never meet the host's
///   functions of the same names); cells are `static`;
/// * the module's symbol table, `const struct { const char *name; void
///   *addr; } NAME[]` ending with a null name — each kernel's entry, each
///   cell's address — is external, of the name [`host_table`] gives (the
///   device image's `PTXRT_CODE_HOST` entry points at it).
pub fn write_host_c(m: &Module, info: &ModuleInfo, line_directives: bool) -> Result<String, Error> {
    let o = Options {
        line_directives,
        dialect: Dialect::HostC,
    };
    write_cuda(m, info, &o)
}

/// The symbol of the host C's table of module `m` (`None` when it has no
/// kernel, hence no table): named after its first kernel, whose name is
/// the program's own.
pub fn host_table(m: &Module) -> Option<String> {
    m.kernels
        .first()
        .map(|k| format!("__accc_hosttab_{}", k.name))
}
