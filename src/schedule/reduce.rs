//! Reductions: expands the `reduction`s of a loop into code around it.
//!
//! Owns: [`RedState`] (what a function's reductions need: shared arrays,
//! the kernel's scratch parameter and its counters and slots), [`prologue`]
//! and [`epilogue`]. May call: `ir`, [`super::build`].
//!
//! Before the loop every thread sets each private copy to the operator's
//! identity. After it (OpenUH's scheme, `shared/seeds/openuh-*-reductions`):
//! 1. the threads that shared the loop along block x (vector lanes) combine
//!    their partials with butterfly warp shuffles, then, when a row is wider
//!    than a warp, through shared memory (one slot per warp, a row barrier);
//! 2. along block y and z (workers; vector on y/z in `kernels` mappings),
//!    one thread per row writes its row's value to shared memory and every
//!    thread folds the rows it shares the loop with (block barriers);
//! 3. across gangs (a gang loop whose target is device memory), thread 0
//!    of each gang writes the gang's value to its slot of the scratch
//!    memory, fences, and counts the gang in with `atomicInc` (which leaves
//!    the counter at zero for the next use); the last gang folds the slots
//!    in gang order — deterministic for a fixed launch — and updates the
//!    target once.
//!
//! A complex product ([`RedOp::ComplexMul`]) reduces its elements two
//! values at a time (real, imaginary): each step above moves both values
//! (two shuffles, two shared arrays, two slots) and combines them as a
//! complex product.
//!
//! Every thread that ran the loop ends with the combined value, so code
//! after the loop (redundant in each thread) may read it. The launch keeps
//! block x a power of two up to 32 or a multiple of 32 in kernels that
//! reduce (see `geometry`), which step 1 relies on; the front end
//! rejects reductions along y or z inside loops partitioned over threads,
//! which step 2 could not synchronise.

mod gangs;

use super::build::Emit;
use crate::ir::{
    AtomicOp, BarrierScope, BinOp, CmpOp, Expr, ExprId, IntKind, Literal, LocalId, Parallelism,
    RedOp, RedPart, RedTarget, Reduction, Scratch, Special, Stmt, Type, UnOp,
};
use gangs::across_gangs;

/// What the reductions of one function use beyond its statements.
#[derive(Debug, Default)]
pub(super) struct RedState {
    /// Threads a block has at most (the target's), hence rows (and warps)
    /// per block: the length of each shared array.
    rows: u64,
    /// Shared arrays made for reductions, by element type and by which
    /// value of an element they hold (see [`RedOp::width`]).
    shared: Vec<((Type, u64), u32)>,
    /// The shared flag saying "this gang is the last".
    flag: Option<u32>,
    /// The kernel's scratch parameter (`ptr<u8>`), made on first need.
    pub scratch: Option<LocalId>,
    /// Counters and slot arrays of the scratch memory used so far.
    pub counters: u32,
    pub slots: u32,
    /// Not the reductions': what the same walk carries for the `cache`
    /// tiles (`schedule::cache`) — the block's threads along x when the
    /// launch fixes them, whether the body is a routine's (whose caller
    /// decides the block), the target is the host, and the remark on each
    /// cache variable seen.
    pub block_x: Option<u32>,
    pub in_routine: bool,
    pub host: bool,
    pub cache_notes: Vec<(crate::ir::SrcLoc, String)>,
}

impl RedState {
    /// No reductions yet, for a kernel or routine of `target`.
    pub fn new(target: &super::Target) -> RedState {
        RedState {
            rows: u64::from(target.max_threads_per_block()),
            host: matches!(target, super::Target::Host(_)),
            ..RedState::default()
        }
    }

    /// Threads a block has at most.
    pub fn max_rows(&self) -> u64 {
        self.rows
    }

    /// The layout of the scratch memory, if any reduction needs it.
    pub fn layout(&self) -> Option<Scratch> {
        self.scratch.map(|_| Scratch {
            counters: self.counters,
            slots: self.slots,
        })
    }
}

/// Where a reduction's object is: a scalar local itself, or the address of
/// an object (array, struct, or memory) held in a `ptr<u8>` local.
#[derive(Clone, Copy)]
enum Obj {
    Scalar(LocalId),
    Bytes(LocalId),
}

