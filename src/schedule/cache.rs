//! The `cache` directive (OpenACC 3.3, 2.10) as shared-memory tiles, the
//! way ipmacc does it (`shared/seeds/ipmacc-openacc-to-cuda.txt`): each
//! block loads the union of its threads' sections into a shared array,
//! all its threads cooperating, meets at a barrier, and its accesses that
//! provably fall inside the thread's section read the tile instead of
//! global memory.
//!
//! Owns: [`plan`] (which variables of a loop's directive become tiles, the
//! remark on each, and the rewriting of the body's loads) and
//! [`cached_loop`] (the loop over the block's rounds with the loads and
//! barriers). May call: `ir`, `analysis::affine`, the schedule's builders.
//!
//! What is cached: a section `a[c1]…[ck][e + lo : len]` at the top of a
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

use super::build::Emit;
use super::par::{count_all, set_var, start_stride, Levels};
use super::reduce::RedState;
use crate::analysis::affine::{affine, int_literal, Env};
use crate::ir::{
    BarrierScope, BinOp, Block, CmpOp, Expr, ExprId, Function, IntKind, LocalId, Loop, LoopCmp,
    Parallelism, Special, Stmt, Type,
};

/// The most static shared memory a kernel may hold with its tiles (bytes;
/// the device allows 48 KiB).
const MAX_TILE_BYTES: u64 = 32 * 1024;

/// One variable made a tile.
pub(super) struct Tile {
    /// The address of the section's first element (at the loop's index).
    first: ExprId,
    /// Its element type.
    elem: Type,
    /// The shared array.
    shared: u32,
    /// The window of offsets from the section's start that the tile
    /// holds, for every iteration of a round: `[lo, hi]`.
    lo: i128,
    hi: i128,
}

/// Decides which variables of `l`'s `cache` directive become tiles (a
/// loop nested in loops partitioning the block dimensions `outer`, in a
/// kernel with workers when `workers`), rewrites the loads of `body` that
/// read them, and notes the remark on each in `st`.
pub(super) fn plan(
    e: &mut Emit,
    l: &mut Loop,
    outer: [bool; 3],
    workers: bool,
    st: &mut RedState,
    body: &Block,
) -> Vec<Tile> {
    let vars = std::mem::take(&mut l.cache);
    if vars.is_empty() {
        return vec![];
    }
    let whole = loop_reason(e.f, l, outer, workers, st, body);
    let mut tiles = vec![];
    // The kernel's shared memory so far (other loops' tiles, reductions').
    let mut bytes: u64 = e.f.shared.iter().map(Type::size).sum();
    let mut done: Vec<String> = vec![];
    for v in vars {
        let key: String = v.text.chars().filter(|c| !c.is_whitespace()).collect();
        let said = match (&v.why, &whole, v.first) {
            _ if done.contains(&key) => Err("an earlier item names it".to_string()),
            (Some(why), _, _) => Err(why.clone()),
            (None, Some(why), _) => Err(why.clone()),
            (None, None, None) => Err("not an array element".to_string()),
            (None, None, Some(first)) => section(e.f, l, body, first, &v.lengths, v.readonly)
                .and_then(|s| {
                    let rows = st.block_x.map_or(st.max_rows(), u64::from);
                    let len = rows + u64::try_from(s.hi - s.lo).unwrap_or(u64::MAX);
                    let size = len.saturating_mul(s.elem.size());
                    if bytes + size > MAX_TILE_BYTES {
                        return Err(format!(
                            "its tile ({size} bytes) would not fit in shared memory"
                        ));
                    }
                    bytes += size;
                    Ok((s, len))
                }),
        };
        let text = match said {
            Ok((s, len)) => {
                done.push(key);
                let shared = e.f.shared.len() as u32;
                e.f.shared.push(Type::Array(Box::new(s.elem.clone()), len));
                for (load, d) in &s.loads {
                    rewrite(e.f, *load, shared, d - s.lo);
                }
                tiles.push(Tile {
                    first: s.first,
                    elem: s.elem,
                    shared,
                    lo: s.lo,
                    hi: s.hi,
                });
                format!(
                    "'{}' cached in shared memory: a tile of {len} elements per gang, {} of the loop's loads read it",
                    v.text,
                    s.loads.len()
                )
            }
            Err(why) => format!("'{}' is not cached: {why}", v.text),
        };
        st.cache_notes.push((v.loc, text));
    }
    tiles
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
    first: ExprId,
    elem: Type,
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
    let elem = match f.ty(first) {
        Type::Ptr(t) => (**t).clone(),
        _ => return Err("not an array element".into()),
    };
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
        return Err("the section's length is not an integer constant from 1 to 64".into());
    };
    let assigned = crate::ir::assigned_locals(body);
    let invariant = |e: ExprId| {
        let mut used = vec![];
        f.locals_read(e, &mut used);
        !used.iter().any(|v| *v == l.var || assigned.contains(v)) && !loads(f, e)
    };
    if !invariant(ix.base) || !lead.iter().all(|s| invariant(*s)) {
        return Err("the array or its leading subscripts change in the loop".into());
    }
    let base = ix.base;
    let start = linear(f, *last, l.var, &invariant)
        .filter(|a| a.coef == 1)
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
        let a = linear(f, *alast, l.var, &invariant)?;
        (a.coef == start.coef && same_terms(f, &a.terms, &start.terms)).then(|| a.k - start.k)
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
    Ok(Section {
        first,
        elem,
        lo,
        hi,
        loads,
    })
}

