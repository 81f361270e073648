//! Unit tests of the host-C dialect (`write_host_c`): its text, and its
//! programs compiled by the host cc and run — a kernel scheduled for
//! `ir::Target::Host` run gang by gang through its entry and table, every
//! atomic form on the `__atomic` builtins, exported routines and blobs.

use super::{host_table, write_host_c};
use crate::ir::{read_module, Module, Target};
use std::process::Command;

/// The module of IR text `text`.
fn module(text: &str) -> Module {
    read_module(text).unwrap_or_else(|e| panic!("{}:{}: {}", e.line, e.col, e.message))
}

/// The host C of an already scheduled module (no `#line`).
fn host_c(m: &Module) -> String {
    let info = crate::analysis::analyze(m);
    write_host_c(m, &info, false).unwrap()
}

/// Compiles `kernels` and `main` (two translation units, as the driver
/// compiles the kernels apart from the host code) with warnings as
/// errors, runs the program and gives its stdout.
fn run(kernels: &str, main: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let k = dir.path().join("kernels.c");
    let h = dir.path().join("main.c");
    std::fs::write(&k, kernels).unwrap();
    std::fs::write(&h, main).unwrap();
    let exe = dir.path().join("prog");
    let cc = std::env::var("ACCC_HOST_CC").unwrap_or_else(|_| "cc".into());
    let out = Command::new(&cc)
        .args([
            "-std=gnu11",
            "-O1",
            "-Wall",
            "-Werror",
            "-Wno-unused",
            "-Wno-parentheses",
        ])
        .args(["-Wno-unused-parameter", "-fno-strict-aliasing"])
        .arg(&k)
        .arg(&h)
        .arg("-o")
        .arg(&exe)
        .arg("-lm")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}\n{kernels}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = Command::new(&exe).output().unwrap();
    assert!(out.status.success(), "{out:?}");
    String::from_utf8(out.stdout).unwrap()
}

/// C declaring the table `sym` and a function `entry(name)` finding a
/// kernel's entry in it.
fn table_lookup(sym: &str) -> String {
    format!(
        "#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n\
         typedef void (*entry_fn)(const unsigned int *, unsigned long long, void **);\n\
         extern const struct {{ const char *name; void *addr; }} {sym}[];\n\
         static void *entry(const char *name) {{\n\
           for (int i = 0; {sym}[i].name; i++) if (!strcmp({sym}[i].name, name)) return {sym}[i].addr;\n\
           fprintf(stderr, \"no %s\\n\", name); exit(2);\n\
         }}\n"
    )
}

#[test]
fn gang_reduction_runs_gang_by_gang_through_the_table() {
    let mut m = module(include_str!("../../../tests/in/sched_host_reduction.ir"));
    let info = crate::analysis::analyze(&m);
    crate::schedule::schedule(&mut m, &info, &Target::host());
    crate::schedule::specialize(&mut m);
    let text = host_c(&m);
    let k = &m.kernels[0].name;
    assert!(text.contains(&format!("static void {k}(")), "{text}");
    assert!(
        !text.contains("__syncthreads") && !text.contains("__shfl"),
        "{text}"
    );
    assert!(
        text.contains("__atomic_thread_fence(__ATOMIC_SEQ_CST);"),
        "{text}"
    );
    let sym = host_table(&m).unwrap();
    // Parameters: n, s, m, a, then the reduction scratch.
    let main = format!(
        "{}int main(void) {{\n\
           int n = 8, m = 5; double a[40], s = 1; unsigned char *scratch = calloc(1, 4096);\n\
           for (int i = 0; i < 40; i++) a[i] = i;\n\
           double *sp = &s, *ap = a;\n\
           void *args[] = {{&n, &sp, &m, &ap, &scratch}};\n\
           entry_fn f = (entry_fn)entry(\"{k}\");\n\
           for (unsigned g = 1; g <= 3; g++) {{\n\
             unsigned grid[3] = {{g, 1, 1}};\n\
             for (unsigned long long b = 0; b < g; b++) f(grid, b, args);\n\
             printf(\"%g \", s);\n\
           }}\n\
           printf(\"%u\\n\", *(unsigned *)scratch);\n\
           return 0;\n\
         }}\n",
        table_lookup(&sym)
    );
    // Each launch adds 0 + 1 + … + 39; the gang counter is left at zero.
    assert_eq!(run(&text, &main), "781 1561 2341 0\n");
}