/// The private copy of `r` (through its address when it is an aggregate).
fn private_obj(e: &mut Emit, r: &Reduction) -> Obj {
    let ty = e.f.local(r.private).ty.clone();
    local_obj(e, r.private, r.scalar(&ty))
}

/// Local `l` as a reduction object: itself when `scalar`, else its address.
fn local_obj(e: &mut Emit, l: LocalId, scalar: bool) -> Obj {
    if scalar {
        return Obj::Scalar(l);
    }
    let ty = e.f.local(l).ty.clone();
    let a = e.f.add(Expr::LocalAddr(l), elem_ptr(&ty));
    let a = e.cast(a, &bytes_ptr());
    Obj::Bytes(e.hold("red.obj", a))
}

/// The pointer type of `LocalAddr` of a local of `ty`.
fn elem_ptr(ty: &Type) -> Type {
    match ty {
        Type::Array(elem, _) => elem.ptr_to(),
        t => t.ptr_to(),
    }
}

fn bytes_ptr() -> Type {
    Type::Int(IntKind::U8).ptr_to()
}

/// The address (`ptr<ty>`) of element `idx` (a `u64` local) of `part` of
/// the object at `base` (a `ptr<u8>` local).
fn elem_addr(e: &mut Emit, base: LocalId, part: &RedPart, idx: LocalId) -> ExprId {
    let (o, s) = (
        e.int(i128::from(part.offset), Type::U64),
        e.int(i128::from(part.stride), Type::U64),
    );
    let iv = e.read(idx);
    let off = e.bin(BinOp::Mul, iv, s);
    let off = e.bin(BinOp::Add, o, off);
    let b = e.read(base);
    let p = e.f.add(
        Expr::PtrAdd {
            base: b,
            index: off,
        },
        bytes_ptr(),
    );
    e.cast(p, &part.ty.ptr_to())
}

/// The value of element `idx` of `part` of `obj`.
fn load_elem(e: &mut Emit, obj: Obj, part: &RedPart, idx: LocalId) -> ExprId {
    match obj {
        Obj::Scalar(l) => e.read(l),
        Obj::Bytes(b) => {
            let a = elem_addr(e, b, part, idx);
            e.f.add(Expr::Load(a), part.ty.clone())
        }
    }
}

/// Sets element `idx` of `part` of `obj` to `v`.
fn store_elem(e: &mut Emit, obj: Obj, part: &RedPart, idx: LocalId, v: ExprId) {
    match obj {
        Obj::Scalar(l) => e.assign(l, v),
        Obj::Bytes(b) => {
            let a = elem_addr(e, b, part, idx);
            e.out.push(Stmt::Store { ptr: a, value: v });
        }
    }
}

/// Emits `f` once per element of a run of `count` (its index in a fresh
/// `u64` local): inline for one element, else in a loop.
fn each(e: &mut Emit, count: u64, mut f: impl FnMut(&mut Emit, LocalId)) {
    let zero = e.int(0, Type::U64);
    let idx = e.hold("red.e", zero);
    if count == 1 {
        return f(e, idx);
    }
    let (iv, n) = (e.read(idx), e.int(i128::from(count), Type::U64));
    let cond = e.cmp(CmpOp::Lt, iv, n);
    let mut body = Emit::new(e.f);
    f(&mut body, idx);
    let body = body.out;
    let one = e.int(1, Type::U64);
    e.while_step(cond, body, idx, one);
}

/// Emits `f` once per element of `part` reduced with `op`, with the
/// indices (fresh `u64` locals) of the values that make the element: one,
/// or two for a complex product (`2k`, `2k + 1`).
fn each_elem(e: &mut Emit, op: RedOp, part: &RedPart, mut f: impl FnMut(&mut Emit, &[LocalId])) {
    let w = op.width();
    if w == 1 {
        return each(e, part.count, |e, idx| f(e, &[idx]));
    }
    each(e, part.count / w, |e, g| {
        let idxs: Vec<LocalId> = (0..w)
            .map(|j| {
                let (gv, wv) = (e.read(g), e.int(i128::from(w), Type::U64));
                let m = e.bin(BinOp::Mul, gv, wv);
                let jv = e.int(i128::from(j), Type::U64);
                let i = e.bin(BinOp::Add, m, jv);
                e.hold("red.e", i)
            })
            .collect();
        f(e, &idxs)
    });
}