/// A subscript as `coef·var + k + Σ ±term`: the loop's index times a
/// constant, a constant, and subexpressions invariant in the loop (`j*m`
/// in `a[j*m + i - 1]`), compared node for node.
struct Linear {
    coef: i128,
    k: i128,
    terms: Vec<(i128, ExprId)>,
}

/// Expression `e` as a [`Linear`] form over loop index `var`, its
/// subexpressions without `var` terms when `invariant` holds for them;
/// `None` when it is not one. Integer casts are taken as exact, as the
/// dependence test takes them (subscripts do not wrap in programs with
/// defined behaviour).
fn linear(
    f: &Function,
    e: ExprId,
    var: LocalId,
    invariant: &dyn Fn(ExprId) -> bool,
) -> Option<Linear> {
    let sum = |a: Linear, b: Linear, sign: i128| -> Option<Linear> {
        let mut terms = a.terms;
        terms.extend(b.terms.into_iter().map(|(s, t)| (s * sign, t)));
        Some(Linear {
            coef: a.coef.checked_add(b.coef.checked_mul(sign)?)?,
            k: a.k.checked_add(b.k.checked_mul(sign)?)?,
            terms,
        })
    };
    let scaled = |a: Linear, c: i128| -> Option<Linear> {
        // Only a constant multiple of the index and constants; terms stay
        // whole (`2*(j*m)` is one term of its own).
        a.terms.is_empty().then_some(())?;
        Some(Linear {
            coef: a.coef.checked_mul(c)?,
            k: a.k.checked_mul(c)?,
            terms: vec![],
        })
    };
    if let Some(v) = int_literal(f, e) {
        return Some(Linear {
            coef: 0,
            k: v,
            terms: vec![],
        });
    }
    let sub = |x: ExprId| linear(f, x, var, invariant);
    let form = match f.expr(e) {
        Expr::Local(x) if *x == var => Some(Linear {
            coef: 1,
            k: 0,
            terms: vec![],
        }),
        Expr::Cast(a) if f.ty(*a).is_int() && f.ty(e).is_int() => sub(*a),
        Expr::Binary {
            op: BinOp::Add,
            lhs,
            rhs,
        } => sub(*lhs).zip(sub(*rhs)).and_then(|(a, b)| sum(a, b, 1)),
        Expr::Binary {
            op: BinOp::Sub,
            lhs,
            rhs,
        } => sub(*lhs).zip(sub(*rhs)).and_then(|(a, b)| sum(a, b, -1)),
        Expr::Binary {
            op: BinOp::Mul,
            lhs,
            rhs,
        } => match (int_literal(f, *lhs), int_literal(f, *rhs)) {
            (Some(c), _) => sub(*rhs).and_then(|a| scaled(a, c)),
            (_, Some(c)) => sub(*lhs).and_then(|a| scaled(a, c)),
            _ => None,
        },
        Expr::Unary {
            op: crate::ir::UnOp::Neg,
            arg,
        } => sub(*arg).and_then(|a| scaled(a, -1)),
        _ => None,
    };
    form.or_else(|| {
        invariant(e).then(|| Linear {
            coef: 0,
            k: 0,
            terms: vec![(1, e)],
        })
    })
}

