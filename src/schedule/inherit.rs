//! Implicit reductions on the IR, as nvc and GCC supply them: a
//! partitioned loop nested in a loop that reduces into `v` (or in a
//! `parallel` construct that does: the loop over the gangs lowering makes
//! of it), that assigns `v` without a clause of its own for it and does
//! not take `v` as its own (written first in every iteration: then
//! `auto_privates` makes it private), reduces into `v` too (`parallel loop
//! gang reduction(+:s)` over `loop worker` / `loop vector` loops that add
//! to `s`: OpenACC asks for the clause on each loop). Sequential loops
//! pass the reductions around them on, with their own.
//!
//! On the IR, `v` inside the enclosing loop is the private copy its
//! reduction gives the body ([`crate::ir::Reduction::private`]); the
//! nested loop gets its own copy ([`localize`]) and a reduction of it
//! into the enclosing copy. Kernels of `kernels` and `serial` constructs
//! are left alone (their loops' levels are the compiler's, and it found
//! their reductions itself; a serial construct partitions nothing).
//!
//! Owns: [`implicit_reductions`]. May call: `ir`, `analysis::private`,
//! `localize`, `privatize` (its walk helpers).

use super::localize::{localize, Start};
use super::privatize::{block_at, block_at_mut, partitioned, Path};
use crate::analysis::private::{local_scalar, Scalar, Scope};
use crate::ir::{
    ComputeKind, Function, LocalId, Module, RedOp, RedPart, RedTarget, Reduction, SrcLoc, Stmt,
};

/// One implicit reduction made: at the loop's position, `reduction(op:var)`
/// for the reduction of the loop (or construct) at line `origin`.
#[derive(Clone, Debug, PartialEq)]
pub struct Implicit {
    pub loc: SrcLoc,
    pub op: RedOp,
    pub var: String,
    pub origin: u32,
}

/// A reduction of a loop around: its private copy (what the code inside
/// reads and assigns), how it combines, and its loop's line.
#[derive(Clone)]
struct Above {
    copy: LocalId,
    op: RedOp,
    parts: Vec<RedPart>,
    origin: u32,
}

/// Gives each partitioned loop of `m`'s `parallel` kernels and device
/// functions the reductions it takes from the loops around it; returns
/// them in pre-order (each loop's in the order of the loops around).
pub fn implicit_reductions(m: &mut Module) -> Vec<Implicit> {
    let mut out = vec![];
    for k in m.kernels.iter_mut() {
        if k.kind != ComputeKind::Parallel {
            continue;
        }
        let scope = Scope::of_kernel(k);
        walk(&mut k.body, &scope, &[], &[], &mut out);
    }
    for f in &mut m.functions {
        let scope = Scope::function(&f.params);
        walk(&mut f.body, &scope, &[], &[], &mut out);
    }
    out
}

/// The loops of the block at `path` of `f`'s body, inside loops that
/// reduce as `above` says.
fn walk(f: &mut Function, scope: &Scope, path: &Path, above: &[Above], out: &mut Vec<Implicit>) {
    let mut i = 0;
    while i < block_at(&f.body, path).len() {
        let inner = match &block_at(&f.body, path)[i] {
            Stmt::Loop(lp) => {
                let own: Vec<Above> = lp
                    .reductions
                    .iter()
                    .map(|r| Above {
                        copy: r.private,
                        op: r.op,
                        parts: r.parts.clone(),
                        origin: lp.loc.line,
                    })
                    .collect();
                if partitioned(f, lp) {
                    let (taken, kept) = take(f, scope, lp, above);
                    let loc = lp.loc.clone();
                    // A variable taken is the loop's copy inside it, where
                    // the reduction around was.
                    let mut inner = kept;
                    for a in taken {
                        let name = f.local(a.copy).name.clone();
                        let mut body = std::mem::take(&mut f.body);
                        let at = block_at_mut(&mut body, path);
                        let copy =
                            localize(f, scope, at, i, Scalar::Local(a.copy), Start::Undefined);
                        if let (Some(copy), Some(Stmt::Loop(lp))) = (copy, at.get_mut(i)) {
                            lp.reductions.push(Reduction {
                                op: a.op,
                                private: copy,
                                target: RedTarget::Local(a.copy),
                                parts: a.parts.clone(),
                            });
                            out.push(Implicit {
                                loc: loc.clone(),
                                op: a.op,
                                var: name,
                                origin: a.origin,
                            });
                            for x in inner.iter_mut().filter(|x| x.copy == a.copy) {
                                x.copy = copy;
                            }
                        }
                        f.body = body;
                    }
                    inner.extend(own);
                    inner
                } else {
                    let mut inner = above.to_vec();
                    inner.extend(own);
                    inner
                }
            }
            _ => above.to_vec(),
        };
        let blocks = block_at(&f.body, path)[i].blocks().len();
        for j in 0..blocks {
            let mut p = path.to_vec();
            p.push((i, j));
            walk(f, scope, &p, &inner, out);
        }
        i += 1;
    }
}

/// Of the reductions `above` partitioned loop `lp` is in: those it takes
/// (it assigns their variable, not first in every iteration, and no
/// reduction of its own combines into it), and those it passes on to the
/// loops inside (all but those it takes as its own, written first).
fn take(
    f: &Function,
    scope: &Scope,
    lp: &crate::ir::Loop,
    above: &[Above],
) -> (Vec<Above>, Vec<Above>) {
    let (mut taken, mut kept) = (vec![], vec![]);
    for a in above {
        let facts = local_scalar(f, scope, lp, a.copy);
        let s = Scalar::Local(a.copy);
        let first = facts.written_first.contains(&s);
        let named = lp
            .reductions
            .iter()
            .any(|r| r.target == RedTarget::Local(a.copy));
        if !first {
            kept.push(a.clone());
        }
        if !first && !named && facts.assigned.contains(&s) {
            taken.push(a.clone());
        }
    }
    (taken, kept)
}
