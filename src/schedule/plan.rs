//! The loop-level decision on the IR (issue 16): for each body whose
//! loops' levels are undecided ([`crate::ir::Function::undecided`]), which
//! loops are partitioned, over which levels and launch axes, by the
//! construct's kind:
//! * `parallel` (and routines): [`parallel_loop`] from each loop's
//!   directive, the loops around it and the shape of the nest below it;
//! * `kernels`: `kernels::map_nest` (the OpenUH mappings) from the facts of each
//!   nest `nest.rs` gathers on the IR (dependence verdicts, tightness,
//!   contiguity), and the reductions the dependence test found, made on
//!   the IR (`localize` with [`Start::Reduction`]);
//! * `serial`: every loop sequential.
//!
//! Then a gang loop nested in another loop that reduces into a host scalar
//! makes it a reduction of the region's loop over the gangs (`promote.rs`),
//! and a loop without directive left sequential that keeps its C form
//! ([`crate::ir::Loop::c_form`]) runs as C writes it.
//!
//! Lowering leaves every body's levels undecided, with the facts of the
//! source the decision reads ([`crate::ir::Undecided`]); each decision is
//! a remark (`-Minfo=accel`).
//!
//! Owns: [`plan_levels`], [`describe`]. May call: `ir`, `levels`,
//! `kernels`, `nest` (the kernels facts), `promote`, `localize`, `privatize` (its
//! block paths), `analysis::private` (the kernel's scope).

mod nest;
mod promote;

use super::levels::{parallel_loop, Outer, Shape};
use super::localize::{localize, Start};
use super::privatize::{block_at, block_at_mut};
use crate::analysis::private::{Scalar, Scope};
use crate::diag::{DResult, Diagnostics};
use crate::ir::{
    Block, ComputeKind, Function, LocalId, Loop, Module, Parallelism, Reduction, Remark,
    RoutineLevel, SrcLoc, Stmt, Type,
};

/// One candidate loop of a body: where it is (the block path and its
/// index there), the candidate it is nested in, and those nested in it.
#[derive(Clone, Debug)]
struct Node {
    path: Vec<(usize, usize)>,
    at: usize,
    parent: Option<usize>,
    children: Vec<usize>,
}

/// The candidate loops of `f` in pre-order: its counted loops but
/// lowering's loops over the gangs (decided when made).
fn candidates(f: &Function) -> Vec<Node> {
    fn visit(
        f: &Function,
        b: &Block,
        path: &mut Vec<(usize, usize)>,
        parent: Option<usize>,
        out: &mut Vec<Node>,
    ) {
        for (i, s) in b.iter().enumerate() {
            let mut me = parent;
            if let Stmt::Loop(l) = s {
                if !l.over_gangs(f) {
                    out.push(Node {
                        path: path.clone(),
                        at: i,
                        parent,
                        children: vec![],
                    });
                    let n = out.len() - 1;
                    if let Some(p) = parent {
                        out[p].children.push(n);
                    }
                    me = Some(n);
                }
            }
            for (j, inner) in s.blocks().into_iter().enumerate() {
                path.push((i, j));
                visit(f, inner, path, me, out);
                path.pop();
            }
        }
    }
    let mut out = vec![];
    visit(f, &f.body, &mut vec![], None, &mut out);
    out
}

fn loop_of<'f>(f: &'f Function, n: &Node) -> &'f Loop {
    match &block_at(&f.body, &n.path)[n.at] {
        Stmt::Loop(l) => l,
        _ => unreachable!("a candidate is a loop"),
    }
}

fn loop_of_mut<'f>(f: &'f mut Function, n: &Node) -> &'f mut Loop {
    match &mut block_at_mut(&mut f.body, &n.path)[n.at] {
        Stmt::Loop(l) => l,
        _ => unreachable!("a candidate is a loop"),
    }
}