/// Each reduced element of the private copies set to the identity (before
/// the loop).
pub(super) fn prologue(e: &mut Emit, reductions: &[Reduction]) {
    for r in reductions {
        let obj = private_obj(e, r);
        for part in &r.parts {
            each_elem(e, r.op, part, |e, idxs| {
                for (j, &idx) in (0u64..).zip(idxs) {
                    let lit = r.op.identity_of(&part.ty, j);
                    let id = e.f.add(Expr::Literal(lit), part.ty.clone());
                    store_elem(e, obj, part, idx, id);
                }
            });
        }
    }
}

/// Combines each reduction's partials after a loop of parallelism `par`,
/// inside loops that partition the block dimensions `outer`.
pub(super) fn epilogue(
    e: &mut Emit,
    st: &mut RedState,
    reductions: Vec<Reduction>,
    par: Parallelism,
    outer: [bool; 3],
) {
    let gang = matches!(par, Parallelism::Par { gang: Some(_), .. });
    let dims = par.thread_dims();
    let scope = if outer.iter().any(|d| *d) {
        BarrierScope::Row
    } else {
        BarrierScope::Block
    };
    // 1–2. Within the block: every element, in every thread.
    let objs: Vec<Obj> = reductions.iter().map(|r| private_obj(e, r)).collect();
    for (r, &obj) in reductions.iter().zip(&objs) {
        for part in &r.parts {
            each_elem(e, r.op, part, |e, idxs| {
                let vs: Vec<LocalId> = match obj {
                    Obj::Scalar(l) => vec![l],
                    Obj::Bytes(_) => idxs
                        .iter()
                        .map(|&idx| {
                            let x = load_elem(e, obj, part, idx);
                            e.hold("red.v", x)
                        })
                        .collect(),
                };
                block_reduce(e, st, r.op, &vs, dims, scope);
                if let Obj::Bytes(_) = obj {
                    for (&v, &idx) in vs.iter().zip(idxs) {
                        let x = e.read(v);
                        store_elem(e, obj, part, idx, x);
                    }
                }
            });
        }
    }
    // 3. Into the targets.
    let across: Vec<(&Reduction, Obj)> = reductions
        .iter()
        .zip(objs.iter().copied())
        .filter(|(r, _)| gang && matches!(r.target, RedTarget::Memory(_)))
        .collect();
    if !across.is_empty() {
        across_gangs(e, st, &across);
    }
    for (r, &obj) in reductions.iter().zip(&objs) {
        match &r.target {
            RedTarget::Local(t) => {
                // The target has the private's type.
                let target = local_obj(e, *t, matches!(obj, Obj::Scalar(_)));
                update(e, r, obj, target);
            }
            RedTarget::Memory(_) if gang => {} // done by the last gang
            RedTarget::Memory(p) => {
                // One thread of those that ran the loop: index 0 along
                // every dimension no enclosing loop partitions. Other
                // gangs may run the loop too (in a gang loop, or
                // redundantly): the update is atomic.
                let single: Vec<u8> = (0..3u8).filter(|d| !outer[usize::from(*d)]).collect();
                let cond = first_thread(e, &single);
                let mut then = Emit::new(e.f);
                let target = memory_obj(&mut then, *p);
                update_atomic(&mut then, r, obj, target);
                let then = then.out;
                e.out.push(if_(cond, then));
            }
        }
    }
}

/// The object at device address `p` (evaluated once).
fn memory_obj(e: &mut Emit, p: ExprId) -> Obj {
    let b = e.cast(p, &bytes_ptr());
    Obj::Bytes(e.hold("red.ptr", b))
}

/// `target = target op value`, element by element.
fn update(e: &mut Emit, r: &Reduction, value: Obj, target: Obj) {
    for part in &r.parts {
        each_elem(e, r.op, part, |e, idxs| {
            let t: Vec<ExprId> = idxs
                .iter()
                .map(|&i| load_elem(e, target, part, i))
                .collect();
            let v: Vec<ExprId> = idxs.iter().map(|&i| load_elem(e, value, part, i)).collect();
            let c = combine(e, r.op, &t, &v);
            for (&idx, x) in idxs.iter().zip(c) {
                store_elem(e, target, part, idx, x);
            }
        });
    }
}

