//! The `cache` directive (OpenACC 3.3, 2.10), a hint: which variables
//! could be shared-memory tiles (made in a later step), the way ipmacc
//! makes them (`shared/seeds/ipmacc-openacc-to-cuda.txt`): each
//! block loads the union of its threads' sections into a shared array,
//! all its threads cooperating, meets at a barrier, and its accesses that
//! provably fall inside the thread's section read the tile instead of
//! global memory.
//!
//! Owns: [`plan`] (which variables of a loop's directive can become
//! tiles, and the remark on each). May call: `ir`, `analysis::affine`.
//!
//! What can be cached: a section `a[c1]…[ck][e + lo : len]` at the top of a
//! loop partitioned across vector lanes along block x (and possibly gangs,
//! not workers), not nested in a loop partitioned across threads, in a
//! kernel without workers, with a step of 1 and no collapse or tile; `e`
//! the loop's index, `lo` and the leading subscripts `c` invariant in the
//! loop, `len` an integer constant; the array not written in the loop (or
//! `readonly`). The tile is clamped to what the loop reads anyway: the
//! offsets of the section's loads that run in every iteration (before any
//! `continue`), so no element the source never reads is loaded. A load
//! of the body whose subscripts are the section's with a last subscript
//! `e + lo + d`, `d` inside that window, reads the tile; others stay
//! global. Everything else is left as the source has it, with a remark
//! saying why.

use super::reduce::RedState;
use crate::analysis::affine::{affine, int_literal, Env};
use crate::ir::{Block, Expr, ExprId, Function, LocalId, Loop, LoopCmp, Parallelism, Stmt, Type};

/// Decides which variables of `l`'s `cache` directive could become tiles
/// (a loop nested in loops partitioning the block dimensions `outer`, in
/// a kernel with workers when `workers`) and notes the remark on each in
/// `st`.
pub(super) fn plan(
    f: &Function,
    l: &mut Loop,
    outer: [bool; 3],
    workers: bool,
    st: &mut RedState,
    body: &Block,
) {
    let vars = std::mem::take(&mut l.cache);
    if vars.is_empty() {
        return;
    }
    let whole = loop_reason(f, l, outer, workers, st, body);
    for v in vars {
        let why = match (&v.why, &whole, v.first) {
            (Some(why), _, _) => why.clone(),
            (None, Some(why), _) => why.clone(),
            (None, None, None) => "not an array element".to_string(),
            (None, None, Some(first)) => match section(f, l, body, first, &v.lengths, v.readonly) {
                Ok(s) => format!(
                    "shared-memory tiles are not made yet (its window [{}, {}] would serve {} loads)",
                    s.lo,
                    s.hi,
                    s.loads.len()
                ),
                Err(why) => why,
            },
        };
        st.cache_notes
            .push((v.loc, format!("'{}' is not cached: {why}", v.text)));
    }
}

/// Why no variable of loop `l` can be a tile, if none can.
fn loop_reason(
    f: &Function,
    l: &Loop,
    outer: [bool; 3],
    workers: bool,
    st: &RedState,
    body: &Block,
) -> Option<String> {
    let why = if st.host {
        "the host has no shared memory"
    } else if st.in_routine {
        "the loop is in a routine (its caller decides the block)"
    } else if !matches!(
        l.par,
        Parallelism::Par {
            vector: Some(_),
            ..
        }
    ) {
        "the loop is not partitioned across vector lanes"
    } else if !matches!(
        l.par,
        Parallelism::Par {
            vector: Some(0),
            worker: false,
            gang: None | Some(0),
        }
    ) {
        "the loop is partitioned across workers or along a block dimension other than x"
    } else if outer.iter().any(|d| *d) {
        "the loop is nested in a loop partitioned across threads"
    } else if workers {
        "the kernel has workers"
    } else if !l.collapsed.is_empty() || !l.tile.is_empty() || l.chunk.is_some() {
        "the loop is collapsed, tiled or chunked"
    } else if int_literal(f, l.step) != Some(1) || !matches!(l.cmp, LoopCmp::Lt | LoopCmp::Le) {
        "the loop's step is not 1"
    } else if leaves(body) {
        "the loop's body leaves it (break, return) or meets a barrier"
    } else {
        return None;
    };
    Some(why.to_string())
}

