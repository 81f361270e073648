//! Rows of one array that a kernel's indexed accesses keep apart: which
//! accesses can never touch the same element because their leading
//! subscripts are different constants (`a[3][k][i]` and `a[4][k][i]`).
//!
//! Owns: [`Parts`], [`disjoint_parts`]. May call: `ir`, `affine`.
//!
//! The rule is C's: a subscript of a multi-dimensional array stays inside
//! its dimension (C11 6.5.6; Annex J.2 lists "an array subscript is out of
//! range, even if an object is apparently accessible with the given
//! subscript (as in the lvalue expression `a[1][7]` given the declaration
//! `int a[4][5]`)" as undefined), so two accesses whose subscripts differ
//! in one dimension while all are in range are different elements, and
//! two accesses whose *leading constant* subscripts differ are in
//! different rows whatever their other subscripts are. GCC's dependence
//! analysis and nvc's use the same rule. (The IR itself, [`crate::ir::Index`],
//! lets an inner subscript leave its dimension while the address stays in
//! the object, as compilers accept in practice; only this fact relies on
//! the rule.)
//!
//! Where it matters: a variable-length array (`double a[5][n + 1][m]`,
//! NPB SP's `lhspX`) or any array with an extent computed at run time.
//! Its rows are a run-time stride apart, which LLVM's alias analysis
//! cannot tell from zero, so a store to `a[4][k][i]` forces a reload of
//! `a[3][k][i]` just stored. The NVPTX back end turns [`Parts`] into
//! LLVM's scoped `noalias` metadata.
//!
//! Only arrays whose rows are a run-time stride apart take part: rows a
//! constant stride apart LLVM tells apart without the rule.
//!
//! What counts as one array: accesses over one base that keeps its value
//! in the whole function (a parameter or local no statement assigns and
//! whose address is not taken, or a local array's own address), with the
//! same element type and the same extents (constant, or equal affine
//! forms over such locals). Only accesses with at least two subscripts
//! and a constant leading one take part; every other access gets no
//! claim, and may alias anything, as before.

use super::affine::{affine, Affine, Env};
use crate::ir::{assigned_locals, Expr, ExprId, Extent, Function, Index, LocalId, Type};
use std::collections::{HashMap, HashSet};

/// The arrays of one function whose indexed accesses fall into rows kept
/// apart, and which row each access is in.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Parts {
    /// Per array, its distinct prefixes (the leading constant subscripts
    /// of an access), in first-seen order.
    pub arrays: Vec<Vec<Vec<i128>>>,
    /// Each access (its [`Expr::Index`] node, whose handle stays that of
    /// the address after `ir::flatten_indices`): its array and prefix, as
    /// indices into [`Parts::arrays`].
    pub access: HashMap<ExprId, (usize, usize)>,
}

impl Parts {
    /// The prefixes of array `a` that can touch no element prefix `p`
    /// touches: those that differ from it in a position both have.
    pub fn apart(&self, a: usize, p: usize) -> Vec<usize> {
        let Some(prefixes) = self.arrays.get(a) else {
            return vec![];
        };
        let Some(own) = prefixes.get(p) else {
            return vec![];
        };
        (0..prefixes.len())
            .filter(|&q| own.iter().zip(&prefixes[q]).any(|(x, y)| x != y))
            .collect()
    }
}

/// The identity of an array: its base, element type and extents.
#[derive(PartialEq)]
struct ArrayKey {
    base: Base,
    /// For a base offset by `c * stride` (a variable-length array's row
    /// `a[c]`, which lowering writes as a byte offset of `c` times
    /// `sizeof(a[0])`): the offset's element type and stride.
    rows: Option<(Type, Affine)>,
    elem: Type,
    extents: Vec<ExtentKey>,
}

#[derive(PartialEq)]
enum Base {
    /// The value of a local that keeps it in the whole function.
    Value(LocalId),
    /// The address of a local (a private array).
    Address(LocalId),
}

#[derive(PartialEq)]
enum ExtentKey {
    Const(u64),
    Dyn(Affine),
}

/// The rows of `f`'s indexed accesses (see the module doc). Arrays with
/// one prefix only are left out: there is nothing to keep apart.
pub fn disjoint_parts(f: &Function) -> Parts {
    let fixed = Fixed::of(f);
    let mut keys: Vec<ArrayKey> = vec![];
    let mut parts = Parts::default();
    for (i, e) in f.exprs.iter().enumerate() {
        let Expr::Index(ix) = e else { continue };
        let id = ExprId(i as u32);
        let Some((key, row)) = array_key(f, &fixed, id, ix) else {
            continue;
        };
        let prefix: Vec<i128> = row
            .into_iter()
            .chain(ix.subs.iter().map_while(|&s| constant(f, s)))
            .collect();
        if prefix.is_empty() {
            continue;
        }
        let a = match keys.iter().position(|k| *k == key) {
            Some(a) => a,
            None => {
                keys.push(key);
                parts.arrays.push(vec![]);
                keys.len() - 1
            }
        };
        let prefixes = &mut parts.arrays[a];
        let p = match prefixes.iter().position(|q| *q == prefix) {
            Some(p) => p,
            None => {
                prefixes.push(prefix);
                prefixes.len() - 1
            }
        };
        parts.access.insert(id, (a, p));
    }
    // Arrays seen with one prefix: no pair to keep apart.
    let single: HashSet<usize> = (0..parts.arrays.len())
        .filter(|&a| parts.arrays[a].len() < 2)
        .collect();
    parts.access.retain(|_, (a, _)| !single.contains(a));
    parts
}

