//! The loop nests of an undecided `kernels` kernel: the facts of each loop
//! the OpenUH mapping reads ([`NestLoop`]), as the IR gives them — the
//! directive, whether the loop is tightly nested in the loop around it
//! (the source's fact, [`crate::ir::Undecided::loose`]),
//! the dependence test's verdict (`analysis::depend`, with the host
//! scalars the loop only accumulates into) and the contiguity score of its
//! index (`analysis::contiguity`) — then the mapping ([`map_nest`]), the
//! reductions found (made on the IR) and the remarks.
//!
//! Owns: `kernels`. May call: `ir`, `analysis::depend`,
//! `analysis::contiguity`, `analysis::private` (the kernel's cells), the
//! parent module's walk and remarks, `kernels` (the mapping).

use super::{candidates, describe, finish_remarks, loop_of, loop_of_mut, reduce_into};
use crate::analysis::body::Target;
use crate::analysis::contiguity;
use crate::analysis::depend::{independent, Facts, HostKind};
use crate::analysis::private::{Scalar, Scope};
use crate::diag::{DResult, Diagnostics};
use crate::ir::{
    Function, LocalId, Loop, Module, Parallelism, Param, ParamMode, RedOp, Remark, SrcLoc, Type,
};
use crate::schedule::kernels::{map_nest, NestLoop, Verdict};
use std::collections::HashMap;

/// Where a reduction the dependence test found goes: a host scalar the
/// kernel receives (the loop gets a reduction of it), or one the loop
/// already reduces (its reduction's private copy: nothing to add).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Found {
    Host(Scalar),
    Own,
}

/// Decides the loops of kernels-construct body `f` (parameters `params`,
/// cells `scope`; `callees`: the device functions' names) and returns their
/// remarks, in pre-order; a loop of a level nested in a loop of the same
/// or an inner level, in a nest that names the worker level, is an error
/// at the loop (as in a `parallel` construct).
pub(super) fn kernels(
    f: &mut Function,
    scope: &Scope,
    params: &[Param],
    callees: &[String],
) -> DResult<Vec<(SrcLoc, Remark)>> {
    let nodes = candidates(f);
    let loose = f
        .undecided
        .as_ref()
        .map(|u| u.loose.clone())
        .unwrap_or_default();
    let host = host_kinds(f, scope, params);
    let scores = scores(f);
    // The facts, then the mapping, of each nest (a root and the loops in it).
    let mut facts: Vec<NestLoop> = vec![];
    let mut found: Vec<Vec<(RedOp, Found, String)>> = vec![];
    for n in &nodes {
        let lp = loop_of(f, n);
        let (verdict, targets) = verdict(f, lp, &host, params, callees);
        found.push(targets);
        facts.push(NestLoop {
            directive: lp.directive.unwrap_or_default(),
            // A loop without directive has no clause: its reductions are
            // ones found before (a module re-planned).
            reduces: lp.directive.is_some() && !lp.reductions.is_empty(),
            verdict,
            parent: n.parent,
            tight: n.parent.is_none() || !loose.contains(&lp.loc),
            score: scores.get(&lp.var).copied().unwrap_or(0),
        });
    }
    let mut mapped = vec![];
    let mut root = 0;
    while root < nodes.len() {
        let end = (root + 1..nodes.len())
            .find(|&k| nodes[k].parent.is_none())
            .unwrap_or(nodes.len());
        // Parents relative to the nest's root.
        let nest: Vec<NestLoop> = facts[root..end]
            .iter()
            .map(|x| NestLoop {
                parent: x.parent.map(|p| p - root),
                ..x.clone()
            })
            .collect();
        let decided = map_nest(&nest).map_err(|(k, e)| {
            let at = loop_of(f, &nodes[root + k]).loc.clone();
            Diagnostics::one(Some(at), e.to_string())
        })?;
        mapped.extend(decided);
        root = end;
    }
    let mut out = vec![];
    for ((n, m), targets) in nodes.iter().zip(mapped).zip(found) {
        let parallel = m.par != Parallelism::Seq;
        let lp = loop_of_mut(f, n);
        lp.par = m.par;
        // A loop without directive that stays sequential keeps C's
        // semantics (its C form, when it has one: `plan_levels` runs it):
        // nothing for the launch to read.
        if lp.directive.is_none() && !parallel {
            lp.sizes = None;
        }
        let d = lp.directive.unwrap_or_default();
        let loc = lp.loc.clone();
        for (op, t, name) in targets.into_iter().filter(|_| parallel) {
            let lp = loop_of(f, n);
            let known = lp
                .reductions
                .iter()
                .any(|r| f.local(r.private).name == name);
            let named = m.found.iter().any(|(o, v)| *o == op && *v == name);
            if let (Found::Host(s), false, true) = (t, known, named) {
                reduce_into(f, scope, n, s, op);
            }
        }
        let why = match m.why {
            Some(w) => w.into(),
            None => {
                let how = if d.explicit() {
                    ""
                } else if d.independent {
                    " (independent)"
                } else {
                    " (independent: no dependence found)"
                };
                let mut r = describe(f, loop_of(f, n), m.par);
                r.push_str(how);
                r
            }
        };
        out.push((loc, why));
    }
    finish_remarks(f, &nodes, &mut out, false);
    Ok(out)
}

