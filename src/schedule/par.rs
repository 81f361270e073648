//! Parallel loops: a loop shared among gangs, workers and/or vector lanes
//! becomes a thread-strided loop over a 64-bit iteration counter.
//!
//! Owns: [`par_loop`] (the trip count and the counter loop) and
//! [`start_stride`] (each thread's first iteration and the stride for a set
//! of levels). Mapping: gang → `ctaid`/`nctaid` of its grid dimension,
//! worker → `tid.y`/`ntid.y`, vector → `tid`/`ntid` of its block dimension
//! (the parallel construct: x, y, x; `kernels` strategies use y and z too);
//! combined levels linearise gang-major, vector-minor, so consecutive vector
//! lanes take consecutive iterations (coalescing).

use super::build::Emit;
use crate::ir::{
    BinOp, Block, CmpOp, ExprId, IntKind, LocalId, Loop, LoopCmp, LoopHeader, Special, Stmt, Type,
    UnOp,
};

/// Which launch axes share a loop's iterations.
#[derive(Clone, Copy, Debug)]
pub(super) struct Levels {
    /// Shared among gangs: blocks along this grid dimension.
    pub gang: Option<u8>,
    /// Shared among workers (threads along block y).
    pub worker: bool,
    /// Shared among vector lanes: threads along this block dimension.
    pub vector: Option<u8>,
}

/// One level of a (possibly collapsed) loop nest, its bounds held in locals.
pub(super) struct Level {
    pub var: LocalId,
    pub kind: IntKind,
    pub init: LocalId,
    pub step: LocalId,
    /// The number of iterations (`u64`).
    pub trip: LocalId,
}

/// Evaluates a loop header's bounds once into locals and counts its
/// iterations (in `u64`, 0 when empty).
pub(super) fn count(e: &mut Emit, h: LoopHeader, kind: IntKind) -> Level {
    let w = Type::U64;
    let init = e.hold("init", h.init);
    let limit = e.hold("limit", h.limit);
    let step = e.hold("step", h.step);
    let zero = e.int(0, w.clone());
    let trip = e.hold("trip", zero);

    let up = matches!(h.cmp, LoopCmp::Lt | LoopCmp::Le);
    let strict = matches!(h.cmp, LoopCmp::Lt | LoopCmp::Gt);
    let op = match h.cmp {
        LoopCmp::Lt => CmpOp::Lt,
        LoopCmp::Le => CmpOp::Le,
        LoopCmp::Gt => CmpOp::Gt,
        LoopCmp::Ge => CmpOp::Ge,
    };
    let (a, b) = (e.read(init), e.read(limit));
    let nonempty = e.cmp(op, a, b);

    // Inside the `if`: count the iterations.
    let mut inner = Emit::new(e.f);
    let (hi, lo) = if up { (limit, init) } else { (init, limit) };
    let (hv, lv) = (inner.read(hi), inner.read(lo));
    let (hv, lv) = (inner.cast(hv, &w), inner.cast(lv, &w));
    let diff = inner.bin(BinOp::Sub, hv, lv);
    let s = inner.read(step);
    let mag = match (up, kind.is_signed()) {
        (true, _) => inner.cast(s, &w),
        (false, true) => {
            let s = inner.cast(s, &w);
            inner.un(UnOp::Neg, s)
        }
        (false, false) => {
            let s = inner.un(UnOp::Neg, s);
            inner.cast(s, &w)
        }
    };
    let span = if strict {
        let one = inner.int(1, w.clone());
        inner.bin(BinOp::Sub, diff, one)
    } else {
        diff
    };
    let q = inner.bin(BinOp::Div, span, mag);
    let one = inner.int(1, w.clone());
    let n = inner.bin(BinOp::Add, q, one);
    inner.assign(trip, n);
    let then = inner.out;
    e.out.push(Stmt::If {
        cond: nonempty,
        then,
        otherwise: vec![],
        single: false,
    });
    Level {
        var: h.var,
        kind,
        init,
        step,
        trip,
    }
}

