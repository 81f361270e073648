//! The one pass that turns indexed accesses into pointer arithmetic:
//! code generators run it first and never see an [`Expr::Index`].
//!
//! Owns: [`flatten_indices`] and [`flattened`]. May call: the IR's types.
//!
//! An index over constant extents whose base is typed as the outermost row
//! becomes the chain C's subscripts always lowered to, one `ptradd` per
//! dimension with a cast to the next row between them:
//! `index.f64(%u, [64], i, j)` → `ptradd(cast.ptr<[f64; 64]>.ptr<f64>(ptradd(%u, i)), j)`,
//! so the generated code is what it was before the IR kept subscripts. An
//! index with a flat base (`ptr<E>`) or an extent computed at run time
//! becomes one `ptradd` of the linear offset, `((s0 * e1 + s1) * e2 + s2)`
//! in `i64`.

use super::expr::{BinOp, Expr, ExprId};
use super::function::Function;
use super::index::{Extent, Index};
use super::module::Module;
use super::types::Type;
use std::borrow::Cow;

/// Replaces every [`Expr::Index`] of every kernel and device function by
/// `ptradd`s (in place: the index's handle becomes the last `ptradd`, so
/// its parent is unchanged; the other nodes are appended to the arena).
pub fn flatten_indices(m: &mut Module) {
    for k in &mut m.kernels {
        flatten_function(&mut k.body);
    }
    for f in &mut m.functions {
        flatten_function(&mut f.body);
    }
}

/// `m` with its indexed accesses flattened: `m` itself when it has none,
/// else a flattened copy (for back ends, which take `&Module`).
pub fn flattened(m: &Module) -> Cow<'_, Module> {
    let has_index = m
        .kernels
        .iter()
        .map(|k| &k.body)
        .chain(m.functions.iter().map(|f| &f.body))
        .any(|f| f.exprs.iter().any(|e| matches!(e, Expr::Index(_))));
    if has_index {
        let mut c = m.clone();
        flatten_indices(&mut c);
        Cow::Owned(c)
    } else {
        Cow::Borrowed(m)
    }
}

fn flatten_function(f: &mut Function) {
    // The nodes appended while flattening are never indices.
    for i in 0..f.exprs.len() {
        if let Expr::Index(ix) = &f.exprs[i] {
            let ix = ix.clone();
            flatten_one(f, ExprId(i as u32), ix);
        }
    }
}

/// Rewrites index node `id` (of type `ptr<E>`).
fn flatten_one(f: &mut Function, id: ExprId, ix: Index) {
    let ty = f.ty(id).clone();
    let Some(elem) = ty.pointee().cloned() else {
        return; // invalid IR: the validator reports it
    };
    let rows = ix
        .row_types(&elem)
        .filter(|rows| f.ty(ix.base).pointee() == rows.first());
    let last = match rows {
        Some(rows) => nested(f, &ix, &rows),
        None => linear(f, &ix, &ty),
    };
    f.exprs[id.0 as usize] = last;
}

/// The `ptradd` chain over the row types: every node but the last added
/// to the arena; the last returned.
fn nested(f: &mut Function, ix: &Index, rows: &[Type]) -> Expr {
    let mut cur = ix.base;
    let n = ix.subs.len();
    for (d, (&sub, row)) in ix.subs.iter().zip(rows).enumerate() {
        if d > 0 {
            cur = f.add(Expr::Cast(cur), row.ptr_to());
        }
        let step = Expr::PtrAdd {
            base: cur,
            index: sub,
        };
        if d + 1 == n {
            return step;
        }
        cur = f.add(step, row.ptr_to());
    }
    // No subscript: the validator reports it; the base unchanged.
    Expr::Cast(ix.base)
}

/// One `ptradd` of the linear offset from a base cast to `ty` (`ptr<E>`).
fn linear(f: &mut Function, ix: &Index, ty: &Type) -> Expr {
    let base = if f.ty(ix.base) == ty {
        ix.base
    } else {
        f.add(Expr::Cast(ix.base), ty.clone())
    };
    let subs: Vec<ExprId> = ix
        .subs
        .iter()
        .map(|&s| {
            if *f.ty(s) == Type::I64 {
                s
            } else {
                f.add(Expr::Cast(s), Type::I64)
            }
        })
        .collect();
    let mut off = match subs.first() {
        Some(&s) => s,
        None => f.int(0, Type::I64),
    };
    for (ext, &sub) in ix.extents.iter().zip(subs.iter().skip(1)) {
        let e = match ext {
            Extent::Const(n) => f.int(i128::from(*n), Type::I64),
            Extent::Dyn(x) => *x,
        };
        let scaled = f.add(
            Expr::Binary {
                op: BinOp::Mul,
                lhs: off,
                rhs: e,
            },
            Type::I64,
        );
        off = f.add(
            Expr::Binary {
                op: BinOp::Add,
                lhs: scaled,
                rhs: sub,
            },
            Type::I64,
        );
    }
    Expr::PtrAdd { base, index: off }
}

#[cfg(test)]
#[path = "flatten/tests.rs"]
mod tests;