/// Whether `b` leaves its loop otherwise than by `continue`, or holds a
/// barrier (the tile's barriers need every thread of the block).
fn leaves(b: &[Stmt]) -> bool {
    b.iter().any(|s| match s {
        Stmt::Break | Stmt::Return(_) | Stmt::Barrier(_) => true,
        // Its own `break`s leave only it.
        Stmt::While { body, step, .. } => returns(body) || returns(step),
        Stmt::Switch { arms, .. } => arms.iter().any(|a| returns(&a.body)),
        s => s.blocks().into_iter().any(|b| leaves(b)),
    })
}

/// Whether `b` returns or meets a barrier anywhere.
fn returns(b: &[Stmt]) -> bool {
    let mut hit = false;
    crate::ir::walk_stmts(b, &mut |s| {
        hit |= matches!(s, Stmt::Return(_) | Stmt::Barrier(_));
    });
    hit
}

/// A section that can be a tile.
struct Section {
    lo: i128,
    hi: i128,
    /// The body's loads that read it, each with its offset from the
    /// section's start.
    loads: Vec<(ExprId, i128)>,
}

/// The section of loop `l` whose first element is at `first`, with
/// `lengths`, as a tile, or why not.
fn section(
    f: &Function,
    l: &Loop,
    body: &Block,
    first: ExprId,
    lengths: &[Option<ExprId>],
    readonly: bool,
) -> Result<Section, String> {
    let Expr::Index(ix) = f.expr(first) else {
        return Err("not an array element".into());
    };
    if !matches!(f.ty(first), Type::Ptr(_)) {
        return Err("not an array element".into());
    }
    let (Some((last, lead)), true) = (ix.subs.split_last(), ix.subs.len() == lengths.len()) else {
        return Err("not an array element".into());
    };
    let const_len = |x: &Option<ExprId>| match x {
        None => Some(1),
        Some(e) => affine(f, &Env::new(), *e).and_then(|a| a.as_const()),
    };
    if lengths[..lead.len()]
        .iter()
        .any(|x| const_len(x) != Some(1))
    {
        return Err("only its last subscript may be a section of several elements".into());
    }
    let Some(len) = const_len(&lengths[lead.len()]).filter(|n| (1..=64).contains(n)) else {
        return Err("the section's length is not an integer constant (1 to 64)".into());
    };
    let assigned = assigned(body);
    let invariant = |e: ExprId| {
        let mut used = vec![];
        f.locals_read(e, &mut used);
        !used.iter().any(|v| *v == l.var || assigned.contains(v)) && !loads(f, e)
    };
    if !invariant(ix.base) || !lead.iter().all(|s| invariant(*s)) {
        return Err("the array or its leading subscripts change in the loop".into());
    }
    let base = ix.base;
    let start = affine(f, &Env::new(), *last)
        .filter(|a| a.coefficient(l.var) == Some(1))
        .filter(|a| a.locals().all(|v| v == l.var || !assigned.contains(&v)))
        .ok_or("the section does not start at the loop's index plus an invariant")?;
    if !readonly && writes(f, body, base) {
        return Err("the loop writes it (say 'readonly' if it does not)".into());
    }
    // The loads of the section's elements: (load, offset, unconditional).
    let mut found = vec![];
    let offset = |addr: ExprId| -> Option<i128> {
        let Expr::Index(ax) = f.expr(addr) else {
            return None;
        };
        let (alast, alead) = ax.subs.split_last()?;
        if !same(f, ax.base, base)
            || alead.len() != lead.len()
            || alead.iter().zip(lead).any(|(a, b)| !same(f, *a, *b))
        {
            return None;
        }
        let a = affine(f, &Env::new(), *alast)?;
        (a.variable_part() == start.variable_part()).then(|| a.k - start.k)
    };
    scan(f, body, true, &mut |load, addr, every| {
        if let Some(d) = offset(addr) {
            found.push((load, d, every));
        }
    });
    let every: Vec<i128> = found.iter().filter(|x| x.2).map(|x| x.1).collect();
    let (Some(&cmin), Some(&cmax)) = (every.iter().min(), every.iter().max()) else {
        return Err("no load the loop runs in every iteration is provably in the section".into());
    };
    let (lo, hi) = (cmin.max(0), cmax.min(len - 1));
    if lo > hi {
        return Err("the loop's loads in every iteration fall outside the section".into());
    }
    let loads = found
        .into_iter()
        .filter(|(_, d, _)| (lo..=hi).contains(d))
        .map(|(x, d, _)| (x, d))
        .collect();
    Ok(Section { lo, hi, loads })
}

