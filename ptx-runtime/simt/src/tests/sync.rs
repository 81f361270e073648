//! The synchronisation the emulator honours: block barriers, shuffles,
//! fences of the last-block pattern, named row barriers.

use super::harness::*;
use crate::code::*;
use crate::launch::RaceMode;
use crate::module::*;

/// Thread 0 writes shared[0]; (barrier;) every thread copies it to a[tid].
fn broadcast_kernel(barrier: bool) -> Module {
    let mut b = B::new("k");
    b.f.shared_bytes = 16;
    let a = b.param(Ty::Ptr);
    let t = b.sreg(Sreg::Tid(0));
    let sh = b.reg();
    b.i(Inst::SharedAddr { dst: sh, offset: 0 });
    let zero = b.c(0);
    let is0 = b.cmp(CmpOp::Eq, Ty::U32, t, zero);
    let br = b.pc();
    b.i(Inst::BranchIfNot { cond: is0, to: 0 });
    let v = b.c(42);
    b.store(Ty::I32, sh, v, "store to shared");
    let after = b.pc();
    b.f.code[br as usize] = Inst::BranchIfNot {
        cond: is0,
        to: after,
    };
    if barrier {
        b.barrier();
    }
    let x = b.load(Ty::I32, sh, "load of shared");
    let p = b.elem(a, t, 4);
    b.store(Ty::I32, p, x, "store to a[t]");
    module(b.f, vec![ptr_param("a")])
}

#[test]
fn a_barrier_orders_shared_memory() {
    let mut d = dev(&broadcast_kernel(true));
    let a = d.alloc(&i32s(&[0; 64]));
    assert_eq!(
        d.run(RaceMode::Error, 1, [64, 1, 1], &[a.to_le_bytes().to_vec()])
            .0,
        Ok(vec![])
    );
    assert_eq!(as_i32s(&d.read(a, 256)), [42; 64]);
    let mut d = dev(&broadcast_kernel(false));
    let a = d.alloc(&i32s(&[0; 64]));
    let e = d
        .run(RaceMode::Error, 1, [64, 1, 1], &[a.to_le_bytes().to_vec()])
        .0
        .unwrap_err();
    assert!(e.contains("on shared memory offset 0"), "{e}");
    assert!(e.contains("a write by block (0,0,0) thread (0,0,0) ('store to shared' at t.c:10) and a read by block (0,0,0) thread (1,0,0) ('load of shared' at t.c:11)"), "{e}");
}

/// A butterfly sum over the warp: out[lane] = sum of lanes (or a shuffle
/// from a lane outside `members`).
fn shuffle_kernel(members: u32) -> Module {
    let mut b = B::new("k");
    let out = b.param(Ty::Ptr);
    let t = b.sreg(Sreg::Tid(0));
    let mut v = t;
    let m = b.c(u64::from(members));
    let site = b.site("shuffle");
    for x in [16u64, 8, 4, 2, 1] {
        let xr = b.c(x);
        let got = b.reg();
        b.i(Inst::Shfl {
            ty: Ty::U32,
            dst: got,
            value: v,
            lane_xor: xr,
            members: m,
            site,
        });
        v = b.bin(BinOp::Add, Ty::U32, v, got);
    }
    let p = b.elem(out, t, 4);
    b.store(Ty::U32, p, v, "store");
    module(b.f, vec![ptr_param("out")])
}

#[test]
fn shuffles_exchange_among_their_members() {
    let mut d = dev(&shuffle_kernel(u32::MAX));
    let a = d.alloc(&i32s(&[0; 64]));
    assert_eq!(
        d.run(RaceMode::Error, 1, [64, 1, 1], &[a.to_le_bytes().to_vec()])
            .0,
        Ok(vec![])
    );
    let got = as_i32s(&d.read(a, 256));
    assert_eq!(&got[..32], &[496; 32]);
    assert_eq!(&got[32..], &[(32..64).sum::<i32>(); 32]);
    // A block of 16 threads cannot complete a full-warp shuffle.
    let e = d
        .run(RaceMode::Off, 1, [16, 1, 1], &[a.to_le_bytes().to_vec()])
        .0
        .unwrap_err();
    assert!(e.contains("deadlock: 16 threads (first (0,0,0)) wait at a shuffle of member mask 0xffffffff at line 10"), "{e}");
    // Lanes 0-15 only, but xor 16 reads outside them.
    let mut d = dev(&shuffle_kernel(0xffff));
    let a = d.alloc(&i32s(&[0; 16]));
    let e = d
        .run(RaceMode::Off, 1, [16, 1, 1], &[a.to_le_bytes().to_vec()])
        .0
        .unwrap_err();
    assert!(
        e.contains("shuffles from lane 16, which is not in the member mask 0x0000ffff"),
        "{e}"
    );
}