/// Whether two lists of signed terms hold the same terms (in any order).
fn same_terms(f: &Function, a: &[(i128, ExprId)], b: &[(i128, ExprId)]) -> bool {
    let mut left: Vec<&(i128, ExprId)> = b.iter().collect();
    a.len() == b.len()
        && a.iter().all(|(s, t)| {
            match left.iter().position(|(s2, t2)| s == s2 && same(f, *t, *t2)) {
                Some(i) => {
                    left.remove(i);
                    true
                }
                None => false,
            }
        })
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

/// Makes load `load` read element `tid.x + at` of shared array `shared`.
fn rewrite(f: &mut Function, load: ExprId, shared: u32, at: i128) {
    let elem = f.ty(load).clone();
    let base = f.add(Expr::SharedAddr(shared), elem.ptr_to());
    let tid = f.add(
        Expr::Special(Special::ThreadIdx(0)),
        Type::Int(IntKind::U32),
    );
    let tid = f.add(Expr::Cast(tid), Type::U64);
    let off = f.int(at, Type::U64);
    let index = f.add(
        Expr::Binary {
            op: BinOp::Add,
            lhs: tid,
            rhs: off,
        },
        Type::U64,
    );
    let ptr = f.add(Expr::PtrAdd { base, index }, elem.ptr_to());
    f.exprs[load.0 as usize] = Expr::Load(ptr);
}

/// Loop `l` (one level, step 1, over gangs and/or vector lanes along x)
/// with its `tiles`, its body already scheduled and rewritten:
///
/// ```text
/// init, limit, step, trip (as par_loop)
/// kb = <the block's first iteration>; stride = <threads of the levels>
/// while kb < trip {
///     n = min(trip - kb, ntid.x)
///     var = init + kb
///     for each tile: at = <first>; t = tid.x
///         while t < n + hi - lo { tile[t] = at[lo + t] } step { t += ntid.x }
///     barrier
///     k = kb + tid.x
///     if k < trip { var = init + k; body }
/// } step { barrier; kb += stride }
/// ```
///
/// Every thread of the block runs every round (the barriers need them);
/// `continue` in the body goes to the step, past the body, to the second
/// barrier, which keeps the next round's loads from overwriting a tile
/// another thread still reads.
pub(super) fn cached_loop(
    e: &mut Emit,
    l: Loop,
    kinds: &[IntKind],
    lv: Levels,
    body: Block,
    tiles: Vec<Tile>,
) {
    let levels = count_all(e, l.var, l.init, l.cmp, l.limit, l.step, l.collapsed, kinds);
    let Some(level) = levels.first() else {
        return;
    };
    let (start, stride) = start_stride(e, lv);
    let tid = e.special(Special::ThreadIdx(0));
    let kb = e.bin(BinOp::Sub, start, tid);
    let kb = e.hold("kb", kb);
    let stride = e.hold("stride", stride);
    let (kv, tv) = (e.read(kb), e.read(level.trip));
    let cond = e.cmp(CmpOp::Lt, kv, tv);

    let mut round = Emit::new(e.f);
    let (tv, kv) = (round.read(level.trip), round.read(kb));
    let left = round.bin(BinOp::Sub, tv, kv);
    let ntid = round.special(Special::BlockDim(0));
    let n = round.bin(BinOp::Min, left, ntid);
    let n = round.hold("n", n);
    let kv = round.read(kb);
    let set = set_var(&mut round, level, kv);
    round.out.push(set);
    for t in &tiles {
        let at = round.hold("tile.at", t.first);
        let nv = round.read(n);
        let extra = round.int(t.hi - t.lo, Type::U64);
        let count = round.bin(BinOp::Add, nv, extra);
        let count = round.hold("tile.n", count);
        let tid = round.special(Special::ThreadIdx(0));
        let k = round.hold("tile.t", tid);
        let (kv, cv) = (round.read(k), round.read(count));
        let more = round.cmp(CmpOp::Lt, kv, cv);
        let mut copy = Emit::new(round.f);
        let kv = copy.read(k);
        let lo = copy.int(t.lo, Type::U64);
        let from = copy.bin(BinOp::Add, kv, lo);
        let av = copy.read(at);
        let src = copy.ptr_add(av, from);
        let value = copy.f.add(Expr::Load(src), t.elem.clone());
        let sh = copy.f.add(Expr::SharedAddr(t.shared), t.elem.ptr_to());
        let kv = copy.read(k);
        let dst = copy.ptr_add(sh, kv);
        copy.out.push(Stmt::Store { ptr: dst, value });
        let copy = copy.out;
        let by = round.special(Special::BlockDim(0));
        round.while_step(more, copy, k, by);
    }
    round.out.push(Stmt::Barrier(BarrierScope::Block));
    let (kv, tid) = (round.read(kb), round.special(Special::ThreadIdx(0)));
    let k = round.bin(BinOp::Add, kv, tid);
    let k = round.hold("k", k);
    let (kv, tv) = (round.read(k), round.read(level.trip));
    let mine = round.cmp(CmpOp::Lt, kv, tv);
    let kv = round.read(k);
    let mut then = vec![set_var(&mut round, level, kv)];
    then.extend(body);
    round.out.push(Stmt::If {
        cond: mine,
        then,
        otherwise: vec![],
        single: false,
    });
    let round = round.out;
    let (kv, sv) = (e.read(kb), e.read(stride));
    let next = e.bin(BinOp::Add, kv, sv);
    e.out.push(Stmt::While {
        cond,
        body: round,
        step: vec![
            Stmt::Barrier(BarrierScope::Block),
            Stmt::Assign {
                local: kb,
                value: next,
            },
        ],
    });
}
