//! Contiguity per loop: for every indexed access in a counted loop's body
//! (nested loops included), how its address moves when the loop's index
//! steps by one — to put the loop whose accesses are contiguous on
//! consecutive threads (coalescing).
//!
//! Owns: [`LoopInfo`], [`IndexedAccess`], [`Use`], [`Stride`], [`loops`].
//! May call: `ir`, `affine`.
//!
//! An access is *contiguous* in index `v` when its element stride in `v`
//! is 1: coefficient 1 in the innermost subscript, 0 in the others
//! (`a[i][j]` and `a[i * n + j]` in `j`); *invariant* when no subscript
//! depends on `v`; else *strided*, by a known number of elements when the
//! coefficients and the extents are constants. Only counted loops are
//! seen (`Stmt::Loop`: the loops of `acc loop` directives, before
//! `schedule`); a plain C loop, lowered to a `while`, has no entry, but
//! its accesses count for the counted loops around it.

use super::affine::{Affine, Forms};
use crate::ir::{
    Expr, ExprId, Extent, Function, Index, LocalId, Module, Parallelism, SrcLoc, Stmt,
};

/// What the code does at an indexed address.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Use {
    /// Loads from it.
    Read,
    /// Stores to it.
    Write,
    /// Reads and writes it (an atomic update).
    Update,
    /// Takes the address (passes it on, or steps from it).
    Address,
}

/// How an access's address moves with one loop index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stride {
    /// The next element each step (stride 1).
    Contiguous,
    /// The same element every step.
    Invariant,
    /// Elements this far apart (`None`: not known when compiling).
    Strided(Option<i128>),
}

/// One indexed access of a loop body.
#[derive(Clone, Debug, PartialEq)]
pub struct IndexedAccess {
    /// The `Expr::Index` node.
    pub expr: ExprId,
    pub used: Use,
    /// Its stride in each of the loop's indices ([`LoopInfo::vars`]).
    pub strides: Vec<Stride>,
}

/// The facts of one counted loop.
#[derive(Clone, Debug, PartialEq)]
pub struct LoopInfo {
    pub loc: SrcLoc,
    /// Its index, then those of the loops collapsed into it.
    pub vars: Vec<LocalId>,
    pub par: Parallelism,
    /// The indexed accesses of its body, in statement order.
    pub accesses: Vec<IndexedAccess>,
    /// The reads several of its threads share (partitioned loops only).
    pub reuse: Vec<super::reuse::Reuse>,
    /// The scalars of the code around that its body assigns and reads
    /// (filled by `private`).
    pub scalars: super::private::LoopScalars,
}

impl LoopInfo {
    /// How many accesses are contiguous in index `v` (the loop to put on
    /// consecutive threads is the one with the most).
    pub fn contiguous_count(&self, v: LocalId) -> usize {
        let Some(k) = self.vars.iter().position(|x| *x == v) else {
            return 0;
        };
        self.accesses
            .iter()
            .filter(|a| a.strides.get(k) == Some(&Stride::Contiguous))
            .count()
    }
}

/// Every counted loop of `f` (a body of `m`), in pre-order.
pub fn loops(m: &Module, f: &Function) -> Vec<LoopInfo> {
    let forms = Forms::new(m, f);
    let mut out = vec![];
    crate::ir::walk_stmts(&f.body, &mut |s| {
        let Stmt::Loop(l) = s else { return };
        let mut vars = vec![l.var];
        vars.extend(l.collapsed.iter().map(|h| h.var));
        let mut found = vec![];
        collect(f, &l.body, &mut found);
        let accesses = found
            .into_iter()
            .map(|(expr, used)| {
                let strides = match f.expr(expr) {
                    Expr::Index(ix) => vars.iter().map(|v| stride(&forms, ix, *v)).collect(),
                    _ => vec![],
                };
                IndexedAccess {
                    expr,
                    used,
                    strides,
                }
            })
            .collect();
        let mut info = LoopInfo {
            loc: l.loc.clone(),
            vars,
            par: l.par,
            accesses,
            reuse: vec![],
            scalars: Default::default(),
        };
        info.reuse = super::reuse::reuse(&forms, f, &info);
        out.push(info);
    });
    out
}

/// The stride of access `ix` in index `v` (not known when its base or
/// an extent depends on `v`: a row reached by pointer arithmetic).
fn stride(forms: &Forms, ix: &Index, v: LocalId) -> Stride {
    if outside_subs(ix).any(|e| forms.depends(e, v)) {
        return Stride::Strided(None);
    }
    let subs: Vec<Affine> = ix.subs.iter().map(|s| forms.of(*s)).collect();
    let coefs: Option<Vec<i128>> = subs.iter().map(|a| a.coefficient(v)).collect();
    let Some(coefs) = coefs else {
        return Stride::Strided(None);
    };
    if coefs.iter().all(|c| *c == 0) {
        return Stride::Invariant;
    }
    // Elements per step of each dimension: the product of the inner extents.
    let mut step = Some(1i128);
    let mut total = Some(0i128);
    for (k, c) in coefs.iter().enumerate().rev() {
        if *c != 0 {
            total = match (total, step) {
                (Some(t), Some(s)) => c.checked_mul(s).and_then(|x| t.checked_add(x)),
                _ => None,
            };
        }
        if k > 0 {
            step = match (step, ix.extents.get(k - 1)) {
                (Some(s), Some(Extent::Const(n))) => s.checked_mul(i128::from(*n)),
                _ => None,
            };
        }
    }
    match total {
        Some(1) => Stride::Contiguous,
        t => Stride::Strided(t),
    }
}

/// The operands of `ix` other than its subscripts: the base and the
/// extents computed at run time.
pub(super) fn outside_subs(ix: &Index) -> impl Iterator<Item = ExprId> + '_ {
    let dynamic = ix.extents.iter().filter_map(|e| match e {
        Extent::Dyn(x) => Some(*x),
        Extent::Const(_) => None,
    });
    std::iter::once(ix.base).chain(dynamic)
}

/// The indexed accesses of `b` (nested blocks included), in order, with
/// what is done at each.
pub(super) fn collect(f: &Function, b: &[Stmt], out: &mut Vec<(ExprId, Use)>) {
    crate::ir::walk_stmts(b, &mut |s| {
        let at = |p: ExprId| -> Use {
            match s {
                Stmt::Store { ptr, .. } | Stmt::AtomicStore { ptr, .. } if *ptr == p => Use::Write,
                Stmt::Copy { dst, .. } if *dst == p => Use::Write,
                Stmt::Copy { src, .. } if *src == p => Use::Read,
                Stmt::AtomicLoad { ptr, .. } if *ptr == p => Use::Read,
                Stmt::AtomicRmw { ptr, .. } | Stmt::AtomicCas { ptr, .. } if *ptr == p => {
                    Use::Update
                }
                _ => Use::Address,
            }
        };
        for root in s.roots() {
            visit(f, root, at(root), out);
        }
    });
}

fn visit(f: &Function, id: ExprId, used: Use, out: &mut Vec<(ExprId, Use)>) {
    match f.expr(id) {
        Expr::Index(_) => out.push((id, used)),
        Expr::Load(p) => return visit(f, *p, Use::Read, out),
        _ => {}
    }
    for c in f.children(id) {
        visit(f, c, Use::Address, out);
    }
}