/// `target = target op value`, element by element, each atomically: a
/// read-modify-write instruction where the device has one for the operator
/// and type, else a compare-and-swap loop.
fn update_atomic(e: &mut Emit, r: &Reduction, value: Obj, target: Obj) {
    // A complex product updates two values together: no atomic does that
    // (one gang performs it, as without atomics).
    let Obj::Bytes(base) = target else {
        return update(e, r, value, target);
    };
    if r.op.width() != 1 {
        return update(e, r, value, target);
    }
    for part in &r.parts {
        each(e, part.count, |e, idx| {
            let a = elem_addr(e, base, part, idx);
            let at = e.hold("red.at", a);
            let v = load_elem(e, value, part, idx);
            let v = e.hold("red.v", v);
            let wide = part.ty.size() >= 4;
            let rmw = match (r.op, &part.ty) {
                (RedOp::Add, Type::Int(_) | Type::Float(_)) if wide => Some(AtomicOp::Add),
                (RedOp::Max, Type::Int(_)) if wide => Some(AtomicOp::Max),
                (RedOp::Min, Type::Int(_)) if wide => Some(AtomicOp::Min),
                (RedOp::BitAnd, Type::Int(_)) if wide => Some(AtomicOp::And),
                (RedOp::BitOr, Type::Int(_)) if wide => Some(AtomicOp::Or),
                (RedOp::BitXor, Type::Int(_)) if wide => Some(AtomicOp::Xor),
                _ => None,
            };
            if let Some(op) = rmw {
                let (ptr, value) = (e.read(at), e.read(v));
                e.out.push(Stmt::AtomicRmw {
                    op,
                    ptr,
                    value,
                    old: None,
                });
                return;
            }
            // old = *at; do { new = old op v; cas(at, old, new) } until it held.
            let old = e.f.new_local("red.old", part.ty.clone());
            let ptr = e.read(at);
            e.out.push(Stmt::AtomicLoad { ptr, dst: old });
            let ok = e.f.new_local("red.ok", Type::BOOL);
            let no = e.int(0, Type::BOOL);
            e.assign(ok, no);
            let seen = e.f.new_local("red.seen", part.ty.clone());
            let mut body = Emit::new(e.f);
            let (o, x) = (body.read(old), body.read(v));
            let new = combine1(&mut body, r.op, o, x);
            let new = body.hold("red.new", new);
            let (ptr, expected, desired) = (body.read(at), body.read(old), body.read(new));
            body.out.push(Stmt::AtomicCas {
                ptr,
                expected,
                desired,
                old: seen,
                ok,
            });
            let s = body.read(seen);
            body.assign(old, s);
            let body = body.out;
            let okv = e.read(ok);
            let cond = e.un(UnOp::Not, okv);
            e.out.push(Stmt::While {
                cond,
                body,
                step: vec![],
            });
        });
    }
}

/// `a op b` on the values of one element each (see [`RedOp::width`]).
fn combine(e: &mut Emit, op: RedOp, a: &[ExprId], b: &[ExprId]) -> Vec<ExprId> {
    if op != RedOp::ComplexMul {
        return a
            .iter()
            .zip(b)
            .map(|(&x, &y)| combine1(e, op, x, y))
            .collect();
    }
    // (p + qi)(r + si) = (pr - qs) + (ps + qr)i; each value read twice.
    let [p, q, r, s] = [a[0], a[1], b[0], b[1]].map(|x| e.hold("red.c", x));
    let m = |e: &mut Emit, x: LocalId, y: LocalId| {
        let (x, y) = (e.read(x), e.read(y));
        e.bin(BinOp::Mul, x, y)
    };
    let (pr, qs) = (m(e, p, r), m(e, q, s));
    let re = e.bin(BinOp::Sub, pr, qs);
    let (ps, qr) = (m(e, p, s), m(e, q, r));
    let im = e.bin(BinOp::Add, ps, qr);
    vec![re, im]
}

