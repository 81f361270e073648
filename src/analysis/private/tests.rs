//! The written-first rules (those the front end's AST rule was tested by
//! before it went), on the IR lowering makes of loop bodies (`t`, `s`, `u`: scalars of the region,
//! received by value).

use super::{loop_scalars, Scalar, Scope};
use crate::ir::Stmt;

/// Whether `v` is written first in the loop `for (i …) BODY` of a
/// `parallel loop` region.
fn first(body: &str, v: &str) -> bool {
    let src = format!(
        "void g(int *p) {{ *p = 1; }}\nvoid f(int *a, int t, int s, int u) {{\n#pragma acc parallel loop seq copy(a[0:9])\nfor (int i = 0; i < 9; i++) {body}\n}}\n"
    );
    let mut t = crate::frontend::translate(src, "t.c").expect("lowers");
    crate::schedule::plan_levels(&mut t.module).expect("decides");
    let k = &t.module.kernels[0];
    let params: Vec<_> = k.params.iter().map(|p| p.local).collect();
    let scope = Scope::kernel(&k.body, &params, &[]);
    let Some(Stmt::Loop(lp)) = k.body.body.iter().find(|s| matches!(s, Stmt::Loop(_))) else {
        panic!("no loop in {body}")
    };
    // Not a parameter: the region does not use it.
    let Some(p) = k.params.iter().find(|p| p.name == v) else {
        return false;
    };
    loop_scalars(&k.body, &scope, lp)
        .written_first
        .contains(&Scalar::Local(p.local))
}

#[test]
fn assigned_before_read() {
    assert!(first("{ t = a[1]; a[2] = t; }", "t"));
    assert!(first(
        "{ t = 0; for (int k = 0; k < 3; k++) t += a[k]; a[0] = t; }",
        "t"
    ));
    assert!(first("{ if (a[0]) t = 1; else t = 2; a[1] = t; }", "t"));
    assert!(first("{ do { t = a[0]; } while (0); a[1] = t; }", "t"));
    assert!(first("{ int x = (t = 3); a[x] = t; }", "t"));
    assert!(first("{ t = 1, a[t] = 2; }", "t"));
    assert!(
        first(
            "{ t = 1; switch (a[0]) { case 1: a[1] = t; t = 2; default: a[2] = t; } a[3] = t; }",
            "t"
        ),
        "set before a switch"
    );
    assert!(
        first(
            "{ switch (a[0]) { case 1: t = 1; break; default: t = 2; } a[3] = t; }",
            "t"
        ),
        "set in every arm"
    );
    assert!(
        first("{ if (a[0]) continue; t = 1; a[1] = t; }", "t"),
        "the iteration ends at continue"
    );
    assert!(
        first("{ for (;;) { t = a[0]; break; } a[1] = t; }", "t"),
        "a loop left only by break"
    );
}

#[test]
fn read_first_or_unknown() {
    assert!(!first("{ a[0] = t; t = 1; }", "t"));
    assert!(!first("{ t += 1; }", "t"));
    assert!(!first("{ t++; }", "t"));
    assert!(!first("{ if (a[0]) t = 1; a[1] = t; }", "t"));
    assert!(!first(
        "{ for (int k = 0; k < a[0]; k++) t = k; a[1] = t; }",
        "t"
    ));
    assert!(!first("{ while (a[0]) t = 1; a[1] = t; }", "t"));
    assert!(!first("{ a[0] && (t = 1); a[1] = t; }", "t"));
    assert!(!first("{ a[0] ? (t = 1) : 0; a[1] = t; }", "t"));
    assert!(!first("{ t = 1; g(&t); }", "t"), "its address escapes");
    assert!(!first(
        "{ switch (a[0]) { case 1: t = 1; } a[1] = t; }",
        "t"
    ));
    assert!(!first(
        "{ switch (a[0]) { case 1: t = 1; break; default: a[0] = 1; } a[1] = t; }",
        "t"
    ));
    assert!(!first("{ t = t + 1; }", "t"));
    assert!(!first("{ a[t = 2] = t + s; s = t; u = s; }", "s"));
    assert!(
        !first("{ a[0] = 1; }", "t"),
        "not assigned: nothing to privatise"
    );
}
