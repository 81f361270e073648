//! Kernel pointer parameters and LLVM's `noalias` (`analysis/noalias.rs`):
//! host arrays are distinct objects, so their device copies get `noalias`
//! and a value loaded through one stays in a register across stores
//! through another (LICM hoists it out of a `seq` loop); a plain pointer
//! parameter, or a pointer loaded from memory, may reach an array's copy,
//! and then no parameter of the kernel gets it.

mod common;
use std::process::Command;

/// `accc -O3 <emit> src` (a file in a fresh folder) and its stdout.
fn emit(src: &str, emit: &str) -> String {
    let dir = tempfile::tempdir().expect("temporary folder");
    std::fs::write(dir.path().join("k.c"), src).expect("write k.c");
    let out = Command::new(common::accc_bin())
        .current_dir(dir.path())
        .args(["-O3", emit, "k.c", "-o", "-"])
        .output()
        .expect("run accc");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The kernel's `define` line in the LLVM IR.
fn define(ll: &str) -> &str {
    ll.lines()
        .find(|l| l.starts_with("define") && l.contains("ptx_kernel"))
        .expect("a kernel")
}

/// `b[i]` is invariant in the `seq` loop that stores `a[…]`.
const ARRAYS: &str = "double a[64 * 16], b[64];
void f(int n) {
#pragma acc parallel loop copy(a) copyin(b)
  for (int i = 0; i < 64; i++) {
#pragma acc loop seq
    for (int k = 0; k < n; k++) a[i * 16 + k] = b[i] * k;
  }
}
";

#[test]
fn arrays_are_noalias_and_invariant_loads_leave_the_loop() {
    let ll = emit(ARRAYS, "--emit=llvm");
    let d = define(&ll);
    assert_eq!(d.matches("noalias").count(), 2, "{d}");
    let ptx = emit(ARRAYS, "--emit=ptx");
    assert_eq!(
        ptx.matches("ld.global").count(),
        1,
        "b[i] is loaded once, before the k loop:\n{ptx}"
    );
}

#[test]
fn a_plain_pointer_parameter_may_alias_an_array() {
    // `p` may point into `b` (the present table then gives it an address
    // inside b's device copy).
    let src = "double b[64];
void f(int n, double *p) {
#pragma acc parallel loop copy(p[0:64 * 16]) copyin(b)
  for (int i = 0; i < 64; i++) {
#pragma acc loop seq
    for (int k = 0; k < n; k++) p[i * 16 + k] = b[i] * k;
  }
}
";
    let ll = emit(src, "--emit=llvm");
    assert!(!define(&ll).contains("noalias"), "{}", define(&ll));
    // The same with `restrict`: the program's promise.
    let ll = emit(
        &src.replace("double *p", "double *restrict p"),
        "--emit=llvm",
    );
    assert_eq!(define(&ll).matches("noalias").count(), 2, "{}", define(&ll));
}

#[test]
fn a_pointer_loaded_from_memory_may_alias_an_array() {
    // `t[0]` is a pointer the kernel loads: it may point into `b`'s copy.
    let src = "double b[64];
double *t[1];
void f(int n) {
#pragma acc parallel loop copyin(t, b)
  for (int i = 0; i < 64; i++) {
#pragma acc loop seq
    for (int k = 0; k < n; k++) t[0][i * 16 + k] = b[i] * k;
  }
}
";
    let ll = emit(src, "--emit=llvm");
    assert!(!define(&ll).contains("noalias"), "{}", define(&ll));
}
