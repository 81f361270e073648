//! Reductions across gangs: the last-gang-done finish (step 3 of
//! [`super`]): each gang publishes its block-combined values in the
//! runtime's scratch memory, counts itself in, and the last gang folds the
//! slots in gang order and updates the targets once.
//!
//! Owns: `across_gangs`. May call: [`super`]'s helpers, `ir`.

use super::{
    block_reduce, bytes_ptr, combine, each, each_elem, first_thread, if_, linear, load_elem,
    memory_obj, store_elem, u32c, Obj, RedState,
};
use crate::ir::{
    AtomicOp, BarrierScope, BinOp, CmpOp, Expr, ExprId, IntKind, LocalId, RedTarget, Reduction,
    Scratch, Special, Stmt, Type,
};
use crate::schedule::build::Emit;

/// Step 3: across the gangs of the launch, for reductions into device
/// memory (the block values are already combined in every thread): one
/// slot array per reduced element.
pub(super) fn across_gangs(e: &mut Emit, st: &mut RedState, reds: &[(&Reduction, Obj)]) {
    let u32t = Type::Int(IntKind::U32);
    let scratch = match st.scratch {
        Some(s) => s,
        None => {
            let s = e.f.new_local("scratch", bytes_ptr());
            st.scratch = Some(s);
            s
        }
    };
    let counter = st.counters;
    st.counters += 1;
    // The first slot array of each part.
    let mut firsts = vec![];
    for (r, _) in reds {
        let mut v = vec![];
        for part in &r.parts {
            v.push(st.slots);
            st.slots += part.count as u32;
        }
        firsts.push(v);
    }

    // Gangs and this gang's index (u64).
    let (gx, gy, gz) = (
        e.special(Special::GridDim(0)),
        e.special(Special::GridDim(1)),
        e.special(Special::GridDim(2)),
    );
    let gxy = e.bin(BinOp::Mul, gx, gy);
    let nb = e.bin(BinOp::Mul, gxy, gz);
    let nb = e.hold("red.gangs", nb);
    let i = [0, 1, 2].map(|d| e.special(Special::BlockIdx(d)));
    let n = [0, 1].map(|d| e.special(Special::GridDim(d)));
    let bid = e.linear3(i, n);
    let bid = e.hold("red.gang", bid);
    // Slot `g` of slot array `first + idx` (of type `ty`): scratch +
    // SLOTS_AT + 8 * ((first + idx) * gangs + g).
    let slot = |e: &mut Emit, first: u32, idx: LocalId, g: ExprId, ty: &Type| -> ExprId {
        let (f, iv) = (e.int(i128::from(first), Type::U64), e.read(idx));
        let arr = e.bin(BinOp::Add, f, iv);
        let n = e.read(nb);
        let at = e.bin(BinOp::Mul, arr, n);
        let at = e.bin(BinOp::Add, at, g);
        let eight = e.int(8, Type::U64);
        let off = e.bin(BinOp::Mul, at, eight);
        let base = e.int(i128::from(Scratch::SLOTS_AT), Type::U64);
        let off = e.bin(BinOp::Add, base, off);
        let sc = e.read(scratch);
        let p = e.f.add(
            Expr::PtrAdd {
                base: sc,
                index: off,
            },
            bytes_ptr(),
        );
        e.cast(p, &ty.ptr_to())
    };
    let flag = match st.flag {
        Some(f) => f,
        None => {
            let f = e.f.shared.len() as u32;
            e.f.shared.push(Type::Array(Box::new(u32t.clone()), 1));
            st.flag = Some(f);
            f
        }
    };

    // Thread 0 of each gang: publish, fence, count in.
    let t0 = first_thread(e, &[0, 1, 2]);
    let mut then = Emit::new(e.f);
    for ((r, obj), firsts) in reds.iter().zip(&firsts) {
        for (part, &first) in r.parts.iter().zip(firsts) {
            each(&mut then, part.count, |e, idx| {
                let g = e.read(bid);
                let at = slot(e, first, idx, g, &part.ty);
                let x = load_elem(e, *obj, part, idx);
                e.out.push(Stmt::Store { ptr: at, value: x });
            });
        }
    }
    then.out.push(Stmt::Fence);
    let base = then.read(scratch);
    let ci = then.int(4 * i128::from(counter), Type::U64);
    let cp = then.f.add(Expr::PtrAdd { base, index: ci }, bytes_ptr());
    let cp = then.cast(cp, &u32t.ptr_to());
    let (g, one) = (then.read(nb), then.int(1, Type::U64));
    let last_index = then.bin(BinOp::Sub, g, one);
    let last_index = then.cast(last_index, &u32t);
    let last_index = then.hold("red.last", last_index);
    let old = then.f.new_local("red.ticket", u32t.clone());
    let li = then.read(last_index);
    then.out.push(Stmt::AtomicRmw {
        op: AtomicOp::IncWrap,
        ptr: cp,
        value: li,
        old: Some(old),
    });
    let (o, li) = (then.read(old), then.read(last_index));
    let is_last = then.cmp(CmpOp::Eq, o, li);
    let is_last = then.cast(is_last, &u32t);
    let fp = then.f.add(Expr::SharedAddr(flag), u32t.ptr_to());
    then.out.push(Stmt::Store {
        ptr: fp,
        value: is_last,
    });
    let then = then.out;
    e.out.push(if_(t0, then));
    e.out.push(Stmt::Barrier(BarrierScope::Block));
    let fp = e.f.add(Expr::SharedAddr(flag), u32t.ptr_to());
    let fv = e.f.add(Expr::Load(fp), u32t.clone());
    let z = u32c(e, 0);
    let last = e.cmp(CmpOp::Ne, fv, z);
    // Every thread has read the flag before thread 0 may write it again
    // (the next reduction across gangs, the next iteration).
    let last = e.hold("red.is_last", last);
    e.out.push(Stmt::Barrier(BarrierScope::Block));
    let last = e.read(last);

    // The last gang: fold the slots in gang order, combine in the block,
    // update the target once.
    let mut fin = Emit::new(e.f);
    fin.out.push(Stmt::Fence);
    for ((r, _), firsts) in reds.iter().zip(&firsts) {
        let RedTarget::Memory(p) = &r.target else {
            continue;
        };
        let target = memory_obj(&mut fin, *p);
        for (part, &first) in r.parts.iter().zip(firsts) {
            each_elem(&mut fin, r.op, part, |fin, idxs| {
                let accs: Vec<LocalId> = (0u64..)
                    .zip(idxs)
                    .map(|(j, _)| {
                        let lit = r.op.identity_of(&part.ty, j);
                        let id = fin.f.add(Expr::Literal(lit), part.ty.clone());
                        fin.hold("red.acc", id)
                    })
                    .collect();
                let lin = linear(fin);
                let lin = fin.cast(lin, &Type::U64);
                let k = fin.hold("red.i", lin);
                let (kv, g) = (fin.read(k), fin.read(nb));
                let cond = fin.cmp(CmpOp::Lt, kv, g);
                let mut body = Emit::new(fin.f);
                let xs: Vec<ExprId> = idxs
                    .iter()
                    .map(|&idx| {
                        let kv = body.read(k);
                        let at = slot(&mut body, first, idx, kv, &part.ty);
                        body.f.add(Expr::Load(at), part.ty.clone())
                    })
                    .collect();
                let a: Vec<ExprId> = accs.iter().map(|&l| body.read(l)).collect();
                let c = combine(&mut body, r.op, &a, &xs);
                for (&acc, x) in accs.iter().zip(c) {
                    body.assign(acc, x);
                }
                let body = body.out;
                let (nx, ny, nz) = (
                    fin.special(Special::BlockDim(0)),
                    fin.special(Special::BlockDim(1)),
                    fin.special(Special::BlockDim(2)),
                );
                let nxy = fin.bin(BinOp::Mul, nx, ny);
                let threads = fin.bin(BinOp::Mul, nxy, nz);
                fin.while_step(cond, body, k, threads);
                block_reduce(
                    fin,
                    st,
                    r.op,
                    &accs,
                    [true, true, true],
                    BarrierScope::Block,
                );
                let t0 = first_thread(fin, &[0, 1, 2]);
                let mut upd = Emit::new(fin.f);
                let t: Vec<ExprId> = idxs
                    .iter()
                    .map(|&idx| load_elem(&mut upd, target, part, idx))
                    .collect();
                let a: Vec<ExprId> = accs.iter().map(|&l| upd.read(l)).collect();
                let c = combine(&mut upd, r.op, &t, &a);
                for (&idx, x) in idxs.iter().zip(c) {
                    store_elem(&mut upd, target, part, idx, x);
                }
                let upd = upd.out;
                fin.out.push(if_(t0, upd));
            });
        }
    }
    let fin = fin.out;
    e.out.push(if_(last, fin));
}