#[test]
fn every_atomic_form_on_gcc_builtins() {
    let m = module(
        "module \"t.c\"\n\nkernel @k serial \"serial\" at t.c:1:1\n  launch grid=(1, 1, 1) block=(1, 1, 1)\n  param %0 f: ptr<f32> deviceptr\n  param %1 d: ptr<f64> deviceptr\n  param %2 i: ptr<i32> deviceptr\n  param %3 u: ptr<u32> deviceptr\n  param %4 l: ptr<i64> deviceptr\n  param %5 c: ptr<u8> deviceptr\n  local %6 old: f32\n  local %7 ok: bool\n  local %8 x: i32\n  local %9 b: u8\n  local %10 y: f64\n  local %11 w: u32\n{\n    %6 old = atomic.add(%0 f, 1.5.f32)\n    %6 old = atomic.sub(%0 f, 0.25.f32)\n    %10 y = atomic.exchange(%1 d, 2.5.f64)\n    %8 x = atomic.min(%2 i, -7.i32)\n    %8 x = atomic.max(%2 i, 3.i32)\n    %8 x = atomic.xor(%2 i, 1.i32)\n    %11 w = atomic.incwrap(%3 u, 2.u32)\n    %11 w = atomic.incwrap(%3 u, 2.u32)\n    %11 w = atomic.incwrap(%3 u, 2.u32)\n    atomic.max(%4 l, 5000000000.i64)\n    atomic.sub(%4 l, 1.i64)\n    %6 old, %7 ok = atomic.cas(%0 f, 2.25.f32, 9.0.f32)\n    %9 b, %7 ok = atomic.cas(%5 c, 7.u8, 8.u8)\n    %10 y = atomic.load(%1 d)\n    atomic.store(%1 d, add.f64(%10 y, 1.0.f64))\n  }\n",
    );
    let text = host_c(&m);
    assert!(
        text.contains("__atomic_fetch_xor(i, 1, __ATOMIC_RELAXED)"),
        "{text}"
    );
    let main = format!(
        "{}int main(void) {{\n\
           float f = 1; double d = 0; int i = 0; unsigned u = 1; long long l = 0; unsigned char c[4] = {{0, 7, 0, 0}};\n\
           float *fp = &f; double *dp = &d; int *ip = &i; unsigned *up = &u; long long *lp = &l; unsigned char *cp = c + 1;\n\
           void *args[] = {{&fp, &dp, &ip, &up, &lp, &cp}};\n\
           unsigned grid[3] = {{1, 1, 1}};\n\
           ((entry_fn)entry(\"k\"))(grid, 0, args);\n\
           printf(\"%g %g %d %u %lld %u %u\\n\", f, d, i, u, l, c[1], c[0]);\n\
           return 0;\n\
         }}\n",
        table_lookup("__accc_hosttab_k")
    );
    // f: 1 + 1.5 - 0.25 = 2.25, swapped for 9; d: 2.5 + 1; i: min(0, -7)
    // = -7, max 3, ^1 = 2; u: 1 → 2 → 0 → 1 (wraps at 2); c[1]: 7 → 8.
    assert_eq!(run(&text, &main), "9 3.5 2 1 4999999999 8 0\n");
}

#[test]
fn routines_are_prefixed_and_blobs_are_aligned_structs() {
    let m = module(
        "module \"t.c\"\n\nfunction export Seq @f(%0 x: ptr<blob<16, 8>>) -> f64 at t.c:1:1\n  local %1 y: blob<16, 8>\n{\n    copy 16 bytes &%1 y <- %0 x\n    return min.f64(sqrt.f64(4.0.f64), 3.0.f64)\n  }\n",
    );
    let text = host_c(&m);
    assert!(
        text.contains("extern double __accc_host_f(struct __accc_blob_16_8 *x);"),
        "{text}"
    );
    assert!(
        text.contains("struct __attribute__((aligned(8))) __accc_blob_16_8"),
        "{text}"
    );
    assert_eq!(host_table(&m), None);
    let main = "#include <stdio.h>\nstruct b { double a, b; };\ndouble __accc_host_f(struct b *);\nint main(void) { struct b x = {1, 2}; printf(\"%g\\n\", __accc_host_f(&x)); return 0; }\n";
    assert_eq!(run(&text, main), "2\n");
}
