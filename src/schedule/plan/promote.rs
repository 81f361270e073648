//! Gang reductions inside another loop of a region (OpenACC 3.3 2.9.11: a
//! gang reduction's result is stored in the variable at the end of the
//! region): a gang loop nested in another loop that reduces into a host
//! scalar makes each gang accumulate every run of the loop, and the gangs
//! are combined once, when the region ends. On the IR the scalar becomes a
//! reduction of the region's loop over the gangs (the one lowering makes
//! for the construct's own reductions, else a new one around the body),
//! whose copy the nested loop then reduces into (`localize`).
//!
//! Owns: `promote`, `reductions_first`. May call: `ir`, `analysis::private` (the cells), the
//! parent module's walk, `localize`.

use super::{candidates, loop_of};
use crate::analysis::private::{Scalar, Scope};
use crate::diag::{DResult, Diagnostics};
use crate::ir::{Function, Loop, Parallelism, RedOp, RedTarget, Remark, SrcLoc, Stmt};
use crate::schedule::localize::{localize, Start};

/// Promotes the nested gang reductions of kernel body `f` (cells `scope`)
/// to the region's loop over the gangs; returns their remarks. A nested
/// gang reduction of an array element is an error.
pub(super) fn promote(f: &mut Function, scope: &Scope) -> DResult<Vec<(SrcLoc, Remark)>> {
    let nodes = candidates(f);
    let mut found: Vec<(SrcLoc, RedOp, crate::ir::LocalId)> = vec![];
    for n in &nodes {
        let lp = loop_of(f, n);
        let gang = matches!(lp.par, Parallelism::Par { gang: Some(_), .. });
        if !gang || !inside_loop(f, &n.path) {
            continue;
        }
        for r in &lp.reductions {
            let RedTarget::Memory(addr) = r.target else {
                continue;
            };
            match scope.at(f, addr) {
                Some(cell) if !found.iter().any(|(_, _, c)| *c == cell) => {
                    found.push((clause_of(f, r.private, &lp.loc).1, r.op, cell));
                }
                Some(_) => {}
                None if r.scalar(&f.local(r.private).ty) => {
                    let (var, at) = clause_of(f, r.private, &lp.loc);
                    return Err(Diagnostics::one(
                        Some(at),
                        format!("reduction of an element of '{var}' across gangs inside another loop of the region is not supported (reduce a scalar, or put the reduction on the outermost loop)"),
                    ));
                }
                // A section of an array: left to the validator.
                None => {}
            }
        }
    }
    if found.is_empty() {
        return Ok(vec![]);
    }
    let region = region_loop(f, &found[0].0);
    let mut out = vec![];
    for (loc, op, cell) in found {
        // The construct reduces it already: nothing to promote.
        let Stmt::Loop(r) = &f.body[region] else {
            unreachable!("the region's loop over the gangs");
        };
        if r.reductions
            .iter()
            .any(|x| matches!(x.target, RedTarget::Memory(a) if scope.at(f, a) == Some(cell)))
        {
            continue;
        }
        let name = f.local(cell).name.clone();
        let mut body = std::mem::take(&mut f.body);
        localize(
            f,
            scope,
            &mut body,
            region,
            Scalar::Cell(cell),
            Start::Reduction(op),
        );
        f.body = body;
        out.push((
            loc,
            format!(
                "reduction({}:{name}) across gangs inside another loop: each gang accumulates every run of the loop, combined at the end of the construct",
                op.symbol()
            )
            .into(),
        ));
    }
    Ok(out)
}

/// The variable of the reduction with private copy `private` and where
/// its clause names it (as lowering recorded them), else the copy's name
/// and `loop_loc`.
fn clause_of(f: &Function, private: crate::ir::LocalId, loop_loc: &SrcLoc) -> (String, SrcLoc) {
    let named = f
        .undecided
        .as_ref()
        .and_then(|u| u.named.iter().find(|n| n.private == private));
    match named {
        Some(n) => (n.var.clone(), n.loc.clone()),
        None => (f.local(private).name.clone(), loop_loc.clone()),
    }
}

/// The order that puts first, among the parameters of kernel `k` (cells
/// `scope`), those its loop over the gangs reduces into, in the order of
/// its reductions, as lowering orders the construct's own reductions
/// (made before the body): the index of each parameter in turn.
pub(super) fn reductions_first(k: &crate::ir::Kernel, scope: &Scope) -> Vec<usize> {
    let mut order: Vec<usize> = (0..k.params.len()).collect();
    let [Stmt::Loop(l)] = k.body.body.as_slice() else {
        return order;
    };
    let first: Vec<crate::ir::LocalId> = l
        .reductions
        .iter()
        .filter_map(|r| match r.target {
            RedTarget::Memory(a) => scope.at(&k.body, a),
            RedTarget::Local(t) => Some(t),
        })
        .collect();
    let rank = |i: &usize| {
        first
            .iter()
            .position(|c| *c == k.params[*i].local)
            .unwrap_or(first.len())
    };
    order.sort_by_key(rank);
    order
}

/// Whether the block at `path` of `f`'s body is inside a loop (a counted
/// loop other than the region's over the gangs, or a `while`).
fn inside_loop(f: &Function, path: &[(usize, usize)]) -> bool {
    let mut b = &f.body;
    for &(i, j) in path {
        match &b[i] {
            Stmt::Loop(l) if !l.over_gangs(f) => return true,
            Stmt::While { .. } => return true,
            s => b = s.blocks()[j],
        }
    }
    false
}

/// The index in `f`'s body of the region's loop over the gangs: the body
/// itself when it is one (lowering's, for the construct's reductions),
/// else a new one around the whole body (at `loc`).
fn region_loop(f: &mut Function, loc: &SrcLoc) -> usize {
    if let [Stmt::Loop(l)] = f.body.as_slice() {
        if l.over_gangs(f) {
            return 0;
        }
    }
    let gang = Parallelism::Par {
        gang: Some(0),
        worker: false,
        vector: None,
    };
    let mut l = Loop::over_the_gangs(f, gang, vec![], loc.clone());
    l.body = std::mem::take(&mut f.body);
    f.body = vec![Stmt::Loop(l)];
    0
}