/// `a op b` in the type of `a`, for the operators of one value.
fn combine1(e: &mut Emit, op: RedOp, a: ExprId, b: ExprId) -> ExprId {
    let bin = match op {
        RedOp::Add => BinOp::Add,
        RedOp::Mul | RedOp::ComplexMul => BinOp::Mul,
        RedOp::Max => BinOp::Max,
        RedOp::Min => BinOp::Min,
        RedOp::BitAnd => BinOp::And,
        RedOp::BitOr => BinOp::Or,
        RedOp::BitXor => BinOp::Xor,
        RedOp::And | RedOp::Or => {
            let ty = e.f.ty(a).clone();
            let truth = |e: &mut Emit, x: ExprId| {
                let zero = zero_of(e, &ty);
                e.cmp(CmpOp::Ne, x, zero)
            };
            // Both sides always evaluated (not C's short circuit): `b` may
            // be a warp shuffle, which every lane must execute.
            let (ta, tb) = (truth(e, a), truth(e, b));
            let both = if op == RedOp::And {
                e.bin(BinOp::And, ta, tb)
            } else {
                e.bin(BinOp::Or, ta, tb)
            };
            return e.cast(both, &ty);
        }
    };
    e.bin(bin, a, b)
}

fn zero_of(e: &mut Emit, ty: &Type) -> ExprId {
    let lit = match ty {
        Type::Float(_) => Literal::Float(0.0),
        _ => Literal::Int(0),
    };
    e.f.add(Expr::Literal(lit), ty.clone())
}

fn if_(cond: ExprId, then: Vec<Stmt>) -> Stmt {
    Stmt::If {
        cond,
        then,
        otherwise: vec![],
        single: false,
    }
}

fn u32c(e: &mut Emit, v: i128) -> ExprId {
    e.int(v, Type::Int(IntKind::U32))
}

/// `tid.d == 0` for every `d` in `dims` (true when empty).
pub(super) fn first_thread(e: &mut Emit, dims: &[u8]) -> ExprId {
    let mut cond: Option<ExprId> = None;
    for &d in dims {
        let (t, z) = (e.reg(Special::ThreadIdx(d)), u32c(e, 0));
        let c = e.cmp(CmpOp::Eq, t, z);
        cond = Some(match cond {
            None => c,
            Some(prev) => e.f.add(
                Expr::Logical {
                    and: true,
                    lhs: prev,
                    rhs: c,
                },
                Type::BOOL,
            ),
        });
    }
    match cond {
        Some(c) => c,
        None => e.int(1, Type::BOOL),
    }
}

/// The shared arrays of `st.rows` elements of `ty` for the `width`
/// values of an element (made on first use).
fn shared_of(e: &mut Emit, st: &mut RedState, ty: &Type, width: usize) -> Vec<u32> {
    (0..width as u64)
        .map(|j| {
            let key = (ty.clone(), j);
            if let Some((_, n)) = st.shared.iter().find(|(k, _)| *k == key) {
                return *n;
            }
            let n = e.f.shared.len() as u32;
            e.f.shared.push(Type::Array(Box::new(ty.clone()), st.rows));
            st.shared.push((key, n));
            n
        })
        .collect()
}

/// The address of element `index` (`u32`) of shared array `n` of `ty`.
fn shared_at(e: &mut Emit, n: u32, ty: &Type, index: ExprId) -> ExprId {
    let base = e.f.add(Expr::SharedAddr(n), ty.ptr_to());
    let i = e.cast(index, &Type::U64);
    e.f.add(Expr::PtrAdd { base, index: i }, ty.ptr_to())
}

/// The thread's linear index in the block (`u32`).
fn linear(e: &mut Emit) -> ExprId {
    let i = [0, 1, 2].map(|d| e.reg(Special::ThreadIdx(d)));
    let n = [0, 1].map(|d| e.reg(Special::BlockDim(d)));
    e.linear3(i, n)
}

/// Elements `base + k * stride` for `k` in `0..count` of a shared array
/// (each a `u32` local).
struct Strided {
    base: LocalId,
    stride: LocalId,
    count: LocalId,
}

