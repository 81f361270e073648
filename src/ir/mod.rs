//! The loop IR: the one typed, structured representation of device code that
//! every back end translates.
//!
//! Owns: the IR data types ([`Module`], [`Kernel`], [`Function`], [`Stmt`],
//! [`Expr`], [`Type`], [`Index`]: subscripts kept as indexed accesses,
//! which [`flatten_indices`] turns into pointer arithmetic for the back
//! ends), the host expressions a kernel's launch is computed with
//! ([`HostExpr`], [`LaunchPlan`]; `hostexpr.rs`), the host ranges of the
//! host plan ([`HostAddr`], [`HostBytes`]; `hostrange.rs`), the host plan's
//! nesting ([`Visit`], `hosttree.rs`), the data attributes it leaves to
//! decide (`hostdata.rs`), the machine compiled for ([`Target`],
//! `target.rs`), the remarks that name launch sizes ([`Remark`],
//! `remark.rs`), their text form ([`print_module`], shown by
//! `--emit=ir`, and [`read_module`], its inverse) and the validator
//! ([`validate`]). May call: nothing else in accc — front ends
//! build it, `schedule` rewrites it, back ends read it.
//!
//! Shape (see `shared/DESIGN.md`): a [`Module`] holds kernels (one per compute
//! construct) and the device functions they call ([`DeviceFunction`], from
//! `acc routine`). Each body is a [`Function`]: an arena of expressions
//! addressed by [`ExprId`], a table of locals addressed by [`LocalId`], and a
//! statement tree. Expressions form trees inside the arena: every handle is
//! used by exactly one parent, and a tree is evaluated where the statement that
//! holds its root runs. Every implicit C conversion is an explicit
//! [`Expr::Cast`], so back ends never apply C's conversion rules themselves.
//!
//! Before `schedule`, a parallel loop is a [`Loop`] with a [`Parallelism`]
//! other than `Seq`; after it, every loop is sequential and parallel loops have
//! become explicit thread-strided loops over [`Special`] registers.

mod cache;
mod compact;
mod expr;
mod flatten;
mod function;
pub mod host;
pub mod hostdata;
mod hostexpr;
mod hostrange;
mod hosttext;
mod hosttree;
mod index;
mod module;
mod print;
mod read;
mod reduce;
mod remark;
mod stmt;
mod target;
mod types;
mod validate;

pub use cache::CacheVar;
pub use expr::{BinOp, CmpOp, Expr, ExprId, Literal, MathFunc, Special, UnOp};
pub use flatten::{flatten_indices, flattened};
pub use function::{Function, Local, LocalId, Named, Undecided};
pub use hostexpr::{HostExpr, HostType, LaunchPlan, UserExpr};
pub use hostrange::{HostAddr, HostBytes, Lvalue, Scaled};
pub use hosttree::Visit;
pub use index::{Extent, Index};
pub use module::{
    Cell, ComputeKind, DeviceFunction, GridSize, Kernel, Launch, Linkage, Module, Param, ParamMode,
    RoutineLevel, Scratch, SizeClauses, ThreadBound, ROUTINE_SYMBOL_PREFIX,
};
pub use print::{print_expr, print_module, print_parallelism};
pub use read::{read_module, ReadError};
pub use reduce::{reducible, RedOp, RedPart, RedTarget, Reduction};
pub use remark::{map_lines, render as render_remarks, Notes, Remark};
pub use stmt::{
    assigned_locals, broadcast_scope, broadcasts_in_rows, walk_stmts, AtomicOp, BarrierScope,
    Block, CForm, Loop, LoopCmp, LoopDirective, LoopHeader, LoopSizes, Parallelism, Stmt,
    SwitchArm,
};
pub use target::{Gpu, HostCpu, Target};
pub use types::{FloatKind, IntKind, Type};
pub use validate::{validate, ExprProblem, Owner, ValidationError, ValidationErrorKind};

/// A position in the user's original source, carried from the front end to
/// the end so every later error and remark can name it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct SrcLoc {
    /// File name as the user named it (after `#line` mapping).
    pub file: String,
    /// 1-based line.
    pub line: u32,
    /// 1-based column.
    pub col: u32,
}

impl std::fmt::Display for SrcLoc {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.col)
    }
}
