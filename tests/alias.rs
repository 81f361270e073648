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
    emit_with(src, &[emit])
}

/// `accc -O3 <args> src` and its stdout.
fn emit_with(src: &str, args: &[&str]) -> String {
    let dir = tempfile::tempdir().expect("temporary folder");
    std::fs::write(dir.path().join("k.c"), src).expect("write k.c");
    let out = Command::new(common::accc_bin())
        .current_dir(dir.path())
        .arg("-O3")
        .args(args)
        .args(["k.c", "-o", "-"])
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

/// NPB BT's line-solve step on distinct global arrays, as x_solve.c writes
/// it out by hand: `r -= A rp`, `B -= A Cp` (5x5 blocks), then
/// Gauss-Jordan on `B` applied to `C` and `r` in place. Each thread's
/// blocks are `x[m][n][i]`.
fn block_step() -> String {
    let (p, c, r) = (
        |m: usize, n: usize| format!("b[{m}][{n}][i]"),
        |m: usize, n: usize| format!("c[{m}][{n}][i]"),
        |m: usize| format!("r[{m}][i]"),
    );
    let mut s = String::from(
        "double b[5][5][256], c[5][5][256], r[5][256], a[5][5][256], cp[5][5][256], rp[5][256];
void f(void) {
#pragma acc parallel loop copy(b, c, r) copyin(a, cp, rp)
  for (int i = 0; i < 256; i++) {
    double pivot, coeff;
",
    );
    let line = |s: &mut String, l: String| s.push_str(&format!("    {l};\n"));
    for m in 0..5 {
        let sum: String = (0..5)
            .map(|k| format!(" - a[{m}][{k}][i] * rp[{k}][i]"))
            .collect();
        line(&mut s, format!("{} = {}{sum}", r(m), r(m)));
    }
    for m in 0..5 {
        for n in 0..5 {
            let sum: String = (0..5)
                .map(|k| format!(" - a[{n}][{k}][i] * cp[{k}][{m}][i]"))
                .collect();
            line(&mut s, format!("{} = {}{sum}", p(n, m), p(n, m)));
        }
    }
    for n in 0..5 {
        line(&mut s, format!("pivot = 1.00 / {}", p(n, n)));
        for m in n + 1..5 {
            line(&mut s, format!("{} = {} * pivot", p(n, m), p(n, m)));
        }
        for m in 0..5 {
            line(&mut s, format!("{} = {} * pivot", c(n, m), c(n, m)));
        }
        line(&mut s, format!("{} = {} * pivot", r(n), r(n)));
        for q in (0..5).filter(|&q| q != n) {
            line(&mut s, format!("coeff = {}", p(q, n)));
            for m in n + 1..5 {
                line(
                    &mut s,
                    format!("{} = {} - coeff * {}", p(q, m), p(q, m), p(n, m)),
                );
            }
            for m in 0..5 {
                line(
                    &mut s,
                    format!("{} = {} - coeff * {}", c(q, m), c(q, m), c(n, m)),
                );
            }
            line(&mut s, format!("{} = {} - coeff * {}", r(q), r(q), r(n)));
        }
    }
    s.push_str("  }\n}\n");
    s
}

/// Each value of the step is loaded once and each result stored once
/// (110 loads: a, cp, b, c 25 each, rp and r 5; 55 stores: b, c 25, r 5),
/// as nvcc does: the arrays are noalias, and GVN's scan reaches back over
/// the whole block (`-memdep-block-scan-limit`, nvptx/mod.rs).
#[test]
fn a_block_solve_step_loads_and_stores_each_value_once() {
    let ptx = emit(&block_step(), "--emit=ptx");
    let (loads, stores) = (
        ptx.matches("ld.global").count(),
        ptx.matches("st.global").count(),
    );
    assert_eq!((loads, stores), (110, 55), "loads, stores");
}

/// Rows of a variable-length array (NPB SP's `lhspX[5][nz + 1][…][…]`):
/// the store to row 4 cannot touch row 3 (C: subscripts stay in their
/// dimensions), so `a[3][k][i]`, stored, is not loaded again.
const VLA_ROWS: &str = "void f(int nz, int n) {
  double a[5][nz + 1][64];
#pragma acc parallel loop copy(a)
  for (int i = 0; i < 64; i++)
    for (int k = 0; k < n; k++) {
      a[3][k][i] = 2.0 * a[3][k][i];
      a[4][k][i] = 3.0 * a[4][k][i];
      a[2][k][i] = a[3][k][i] + a[4][k][i] * a[1][k][i];
    }
}
";

#[test]
fn rows_of_a_variable_length_array_are_kept_apart() {
    let ll = emit(VLA_ROWS, "--emit=llvm");
    assert!(ll.contains("!alias.scope"), "{ll}");
    let ptx = emit(VLA_ROWS, "--emit=ptx");
    // Per iteration a[3], a[4], a[1] are loaded once each and a[3], a[4],
    // a[2] stored (LLVM unrolls the loop: count the ratio): a[3] and a[4]
    // are not loaded again after their stores.
    let (ld, st) = (
        ptx.matches("ld.global").count(),
        ptx.matches("st.global").count(),
    );
    assert!(st > 0 && ld == st, "{ld} loads, {st} stores:\n{ptx}");
}

#[test]
fn a_row_chosen_by_a_variable_may_be_any_row() {
    // `a[m]` may be row 3: its store forces the reload of a[3][k][i].
    let src = VLA_ROWS.replace("a[4][k][i] = 3.0", "a[n % 5][k][i] = 3.0");
    let ptx = emit(&src, "--emit=ptx");
    let (ld, st) = (
        ptx.matches("ld.global").count(),
        ptx.matches("st.global").count(),
    );
    assert!(st > 0 && ld > st, "{ld} loads, {st} stores:\n{ptx}");
}

/// How often a kernel's global memory accesses switch between loads and
/// stores, in PTX order.
fn load_store_switches(ptx: &str) -> usize {
    let ops: Vec<bool> = ptx
        .lines()
        .filter_map(|l| {
            let l = l.trim_start();
            if l.starts_with("ld.global") {
                Some(true)
            } else if l.starts_with("st.global") {
                Some(false)
            } else {
                None
            }
        })
        .collect();
    ops.windows(2).filter(|w| w[0] != w[1]).count()
}

#[test]
fn loads_are_scheduled_ahead_of_the_stores_they_do_not_alias() {
    // SP's Thomas sweep (tests/programs/vla_rows.c): by default the loads
    // of a step are issued together; in source order (`-pre-RA-sched=source`,
    // LLVM's default for NVPTX) each waits for the store before it.
    let src = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/programs/vla_rows.c"),
    )
    .expect("read vla_rows.c");
    let ours = load_store_switches(&emit(&src, "--emit=ptx"));
    let source = load_store_switches(&emit_with(
        &src,
        &["-mllvm", "-pre-RA-sched=source", "--emit=ptx"],
    ));
    assert!(ours < source, "{ours} switches, {source} in source order");
}

#[test]
fn rows_a_constant_stride_apart_get_no_scopes() {
    // LLVM tells `a[3][i]` from `a[1][i]` itself; the rule is not used, so
    // the flat walk `a[0][k]` over all rows (outside C's rule, common in
    // old code) stays correct.
    let src = "double a[4][64];
void f(void) {
#pragma acc parallel loop copy(a)
  for (int i = 0; i < 64; i++) {
    a[3][i] = 2.0 * a[1][i];
    for (int k = 0; k < 256; k++) a[0][k] += a[3][i];
  }
}
";
    let ll = emit(src, "--emit=llvm");
    assert!(!ll.contains("!alias.scope"), "{ll}");
}
