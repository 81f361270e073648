//! The differential check of [`super::plan_levels`] against the front
//! end's loop plan (issue 16, until lowering leaves the levels undecided):
//! each kernel and device function of a lowered module is re-planned with
//! its levels reset to undecided, and what the pass decides — each loop's
//! levels, reductions and remark — is compared with what the front end
//! decided. The driver runs it when `ACCC_REPLAN` is set.
//!
//! The reductions the front end found in `kernels` loops are undone first
//! (the body accumulates into the host scalar itself, as lowering leaves
//! it), so the pass finds them and makes their copies itself.
//!
//! The facts the lowered module does not say (which pointer parameters
//! are memory of their own, which collapses are forced) are the front
//! end's, one [`Undecided`] per kernel. No loop variable is assumed
//! declared outside its loop: the loops of a `kernels` construct that stay
//! sequential without a directive are C loops there, not compared.
//!
//! Owns: [`replan`]. May call: `ir`, the parent module.

use super::{candidates, loop_of, plan_levels};
use crate::analysis::private::Scope;
use crate::ir::{
    print_parallelism, Block, Expr, Function, LocalId, Module, Parallelism, RedTarget, Remark,
    SrcLoc, Stmt, Undecided,
};
use std::collections::HashMap;

/// Resets `f`'s loop levels to undecided, with the source's `facts`.
fn reset(f: &mut Function, facts: Undecided) {
    let nodes = candidates(f);
    for n in &nodes {
        super::loop_of_mut(f, n).par = Parallelism::Seq;
    }
    f.undecided = Some(Box::new(facts));
}

/// Undoes, in each loop of `kernels` body `f` without directive, the
/// reductions into host scalars (cells of `scope`) that the front end
/// found: the body accumulates into the scalar itself again (loads of it,
/// stores to it in single-thread code, as lowering writes them), so the
/// pass finds them itself.
fn unfind(f: &mut Function, scope: &Scope) {
    for n in candidates(f) {
        let lp = super::loop_of_mut(f, &n);
        if lp.directive.is_some() {
            continue;
        }
        let reds = std::mem::take(&mut lp.reductions);
        let mut kept = vec![];
        let mut body = std::mem::take(&mut lp.body);
        for r in reds {
            let cell = match r.target {
                RedTarget::Memory(a) => scope.at(f, a),
                RedTarget::Local(_) => None,
            };
            match cell {
                Some(cell) => to_cell(f, &mut body, r.private, cell),
                None => kept.push(r),
            }
        }
        let lp = super::loop_of_mut(f, &n);
        lp.body = body;
        lp.reductions = kept;
    }
}

/// Every read of `private` in `b` becomes a load of `cell`, every
/// assignment of it a store to `cell` in single-thread code.
fn to_cell(f: &mut Function, b: &mut Block, private: LocalId, cell: LocalId) {
    fn stores(f: &mut Function, b: &mut Block, private: LocalId, cell: LocalId) {
        for s in b.iter_mut() {
            for inner in s.blocks_mut() {
                stores(f, inner, private, cell);
            }
            if let Stmt::Assign { local, value } = *s {
                if local == private {
                    let ptr = f.read(cell);
                    *s = Stmt::Single(vec![Stmt::Store { ptr, value }]);
                }
            }
        }
    }
    stores(f, b, private, cell);
    for i in 0..f.exprs.len() {
        if f.exprs[i] == Expr::Local(private) {
            let ptr = f.read(cell);
            f.exprs[i] = Expr::Load(ptr);
        }
    }
}

/// One line per loop, in pre-order: `LOC levels [reductions]`.
fn loops(f: &Function) -> Vec<(SrcLoc, String)> {
    candidates(f)
        .iter()
        .map(|n| {
            let lp = loop_of(f, n);
            let reds: Vec<String> = lp
                .reductions
                .iter()
                .map(|r| format!("{}:{}", r.op.symbol(), f.local(r.private).name))
                .collect();
            let line = format!("{} [{}]", print_parallelism(lp.par), reds.join(" "));
            (lp.loc.clone(), line)
        })
        .collect()
}

/// Re-plans every kernel and device function of lowered module `m` and
/// compares with the front end's decision (`remarks`: the front end's;
/// `facts`: each kernel's, by index, as the front end recorded them);
/// returns one line per body: `agree NAME (KIND, N loops)` or `differ
/// NAME (…): …`.
pub fn replan(m: &Module, remarks: &[(SrcLoc, Remark)], facts: &[Undecided]) -> Vec<String> {
    let mut again = m.clone();
    for (i, k) in again.kernels.iter_mut().enumerate() {
        let scope = Scope::of_kernel(k);
        if k.kind == crate::ir::ComputeKind::Kernels {
            unfind(&mut k.body, &scope);
        }
        reset(&mut k.body, facts.get(i).cloned().unwrap_or_default());
    }
    for d in &mut again.functions {
        if d.linkage != crate::ir::Linkage::Import {
            reset(&mut d.body, Undecided::default());
        }
    }
    let said = match plan_levels(&mut again) {
        Ok(r) => r,
        Err(e) => {
            let why = e.0.first().map(|x| x.message.clone()).unwrap_or_default();
            return vec![format!("differ (module): the pass failed: {why}")];
        }
    };
    // The loop remarks each side made, by location, in order.
    let by_loc = |rs: &[(SrcLoc, Remark)]| {
        let mut map: HashMap<(u32, u32), Vec<String>> = HashMap::new();
        for (l, r) in rs {
            let t = r.unsized_text();
            if t.starts_with("loop ") {
                map.entry((l.line, l.col)).or_default().push(t);
            }
        }
        map
    };
    let (mut front, mut pass) = (by_loc(remarks), by_loc(&said));
    let bodies = m
        .kernels
        .iter()
        .map(|k| (&k.name, k.kind.name(), &k.body))
        .chain(m.functions.iter().map(|d| (&d.name, "routine", &d.body)));
    let again_bodies = again
        .kernels
        .iter()
        .map(|k| &k.body)
        .chain(again.functions.iter().map(|d| &d.body));
    let mut out = vec![];
    for ((name, kind, before), after) in bodies.zip(again_bodies) {
        let mut why = vec![];
        let count = candidates(before).len();
        for ((loc, a), (_, b)) in loops(before).into_iter().zip(loops(after)) {
            if a != b {
                why.push(format!("{loc}: levels {a} vs {b}"));
            }
            let key = (loc.line, loc.col);
            let take = |m: &mut HashMap<(u32, u32), Vec<String>>| {
                m.get_mut(&key)
                    .and_then(|v| (!v.is_empty()).then(|| v.remove(0)))
            };
            let (ra, rb) = (take(&mut front), take(&mut pass));
            if ra != rb {
                why.push(format!("{loc}: remark {ra:?} vs {rb:?}"));
            }
        }
        let what = format!("{name} ({kind}, {count} loops)");
        if why.is_empty() {
            out.push(format!("agree {what}"));
        } else {
            out.push(format!("differ {what}: {}", why.join("; ")));
        }
    }
    out
}
