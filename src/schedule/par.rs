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
use crate::ir::{BinOp, Block, CmpOp, ExprId, IntKind, Loop, LoopCmp, Special, Stmt, Type, UnOp};

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

/// Rewrites the counted loop `l` (whose index has the integer kind `kind`)
/// with its already scheduled `body` into:
///
/// ```text
/// init = <init>; limit = <limit>; step = <step>; trip = 0
/// if init <cmp> limit { trip = <iterations, computed in u64> }
/// k = <this thread's start>; stride = <threads at these levels>
/// while k < trip { var = init + (T)k * step; body } step { k = k + stride }
/// ```
///
/// The trip count is exact for every index type: differences are taken in
/// `u64` after extending by the index's signedness (the true difference of
/// two values of one type always fits), and the step's magnitude is negated
/// in the index's own type (unsigned) or in `u64` (signed), so `INT_MIN`
/// steps and full-range bounds do not overflow. `continue` in the body goes to
/// the `step` block, which advances `k`. The loop variable is not defined
/// after the loop (OpenACC makes it private).
pub(super) fn par_loop(e: &mut Emit, l: Loop, kind: IntKind, lv: Levels, body: Block) {
    let t = Type::Int(kind);
    let w = Type::U64;
    let init = e.hold("init", l.init);
    let limit = e.hold("limit", l.limit);
    let step = e.hold("step", l.step);
    let zero = e.int(0, w.clone());
    let trip = e.hold("trip", zero);

    let up = matches!(l.cmp, LoopCmp::Lt | LoopCmp::Le);
    let strict = matches!(l.cmp, LoopCmp::Lt | LoopCmp::Gt);
    let op = match l.cmp {
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
    let (h, lw) = (inner.read(hi), inner.read(lo));
    let (h, lw) = (inner.cast(h, &w), inner.cast(lw, &w));
    let diff = inner.bin(BinOp::Sub, h, lw);
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
    let count = inner.bin(BinOp::Add, q, one);
    inner.assign(trip, count);
    let then = inner.out;
    e.out.push(Stmt::If {
        cond: nonempty,
        then,
        otherwise: vec![],
    });

    let (start, stride) = start_stride(e, lv);
    let k = e.hold("k", start);
    let stride = e.hold("stride", stride);
    let (kv, tv) = (e.read(k), e.read(trip));
    let cond = e.cmp(CmpOp::Lt, kv, tv);

    // var = init + (T)k * step
    let kv = e.read(k);
    let kt = e.cast(kv, &t);
    let s = e.read(step);
    let off = e.bin(BinOp::Mul, kt, s);
    let i = e.read(init);
    let v = e.bin(BinOp::Add, i, off);
    let mut full = vec![Stmt::Assign {
        local: l.var,
        value: v,
    }];
    full.extend(body);

    let (kv, sv) = (e.read(k), e.read(stride));
    let next = e.bin(BinOp::Add, kv, sv);
    e.out.push(Stmt::While {
        cond,
        body: full,
        step: vec![Stmt::Assign {
            local: k,
            value: next,
        }],
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
