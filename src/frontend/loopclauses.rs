//! Loop clauses: what the clauses of a loop directive (or of a combined
//! construct) ask of the loop it is attached to.
//!
//! Owns: [`Clauses`] and `Walker::loop_clauses`, which checks each clause
//! and evaluates the constant ones. May call: `clauses`, `directive`, `ir`,
//! `parsed` (the directives it reads).

use super::lower::{LoopReduction, Private};
use super::unit::Walker;
use crate::diag::{DResult, Diagnostics};
use crate::directive::{ClauseKind, DirectiveKind, ReductionOp, SizeExpr, VarRef};
use crate::ir::{HostType, RedOp, UserExpr};

/// The IR operator of a clause's operator.
pub(super) fn red_op(op: ReductionOp) -> RedOp {
    match op {
        ReductionOp::Add => RedOp::Add,
        ReductionOp::Mul => RedOp::Mul,
        ReductionOp::Max => RedOp::Max,
        ReductionOp::Min => RedOp::Min,
        ReductionOp::BitAnd => RedOp::BitAnd,
        ReductionOp::BitOr => RedOp::BitOr,
        ReductionOp::BitXor => RedOp::BitXor,
        ReductionOp::And => RedOp::And,
        ReductionOp::Or => RedOp::Or,
    }
}

/// The loop clauses of one candidate loop.
#[derive(Clone, Debug, Default)]
pub(super) struct Clauses {
    pub(super) gang: bool,
    /// `gang(num:n)`.
    pub(super) gang_num: Option<UserExpr>,
    /// `gang(dim:n)`, as a grid dimension index.
    pub(super) gang_dim: Option<u8>,
    pub(super) worker: bool,
    pub(super) worker_num: Option<UserExpr>,
    pub(super) vector: bool,
    pub(super) vector_len: Option<UserExpr>,
    pub(super) seq: bool,
    pub(super) auto: bool,
    pub(super) independent: bool,
    pub(super) collapse: u32,
    /// `collapse(force:n)`: the loops need not be tightly nested.
    pub(super) collapse_force: bool,
    /// `tile(…)`: a size per loop of the nest (`None`: `*`).
    pub(super) tile: Vec<Option<u32>>,
    /// `gang(static:…)` (`Some(0)`: `*`).
    pub(super) chunk: Option<u32>,
    /// `reduction(…)` variables, in order.
    pub(super) reductions: Vec<LoopReduction>,
    /// `private(…)` and `firstprivate(…)` variables.
    pub(super) privates: Vec<Private>,
}

impl Clauses {
    /// What the IR records of them ([`crate::ir::Loop::directive`]).
    pub(super) fn directive(&self) -> crate::ir::LoopDirective {
        crate::ir::LoopDirective {
            gang: self.gang,
            worker: self.worker,
            vector: self.vector,
            gang_dim: self.gang_dim,
            seq: self.seq,
            auto: self.auto,
            independent: self.independent,
        }
    }
}

