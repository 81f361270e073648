//! The front end: pragma capture, lang-c parsing, sema, and the outlining of
//! compute constructs into IR kernels plus a host plan. Lowering leaves
//! every candidate loop's levels undecided ([`crate::ir::Function::undecided`],
//! with the facts of the source the decision reads: `loops.rs` gathers
//! them), which `schedule::plan_levels` decides after it. It decides no
//! dependence, reduction, data attribute, read-only or geometry question
//! either: it records the facts (`ir::hostdata`: each host variable's
//! class, constness, clause, whether a `kernels` region's scalar is by
//! reference only for that rule; a map's item in a const object; a
//! `tile(*)` size left `*`), and `schedule::decide_data` and
//! `schedule::plan_levels` decide in the driver's decide step.
//!
//! Owns: everything between preprocessed C text and ([`ir::Module`],
//! [`ir::host::HostPlan`]). May call: `directive`, `ir`, `diag`;
//! `analysis::depend` only for the type of a fact it records
//! (`HostKind`).
//! Entry point: [`translate`]. Preprocessing itself is the driver's job.
//!
//! [`ir::Module`]: crate::ir::Module
//! [`ir::host::HostPlan`]: crate::ir::host::HostPlan

mod atomic;
mod attach;
mod attrs;
mod cachedir;
mod canon;
mod clauses;
mod compute;
mod construct;
mod conv;
mod ctype;
mod data;
mod declare;
mod device_directive;
mod effects;
mod exprtype;
mod literal;
mod loopclauses;
mod loops;
mod loopvars;
mod lower;
mod output;
mod parse;
mod parsed;
mod place;
mod pragma;
mod record;
mod routine;
mod scope;
mod source;
mod split;
mod syntax;
mod unit;

pub use unit::{translate, Translated};
#[cfg(test)]
mod tests;