#[test]
fn threads_at_different_barriers_are_reported() {
    // Even threads wait at one barrier, odd ones at another.
    let mut b = B::new("k");
    let t = b.sreg(Sreg::Tid(0));
    let one = b.c(1);
    let odd = b.bin(BinOp::And, Ty::U32, t, one);
    let c = b.cvt(Ty::U32, Ty::B1, odd);
    let br = b.pc();
    b.i(Inst::BranchIf { cond: c, to: 0 });
    b.barrier();
    b.i(Inst::Exit);
    let other = b.pc();
    b.f.code[br as usize] = Inst::BranchIf { cond: c, to: other };
    b.barrier();
    let mut d = dev(&module(b.f, vec![]));
    let e = d.run(RaceMode::Off, 1, [8, 1, 1], &[]).0.unwrap_err();
    assert!(e.contains("threads wait at different block barriers: thread (0,0,0) at line 10, thread (1,0,0) at line 11"), "{e}");
}

/// Block-level counter: thread 0 of every block stores its block's index
/// into slot[block], (fences,) counts in with atomicInc; the last block
/// sums the slots into out[0].
fn last_block_kernel(fence: bool) -> Module {
    let mut b = B::new("k");
    b.f.shared_bytes = 8;
    let slots = b.param(Ty::Ptr);
    let counter = b.param(Ty::Ptr);
    let out = b.param(Ty::Ptr);
    let t = b.sreg(Sreg::Tid(0));
    let blk = b.sreg(Sreg::Ctaid(0));
    let nb = b.sreg(Sreg::Nctaid(0));
    let flag = b.reg();
    b.i(Inst::SharedAddr {
        dst: flag,
        offset: 0,
    });
    let zero = b.c(0);
    let is0 = b.cmp(CmpOp::Eq, Ty::U32, t, zero);
    let br = b.pc();
    b.i(Inst::BranchIfNot { cond: is0, to: 0 });
    let p = b.elem(slots, blk, 4);
    b.store(Ty::U32, p, blk, "store to slot[block]");
    if fence {
        b.i(Inst::Fence);
    }
    let one = b.c(1);
    let last = b.bin(BinOp::Sub, Ty::U32, nb, one);
    let old = b.reg();
    let site = b.site("atomicInc");
    b.i(Inst::Atom {
        op: AtomOp::IncWrap,
        ty: Ty::U32,
        dst: Some(old),
        addr: counter,
        value: last,
        site,
    });
    let is_last = b.cmp(CmpOp::Eq, Ty::U32, old, last);
    let il = b.cvt(Ty::B1, Ty::U32, is_last);
    b.store(Ty::U32, flag, il, "store to flag");
    let join = b.pc();
    b.f.code[br as usize] = Inst::BranchIfNot {
        cond: is0,
        to: join,
    };
    b.barrier();
    let fv = b.load(Ty::U32, flag, "load of flag");
    let fb = b.cvt(Ty::U32, Ty::B1, fv);
    let and = b.bin(BinOp::And, Ty::B1, fb, is0);
    let br2 = b.pc();
    b.i(Inst::BranchIfNot { cond: and, to: 0 });
    let sum = b.c(0);
    let k = b.c(0);
    let top = b.pc();
    let more = b.cmp(CmpOp::Lt, Ty::U32, k, nb);
    let exit_at = b.pc();
    b.i(Inst::BranchIfNot { cond: more, to: 0 });
    let q = b.elem(slots, k, 4);
    let v = b.load(Ty::U32, q, "load of slot[k]");
    b.i(Inst::Bin {
        op: BinOp::Add,
        ty: Ty::U32,
        dst: sum,
        a: sum,
        b: v,
    });
    b.i(Inst::Bin {
        op: BinOp::Add,
        ty: Ty::U32,
        dst: k,
        a: k,
        b: one,
    });
    b.i(Inst::Jump { to: top });
    let done = b.pc();
    b.f.code[exit_at as usize] = Inst::BranchIfNot {
        cond: more,
        to: done,
    };
    b.store(Ty::U32, out, sum, "store to out");
    let end = b.pc();
    b.f.code[br2 as usize] = Inst::BranchIfNot { cond: and, to: end };
    module(
        b.f,
        vec![ptr_param("slots"), ptr_param("counter"), ptr_param("out")],
    )
}