/// Evaluates the bounds of a loop and of the loops collapsed into it, and
/// counts their iterations.
#[allow(clippy::too_many_arguments)]
pub(super) fn count_all(
    e: &mut Emit,
    var: LocalId,
    init: ExprId,
    cmp: LoopCmp,
    limit: ExprId,
    step: ExprId,
    collapsed: Vec<LoopHeader>,
    kinds: &[IntKind],
) -> Vec<Level> {
    let headers = std::iter::once(LoopHeader {
        var,
        init,
        cmp,
        limit,
        step,
    })
    .chain(collapsed);
    headers.zip(kinds).map(|(h, &k)| count(e, h, k)).collect()
}

/// `var = (T)((U)init + (U)idx * (U)step)` for level `lv` and iteration
/// `idx` (`u64`), with `U` the unsigned kind of `T`'s width: the product may
/// leave `T`'s range where the sum does not (`for (int i = INT_MAX; i >
/// INT_MIN; i--)`), and signed arithmetic of the IR never overflows
/// ([`BinOp`]), so this sum wraps, exactly, in `U`.
pub(super) fn set_var(e: &mut Emit, lv: &Level, idx: ExprId) -> Stmt {
    let t = Type::Int(lv.kind);
    let u = Type::Int(lv.kind.unsigned());
    let it = e.cast(idx, &u);
    let s = e.read(lv.step);
    let s = e.cast(s, &u);
    let off = e.bin(BinOp::Mul, it, s);
    let i = e.read(lv.init);
    let i = e.cast(i, &u);
    let sum = e.bin(BinOp::Add, i, off);
    Stmt::Assign {
        local: lv.var,
        value: e.cast(sum, &t),
    }
}

