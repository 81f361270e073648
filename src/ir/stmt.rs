//! IR statements: structured control flow over locals and device memory.
//!
//! Owns: [`Stmt`], [`Block`], the counted [`Loop`] with its [`Parallelism`].

use super::expr::ExprId;
use super::function::LocalId;
use super::SrcLoc;

/// A sequence of statements.
pub type Block = Vec<Stmt>;

/// How the comparison of a counted loop reads: `var <cmp> limit`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LoopCmp {
    Lt,
    Le,
    Gt,
    Ge,
}

/// The parallelism a loop was given (by clauses or by `schedule`'s choice).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Parallelism {
    /// Runs sequentially in each thread that reaches it.
    #[default]
    Seq,
    /// Iterations are shared among gangs, workers and/or vector lanes (at
    /// least one flag is set).
    Par {
        gang: bool,
        worker: bool,
        vector: bool,
    },
}

/// A counted C loop `for (var = init; var cmp limit; var += step)`, as the
/// OpenACC loop construct requires: `init`, `limit` and `step` are evaluated
/// once, before the first iteration; `step` is non-zero, positive for `<`/`<=`
/// and negative for `>`/`>=`. `init`, `limit` and `step` have `var`'s type.
#[derive(Clone, Debug, PartialEq)]
pub struct Loop {
    /// The loop index (private to each iteration's thread).
    pub var: LocalId,
    pub init: ExprId,
    pub cmp: LoopCmp,
    pub limit: ExprId,
    pub step: ExprId,
    pub body: Block,
    pub par: Parallelism,
    /// Where the loop is in the source (for remarks and errors).
    pub loc: SrcLoc,
}

/// A statement.
#[derive(Clone, Debug, PartialEq)]
pub enum Stmt {
    /// `local = value`.
    Assign { local: LocalId, value: ExprId },
    /// `*ptr = value`.
    Store { ptr: ExprId, value: ExprId },
    /// `if (cond) then else otherwise`; `cond` is a `bool`.
    If {
        cond: ExprId,
        then: Block,
        otherwise: Block,
    },
    /// A counted loop; only before `schedule`, which turns every one into a
    /// [`Stmt::While`].
    Loop(Loop),
    /// `while (cond) { body; step }`: `continue` in `body` goes to `step`,
    /// `break` leaves. `cond` is re-evaluated before each iteration.
    While {
        cond: ExprId,
        body: Block,
        step: Block,
    },
    /// Leave the innermost `While`.
    Break,
    /// Go to the `step` of the innermost `While`.
    Continue,
    /// Leave the kernel (this thread).
    Return,
    /// A nested block.
    Block(Block),
}

/// Calls `f` on every statement of `b` and of the blocks nested in it, in
/// pre-order (a loop before its body).
pub fn walk_stmts(b: &[Stmt], f: &mut impl FnMut(&Stmt)) {
    for s in b {
        f(s);
        match s {
            Stmt::If {
                then, otherwise, ..
            } => {
                walk_stmts(then, f);
                walk_stmts(otherwise, f);
            }
            Stmt::Loop(l) => walk_stmts(&l.body, f),
            Stmt::While { body, step, .. } => {
                walk_stmts(body, f);
                walk_stmts(step, f);
            }
            Stmt::Block(b) => walk_stmts(b, f),
            Stmt::Assign { .. }
            | Stmt::Store { .. }
            | Stmt::Break
            | Stmt::Continue
            | Stmt::Return => {}
        }
    }
}