/// Emits `acc = sh[base]; for (k = 1; k < count; k++) acc = acc op
/// sh[base + k * stride]` over the shared arrays `ns` of `ty` (one per
/// value of the element, `accs` its values).
fn fold_shared(e: &mut Emit, op: RedOp, ns: &[u32], ty: &Type, accs: &[LocalId], at: Strided) {
    let Strided {
        base,
        stride,
        count,
    } = at;
    for (&n, &acc) in ns.iter().zip(accs) {
        let b = e.read(base);
        let first = shared_at(e, n, ty, b);
        let v = e.f.add(Expr::Load(first), ty.clone());
        e.assign(acc, v);
    }
    let one = u32c(e, 1);
    let k = e.hold("red.k", one);
    let (kv, cv) = (e.read(k), e.read(count));
    let cond = e.cmp(CmpOp::Lt, kv, cv);
    let mut body = Emit::new(e.f);
    let xs: Vec<ExprId> = ns
        .iter()
        .map(|&n| {
            let (kv, sv, bv) = (body.read(k), body.read(stride), body.read(base));
            let off = body.bin(BinOp::Mul, kv, sv);
            let at = body.bin(BinOp::Add, bv, off);
            let slot = shared_at(&mut body, n, ty, at);
            body.f.add(Expr::Load(slot), ty.clone())
        })
        .collect();
    let a: Vec<ExprId> = accs.iter().map(|&l| body.read(l)).collect();
    let c = combine(&mut body, op, &a, &xs);
    for (&acc, x) in accs.iter().zip(c) {
        body.assign(acc, x);
    }
    let body = body.out;
    let one = u32c(e, 1);
    e.while_step(cond, body, k, one);
}

/// Combines the element of values `vs` (locals of one type; see
/// [`RedOp::width`]) over the threads along the block dimensions `dims`
/// (every thread ends with the result); `scope` is the barrier that the
/// threads sharing the loop can meet at.
fn block_reduce(
    e: &mut Emit,
    st: &mut RedState,
    op: RedOp,
    vs: &[LocalId],
    dims: [bool; 3],
    scope: BarrierScope,
) {
    let ty = e.f.local(vs[0]).ty.clone();
    if dims[0] {
        warp_reduce(e, st, op, vs, &ty, scope);
    }
    if dims[1] || dims[2] {
        rows_reduce(e, st, op, vs, &ty, [dims[1], dims[2]]);
    }
}

/// Step 1: along block x, within each row (`ntid.x` a power of two up to
/// 32, or a multiple of 32).
fn warp_reduce(
    e: &mut Emit,
    st: &mut RedState,
    op: RedOp,
    vs: &[LocalId],
    ty: &Type,
    scope: BarrierScope,
) {
    let u32t = Type::Int(IntKind::U32);
    let lin = linear(e);
    let lin = e.hold("red.lin", lin);
    let (lv, m) = (e.read(lin), u32c(e, 31));
    let lane = e.bin(BinOp::And, lv, m);
    let lane = e.hold("red.lane", lane);
    let nx = e.reg(Special::BlockDim(0));
    let nx = e.hold("red.nx", nx);
    // The lanes of this row in this warp: all 32 when the row spans whole
    // warps, else the row's ntid.x lanes.
    let (a, w) = (e.read(nx), u32c(e, 32));
    let whole = e.cmp(CmpOp::Ge, a, w);
    let (one, a) = (u32c(e, 1), e.read(nx));
    let ones = e.bin(BinOp::Shl, one, a);
    let one = u32c(e, 1);
    let ones = e.bin(BinOp::Sub, ones, one);
    let (a, one) = (e.read(nx), u32c(e, 1));
    let low = e.bin(BinOp::Sub, a, one);
    let high = e.un(crate::ir::UnOp::BitNot, low);
    let l = e.read(lane);
    let start = e.bin(BinOp::And, l, high);
    let part = e.bin(BinOp::Shl, ones, start);
    let all = u32c(e, 0xffff_ffff);
    let members = e.f.add(
        Expr::Select {
            cond: whole,
            then: all,
            otherwise: part,
        },
        u32t.clone(),
    );
    let members = e.hold("red.members", members);
    for off in [16i128, 8, 4, 2, 1] {
        // Only offsets inside the row's lanes (uniform in the row).
        let (o, a) = (u32c(e, off), e.read(nx));
        let inside = e.cmp(CmpOp::Lt, o, a);
        let mut then = Emit::new(e.f);
        let others: Vec<ExprId> = vs
            .iter()
            .map(|&v| {
                let (x, lx, mm) = (
                    then.read(v),
                    then.int(off, u32t.clone()),
                    then.read(members),
                );
                then.f.add(
                    Expr::Shuffle {
                        value: x,
                        lane_xor: lx,
                        members: mm,
                    },
                    ty.clone(),
                )
            })
            .collect();
        let xs: Vec<ExprId> = vs.iter().map(|&v| then.read(v)).collect();
        let c = combine(&mut then, op, &xs, &others);
        for (&v, x) in vs.iter().zip(c) {
            then.assign(v, x);
        }
        let then = then.out;
        e.out.push(if_(inside, then));
    }
    // Rows wider than a warp: one slot per warp in shared memory.
    let (a, w) = (e.read(nx), u32c(e, 32));
    let wide = e.cmp(CmpOp::Gt, a, w);
    let ns = shared_of(e, st, ty, vs.len());
    let mut then = Emit::new(e.f);
    then.out.push(Stmt::Barrier(scope));
    let (l, z) = (then.read(lane), then.int(0, u32t.clone()));
    let lead = then.cmp(CmpOp::Eq, l, z);
    let mut store = vec![];
    for (&n, &v) in ns.iter().zip(vs) {
        let (li, five) = (then.read(lin), then.int(5, u32t.clone()));
        let warp = then.bin(BinOp::Shr, li, five);
        let slot = shared_at(&mut then, n, ty, warp);
        let x = then.read(v);
        store.push(Stmt::Store {
            ptr: slot,
            value: x,
        });
    }
    then.out.push(if_(lead, store));
    then.out.push(Stmt::Barrier(scope));
    let (a, five) = (then.read(nx), then.int(5, u32t.clone()));
    let nw = then.bin(BinOp::Shr, a, five);
    let nw = then.hold("red.nw", nw);
    let (li, a) = (then.read(lin), then.read(nx));
    let row = then.bin(BinOp::Div, li, a);
    let nwv = then.read(nw);
    let base = then.bin(BinOp::Mul, row, nwv);
    let base = then.hold("red.base", base);
    let one = then.int(1, u32t);
    let stride = then.hold("red.stride", one);
    fold_shared(
        &mut then,
        op,
        &ns,
        ty,
        vs,
        Strided {
            base,
            stride,
            count: nw,
        },
    );
    let then = then.out;
    e.out.push(if_(wide, then));
}