/// The locals block `b` assigns.
fn assigned(b: &[Stmt]) -> Vec<LocalId> {
    let mut out = vec![];
    crate::ir::walk_stmts(b, &mut |s| match s {
        Stmt::Assign { local, .. } => out.push(*local),
        Stmt::Call {
            result: Some(r), ..
        } => out.push(*r),
        Stmt::AtomicRmw { old: Some(o), .. } => out.push(*o),
        Stmt::AtomicCas { old, ok, .. } => out.extend([*old, *ok]),
        Stmt::AtomicLoad { dst, .. } => out.push(*dst),
        Stmt::Broadcast { value, .. } => out.push(*value),
        _ => {}
    });
    out
}

/// Whether expression `e` loads from memory.
fn loads(f: &Function, e: ExprId) -> bool {
    let mut stack = vec![e];
    while let Some(x) = stack.pop() {
        if matches!(f.expr(x), Expr::Load(_)) {
            return true;
        }
        stack.extend(f.children(x));
    }
    false
}

/// Whether expressions `a` and `b` compute the same value the same way
/// (the same tree, node for node).
fn same(f: &Function, a: ExprId, b: ExprId) -> bool {
    // A node's own data, its children's handles left out.
    let shape = |x: ExprId| {
        let text = format!("{:?}", f.expr(x));
        let mut out = String::new();
        for (i, part) in text.split("ExprId(").enumerate() {
            match i {
                0 => out.push_str(part),
                _ => out.push_str(part.trim_start_matches(|c: char| c.is_ascii_digit())),
            }
        }
        out
    };
    let (ca, cb) = (f.children(a), f.children(b));
    f.ty(a) == f.ty(b)
        && shape(a) == shape(b)
        && ca.len() == cb.len()
        && ca.iter().zip(&cb).all(|(x, y)| same(f, *x, *y))
}

/// Whether `b` may write memory through the array `base`: a store,
/// atomic or copy whose address is built on it, or a call.
fn writes(f: &Function, b: &[Stmt], base: ExprId) -> bool {
    let on_base = |addr: ExprId| {
        let mut stack = vec![addr];
        while let Some(x) = stack.pop() {
            if same(f, x, base) {
                return true;
            }
            stack.extend(f.children(x));
        }
        false
    };
    let mut hit = false;
    crate::ir::walk_stmts(b, &mut |s| match s {
        Stmt::Store { ptr, .. }
        | Stmt::AtomicStore { ptr, .. }
        | Stmt::AtomicRmw { ptr, .. }
        | Stmt::AtomicCas { ptr, .. } => hit |= on_base(*ptr),
        Stmt::Copy { dst, .. } => hit |= on_base(*dst),
        Stmt::Call { .. } => hit = true,
        _ => {}
    });
    hit
}

/// Calls `found(load, address, every)` for each load of `b` whose address
/// is an index; `every`: the load runs in every iteration (outside
/// conditions, inner loops and the short-circuit operators' right sides,
/// before the first statement that may `continue`).
fn scan(f: &Function, b: &[Stmt], every: bool, found: &mut impl FnMut(ExprId, ExprId, bool)) {
    let mut every = every;
    for s in b {
        for r in s.roots() {
            exprs(f, r, every, found);
        }
        let inner = !matches!(s, Stmt::Block(_));
        for blk in s.blocks() {
            scan(f, blk, every && !inner, found);
        }
        let mut jumps = false;
        crate::ir::walk_stmts(std::slice::from_ref(s), &mut |x| {
            jumps |= matches!(x, Stmt::Continue | Stmt::Break | Stmt::Return(_));
        });
        every &= !jumps;
    }
}

fn exprs(f: &Function, e: ExprId, every: bool, found: &mut impl FnMut(ExprId, ExprId, bool)) {
    match f.expr(e) {
        Expr::Load(p) if matches!(f.expr(*p), Expr::Index(_)) => found(e, *p, every),
        Expr::Select {
            cond,
            then,
            otherwise,
        } => {
            exprs(f, *cond, every, found);
            exprs(f, *then, false, found);
            exprs(f, *otherwise, false, found);
            return;
        }
        Expr::Logical { lhs, rhs, .. } => {
            exprs(f, *lhs, every, found);
            exprs(f, *rhs, false, found);
            return;
        }
        _ => {}
    }
    for c in f.children(e) {
        exprs(f, c, every, found);
    }
}