/// Decides the levels of every loop of each undecided kernel and device
/// function of `m`; returns the remarks, each with the kernel it is about
/// (`None`: a device function), by kernel in order (each kernel's loops'
/// in source order, then its promoted reductions'), then the device
/// functions'. A loop nested in one of the same or an inner level is an
/// error at the loop, and so is a nested gang reduction of an array
/// element.
pub fn plan_levels(m: &mut Module) -> DResult<Vec<(Option<usize>, SrcLoc, Remark)>> {
    let mut out = vec![];
    let names: Vec<String> = m.functions.iter().map(|d| d.name.clone()).collect();
    for (ki, k) in m.kernels.iter_mut().enumerate() {
        if k.body.undecided.is_none() {
            continue;
        }
        let mut remarks = match k.kind {
            ComputeKind::Serial => serial(&mut k.body),
            ComputeKind::Parallel => parallel(&mut k.body, Outer::default())?,
            ComputeKind::Kernels => {
                let scope = Scope::of_kernel(k);
                let params: Vec<_> = k.params.clone();
                nest::kernels(&mut k.body, &scope, &params, &names)?
            }
        };
        sort(&mut remarks);
        if k.kind != ComputeKind::Serial {
            let scope = Scope::of_kernel(k);
            let promoted = promote::promote(&mut k.body, &scope)?;
            if !promoted.is_empty() {
                // The parameters (and their host arguments) in a new order.
                let order = promote::reductions_first(k, &scope);
                k.params = order.iter().map(|&i| k.params[i].clone()).collect();
                if let Some(c) = m.host.compute_mut(ki) {
                    if let crate::ir::host::ConstructKind::Compute { args, .. } = &mut c.kind {
                        if args.len() == order.len() {
                            *args = order.iter().map(|&i| args[i].clone()).collect();
                        }
                    }
                }
            }
            remarks.extend(promoted);
        }
        // After the promotion, which may give the nest's loops reductions
        // (then they keep their indices).
        if k.kind == ComputeKind::Parallel {
            remarks.extend(super::interchange::contiguous_lanes(&mut k.body));
        }
        out.extend(
            remarks
                .into_iter()
                .map(|(l, r)| (Some(ki), l, r.of_kernel(ki))),
        );
        let map = c_forms(&mut k.body);
        for p in &mut k.params {
            if let Some(Some(l)) = map.get(p.local.0 as usize) {
                p.local = *l;
            }
        }
        k.body.undecided = None;
    }
    for d in &mut m.functions {
        if d.body.undecided.is_none() {
            continue;
        }
        // Loop directives inside: levels up to the routine's own.
        let outer = Outer {
            gang: d.level < RoutineLevel::Gang,
            worker: d.level < RoutineLevel::Worker,
            vector: d.level < RoutineLevel::Vector,
            gang_dim: None,
        };
        let mut remarks = parallel(&mut d.body, outer)?;
        sort(&mut remarks);
        out.extend(remarks.into_iter().map(|(l, r)| (None, l, r)));
        // (A routine's loops without directive are C's: no C form.)
        d.body.undecided = None;
    }
    Ok(out)
}

/// Source order (stable: a loop's remark before the ones at its place).
fn sort(remarks: &mut [(SrcLoc, Remark)]) {
    remarks.sort_by_key(|(l, _)| (l.line, l.col));
}

/// Runs each loop of `f` that is left sequential and keeps its C form as
/// C writes it, drops the C form of the others, and removes the locals
/// only the forms not chosen used; gives the new id of each old local.
fn c_forms(f: &mut Function) -> Vec<Option<LocalId>> {
    let mut dead = vec![];
    choose_forms(&mut f.body, &mut dead);
    f.drop_locals(&dead)
}

/// [`c_forms`] in block `b`: the locals no longer used go to `dead`.
fn choose_forms(b: &mut Block, dead: &mut Vec<LocalId>) {
    let mut i = 0;
    while i < b.len() {
        for inner in b[i].blocks_mut() {
            choose_forms(inner, dead);
        }
        if let Stmt::Loop(l) = &mut b[i] {
            if let Some(c) = l.c_form.take() {
                if l.par != Parallelism::Seq {
                    dead.extend(&c.own);
                } else {
                    dead.extend(&c.counted);
                    let stmts = c.into_stmts(std::mem::take(&mut l.body));
                    let n = stmts.len();
                    b.splice(i..=i, stmts);
                    i += n;
                    continue;
                }
            }
        }
        i += 1;
    }
}

/// A serial construct: every loop sequential, in one thread (no size
/// clause of its loops sizes the launch).
fn serial(f: &mut Function) -> Vec<(SrcLoc, Remark)> {
    let nodes = candidates(f);
    let mut out = vec![];
    for n in &nodes {
        let lp = loop_of_mut(f, n);
        lp.par = Parallelism::Seq;
        if let Some(z) = &mut lp.sizes {
            (z.gang, z.worker, z.vector) = (None, None, None);
        }
        out.push((
            lp.loc.clone(),
            "loop run sequentially: serial construct".into(),
        ));
    }
    finish_remarks(f, &nodes, &mut out, true);
    out
}

