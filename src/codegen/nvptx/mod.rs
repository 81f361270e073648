//! The NVPTX back end: scheduled IR → LLVM IR (through inkwell) → PTX, with
//! libdevice linked when math functions are used, and ptxas for cubins.
//!
//! Owns: [`Options`], [`Error`], [`write_llvm`], [`write_ptx`] (each
//! takes the module, its `analysis::ModuleInfo` and the options, and only
//! translates),
//! [`ptxas::assemble`] (with `-c` for relocatable code: device functions
//! shared with other translation units), [`ptxas_bugs`] (PTX that ptxas
//! miscompiles, rewritten); the target machine (triple `nvptx64-nvidia-cuda`,
//! CPU = [`Options::arch`], data layout from the machine, PTX version chosen
//! by LLVM for the arch — ISA 7.8 for `sm_90` with LLVM 22) and the pipeline
//! (`default<On>`; none at `-O0`; GVN's memory-dependence scan lengthened
//! on LLVM's command line, `llvm_command_line`). `writer.rs` (module, kernels, statements)
//! and `expr.rs` (expressions) translate; they make no decisions (the
//! schedule and the front end have made them). Expects scheduled IR
//! (`ir::validate(m, true)` empty), whose indexed accesses it flattens
//! first (`ir::flattened`); `fastmath.rs` relaxes single-precision math
//! when [`Options::fast`] asks. May call: `ir`, and `analysis` for the
//! [`ModuleInfo`] type it reads and `own_memory`, `codegen::fastmath` for
//! [`FastMath`].

mod alias;
mod atomic;
mod expr;
mod fastmath;
mod libdevice;
mod lines;
pub mod ptxas;
mod ptxas_bugs;
pub use ptxas_bugs::avoid_ptxas_bugs;
mod writer;

use crate::analysis::ModuleInfo;
pub use crate::codegen::fastmath::FastMath;
use crate::ir::Module;
use inkwell::context::Context;
use inkwell::targets::{
    CodeModel, FileType, InitializationConfig, RelocMode, Target, TargetMachine, TargetTriple,
};
use inkwell::OptimizationLevel;
use std::path::PathBuf;

/// Back-end options.
#[derive(Clone, Debug)]
pub struct Options {
    /// GPU architecture, e.g. `sm_90`.
    pub arch: String,
    /// Optimisation level of the LLVM pipeline (0..3).
    pub opt_level: u8,
    /// libdevice bitcode, needed when a kernel calls a math function.
    pub libdevice: Option<PathBuf>,
    /// `-mllvm` options: LLVM command-line options for the pass pipeline
    /// and the NVPTX back end (`-unroll-threshold=600`).
    pub llvm_options: Vec<String>,
    /// Floating-point contraction (`a * b + c` → `fma.rn`, as nvcc's
    /// `-fmad=true`): `fadd`/`fsub`/`fmul`/`fneg` carry LLVM's `contract`
    /// flag, the only fast-math flag accc sets. On by default; off with
    /// `-Mnofma`, `-gpu=nofma`, `-ffp-contract=off`.
    pub fma: bool,
    /// Relaxed single-precision math (`-gpu=fastmath`, `-ffast-math`,
    /// `-Mfprelaxed`; `fastmath.rs` says how): off by default, as nvcc.
    pub fast: FastMath,
    /// Line information (`-g`, `-gpu=lineinfo`): `.file`/`.loc` in the PTX
    /// mapping the code to the user's source lines (`lines.rs`); ptxas then
    /// needs `-lineinfo` to keep them in the cubin.
    pub line_info: bool,
}