/// Step 2: along block y and/or z (`yz`), one element per row.
fn rows_reduce(
    e: &mut Emit,
    st: &mut RedState,
    op: RedOp,
    vs: &[LocalId],
    ty: &Type,
    yz: [bool; 2],
) {
    let ns = shared_of(e, st, ty, vs.len());
    e.out.push(Stmt::Barrier(BarrierScope::Block));
    let (ty_, tz, ny, nz) = (
        e.reg(Special::ThreadIdx(1)),
        e.reg(Special::ThreadIdx(2)),
        e.reg(Special::BlockDim(1)),
        e.reg(Special::BlockDim(2)),
    );
    let ty_ = e.hold("red.ty", ty_);
    let tz = e.hold("red.tz", tz);
    let ny = e.hold("red.ny", ny);
    let nz = e.hold("red.nz", nz);
    let lead = first_thread(e, &[0]);
    let mut store = vec![];
    for (&n, &v) in ns.iter().zip(vs) {
        let (a, b, c) = (e.read(tz), e.read(ny), e.read(ty_));
        let zy = e.bin(BinOp::Mul, a, b);
        let row = e.bin(BinOp::Add, c, zy);
        let slot = shared_at(e, n, ty, row);
        let x = e.read(v);
        store.push(Stmt::Store {
            ptr: slot,
            value: x,
        });
    }
    e.out.push(if_(lead, store));
    e.out.push(Stmt::Barrier(BarrierScope::Block));
    let u32t = Type::Int(IntKind::U32);
    let (base, stride, count) = match yz {
        [true, true] => {
            let z = e.int(0, u32t.clone());
            let one = e.int(1, u32t.clone());
            let (a, b) = (e.read(ny), e.read(nz));
            (z, one, e.bin(BinOp::Mul, a, b))
        }
        [true, false] => {
            let (a, b) = (e.read(tz), e.read(ny));
            let base = e.bin(BinOp::Mul, a, b);
            (base, e.int(1, u32t.clone()), e.read(ny))
        }
        _ => (e.read(ty_), e.read(ny), e.read(nz)),
    };
    let base = e.hold("red.base", base);
    let stride = e.hold("red.stride", stride);
    let count = e.hold("red.count", count);
    fold_shared(
        e,
        op,
        &ns,
        ty,
        vs,
        Strided {
            base,
            stride,
            count,
        },
    );
    // Every row has read the slots before any thread writes them again (a
    // vector reduction of the next iteration, behind only a row barrier).
    e.out.push(Stmt::Barrier(BarrierScope::Block));
}