#[test]
fn the_last_block_pattern_needs_its_fence() {
    for fence in [true, false] {
        let mut d = dev(&last_block_kernel(fence));
        let slots = d.alloc(&i32s(&[0; 8]));
        let counter = d.alloc(&i32s(&[0]));
        let out = d.alloc(&i32s(&[0]));
        let params = [slots, counter, out].map(|a| a.to_le_bytes().to_vec());
        let r = d.run(RaceMode::Error, 8, [32, 1, 1], &params).0;
        if fence {
            assert_eq!(r, Ok(vec![]));
            assert_eq!(as_i32s(&d.read(out, 4)), [28]);
            assert_eq!(as_i32s(&d.read(counter, 4)), [0], "atomicInc wraps to 0");
            // Without race checks the blocks run on several host threads;
            // the atomics still count every block once.
            assert_eq!(d.run(RaceMode::Off, 8, [32, 1, 1], &params).0, Ok(vec![]));
            assert_eq!(as_i32s(&d.read(out, 4)), [28]);
        } else {
            let e = r.unwrap_err();
            assert!(e.contains("on 'slots' + 0 bytes"), "{e}");
            assert!(
                e.contains("(different blocks, not ordered by a fence and an atomic)"),
                "{e}"
            );
        }
    }
}

/// Rows of 32 threads (block 32×4): each thread writes shared[lin],
/// synchronises its row with named barrier 1 + row (or not), reads the
/// element `step` threads further (wrapping within the block).
fn row_kernel(sync: bool, step: u64) -> Module {
    let mut b = B::new("k");
    b.f.shared_bytes = 4 * 128;
    let out = b.param(Ty::Ptr);
    let x = b.sreg(Sreg::Tid(0));
    let y = b.sreg(Sreg::Tid(1));
    let nx = b.sreg(Sreg::Ntid(0));
    let yx = b.bin(BinOp::Mul, Ty::U32, y, nx);
    let lin = b.bin(BinOp::Add, Ty::U32, yx, x);
    let sh = b.reg();
    b.i(Inst::SharedAddr { dst: sh, offset: 0 });
    let p = b.elem(sh, lin, 4);
    b.store(Ty::U32, p, lin, "store to s[lin]");
    if sync {
        let one = b.c(1);
        let id = b.bin(BinOp::Add, Ty::U32, y, one);
        let site = b.site("row barrier");
        b.i(Inst::BarNamed {
            id,
            count: nx,
            site,
        });
    }
    let st = b.c(step);
    let j = b.bin(BinOp::Add, Ty::U32, lin, st);
    let m = b.c(127);
    let j = b.bin(BinOp::And, Ty::U32, j, m);
    let q = b.elem(sh, j, 4);
    let v = b.load(Ty::U32, q, "load of s[j]");
    let o = b.elem(out, lin, 4);
    b.store(Ty::U32, o, v, "store to out[lin]");
    module(b.f, vec![ptr_param("out")])
}

#[test]
fn row_barriers_order_their_row_only() {
    // In-row neighbour: ordered by the row barrier.
    let mut d = dev(&row_kernel(true, 1));
    let a = d.alloc(&i32s(&[0; 128]));
    let params = [a.to_le_bytes().to_vec()];
    // (Thread 31 of each row reads the next row's first element: that is
    // a race, so look at a step that stays in the row for most threads.)
    let e = d
        .run(RaceMode::Error, 1, [32, 4, 1], &params)
        .0
        .unwrap_err();
    assert!(e.contains("a write by block (0,0,0) thread (0,1,0)"), "{e}");
    assert!(e.contains("a read by block (0,0,0) thread (31,0,0)"), "{e}");
    // Without the barrier, the first neighbour read already races.
    let mut d = dev(&row_kernel(false, 1));
    let a = d.alloc(&i32s(&[0; 128]));
    let e = d
        .run(RaceMode::Error, 1, [32, 4, 1], &[a.to_le_bytes().to_vec()])
        .0
        .unwrap_err();
    assert!(e.contains("a write by block (0,0,0) thread (1,0,0)"), "{e}");
    // A step of 0: every thread reads its own element.
    let mut d = dev(&row_kernel(false, 0));
    let a = d.alloc(&i32s(&[0; 128]));
    assert_eq!(
        d.run(RaceMode::Error, 1, [32, 4, 1], &[a.to_le_bytes().to_vec()])
            .0,
        Ok(vec![])
    );
    // The values went through.
    let mut d = dev(&row_kernel(true, 1));
    let a = d.alloc(&i32s(&[0; 128]));
    assert!(d
        .run(RaceMode::Warn, 1, [32, 4, 1], &[a.to_le_bytes().to_vec()])
        .0
        .is_ok());
    let got = as_i32s(&d.read(a, 512));
    assert_eq!(got[0], 1);
    assert_eq!(got[30], 31);
}