impl Walker<'_> {
    /// One variable of a `private` or `firstprivate` clause (`first`) of
    /// directive `p`: a variable, or a sub-array or element of an array
    /// variable (`tmp[0:5]`, as real code writes it), which makes the whole
    /// array private; not a struct member.
    pub(super) fn private_item(&self, p: usize, v: &VarRef, first: bool) -> DResult<Private> {
        use crate::directive::Access;
        let loc = self.unit.pragma_loc(p, v.span.start);
        if v.path.iter().any(|a| matches!(a, Access::Member { .. })) {
            return Err(Diagnostics::one(
                Some(loc),
                format!(
                    "'{}' in a private clause: only whole variables (or parts of arrays) can be private",
                    v.text
                ),
            ));
        }
        // A part of what a pointer points to: its (one) dimension.
        let pointer = self
            .scope
            .lookup(&v.base.name)
            .is_some_and(|s| matches!(s.ty, super::ctype::CType::Ptr(_)));
        let ctx = self.clause_ctx(p);
        let len = |e: &crate::directive::ClauseExpr| {
            ctx.const_value(e)
                .and_then(|n| u64::try_from(n).ok())
                .filter(|n| *n > 0)
        };
        let section = match v.path.as_slice() {
            _ if !pointer => None,
            [] => None,
            [Access::Index(i)] => Some((Some(ctx.check_expr(i)?), Some(1))),
            [Access::Section { lower, length, .. }] => Some((
                lower.as_ref().map(|e| ctx.check_expr(e)).transpose()?,
                length.as_ref().and_then(len),
            )),
            _ => {
                return Err(Diagnostics::one(
                    Some(loc),
                    format!(
                        "'{}' in a private clause: a part of what a pointer points to must be one sub-array ('p[lo:len]')",
                        v.text
                    ),
                ))
            }
        };
        Ok(Private {
            var: v.base.name.clone(),
            first,
            part: !v.path.is_empty(),
            section,
            loc,
        })
    }

    /// One variable of a `reduction(op:…)` clause of directive `p`: a
    /// variable (scalar, array or struct), an array element or a sub-array
    /// of the first dimension (constant bounds); not a member (OpenACC 3.3
    /// 2.5.15).
    pub(super) fn reduction_item(
        &self,
        p: usize,
        op: ReductionOp,
        v: &VarRef,
    ) -> DResult<LoopReduction> {
        use crate::directive::Access;
        let loc = self.unit.pragma_loc(p, v.span.start);
        let err = |m: String| Err(Diagnostics::one(Some(loc.clone()), m));
        let ctx = self.clause_ctx(p);
        let constant = |e: &crate::directive::ClauseExpr| {
            ctx.const_value(e)
                .filter(|n| (0..i128::from(u32::MAX)).contains(n))
                .map(|n| n as u64)
        };
        let mut index = None;
        let section = match v.path.as_slice() {
            [] => None,
            [Access::Index(i)] => match constant(i) {
                Some(n) => Some((n, 1)),
                None => {
                    index = Some(i.text.clone());
                    None
                }
            },
            [Access::Section { lower, length, .. }] => {
                let lo = match lower {
                    None => Some(0),
                    Some(e) => constant(e),
                };
                match (lo, length.as_ref().and_then(constant)) {
                    (Some(lo), Some(n)) if n > 0 => Some((lo, n)),
                    _ => return err(format!("reduction on '{}': a sub-array's bounds must be integer constants (and its length positive)", v.text)),
                }
            }
            _ => {
                return err(format!(
                    "reduction on '{}': a reduction variable must be a variable, an array element or a sub-array (not a member of a struct)",
                    v.text
                ))
            }
        };
        Ok(LoopReduction {
            op: red_op(op),
            var: v.base.name.clone(),
            section,
            index,
            loc,
        })
    }

    /// The loop clauses of directive `p`.
    pub(super) fn loop_clauses(&self, p: usize) -> DResult<Clauses> {
        let d = &self.unit.dirs[p];
        let ctx = self.clause_ctx(p);
        let mut c = Clauses {
            collapse: 1,
            ..Clauses::default()
        };
        for cl in &d.clauses {
            match &cl.kind {
                ClauseKind::Gang(g) => {
                    c.gang = true;
                    if let Some(n) = &g.num {
                        c.gang_num = Some(ctx.user_expr(n, HostType::LongLong)?);
                    }
                    if let Some(dim) = &g.dim {
                        match ctx
                            .check_expr(dim)?
                            .trim_matches(['(', ')'])
                            .trim()
                            .parse::<u8>()
                        {
                            Ok(n @ 1..=3) => c.gang_dim = Some(n - 1),
                            _ => {
                                return self.clause_err(
                                    p,
                                    cl,
                                    "'gang(dim:n)' needs n = 1, 2 or 3 (an integer constant)"
                                        .into(),
                                )
                            }
                        }
                    }
                    match &g.static_size {
                        None => {}
                        Some(SizeExpr::Star(_)) => c.chunk = Some(0),
                        Some(SizeExpr::Expr(e)) => match ctx.const_value(e) {
                            Some(n) if n >= 1 && n <= i128::from(u32::MAX) => {
                                c.chunk = Some(n as u32)
                            }
                            _ => {
                                return self.clause_err(
                                    p,
                                    cl,
                                    "'gang(static:n)' needs a positive integer constant or '*'"
                                        .into(),
                                )
                            }
                        },
                    }
                }
                ClauseKind::Worker(n) => {
                    c.worker = true;
                    if let Some(n) = n {
                        c.worker_num = Some(ctx.user_expr(n, HostType::LongLong)?);
                    }
                }
                ClauseKind::Vector(n) => {
                    c.vector = true;
                    if let Some(n) = n {
                        c.vector_len = Some(ctx.user_expr(n, HostType::LongLong)?);
                    }
                }
                ClauseKind::Seq => c.seq = true,
                ClauseKind::Auto => c.auto = true,
                ClauseKind::Independent => c.independent = true,
                ClauseKind::Collapse { count, force } => {
                    c.collapse_force = *force;
                    match ctx
                        .check_expr(count)?
                        .trim_matches(['(', ')'])
                        .trim()
                        .parse::<u32>()
                    {
                        Ok(n) if n >= 1 => c.collapse = n,
                        _ => {
                            return self.clause_err(
                                p,
                                cl,
                                "'collapse(n)' needs a positive integer constant".into(),
                            )
                        }
                    }
                }
                ClauseKind::Tile(sizes) => {
                    for sz in sizes {
                        c.tile.push(match sz {
                            SizeExpr::Star(_) => None,
                            SizeExpr::Expr(e) => match ctx.const_value(e) {
                                Some(n) if (1..=1024).contains(&n) => Some(n as u32),
                                _ => return self.clause_err(p, cl, "a 'tile' size must be '*' or an integer constant from 1 to 1024".into()),
                            },
                        });
                    }
                    // The first size is the innermost loop's (OpenACC 3.3
                    // 2.9.8); kept outermost first, one per loop of the nest.
                    c.tile.reverse();
                }
                // On a combined construct, the loop's.
                ClauseKind::Reduction { op, vars } => {
                    for v in vars {
                        c.reductions.push(self.reduction_item(p, *op, v)?);
                    }
                }
                ClauseKind::Private(vars) | ClauseKind::FirstPrivate(vars) => {
                    let first = matches!(cl.kind, ClauseKind::FirstPrivate(_));
                    for v in vars {
                        c.privates.push(self.private_item(p, v, first)?);
                    }
                }
                // Construct clauses of a combined directive, checked by `compute`.
                _ if d.kind != DirectiveKind::Loop => {}
                _ => {}
            }
        }
        if !c.tile.is_empty() {
            if c.collapse > 1 {
                return Err(Diagnostics::one(
                    Some(self.unit.pragma_loc(p, d.kind_span.start)),
                    "a loop cannot have both 'tile' and 'collapse'",
                ));
            }
            c.collapse = c.tile.len() as u32;
        }
        if c.seq && c.directive().explicit() {
            return Err(Diagnostics::one(
                Some(self.unit.pragma_loc(p, d.kind_span.start)),
                "a 'seq' loop cannot also be 'gang', 'worker' or 'vector'",
            ));
        }
        Ok(c)
    }
}