/// A back-end failure (an internal error, or a missing tool).
#[derive(Debug)]
pub enum Error {
    /// The IR broke an invariant the back end relies on (a compiler bug).
    Internal(String),
    /// LLVM refused something (the message says what).
    Llvm(String),
    /// The program needs something this back end cannot express.
    Unsupported(String),
    /// A math function is used but no libdevice was found.
    NoLibdevice(String),
    /// ptxas failed or could not run.
    Ptxas(String),
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::Internal(m) => write!(f, "internal compiler error in the NVPTX back end: {m}"),
            Error::Llvm(m) => write!(f, "LLVM failed in the NVPTX back end: {m}"),
            Error::Unsupported(m) => write!(f, "not supported on the device: {m}"),
            Error::NoLibdevice(func) => write!(
                f,
                "'{func}' needs libdevice, which was not found (set ACCC_LIBDEVICE or run scripts/setup.sh)"
            ),
            Error::Ptxas(m) => write!(f, "{m}"),
        }
    }
}

impl std::error::Error for Error {}

const TRIPLE: &str = "nvptx64-nvidia-cuda";

/// True for `sm_<digits>` with an optional `a`/`f` suffix (`sm_90a`).
fn valid_arch(arch: &str) -> bool {
    arch.strip_prefix("sm_")
        .map(|r| r.trim_end_matches(['a', 'f']))
        .is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
}

/// The NVPTX target machine for `o.arch` at `o.opt_level`.
/// LLVM's command line, set once per process (LLVM keeps its options in
/// globals): `sqrtf` correctly rounded, a longer memory-dependence scan,
/// loads scheduled ahead of the stores they do not alias, then the user's
/// `-mllvm` options (the last of an option wins).
///
/// Loads ahead of stores: NVPTX's instruction selection schedules a block
/// in source order and chains every load to the stores before it, so a
/// `seq` loop body that loads, computes and stores one value after the
/// other (NPB SP's Thomas sweeps, LU's and BT's block solves) issues each
/// load only after the previous store, and ptxas, which cannot tell global
/// addresses apart, keeps that order: one memory latency per value. The
/// DAG combiner's alias analysis (`-combiner-global-alias-analysis`, which
/// reads `noalias` parameters and the scoped metadata of `alias.rs`) drops
/// the chains between accesses that cannot alias, and the ILP list
/// scheduler (`-pre-RA-sched=list-ilp`) then issues the loads of a block
/// together. Measured on the H100 (NPB class B, one run): SP 2.54 → 2.19 s,
/// BT 2.08 → 1.93 s, the others unchanged.
///
/// The scan: GVN looks for an earlier load or store of the same address
/// at most `-memdep-block-scan-limit` instructions back in a block (100 by
/// default), and stops there. A kernel body of straight-line 5x5 block
/// arithmetic (NPB BT's line solves: a few thousand instructions, every
/// value loaded several times between stores to other arrays) then keeps
/// most of its reloads and overwritten stores: BT's `x_solve` block solve
/// loads 154 values and stores 100 per step at 100, 110 and 55 (each
/// value once, as nvcc's PTX) at 1000. The cost is compile time linear in
/// the limit per load, only in blocks that long.
///
/// `sqrtf` correctly rounded, as C (Annex F) and nvcc (`-prec-sqrt=true`)
/// have it: libdevice's `__nv_sqrtf` asks `__nvvm_reflect("__CUDA_PREC_SQRT")`,
/// which LLVM 22's NVVMReflect answers 0 (`sqrt.approx.f32`, and
/// `1.0f / sqrtf(x)` folds to `rsqrt.approx`) unless told otherwise, and it
/// takes that answer only from its command-line option (the module flag
/// clang writes, `nvvm-reflect-prec-sqrt`, is not read; of the module flags
/// it reads only `nvvm-reflect-ftz`). Fast math is therefore per module
/// without it: an approximate `sqrtf` is no `__nv_sqrtf` call (`fastmath.rs`).
///
/// An unknown `-mllvm` option makes LLVM print its message and exit 1, as
/// clang does. A second call with other options is an error: the driver
/// compiles every file of one run with the same options.
fn llvm_command_line(user: &[String]) -> Result<(), Error> {
    static SET: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    let first = SET.get_or_init(|| {
        let mut args = vec![
            "accc".to_string(),
            "-nvvm-reflect-add=__CUDA_PREC_SQRT=1".to_string(),
            "-memdep-block-scan-limit=1000".to_string(),
            "-combiner-global-alias-analysis".to_string(),
            "-pre-RA-sched=list-ilp".to_string(),
        ];
        args.extend(user.iter().cloned());
        let c: Vec<std::ffi::CString> = args
            .iter()
            .map(|a| std::ffi::CString::new(a.replace('\0', "")).unwrap_or_default())
            .collect();
        let ptrs: Vec<*const std::os::raw::c_char> = c.iter().map(|a| a.as_ptr()).collect();
        // SAFETY: NUL-terminated strings that live for the call; LLVM copies
        // what it keeps.
        unsafe {
            inkwell::llvm_sys::support::LLVMParseCommandLineOptions(
                ptrs.len() as i32,
                ptrs.as_ptr(),
                std::ptr::null(),
            )
        };
        user.to_vec()
    });
    if first.as_slice() != user {
        return Err(Error::Internal(format!(
            "LLVM options {:?} after {:?}: LLVM takes its options once per process",
            user, first
        )));
    }
    Ok(())
}