/// Rewrites the counted loop `l` (with its collapsed inner loops, each index
/// of an integer kind `kinds[i]`) and its already scheduled `body` into:
///
/// ```text
/// for each level: init = <init>; limit = <limit>; step = <step>;
///                 trip = init <cmp> limit ? <iterations, in u64> : 0
/// total = trip0 * trip1 * …
/// k = <this thread's start>; stride = <threads at these levels>
/// while k < total {
///     var_n = init_n + (T)(k % trip_n) * step_n; r = k / trip_n; …   (inner to outer)
///     body
/// } step { k = k + stride }
/// ```
///
/// Trip counts are exact for every index type: differences are taken in
/// `u64` after extending by the index's signedness (the true difference of
/// two values of one type always fits), and the step's magnitude is negated
/// in the index's own type (unsigned) or in `u64` (signed), so `INT_MIN`
/// steps and full-range bounds do not overflow. `continue` in the body goes to
/// the `step` block, which advances `k`. The loop variables are not defined
/// after the loop (OpenACC makes them private).
///
/// With `counted`, each thread first counts the iterations it will run (one
/// 64-bit division) and the loop runs on that count: a trip count the back
/// end's unroller can see, so loads of consecutive iterations overlap. Worth
/// it where a thread runs many iterations of a short body (a reduction's
/// loop); a cost where it runs a few (nested parallel loops).
pub(super) fn par_loop(
    e: &mut Emit,
    l: Loop,
    kinds: &[IntKind],
    lv: Levels,
    body: Block,
    counted: bool,
) {
    if !l.tile.is_empty() || l.chunk.is_some() {
        return super::tile::grouped_loop(e, l, kinds, lv, body);
    }
    let levels = count_all(e, l.var, l.init, l.cmp, l.limit, l.step, l.collapsed, kinds);
    let total = match levels.as_slice() {
        [one] => one.trip,
        _ => {
            let mut acc = e.read(levels[0].trip);
            for lv in &levels[1..] {
                let t = e.read(lv.trip);
                acc = e.bin(BinOp::Mul, acc, t);
            }
            e.hold("total", acc)
        }
    };

    let (start, stride) = start_stride(e, lv);
    let k = e.hold("k", start);
    let stride = e.hold("stride", stride);
    // The iterations this thread runs, counted up by a unit-step counter
    // (see `counted`): total > k ? (total - 1 - k) / stride + 1 : 0.
    let counter = if counted {
        let zero = e.int(0, Type::U64);
        let mine = e.hold("mine", zero);
        let (kv, tv) = (e.read(k), e.read(total));
        let runs = e.cmp(CmpOp::Lt, kv, tv);
        let mut count = Emit::new(e.f);
        let (tv, one) = (count.read(total), count.int(1, Type::U64));
        let last = count.bin(BinOp::Sub, tv, one);
        let kv = count.read(k);
        let span = count.bin(BinOp::Sub, last, kv);
        let sv = count.read(stride);
        let q = count.bin(BinOp::Div, span, sv);
        let one = count.int(1, Type::U64);
        let n = count.bin(BinOp::Add, q, one);
        count.assign(mine, n);
        let count = count.out;
        e.out.push(Stmt::If {
            cond: runs,
            then: count,
            otherwise: vec![],
            single: false,
        });
        let zero = e.int(0, Type::U64);
        Some((e.hold("c", zero), mine))
    } else {
        None
    };
    let cond = match counter {
        Some((c, mine)) => {
            let (cv, mv) = (e.read(c), e.read(mine));
            e.cmp(CmpOp::Lt, cv, mv)
        }
        None => {
            let (kv, tv) = (e.read(k), e.read(total));
            e.cmp(CmpOp::Lt, kv, tv)
        }
    };

    // The indices, innermost first: idx = r % trip, r = r / trip (one
    // level: k itself).
    let mut full = vec![];
    let r = if levels.len() == 1 {
        k
    } else {
        let r = e.f.new_local("rest", Type::U64);
        let kv = e.read(k);
        full.push(Stmt::Assign {
            local: r,
            value: kv,
        });
        r
    };
    for (i, lvl) in levels.iter().enumerate().rev() {
        let idx = if i == 0 {
            e.read(r)
        } else {
            let (rv, tv) = (e.read(r), e.read(lvl.trip));
            e.bin(BinOp::Rem, rv, tv)
        };
        full.push(set_var(e, lvl, idx));
        if i > 0 {
            let (rv, tv) = (e.read(r), e.read(lvl.trip));
            let q = e.bin(BinOp::Div, rv, tv);
            full.push(Stmt::Assign { local: r, value: q });
        }
    }
    full.extend(body);

    let (kv, sv) = (e.read(k), e.read(stride));
    let next = e.bin(BinOp::Add, kv, sv);
    let mut step = vec![Stmt::Assign {
        local: k,
        value: next,
    }];
    if let Some((c, _)) = counter {
        let (cv, one) = (e.read(c), e.int(1, Type::U64));
        let next_c = e.bin(BinOp::Add, cv, one);
        step.push(Stmt::Assign {
            local: c,
            value: next_c,
        });
    }
    e.out.push(Stmt::While {
        cond,
        body: full,
        step,
    });
}

/// This thread's first iteration and the stride (both `u64`) for the levels
/// `lv`: the thread's linear index among the selected levels (gang outermost,
/// vector innermost) and the number of threads at those levels. With no level
/// selected, `(0, 1)` (every thread runs every iteration).
pub(super) fn start_stride(e: &mut Emit, lv: Levels) -> (ExprId, ExprId) {
    let mut idx: Option<ExprId> = None;
    let mut count: Option<ExprId> = None;
    let levels = [
        lv.gang.map(|d| (Special::BlockIdx(d), Special::GridDim(d))),
        lv.worker
            .then_some((Special::ThreadIdx(1), Special::BlockDim(1))),
        lv.vector
            .map(|d| (Special::ThreadIdx(d), Special::BlockDim(d))),
    ];
    for (id, n) in levels.into_iter().flatten() {
        let i = e.special(id);
        idx = Some(match idx {
            None => i,
            Some(prev) => {
                let size = e.special(n);
                let scaled = e.bin(BinOp::Mul, prev, size);
                e.bin(BinOp::Add, scaled, i)
            }
        });
        let c = e.special(n);
        count = Some(match count {
            None => c,
            Some(prev) => e.bin(BinOp::Mul, prev, c),
        });
    }
    let idx = match idx {
        Some(i) => i,
        None => e.int(0, Type::U64),
    };
    let count = match count {
        Some(c) => c,
        None => e.int(1, Type::U64),
    };
    (idx, count)
}