/// The locals of `f` that hold one value in the whole function.
struct Fixed {
    changing: HashSet<LocalId>,
}

impl Fixed {
    fn of(f: &Function) -> Fixed {
        let mut changing: HashSet<LocalId> = assigned_locals(&f.body).into_iter().collect();
        crate::ir::walk_stmts(&f.body, &mut |s| {
            if let crate::ir::Stmt::Loop(l) = s {
                changing.insert(l.var);
            }
        });
        // A local whose address is taken may be written through it.
        for e in &f.exprs {
            if let Expr::LocalAddr(l) = e {
                changing.insert(*l);
            }
        }
        Fixed { changing }
    }

    fn holds(&self, l: LocalId) -> bool {
        !self.changing.contains(&l)
    }
}

/// The array an index node reaches, when it is one this fact covers, and
/// the constant row its base is offset to (see [`ArrayKey::rows`]).
fn array_key(
    f: &Function,
    fixed: &Fixed,
    id: ExprId,
    ix: &Index,
) -> Option<(ArrayKey, Option<i128>)> {
    let (root, rows, row) = match f.expr(strip_casts(f, ix.base)) {
        Expr::PtrAdd { base, index } => {
            let (c, stride) = scaled(f, *index)?;
            if !stride.locals().all(|l| fixed.holds(l)) {
                return None;
            }
            let unit = f.ty(*base).pointee()?.clone();
            (strip_casts(f, *base), Some((unit, stride)), Some(c))
        }
        _ => (ix.base, None, None),
    };
    if rows.is_none() && ix.subs.len() < 2 {
        return None;
    }
    let base = match f.expr(root) {
        Expr::Local(l) if fixed.holds(*l) => Base::Value(*l),
        Expr::LocalAddr(l) if matches!(f.local(*l).ty, Type::Array(..)) => Base::Address(*l),
        _ => return None,
    };
    let elem = f.ty(id).pointee()?.clone();
    let mut extents = vec![];
    for e in &ix.extents {
        extents.push(match e {
            Extent::Const(n) => ExtentKey::Const(*n),
            Extent::Dyn(x) => {
                let form = affine(f, &Env::new(), *x)?;
                if !form.locals().all(|l| fixed.holds(l)) {
                    return None;
                }
                ExtentKey::Dyn(form)
            }
        });
    }
    // Rows a constant stride apart LLVM tells apart itself (the same
    // variable offsets plus different constants) without assuming the
    // subscripts in range: the rule is used only where it must be, so a
    // program that walks a fixed-size array flat (`a[0][k]` for every k,
    // outside C's rule but common) is compiled as it always was.
    if rows.is_none() && !extents.iter().any(|e| matches!(e, ExtentKey::Dyn(_))) {
        return None;
    }
    let key = ArrayKey {
        base,
        rows,
        elem,
        extents,
    };
    Some((key, row))
}

/// `e` without the casts around it.
fn strip_casts(f: &Function, mut e: ExprId) -> ExprId {
    while let Expr::Cast(inner) = f.expr(e) {
        e = *inner;
    }
    e
}

/// `c * x` (either order, through integer casts) as `c` and the affine
/// form of `x`.
fn scaled(f: &Function, e: ExprId) -> Option<(i128, Affine)> {
    let Expr::Binary {
        op: crate::ir::BinOp::Mul,
        lhs,
        rhs,
    } = f.expr(strip_casts(f, e))
    else {
        return None;
    };
    let (c, x) = match (constant(f, *lhs), constant(f, *rhs)) {
        (Some(c), None) => (c, *rhs),
        (None, Some(c)) => (c, *lhs),
        _ => return None,
    };
    Some((c, affine(f, &Env::new(), x)?))
}

/// The value of an integer expression that is a constant (a literal,
/// through integer casts).
fn constant(f: &Function, e: ExprId) -> Option<i128> {
    affine(f, &Env::new(), e)?.as_const()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parts_of(prefixes: Vec<Vec<i128>>) -> Parts {
        Parts {
            arrays: vec![prefixes],
            access: HashMap::new(),
        }
    }

    #[test]
    fn rows_apart_differ_where_both_prefixes_have_a_subscript() {
        let p = parts_of(vec![vec![3], vec![4], vec![3, 1], vec![3, 2], vec![4, 1]]);
        // [3] vs [3, x]: a[3][1][…] is inside a[3][…].
        assert_eq!(p.apart(0, 0), vec![1, 4]);
        assert_eq!(p.apart(0, 2), vec![1, 3, 4]);
        assert_eq!(p.apart(0, 4), vec![0, 2, 3]);
        assert_eq!(p.apart(1, 0), Vec::<usize>::new());
    }
}
