//! Unit tests of the table's accessors, on the matmul pass-test input
//! (`tests/in/ana_matmul.ir`: `c[i*n+j] = Σ a[i*n+k] * b[k*n+j]`, gang
//! loop over i, vector loop over j, and a plain C `for` over k, which
//! lowering makes a `while`: not a counted loop of the table).

use super::{analyze, Stride};
use crate::ir::{read_module, LocalId};

#[test]
fn matmul_facts() {
    let m = read_module(include_str!("../../tests/in/ana_matmul.ir")).expect("reads");
    let info = analyze(&m);
    let k = &m.kernels[0];
    let names: Vec<&str> = k.params.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["n", "a", "b", "c"]);
    assert!(info.read_only(0, 1) && info.read_only(0, 2));
    assert!(!info.read_only(0, 3));
    // A parameter schedule appends later has no entry (never read-only).
    assert_eq!(info.param(0, 4), None);
    assert!(!info.read_only(0, 4));
    let loops = &info.kernels[0].loops;
    assert_eq!(loops.len(), 2);
    let (i, j) = (LocalId(0), LocalId(2));
    assert_eq!(loops[0].vars, [i]);
    assert_eq!(loops[1].vars, [j]);
    // b[k*n+j] and c[i*n+j] walk memory with j; nothing does with i.
    assert_eq!(loops[1].contiguous_count(j), 2);
    assert_eq!(loops[0].contiguous_count(i), 0);
    assert_eq!(loops[0].contiguous_count(j), 0);
    // a[i*n+k] is the same element for every j: a row all vector lanes read.
    assert_eq!(loops[1].accesses[0].strides, [Stride::Invariant]);
    assert_eq!(
        loops[1].reuse,
        [super::Reuse::Broadcast(loops[1].accesses[0].expr)]
    );
}
