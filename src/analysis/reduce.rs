//! Reduction recognition over the IR: the scalars a loop body only
//! accumulates into, so that a loop without a `reduction` clause can still
//! run in parallel (nvc's "generating implicit reduction").
//!
//! Owns: [`reduction_of`]. A scalar `s` (a local, or a scalar behind a
//! pointer the kernel receives by reference) is a reduction when every
//! assignment of it in the body is `s = s op e` or `s = e op s` for
//! `+ * & | ^ && || min max` (`s = s - e` too; `fmax`/`fmin` as max/min),
//! all with one operator, `e` never reads `s`, and nothing else reads
//! `s`. The temporaries lowering puts between the read and the write
//! (`%5 tmp = add(s, e); s = %5 tmp`) are seen through when they are read
//! once. May call: `ir`, `body`.

use super::affine::Env;
use super::body::{LoopBody, Target};
use crate::ir::{BinOp, Expr, ExprId, Function, MathFunc, RedOp, Type};

/// The operator `t` is reduced with in body `b` of function `f`, if it is
/// a reduction.
pub fn reduction_of(f: &Function, b: &LoopBody, t: Target) -> Option<RedOp> {
    let mut op = None;
    let mut n = 0;
    for u in b.updates.iter().filter(|u| u.target == t) {
        let this = classify(f, b, &u.env, u.value?, t)?;
        if *op.get_or_insert(this) != this {
            return None;
        }
        n += 1;
    }
    let reads = match t {
        Target::Local(l) => b.reads.get(&l).copied().unwrap_or(0),
        Target::Cell(p) => b.cell_reads.get(&p).copied().unwrap_or(0),
    };
    let ty = match t {
        Target::Local(l) => f.local(l).ty.clone(),
        Target::Cell(p) => f.local(p).ty.pointee().cloned().unwrap_or(Type::Void),
    };
    (reads == n && crate::ir::reducible(&ty)).then_some(op?)
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
        (Expr::Load(a), Target::Cell(p)) => {
            matches!(f.expr(strip(f, b, env, *a)), Expr::Local(l) if *l == p)
        }
        _ => false,
    }
}

/// The operator of `t = value`, when it is `t op e` or `e op t`.
fn classify(f: &Function, b: &LoopBody, env: &Env, value: ExprId, t: Target) -> Option<RedOp> {
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
    (is_target(f, b, env, l, t) || is_target(f, b, env, r, t)).then_some(op)
}