fn target_machine(o: &Options) -> Result<TargetMachine, Error> {
    if !valid_arch(&o.arch) {
        return Err(Error::Unsupported(format!(
            "GPU architecture '{}' (expected sm_<NN>, e.g. sm_90)",
            o.arch
        )));
    }
    Target::initialize_nvptx(&InitializationConfig::default());
    llvm_command_line(&o.llvm_options)?;
    let triple = TargetTriple::create(TRIPLE);
    let target = Target::from_triple(&triple).map_err(|e| Error::Llvm(e.to_string()))?;
    let level = match o.opt_level {
        0 => OptimizationLevel::None,
        1 => OptimizationLevel::Less,
        2 => OptimizationLevel::Default,
        _ => OptimizationLevel::Aggressive,
    };
    target
        .create_target_machine(
            &triple,
            &o.arch,
            "",
            level,
            RelocMode::Default,
            CodeModel::Default,
        )
        .ok_or_else(|| Error::Llvm(format!("no NVPTX target machine for '{}'", o.arch)))
}

/// Builds and optimises the LLVM module; `f` receives it with its machine.
/// A context per call: LLVM contexts are not shared between threads.
fn with_module<T>(
    m: &Module,
    info: &ModuleInfo,
    o: &Options,
    f: impl FnOnce(&inkwell::module::Module, &TargetMachine) -> Result<T, Error>,
) -> Result<T, Error> {
    let tm = target_machine(o)?;
    let ctx = Context::create();
    // Before flattening: the rows are read from the subscripts.
    let parts: Vec<_> = m
        .kernels
        .iter()
        .map(|k| crate::analysis::disjoint_parts(&k.body))
        .collect();
    let flat = crate::ir::flattened(m);
    let module = writer::translate(&ctx, &flat, info, &parts, &tm, o)?;
    if o.opt_level > 0 {
        let passes = format!("default<O{}>", o.opt_level.min(3));
        module
            .run_passes(&passes, &tm, inkwell::passes::PassBuilderOptions::create())
            .map_err(|e| Error::Llvm(e.to_string()))?;
    }
    f(&module, &tm)
}

/// The optimised LLVM IR of the module, as text.
pub fn write_llvm(m: &Module, info: &ModuleInfo, o: &Options) -> Result<String, Error> {
    with_module(m, info, o, |module, _| {
        Ok(module.print_to_string().to_string())
    })
}

/// The PTX of the module, with the rewrites of [`ptxas_bugs`] applied.
pub fn write_ptx(m: &Module, info: &ModuleInfo, o: &Options) -> Result<String, Error> {
    with_module(m, info, o, |module, tm| {
        let buf = tm
            .write_to_memory_buffer(module, FileType::Assembly)
            .map_err(|e| Error::Llvm(e.to_string()))?;
        let ptx = String::from_utf8_lossy(buf.as_slice());
        Ok(ptxas_bugs::avoid_ptxas_bugs(ptx.trim_end_matches('\0')))
    })
}

#[cfg(test)]
mod fastmath_tests;
#[cfg(test)]
mod tests;
