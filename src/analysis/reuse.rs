//! Reuse across threads: the reads of a partitioned loop whose elements
//! several of its threads read — for the `cache` directive and tiling.
//!
//! Owns: [`Reuse`], [`reuse`]. May call: `ir`, `affine`, `contiguity`.
//!
//! Two shapes are found among the loads of a loop partitioned over
//! threads (any of gang, worker, vector):
//! * a *broadcast*: no subscript depends on the loop's indices, so every
//!   thread of the loop reads the same element (a matrix row `a[i][k]` in
//!   a loop over `j`);
//! * *neighbours*: loads of one base whose subscripts differ only by
//!   constants and depend on the loop's indices (a stencil's `a[i-1]`,
//!   `a[i]`, `a[i+1]`): the element one thread reads at offset `+1` its
//!   neighbour reads at `0`.

use super::affine::{Affine, Forms};
use super::contiguity::{LoopInfo, Use};
use crate::ir::{Expr, ExprId, Function, Parallelism};

/// Elements several threads of one loop read.
#[derive(Clone, Debug, PartialEq)]
pub enum Reuse {
    /// Every thread reads this access's element.
    Broadcast(ExprId),
    /// Loads of one base at constant offsets from each other: the base's
    /// text, and the constant parts of each load's subscripts (sorted).
    Neighbours {
        base: String,
        loads: Vec<ExprId>,
        offsets: Vec<Vec<i128>>,
    },
}

/// What loads of one neighbour group share: their base's text and the
/// variable parts of their subscripts.
type GroupKey = (String, Vec<Affine>);

/// A load of a neighbour group and the constants of its subscripts.
type Member = (ExprId, Vec<i128>);

/// The reuse among the reads of loop `l` (none unless partitioned).
pub fn reuse(forms: &Forms, f: &Function, l: &LoopInfo) -> Vec<Reuse> {
    if l.par == Parallelism::Seq {
        return vec![];
    }
    let mut out = vec![];
    let mut groups: Vec<(GroupKey, Vec<Member>)> = vec![];
    for a in l.accesses.iter().filter(|a| a.used == Use::Read) {
        let Expr::Index(ix) = f.expr(a.expr) else {
            continue;
        };
        let subs: Vec<Affine> = ix.subs.iter().map(|s| forms.of(*s)).collect();
        let varies = l.vars.iter().any(|v| {
            subs.iter().any(|s| s.coefficient(*v) != Some(0))
                || super::contiguity::outside_subs(ix).any(|e| forms.depends(e, *v))
        });
        if !varies {
            out.push(Reuse::Broadcast(a.expr));
            continue;
        }
        let key = (
            forms.text(ix.base),
            subs.iter().map(Affine::variable_part).collect::<Vec<_>>(),
        );
        let consts: Vec<i128> = subs.iter().map(|s| s.k).collect();
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, v)) => v.push((a.expr, consts)),
            None => groups.push((key, vec![(a.expr, consts)])),
        }
    }
    for ((base, _), members) in groups {
        let mut offsets: Vec<Vec<i128>> = members.iter().map(|(_, c)| c.clone()).collect();
        offsets.sort();
        offsets.dedup();
        if offsets.len() < 2 {
            continue;
        }
        out.push(Reuse::Neighbours {
            base,
            loads: members.iter().map(|(e, _)| *e).collect(),
            offsets,
        });
    }
    out
}
