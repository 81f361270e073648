//! Front-end tests: whole translation units through `translate`, checked on
//! the printed IR and the diagnostics.

use super::translate;

/// The IR of `src`, its loops' levels decided (as the driver does).
fn ir(src: &str) -> String {
    match translate(src.to_string(), "t.c") {
        Ok(mut t) => match crate::schedule::plan_levels(&mut t.module) {
            Ok(_) => crate::ir::print_module(&t.module),
            Err(d) => format!("ERROR {d}"),
        },
        Err(d) => format!("ERROR {d}"),
    }
}

/// The errors of `src` (the front end's, else the loop-level decision's).
fn err(src: &str) -> String {
    let r = translate(src.to_string(), "t.c")
        .and_then(|mut t| crate::schedule::plan_levels(&mut t.module).map(|_| ()));
    match r {
        Ok(_) => "no error".into(),
        Err(d) => {
            d.0.iter()
                .map(|d| {
                    format!(
                        "{}: {}",
                        d.loc.as_ref().map(|l| l.to_string()).unwrap_or_default(),
                        d.message
                    )
                })
                .collect::<Vec<_>>()
                .join("\n")
        }
    }
}

#[test]
fn vector_add() {
    let out = ir("void f(int n, float *a, const float *b) {\n#pragma acc parallel loop copy(a[0:n]) copyin(b[0:n])\n  for (int i = 0; i < n; i++) a[i] += 2.0f * b[i];\n}\n");
    assert!(out.contains("kernel @__accc_f_0_l2"), "{out}");
    assert!(out.contains("loop gang.x vector.x"), "{out}");
    assert!(out.contains("param %4 b: ptr<f32> deviceptr\n"), "{out}");
    assert!(out.contains("param %2 a: ptr<f32> deviceptr\n"), "{out}");
}

#[test]
fn unbraced_nest() {
    let out = ir("double u[100][64];\nvoid f(int n) {\n#pragma acc parallel loop gang\n  for (int i = 0; i < n; i++)\n#pragma acc loop vector\n    for (int j = 0; j < 64; j++)\n      u[i][j] = i + j;\n}\n");
    assert!(out.contains("loop gang.x "), "{out}");
    assert!(out.contains("loop vector.x "), "{out}");
}

#[test]
fn errors_have_positions() {
    assert_eq!(
        err("void f(int x) {\n#pragma acc parallel loop copy(x[0:4])\n  for (int i = 0; i < 4; i++) ;\n}\n"),
        "t.c:2:32: sub-array 'x[0:4]' of 'x', which is not an array or pointer (type 'int')"
    );
    assert_eq!(
        err("void f(float *a) {\n#pragma acc parallel loop copyin(a[0:zz])\n  for (int i = 0; i < 4; i++) a[i] = 0;\n}\n"),
        "t.c:2:38: use of undeclared identifier 'zz'"
    );
    assert!(
        err("void f(void) {\n#pragma acc parallel loop copyni(a)\n  for (;;) ;\n}\n")
            .contains("t.c:2:27: unknown clause 'copyni'")
    );
}

/// A plain loop of a `kernels` construct runs as C writes it when it stays
/// sequential (its C form: a `while`, the step a statement), and as a
/// counted loop when partitioned, without the temporaries of the form not
/// chosen.
#[test]
fn kernels_plain_loop_forms() {
    let seq = ir("void f(int n, float *b) {\n#pragma acc kernels copy(b[0:n])\n  for (int k = 1; k < n; k++) b[k] = b[k-1];\n}\n");
    assert!(
        seq.contains("    while ") && seq.contains("    step {"),
        "{seq}"
    );
    assert!(!seq.contains("loop "), "{seq}");
    let par = ir("void f(int n, float *b) {\n#pragma acc kernels copy(b[0:n])\n  for (int k = 1; k < n; k++) b[k] = 1;\n}\n");
    assert!(par.contains("loop gang.x vector.x"), "{par}");
    assert!(!par.contains("tmp: i32"), "{par}");
    // The variable declared outside the loop is the C form's.
    let outside = ir("void f(int n, float *b) {\n  int k;\n#pragma acc kernels copy(b[0:n])\n  for (k = 0; k < n; k++) b[k] = 1;\n}\n");
    assert!(outside.contains("while "), "{outside}");
    assert!(!outside.contains(" k: i32\n"), "{outside}");
}
