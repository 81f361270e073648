//! Analysis: facts about the IR that later stages read, computed once into
//! one side table, [`ModuleInfo`] — as naga's validator gives every back
//! end its `ModuleInfo`. Nothing here changes the module.
//!
//! Owns: [`ModuleInfo`], [`FunctionInfo`], [`analyze`], and the text form
//! of the table ([`print_info`], shown by `accc --emit=info`). May call:
//! `ir` only. Files, one fact each:
//! * `access.rs` — read and write sets per parameter (read-only,
//!   write-only, read-write);
//! * `affine.rs` — integer expressions as affine forms (shared by the
//!   dependence test, contiguity and reuse);
//! * `body.rs` — one ordered walk over a loop body: its memory accesses
//!   (resolved through the temporaries lowering introduces), the locals it
//!   assigns, what may not run in parallel (calls, early exits);
//! * `depend.rs` — the dependence test of a loop (GCD and Banerjee-style
//!   bounds on affine subscripts, scalars, aliasing); `schedule` asks it
//!   for the loops of `kernels` regions;
//! * `reduce.rs` — reduction recognition (`s = s op e`);
//! * `contiguity.rs` — per loop, which indexed accesses are contiguous,
//!   strided or invariant in its index;
//! * `reuse.rs` — per partitioned loop, the reads several threads share
//!   (broadcasts, stencil neighbours);
//! * `sections.rs` (+ `sections/affine.rs`, `poly.rs`) — the section of
//!   each pointer a kernel's subscripts reach, from the loop bounds, and
//!   (`sections/host_map.rs`) its implicit map as a host range;
//! * `data_attrs.rs` — the data attributes of a compute construct's
//!   kernel parameters (OpenACC 3.3 2.6.2: implicit maps and arguments),
//!   from the IR's parameters and the facts the front end records of the
//!   host variables behind them (the host plan's undecided data), and the
//!   sections they need: [`data_attrs::undecided_uses`], a side table of
//!   the lowered module (each kernel's plain pointers that no clause
//!   maps), which `schedule::decide_data` reads before `schedule::prepare`
//!   rewrites the kernels (this table is of the prepared module);
//! * `noalias.rs` — the pointer parameters of a kernel no other pointer
//!   of it reaches ([`own_memory`], asked of the scheduled kernel by the
//!   NVPTX back end, whose `noalias` it is);
//! * `parts.rs` — the rows of one array a kernel's accesses keep apart
//!   (constant leading subscripts that differ: [`disjoint_parts`], asked
//!   of the scheduled kernel by the NVPTX back end, whose scoped `noalias`
//!   metadata it is);
//! * `private.rs` — per counted loop, the scalars of the code around it
//!   (locals, and host scalars a kernel receives by reference) that its
//!   body assigns before reading them in every iteration, assigns, reads;
//! * `print.rs` — the text form.
//!
//! Where it runs: the driver analyses the lowered module, after it
//! validates and before `schedule`. That is the module whose facts exist
//! only there — counted loops with their parallelism, subscripts, the
//! reductions' targets — and whose loops `schedule` will map. The back
//! ends, which translate the scheduled module, read the same table: the
//! facts they read stay true through `schedule`, which keeps every kernel,
//! every parameter and its position, and only appends parameters (the
//! reductions' scratch memory, which has no entry: [`ModuleInfo::param`]
//! answers `None` for it) and writes what the reductions already say (a
//! reduction into memory is a write here). The pass test `; run: analyze`
//! checks this: it analyses the scheduled module too and compares the
//! parameters' access.

mod access;
pub mod affine;
pub mod body;
pub mod contiguity;
pub mod data_attrs;
pub mod depend;
mod noalias;
mod parts;
mod poly;
mod print;
pub mod private;
pub mod reduce;
mod reuse;
pub mod sections;

pub use access::{written_locals, Access};
pub use contiguity::{IndexedAccess, LoopInfo, Stride, Use};
pub use noalias::own_memory;
pub use parts::{disjoint_parts, Parts};
pub use poly::Poly;
pub use print::print_info;
pub use reuse::Reuse;

use crate::ir::{Function, Module, Stmt};

/// The facts of one kernel or device function.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FunctionInfo {
    /// What the body does through each parameter, in parameter order
    /// ([`crate::ir::Kernel::params`], [`crate::ir::DeviceFunction::params`]).
    pub params: Vec<Access>,
    /// Its counted loops, in pre-order.
    pub loops: Vec<LoopInfo>,
    /// The section each pointer parameter's subscripts reach, by host
    /// name (kernels only; filled by [`add_sections`]).
    pub sections: Vec<(String, sections::Use)>,
}

/// The side table of a module: its kernels' and device functions' facts,
/// by their index in the module.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ModuleInfo {
    pub kernels: Vec<FunctionInfo>,
    pub functions: Vec<FunctionInfo>,
}

impl ModuleInfo {
    /// The access through parameter `param` of kernel `kernel`, when the
    /// table has one (not for a parameter added after the analysis).
    pub fn param(&self, kernel: usize, param: usize) -> Option<Access> {
        self.kernels.get(kernel)?.params.get(param).copied()
    }

    /// Nothing in kernel `kernel` writes through its parameter `param`
    /// (false when the table does not know).
    pub fn read_only(&self, kernel: usize, param: usize) -> bool {
        self.param(kernel, param).is_some_and(Access::read_only)
    }
}

/// Adds to `info` (the table of `m`) the section every pointer parameter
/// of each kernel reaches. Not part of [`analyze`]: no back end reads
/// them, the data decision reads those of the pointers it maps
/// ([`data_attrs::undecided_uses`], on the lowered module), and they cost
/// a third of the analysis's time on large kernels; `--emit=info` shows
/// them.
pub fn add_sections(m: &Module, info: &mut ModuleInfo) {
    for (k, fi) in m.kernels.iter().zip(&mut info.kernels) {
        let every = vec![true; k.params.len()];
        let mut found: Vec<_> = sections::pointer_uses(&k.body, &k.params, &every)
            .into_iter()
            .collect();
        found.sort_by(|a, b| a.0.cmp(&b.0));
        fi.sections = found;
    }
}

/// The facts of every kernel and device function of `m` (all but the
/// sections: see [`add_sections`]).
pub fn analyze(m: &Module) -> ModuleInfo {
    let kernels = m
        .kernels
        .iter()
        .map(|k| {
            let params: Vec<_> = k.params.iter().map(|p| p.local).collect();
            let mut loops = contiguity::loops(m, &k.body);
            let scope = private::Scope::of_kernel(k);
            add_scalars(&k.body, &scope, &mut loops);
            FunctionInfo {
                params: access::param_access(&k.body, &params),
                loops,
                sections: vec![],
            }
        })
        .collect();
    let functions = m
        .functions
        .iter()
        .map(|f| {
            let mut loops = contiguity::loops(m, &f.body);
            add_scalars(&f.body, &private::Scope::function(&f.params), &mut loops);
            FunctionInfo {
                params: access::param_access(&f.body, &f.params),
                loops,
                sections: vec![],
            }
        })
        .collect();
    ModuleInfo { kernels, functions }
}

/// Fills the scalar facts of `loops`, the counted loops of `f` in
/// pre-order.
fn add_scalars(f: &Function, cells: &private::Scope, loops: &mut [LoopInfo]) {
    let mut k = 0;
    crate::ir::walk_stmts(&f.body, &mut |s| {
        if let Stmt::Loop(l) = s {
            if let Some(info) = loops.get_mut(k) {
                info.scalars = private::loop_scalars(f, cells, l);
            }
            k += 1;
        }
    });
}

#[cfg(test)]
mod tests;
