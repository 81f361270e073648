//! The SIMT back end: scheduled IR → the bytecode of the emulated device
//! (`ptxrt-simt`), which runs it thread by thread on the CPU
//! (`libptxrt-emu.so`). It receives exactly what `codegen/nvptx` receives
//! (scheduled and specialised IR, `ir::validate(m, true)` empty, indexed
//! accesses flattened first by `ir::flattened`) and, like
//! it, only translates: every decision is already in the IR, and where the
//! NVPTX writer expands a construct into several PTX instructions (the row
//! barrier's named barrier / warp sync / nothing), this one expands it the
//! same way, so the emulator runs what the GPU runs.
//!
//! Owns: [`write_module`] (IR module → bytecode module), [`write_bytes`]
//! (the bytes a device image carries), [`write_text`] (`--emit=simt`),
//! [`Options`] and [`Error`]; each entry takes the module, its
//! `analysis::ModuleInfo` and the options, as the NVPTX back end's do. Shapes: device functions keep their indices (so `Call`
//! indices carry over), kernels follow; scalar locals whose address is
//! never taken live in registers, the others (arrays, structs, addressed
//! scalars) in the call's local frame; expression temporaries take
//! registers after the locals', reused from one statement to the next;
//! structured control flow becomes jumps (`func.rs`), expression trees
//! become register code (`expr.rs`), with constants folded (`fold.rs`)
//! and multiply-adds contracted as LLVM contracts them (`fma.rs`);
//! each memory or synchronising
//! instruction gets a site whose text renders the access in C terms
//! (`render.rs`) for the emulator's error and race messages.
//!
//! Fast math (`-gpu=fastmath`, `-ffast-math`, `-Mfprelaxed`:
//! `codegen::fastmath`) is not modelled, and [`Options`] has no say in it:
//! the approximate instructions the GPU then runs (`div.approx`,
//! `rcp.approx`, `sqrt.approx`, `rsqrt.approx`, `ex2.approx`, `lg2.approx`,
//! `sin.approx`…) have no bit-exact definition to reproduce, so the bytecode
//! is the same with or without it: IEEE single precision, correctly rounded
//! division and square root, denormals kept. The GPU's results then differ
//! from the emulator's within the approximations' stated error (CUDA C++
//! Programming Guide, Mathematical Functions: `x / y` 2 ulp for |y| in
//! [2^-126, 2^126], `__sinf`/`__cosf` 2^-21.41 absolute in [-π, π],
//! `__logf` 2^-21.41 absolute in [0.5, 2]; `__expf` and `__powf` errors
//! grow with the argument) and where f32 denormals are flushed to zero;
//! a program checked on both needs a tolerance covering that.
//! May call: `ir`, `analysis` (the [`ModuleInfo`] type), `ptxrt_simt`
//! (its data types and encoder only).

mod expr;
mod fma;
mod fold;
mod func;
mod render;

use crate::analysis::ModuleInfo;
use crate::ir::{GridSize, Kernel, Module, ParamMode};
use ptxrt_simt as simt;

/// A translation failure: the IR broke an invariant this back end relies
/// on (an accc bug), or holds something it cannot express.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error(pub String);

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "internal compiler error in the SIMT back end: {}",
            self.0
        )
    }
}

impl std::error::Error for Error {}

/// `Err(Error)` naming what is wrong.
pub(crate) fn internal<T>(what: impl Into<String>) -> Result<T, Error> {
    Err(Error(what.into()))
}

/// Back-end options.
#[derive(Clone, Debug)]
pub struct Options {
    /// Floating-point contraction, as `nvptx::Options::fma`: a product
    /// added to or subtracted from something in the same expression is one
    /// `fma` (rounded once), as LLVM's instruction selection fuses the
    /// `contract`-flagged `fmul` and `fadd` (see `fma.rs` for the rule and
    /// where it can differ). On by default.
    pub fma: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options { fma: true }
    }
}

/// The bytecode of every kernel and device function of `m`. (No fact of
/// `_info` changes the bytecode yet: the emulator has no read-only cache.)
pub fn write_module(m: &Module, _info: &ModuleInfo, o: &Options) -> Result<simt::Module, Error> {
    let flat = crate::ir::flattened(m);
    let m = &*flat;
    let mut out = simt::Module {
        source: m.source.clone(),
        ..simt::Module::default()
    };
    for f in &m.functions {
        let what = format!("device function {}", f.name);
        let g = func::function(m, f, o.fma).map_err(|e| Error(format!("{what}: {}", e.0)))?;
        out.functions.push(g);
    }
    for k in &m.kernels {
        let index = out.functions.len() as u32;
        let g =
            func::kernel(m, k, o.fma).map_err(|e| Error(format!("kernel {}: {}", k.name, e.0)))?;
        out.kernels.push(kernel_info(k, &g, index)?);
        out.functions.push(g);
    }
    for c in &m.cells {
        out.globals.push(simt::Global {
            symbol: c.symbol.clone(),
            size: 8,
        });
    }
    out.validate()
        .map_err(|e| Error(format!("invalid bytecode written:\n{e}")))?;
    Ok(out)
}

/// The kernel's entry: its parameters as the launch passes them, and the
/// `.maxntid` the NVPTX back end gives a block size fixed at compile time.
fn kernel_info(k: &Kernel, f: &simt::Function, func: u32) -> Result<simt::Kernel, Error> {
    let mut params = vec![];
    for p in &k.params {
        let Some(l) = k.body.locals.get(p.local.0 as usize) else {
            return internal("parameter bound to a missing local");
        };
        params.push(simt::KernelParam {
            name: p.name.clone(),
            kind: match p.mode {
                ParamMode::Value => simt::ParamKind::Value,
                ParamMode::DevicePtr => simt::ParamKind::DevicePtr,
                ParamMode::Scratch => simt::ParamKind::Scratch,
            },
            size: u32::try_from(l.ty.size()).map_err(|_| Error("huge parameter".into()))?,
        });
    }
    let sizes: Vec<u32> = k
        .launch
        .iter()
        .flat_map(|l| &l.block)
        .filter_map(|g| match g {
            GridSize::Const(n) => Some(*n),
            _ => None,
        })
        .collect();
    let max_threads = (sizes.len() == 3 && sizes.iter().all(|n| *n >= 1))
        .then(|| sizes.iter().map(|&n| u64::from(n)).product::<u64>())
        .map(|n| u32::try_from(n).unwrap_or(u32::MAX));
    if f.params.len() != params.len() {
        return internal("kernel parameters and their slots differ in number");
    }
    Ok(simt::Kernel {
        name: k.name.clone(),
        func,
        construct: k.construct.clone(),
        line: k.loc.line,
        params,
        max_threads,
    })
}

/// The encoded bytecode of `m` (a device image's SIMT entry).
pub fn write_bytes(m: &Module, info: &ModuleInfo, o: &Options) -> Result<Vec<u8>, Error> {
    Ok(simt::encode(&write_module(m, info, o)?))
}

/// The text form of `m`'s bytecode (`accc --emit=simt`).
pub fn write_text(m: &Module, info: &ModuleInfo, o: &Options) -> Result<String, Error> {
    Ok(simt::module_text(&write_module(m, info, o)?))
}

#[cfg(test)]
mod tests;