/// A parallel construct (or a routine, `outer` its levels above): each
/// loop's levels from its directive, outermost first. (Its counted loops
/// all have one: lowering leaves a plain `for` loop there a C loop.)
fn parallel(f: &mut Function, outer: Outer) -> DResult<Vec<(SrcLoc, Remark)>> {
    let nodes = candidates(f);
    let mut outers: Vec<Outer> = vec![outer; nodes.len()];
    let mut out = vec![];
    for (i, n) in nodes.iter().enumerate() {
        let above = n.parent.map_or(outer, |p| outers[p]);
        let shape = Shape {
            nested: !n.children.is_empty(),
            nested_twice: n.children.iter().any(|&c| !nodes[c].children.is_empty()),
        };
        let lp = loop_of(f, n);
        let d = lp.directive.unwrap_or_default();
        let decided = parallel_loop(&d, above, shape)
            .map_err(|e| Diagnostics::one(Some(lp.loc.clone()), e.to_string()))?;
        outers[i] = decided.inner;
        let why = match decided.seq_why {
            Some(w) => Remark::from(w),
            None => describe(f, lp, decided.par),
        };
        out.push((lp.loc.clone(), why));
        loop_of_mut(f, n).par = decided.par;
    }
    finish_remarks(f, &nodes, &mut out, true);
    Ok(out)
}

/// Appends to each loop's remark (`remarks[i]` is `nodes[i]`'s) its tile
/// sizes and (with `reductions`, or where it is partitioned) its
/// reductions, as the clauses write them.
fn finish_remarks(
    f: &Function,
    nodes: &[Node],
    remarks: &mut [(SrcLoc, Remark)],
    reductions: bool,
) {
    for (n, (_, r)) in nodes.iter().zip(remarks.iter_mut()) {
        let lp = loop_of(f, n);
        if !lp.tile.is_empty() {
            // As written: the innermost loop's size first.
            let sizes = super::tile::sizes(&lp.tile);
            let sizes: Vec<String> = sizes.iter().rev().map(u32::to_string).collect();
            r.push_str(&format!(", tile({})", sizes.join(",")));
        }
        if reductions || lp.par != Parallelism::Seq {
            for red in &lp.reductions {
                r.push_str(&format!(
                    ", reduction({}:{})",
                    red.op.symbol(),
                    reduced(f, red)
                ));
            }
        }
    }
}

/// What a reduction reduces, as its clause names it (as lowering recorded
/// it, else from its private copy): the variable (a scalar, a whole
/// array), or elements of an array (`a[lo:n]`, `a[lo]`, `a[k]`).
fn reduced(f: &Function, r: &Reduction) -> String {
    let named = f.undecided.as_ref().and_then(|u| {
        u.named
            .iter()
            .find(|n| n.private == r.private)
            .map(|n| n.written.clone())
    });
    if let Some(text) = named {
        return text;
    }
    let private = f.local(r.private);
    match (&private.ty, r.parts.first()) {
        (Type::Array(elem, n), Some(p)) if elem.size() > 0 => {
            let lo = p.offset / elem.size();
            match p.count {
                c if lo == 0 && c == *n => private.name.clone(),
                1 => format!("{}[{lo}]", private.name),
                c => format!("{}[{lo}:{c}]", private.name),
            }
        }
        _ => private.name.clone(),
    }
}

/// A remark's description of partitioned loop `lp` of `f` with
/// parallelism `par`: its levels (the thread counts named once the launch
/// is known), and its collapse.
pub fn describe(f: &Function, lp: &Loop, par: Parallelism) -> Remark {
    let forced = f
        .undecided
        .as_ref()
        .is_some_and(|u| u.forced.contains(&lp.loc));
    Remark::of_loop(par, lp.collapsed.len() + 1, forced)
}

/// Gives loop `n` of `f` its reduction (`op`) of `scalar` (the loop's own
/// copy, which the threads' copies combine into after it).
fn reduce_into(f: &mut Function, scope: &Scope, n: &Node, scalar: Scalar, op: crate::ir::RedOp) {
    let mut body = std::mem::take(&mut f.body);
    let at = block_at_mut(&mut body, &n.path);
    localize(f, scope, at, n.at, scalar, Start::Reduction(op));
    f.body = body;
}
