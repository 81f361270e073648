//! The races the emulator reports between threads and blocks.

use super::harness::*;
use crate::code::*;
use crate::launch::{launch, Launch, Limits, RaceMode};
use crate::module::*;

/// Every thread of the block stores its index to `a[0]` (or, with
/// `own`, to `a[tid]`).
fn store_kernel(own: bool) -> Module {
    let mut b = B::new("k");
    let a = b.param(Ty::Ptr);
    let t = b.sreg(Sreg::Tid(0));
    let zero = b.c(0);
    let idx = if own { t } else { zero };
    let p = b.elem(a, idx, 4);
    b.store(Ty::I32, p, t, "store to a[0]");
    module(b.f, vec![ptr_param("a")])
}

#[test]
fn two_threads_writing_one_element_race() {
    let mut d = dev(&store_kernel(false));
    let a = d.alloc(&i32s(&[0; 4]));
    let (r, _) = d.run(RaceMode::Error, 1, [4, 1, 1], &[a.to_le_bytes().to_vec()]);
    let e = r.unwrap_err();
    assert!(e.starts_with("data race in kernel 'k' (parallel loop at t.c:5) on 'a' + 0 bytes (a 16-byte allocation)"), "{e}");
    assert!(e.contains("a write by block (0,0,0) thread (0,0,0) ('store to a[0]' at t.c:10) and a write by block (0,0,0) thread (1,0,0) ('store to a[0]' at t.c:10) (one block, no barrier between them)"), "{e}");
    // Warn: reported once per pair of instructions, and the kernel ends.
    let (r, _) = d.run(RaceMode::Warn, 2, [4, 1, 1], &[a.to_le_bytes().to_vec()]);
    let w = r.unwrap();
    assert_eq!(w.len(), 1, "{w:?}");
    // ... once per device: the next launch of the kernel says nothing new.
    let (r, _) = d.run(RaceMode::Warn, 2, [4, 1, 1], &[a.to_le_bytes().to_vec()]);
    assert_eq!(r, Ok(vec![]));
    // Off: no report.
    assert_eq!(
        d.run(RaceMode::Off, 2, [4, 1, 1], &[a.to_le_bytes().to_vec()])
            .0,
        Ok(vec![])
    );
    // Each thread its own element: no race.
    let mut d = dev(&store_kernel(true));
    let a = d.alloc(&i32s(&[0; 4]));
    assert_eq!(
        d.run(RaceMode::Error, 1, [4, 1, 1], &[a.to_le_bytes().to_vec()])
            .0,
        Ok(vec![])
    );
    assert_eq!(as_i32s(&d.read(a, 16)), [0, 1, 2, 3]);
}

#[test]
fn blocks_along_y_that_write_one_element_race() {
    let mut d = dev(&store_kernel(true));
    let a = d.alloc(&i32s(&[0; 4]));
    let l = Launch {
        kernel: 0,
        grid: [1, 2, 1],
        block: [4, 1, 1],
        dyn_shared: 0,
        params: &[a.to_le_bytes().to_vec()],
    };
    let sink = |_: &[u8]| {};
    let r = launch(
        &d.prog,
        &d.mem,
        &mut d.race,
        RaceMode::Error,
        &Limits::default(),
        &l,
        &sink,
        1,
    );
    let e = r.unwrap_err();
    assert!(e.contains("(different blocks"), "{e}");
}
