//! Coalescing a worker–vector nest: when a `parallel` construct's worker
//! loop tightly holds a vector loop and the body's accesses walk memory
//! contiguously in the *worker* loop's index, the two loops exchange their
//! headers, so that consecutive vector lanes (one warp) take consecutive
//! elements.
//!
//! Owns: [`contiguous_lanes`]. May call: `ir`, `analysis::affine`.
//!
//! NPB SP's `x_solve` fills `lhsp[m][k][i][j]` in a nest `loop worker` over
//! `j`, `loop vector` over `i`: a warp's 32 lanes take 32 values of `i`,
//! each 103 doubles from the next, so every access is 32 transactions
//! where one would do. The loops of a worker–vector pair are both
//! partitioned, so their iterations are independent (OpenACC 3.3 2.9: a
//! loop of a `parallel` construct with a level is independent unless
//! `seq`); with the vector loop the worker loop's only statement and its
//! bounds not using the worker's index, every (j, i) pair still runs once,
//! on some thread of the gang: which one is not observable. The levels,
//! sizes and clauses stay where the source put them; only the indices and
//! their ranges move.
//!
//! Conditions: worker-only over vector-only (no gang level in either), no
//! `collapse`, `tile`, `gang(static:)`, reduction clause or `cache` on
//! either (an implicit reduction the nest's loops take over from an outer
//! gang reduction is still combined over the same iterations: it may
//! interchange),
//! the vector loop's bounds free of the worker index, and strictly more of
//! the body's indexed accesses contiguous (innermost subscript `±1` times
//! the index, the other index absent) in the worker index than in the
//! vector index.

use crate::analysis::affine::{affine, Env};
use crate::ir::{
    walk_stmts, Expr, ExprId, Function, LocalId, Loop, Parallelism, Remark, SrcLoc, Stmt,
};

/// Interchanges the worker–vector nests of `f` (a `parallel` construct's
/// kernel, levels decided) whose accesses are contiguous in the worker
/// index; a remark at each worker loop interchanged.
pub fn contiguous_lanes(f: &mut Function) -> Vec<(SrcLoc, Remark)> {
    let mut body = std::mem::take(&mut f.body);
    let mut out = vec![];
    visit(f, &mut body, &mut out);
    f.body = body;
    out
}

fn visit(f: &Function, b: &mut [Stmt], out: &mut Vec<(SrcLoc, Remark)>) {
    for s in b.iter_mut() {
        if let Stmt::Loop(w) = s {
            if let Some(said) = try_interchange(f, w) {
                out.push((w.loc.clone(), Remark::from(said)));
            }
        }
        for inner in s.blocks_mut() {
            visit(f, inner, out);
        }
    }
}

/// Whether `l` is partitioned over exactly the levels `worker`/`vector`
/// say, with nothing that ties the iterations to their threads.
fn plain(l: &Loop, worker: bool, vector: bool) -> bool {
    let levels = match l.par {
        Parallelism::Par {
            gang: None,
            worker: w,
            vector: v,
        } => w == worker && v.is_some() == vector && v.unwrap_or(0) == 0,
        _ => false,
    };
    levels
        && l.collapsed.is_empty()
        && l.tile.is_empty()
        && l.chunk.is_none()
        && l.reductions.is_empty()
        && l.cache.is_empty()
        && l.c_form.is_none()
}

fn try_interchange(f: &Function, w: &mut Loop) -> Option<String> {
    if !plain(w, true, false) {
        return None;
    }
    let [Stmt::Loop(v)] = w.body.as_mut_slice() else {
        return None;
    };
    if !plain(v, false, true) {
        return None;
    }
    let uses_w = |e: ExprId| {
        let mut read = vec![];
        f.locals_read(e, &mut read);
        read.contains(&w.var)
    };
    if uses_w(v.init) || uses_w(v.limit) || uses_w(v.step) {
        return None;
    }
    let (in_w, in_v, all) = contiguity(f, &v.body, w.var, v.var);
    if in_w <= in_v {
        return None;
    }
    let (wl, vl) = (w.loc.line, v.loc.line);
    std::mem::swap(&mut w.var, &mut v.var);
    std::mem::swap(&mut w.init, &mut v.init);
    std::mem::swap(&mut w.cmp, &mut v.cmp);
    std::mem::swap(&mut w.limit, &mut v.limit);
    std::mem::swap(&mut w.step, &mut v.step);
    let name = |l: LocalId| f.local(l).name.clone();
    Some(format!(
        "loops at lines {wl} and {vl} interchanged for coalescing: the worker loop runs '{}', the vector loop '{}' ({in_w} of {all} indexed accesses contiguous in '{}', {in_v} in '{}')",
        name(w.var),
        name(v.var),
        name(v.var),
        name(w.var),
    ))
}

/// Of the indexed accesses of `body`: how many are contiguous in `a`, how
/// many in `b`, and how many there are.
fn contiguity(f: &Function, body: &[Stmt], a: LocalId, b: LocalId) -> (usize, usize, usize) {
    let mut roots = vec![];
    walk_stmts(body, &mut |s| roots.extend(s.roots()));
    let mut seen = std::collections::HashSet::new();
    let (mut in_a, mut in_b, mut all) = (0, 0, 0);
    let mut stack = roots;
    while let Some(e) = stack.pop() {
        if !seen.insert(e) {
            continue;
        }
        if let Expr::Index(ix) = f.expr(e) {
            all += 1;
            if let Some(form) = ix.subs.last().and_then(|&s| affine(f, &Env::new(), s)) {
                let (ca, cb) = (form.coef(a), form.coef(b));
                if ca.abs() == 1 && cb == 0 {
                    in_a += 1;
                } else if cb.abs() == 1 && ca == 0 {
                    in_b += 1;
                }
            }
        }
        stack.extend(f.children(e));
    }
    (in_a, in_b, all)
}
