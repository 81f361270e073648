//! Reduction recognition over the IR: the scalars a loop body only
//! accumulates into, so that a loop without a `reduction` clause can still
//! run in parallel (nvc's "generating implicit reduction").
//!
//! Owns: [`reduction_of`], [`part_reduction`]. A scalar `s` (a local, or
//! a scalar behind a pointer the kernel receives by reference, part by
//! part for a complex number) is a reduction when every
//! assignment of it in the body is `s = s op e` or `s = e op s` for
//! `+ * & | ^ && || min max` (`s = s - e` too; `fmax`/`fmin` as max/min),
//! all with one operator, `e` never reads `s`, and nothing else reads
//! `s`. The temporaries lowering puts between the read and the write
//! (`%5 tmp = add(s, e); s = %5 tmp`) are seen through when they are read
//! once. May call: `ir`, `body`.

use super::affine::Env;
use super::body::{cell_at, LoopBody, Target};
use crate::ir::{BinOp, Expr, ExprId, Function, MathFunc, RedOp, Type};

/// The operator `t` is reduced with in body `b` of function `f`, if it is
/// a reduction.
pub fn reduction_of(f: &Function, b: &LoopBody, t: Target) -> Option<RedOp> {
    part_reduction(f, b, t)?
}

/// For one scalar (or one part of a scalar in memory): `Some(Some(op))`
/// when every assignment is `t = t op e`; `Some(None)` when they all
/// store `t`'s own value back (the imaginary part of `z += x`, `x` real);
/// `None` otherwise.
pub fn part_reduction(f: &Function, b: &LoopBody, t: Target) -> Option<Option<RedOp>> {
    let mut op = None;
    let mut n = 0;
    for u in b.updates.iter().filter(|u| u.target == t) {
        match classify(f, b, &u.env, u.value?, t)? {
            Step::Same => {}
            Step::Op(this) => {
                if *op.get_or_insert(this) != this {
                    return None;
                }
            }
        }
        n += 1;
    }
    let (reads, ty) = match t {
        Target::Local(l) => (b.reads.get(&l).copied(), Some(f.local(l).ty.clone())),
        Target::Cell(p, o) => (
            b.cell_reads.get(&(p, o)).copied(),
            b.cell_types.get(&(p, o)).cloned(),
        ),
    };
    let ty = ty.unwrap_or(Type::Void);
    (n > 0 && reads.unwrap_or(0) == n && crate::ir::reducible(&ty)).then_some(op)
}

/// What one assignment does to its target.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Step {
    /// `t = t`.
    Same,
    /// `t = t op e`.
    Op(RedOp),
}

/// Through casts and temporaries read once.
fn strip(f: &Function, b: &LoopBody, env: &Env, mut e: ExprId) -> ExprId {
    for _ in 0..32 {
        e = match f.expr(e) {
            Expr::Cast(a) => *a,
            Expr::Local(l) if b.reads.get(l) == Some(&1) => match env.get(l) {
                Some(v) => *v,
                None => return e,
            },
            _ => return e,
        };
    }
    e
}

/// `e` reads `t` (itself, not an expression of it).
fn is_target(f: &Function, b: &LoopBody, env: &Env, e: ExprId, t: Target) -> bool {
    let e = strip(f, b, env, e);
    match (f.expr(e), t) {
        (Expr::Local(l), Target::Local(x)) => *l == x,
        (Expr::Load(a), Target::Cell(p, o)) => cell_at(f, &b.cells, env, *a) == Some((p, o)),
        _ => false,
    }
}

/// What `t = value` does, when it is `t`, `t op e` or `e op t`.
fn classify(f: &Function, b: &LoopBody, env: &Env, value: ExprId, t: Target) -> Option<Step> {
    if is_target(f, b, env, value, t) {
        return Some(Step::Same);
    }
    let v = strip(f, b, env, value);
    let (op, l, r) = match f.expr(v) {
        Expr::Binary { op, lhs, rhs } => {
            let op = match op {
                BinOp::Add => RedOp::Add,
                BinOp::Sub if is_target(f, b, env, *lhs, t) => RedOp::Add,
                BinOp::Mul => RedOp::Mul,
                BinOp::And => RedOp::BitAnd,
                BinOp::Or => RedOp::BitOr,
                BinOp::Xor => RedOp::BitXor,
                BinOp::Min => RedOp::Min,
                BinOp::Max => RedOp::Max,
                _ => return None,
            };
            (op, *lhs, *rhs)
        }
        Expr::Math { func, args } if args.len() == 2 => {
            let op = match func {
                MathFunc::Fmax => RedOp::Max,
                MathFunc::Fmin => RedOp::Min,
                _ => return None,
            };
            (op, args[0], args[1])
        }
        Expr::Logical { and, lhs, rhs } => (if *and { RedOp::And } else { RedOp::Or }, *lhs, *rhs),
        _ => return None,
    };
    (is_target(f, b, env, l, t) || is_target(f, b, env, r, t)).then_some(Step::Op(op))
}