/// What the dependence test may assume of each parameter: value scalars
/// and cells are host scalars; pointers are their own memory where
/// lowering says so ([`Param::own`]: arrays, `restrict`), else may alias.
fn host_kinds(f: &Function, scope: &Scope, params: &[Param]) -> HashMap<LocalId, HostKind> {
    params
        .iter()
        .map(|p| {
            let ty = &f.local(p.local).ty;
            let kind = match p.mode {
                ParamMode::Value if matches!(ty, Type::Int(_) | Type::Float(_)) => HostKind::Scalar,
                ParamMode::DevicePtr if scope.holds(p.local) => HostKind::Scalar,
                ParamMode::DevicePtr if p.own => HostKind::NoAlias,
                _ => HostKind::MayAlias,
            };
            (p.local, kind)
        })
        .collect()
}

/// The contiguity score of each loop, by its index variable.
fn scores(f: &Function) -> HashMap<LocalId, u32> {
    let module = Module::default();
    contiguity::loops(&module, f)
        .into_iter()
        .map(|l| {
            let n = u32::try_from(l.contiguous_count(l.vars[0])).unwrap_or(u32::MAX);
            (l.vars[0], n)
        })
        .collect()
}

/// The dependence test's verdict on `lp`, and where each reduction it
/// found goes (with the name the remark gives it).
fn verdict(
    f: &Function,
    lp: &Loop,
    host: &HashMap<LocalId, HostKind>,
    params: &[Param],
    callees: &[String],
) -> (Verdict, Vec<(RedOp, Found, String)>) {
    let outside = f
        .undecided
        .as_ref()
        .is_some_and(|u| u.outside.contains(&lp.loc));
    if lp.directive.is_none() && outside {
        // Parallel, the loop's variable would be private: one declared
        // outside may be used after the loop.
        let why = format!(
            "its variable '{}' is declared outside the loop",
            f.local(lp.var).name
        );
        return (Err(why), vec![]);
    }
    let callee = |n: usize| callees.get(n).cloned().unwrap_or_default();
    let fx = Facts {
        f,
        host,
        callee: &callee,
    };
    let reds = match independent(&fx, lp, &[]) {
        Ok(r) => r,
        Err(e) => return (Err(e), vec![]),
    };
    let mut named = vec![];
    let mut targets = vec![];
    for (op, t) in reds {
        let (Target::Local(l) | Target::Cell(l, _)) = t;
        let to = if let Some(p) = params.iter().find(|p| p.local == l) {
            let s = match p.mode {
                ParamMode::Value => Scalar::Local(l),
                _ => Scalar::Cell(l),
            };
            (Found::Host(s), p.name.clone())
        } else if lp.reductions.iter().any(|r| r.private == l) {
            (Found::Own, f.local(l).name.clone())
        } else {
            let why = format!("'{}' is assigned in every iteration", f.local(l).name);
            return (Err(why), vec![]);
        };
        named.push((op, to.1.clone()));
        targets.push((op, to.0, to.1));
    }
    (Ok(named), targets)
}
