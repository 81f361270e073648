//! Unit tests of the validator's typed errors: each carries its kind, its
//! owner and the nearest source location (expression, loop, body).

use super::*;
use crate::ir::read_module;

fn loc(line: u32, col: u32) -> Option<SrcLoc> {
    Some(SrcLoc {
        file: "v.c".into(),
        line,
        col,
    })
}

const KERNEL: &str = r#"module "v.c"

function internal Seq @f(%0 x: f64) -> f64 at v.c:9:2
{
    return 2.i32
  }

kernel @k "parallel" at v.c:1:1
  launch grid=(1, 1, 1) block=(32, 1, 1)
  param %0 n: i32 value
  param %1 a: ptr<f64> deviceptr
  local %2 i: i32
{
    break
    loop vector.x %2 i = 0; < cast.i32.i64(%0 n); += 1 at "v.c":2:5 {
      store %1 a <- 1.i32
    }
  }
"#;

#[test]
fn errors_carry_kind_owner_and_location() {
    let m = read_module(KERNEL).unwrap_or_else(|e| panic!("{e}"));
    let errs = validate(&m, true);
    let got: Vec<_> = errs
        .iter()
        .map(|e| (e.owner.to_string(), e.at.clone(), e.to_string()))
        .collect();
    let find = |pred: &dyn Fn(&ValidationErrorKind) -> bool| {
        errs.iter()
            .find(|e| pred(&e.kind))
            .unwrap_or_else(|| panic!("{got:?}"))
    };
    // A statement outside any loop: the kernel's location.
    let e = find(&|k| matches!(k, K::BreakOutside));
    assert_eq!(
        (e.owner.clone(), e.at.clone()),
        (Owner::Kernel("k".into()), loc(1, 1))
    );
    // Inside a loop: the loop's.
    let e = find(&|k| matches!(k, K::LoopBoundType { .. }));
    assert_eq!(e.at, loc(2, 5));
    let e = find(&|k| matches!(k, K::StoreType { .. }));
    assert_eq!(e.at, loc(2, 5));
    let e = find(&|k| matches!(k, K::LoopLeftAfterSchedule { .. }));
    assert_eq!(e.at, loc(2, 5));
    assert_eq!(
        e.to_string(),
        "kernel k: counted loop at v.c:2:5 left after schedule"
    );
    // A function's: the function's.
    let e = find(&|k| matches!(k, K::ReturnType { .. }));
    assert_eq!(
        (e.owner.clone(), e.at.clone()),
        (Owner::Function("f".into()), loc(9, 2))
    );
    assert_eq!(
        e.to_string(),
        "function f: return of i32 from a function returning f64"
    );
}

#[test]
fn an_expression_with_a_location_gives_it() {
    let mut m = read_module(KERNEL).unwrap_or_else(|e| panic!("{e}"));
    let bound = bound_named(&m);
    m.kernels[0].body.expr_locs[bound.0 as usize] = loc(2, 17);
    assert_eq!(bound_named(&m), bound);
    let errs = validate(&m, false);
    let e = errs
        .iter()
        .find(|e| matches!(e.kind, K::LoopBoundType { .. }))
        .unwrap_or_else(|| panic!("{errs:?}"));
    assert_eq!(e.at, loc(2, 17));
}

/// The expression the loop-bound error names (the loop's limit).
fn bound_named(m: &Module) -> ExprId {
    validate(m, false)
        .into_iter()
        .find_map(|e| match e.kind {
            K::LoopBoundType { bound } => Some(bound),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no loop-bound error"))
}

#[test]
fn ir_without_locations_has_none() {
    let mut m = read_module(KERNEL).unwrap_or_else(|e| panic!("{e}"));
    m.kernels[0].loc = SrcLoc::default();
    let errs = validate(&m, false);
    let e = errs
        .iter()
        .find(|e| matches!(e.kind, K::BreakOutside))
        .unwrap_or_else(|| panic!("{errs:?}"));
    assert_eq!(e.at, None);
}
