//! Unit tests of the validator's typed errors: each carries its kind, its
//! owner and the nearest source location (expression, loop, body).

use super::*;
use crate::ir::{read_module, Expr, Index, LocalId, MathFunc};

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

kernel @k parallel "parallel" at v.c:1:1
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

/// A kernel that is valid until a case below breaks it: `e0` reads `%0 a`,
/// `e1` loads through it.
const SMALL: &str = r#"module "v.c"

function internal Seq @g(%0 x: f64) -> f64 at v.c:9:1
{
    return %0 x
  }

kernel @k serial "serial" at v.c:1:1
  launch grid=(1, 1, 1) block=(1, 1, 1)
  param %0 a: ptr<f64> deviceptr
  local %1 s: f64
  local %2 b: bool
{
    %1 s = load.f64(%0 a)
  }
"#;

/// A broken copy of [`SMALL`] for each kind the text form cannot express
/// (the reader resolves handles, callees and most types itself), with the
/// kind it must give.
#[allow(clippy::type_complexity)]
fn unreadable_cases() -> Vec<(fn(&mut Module), fn(&ValidationErrorKind) -> bool)> {
    vec![
        (
            |m| {
                m.kernels[0].body.body.push(Stmt::Assign {
                    local: LocalId(1),
                    value: ExprId(1),
                })
            },
            |k| matches!(k, K::ExprReused { uses: 2, .. }),
        ),
        (
            |m| {
                m.kernels[0].body.body = vec![Stmt::Assign {
                    local: LocalId(1),
                    value: ExprId(99),
                }]
            },
            |k| matches!(k, K::ExprOutOfRange { .. }),
        ),
        (
            |m| {
                m.kernels[0].body.body = vec![Stmt::Assign {
                    local: LocalId(99),
                    value: ExprId(1),
                }]
            },
            |k| matches!(k, K::LocalOutOfRange { .. }),
        ),
        (
            |m| m.functions[0].params.push(LocalId(9)),
            |k| matches!(k, K::ParamOutOfRange { .. }),
        ),
        (
            |m| {
                m.kernels[0].body.body.push(Stmt::Call {
                    func: 99,
                    args: vec![],
                    result: None,
                    loc: Default::default(),
                })
            },
            |k| matches!(k, K::CallOutOfRange { func: 99 }),
        ),
        (
            |m| m.kernels[0].body.expr_types[0] = Type::F64.ptr_to().ptr_to(),
            |k| {
                matches!(
                    k,
                    K::Expr {
                        problem: ExprProblem::LocalReadType,
                        ..
                    }
                )
            },
        ),
        (
            |m| m.kernels[0].body.exprs[0] = Expr::LocalAddr(LocalId(2)),
            |k| {
                matches!(
                    k,
                    K::Expr {
                        problem: ExprProblem::LocalAddrType,
                        ..
                    }
                )
            },
        ),
        (
            |m| {
                let f = &mut m.kernels[0].body;
                let index = f.int(0, Type::I64);
                f.exprs[1] = Expr::PtrAdd {
                    base: ExprId(0),
                    index,
                };
            },
            |k| {
                matches!(
                    k,
                    K::Expr {
                        problem: ExprProblem::PtrAddBase,
                        ..
                    }
                )
            },
        ),
        (
            |m| {
                let f = &mut m.kernels[0].body;
                let sub = f.int(0, Type::I64);
                f.exprs[1] = Expr::Index(Index {
                    base: ExprId(0),
                    extents: vec![],
                    subs: vec![sub],
                });
            },
            |k| {
                matches!(
                    k,
                    K::Expr {
                        problem: ExprProblem::IndexNotPointer,
                        ..
                    }
                )
            },
        ),
        (
            |m| {
                let f = &mut m.kernels[0].body;
                let lhs = f.int(1, Type::BOOL);
                let rhs = f.int(0, Type::BOOL);
                f.exprs[1] = Expr::Logical {
                    and: true,
                    lhs,
                    rhs,
                };
            },
            |k| {
                matches!(
                    k,
                    K::Expr {
                        problem: ExprProblem::LogicalResult,
                        ..
                    }
                )
            },
        ),
        (
            |m| {
                m.kernels[0].body.exprs[1] = Expr::Math {
                    func: MathFunc::Sqrt,
                    args: vec![],
                }
            },
            |k| {
                matches!(
                    k,
                    K::Expr {
                        problem: ExprProblem::MathArity,
                        ..
                    }
                )
            },
        ),
    ]
}

#[test]
fn kinds_the_text_cannot_express() {
    let m = read_module(SMALL).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(validate(&m, true), vec![]);
    for (i, (break_it, want)) in unreadable_cases().into_iter().enumerate() {
        let mut m = m.clone();
        break_it(&mut m);
        let errs = validate(&m, false);
        let e = errs
            .iter()
            .find(|e| want(&e.kind))
            .unwrap_or_else(|| panic!("case {i}: {errs:?}"));
        // Every one of them is somewhere in the user's source.
        assert!(e.at.is_some(), "case {i}: {e:?}");
    }
}
