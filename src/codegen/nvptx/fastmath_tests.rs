//! Fast-math tests of the NVPTX back end (`fastmath.rs`): which PTX each
//! relaxation makes of `x / y`, `1 / x`, `sqrtf`, `1 / sqrtf` and `expf`,
//! that none of it happens by default, and that `double` never changes.
//! Every PTX is assembled with ptxas when it is installed (`tests::ptx`).

use super::tests::{bin, dev, elem, gv_loop, kernel, module, options, param, ptx};
use super::{write_llvm, FastMath, Options};
use crate::analysis::analyze;
use crate::ir::*;

/// The operations under test.
#[derive(Clone, Copy, Debug)]
enum Op {
    /// `b[i] / c[i]`.
    Div,
    /// `1 / b[i]`.
    Recip,
    /// `sqrt(b[i])`.
    Sqrt,
    /// `1 / sqrt(b[i])`.
    Rsqrt,
    /// `exp(b[i])`.
    Exp,
}

/// `a[i] = op(b[i], c[i])` over a gang+vector loop, in `ty`.
fn op_kernel(op: Op, ty: &Type) -> Kernel {
    let mut f = Function::default();
    let a = f.new_local("a", ty.ptr_to());
    let b = f.new_local("b", ty.ptr_to());
    let c = f.new_local("c", ty.ptr_to());
    let n = f.new_local("n", Type::I32);
    let i = f.new_local("i", Type::I32);
    let pb = elem(&mut f, b, i);
    let x = f.add(Expr::Load(pb), ty.clone());
    let one = f.add(Expr::Literal(Literal::Float(1.0)), ty.clone());
    let math = |f: &mut Function, func, x| {
        f.add(
            Expr::Math {
                func,
                args: vec![x],
            },
            ty.clone(),
        )
    };
    let v = match op {
        Op::Div => {
            let pc = elem(&mut f, c, i);
            let y = f.add(Expr::Load(pc), ty.clone());
            bin(&mut f, BinOp::Div, x, y)
        }
        Op::Recip => bin(&mut f, BinOp::Div, one, x),
        Op::Sqrt => math(&mut f, MathFunc::Sqrt, x),
        Op::Rsqrt => {
            let s = math(&mut f, MathFunc::Sqrt, x);
            bin(&mut f, BinOp::Div, one, s)
        }
        Op::Exp => math(&mut f, MathFunc::Exp, x),
    };
    let dst = elem(&mut f, a, i);
    gv_loop(&mut f, i, n, vec![Stmt::Store { ptr: dst, value: v }]);
    let params = vec![
        param("a", a, dev()),
        param("b", b, dev()),
        param("c", c, dev()),
        param("n", n, ParamMode::Value),
    ];
    kernel(&format!("k_{op:?}"), params, f)
}

/// The driver's level (3) with `fast`; `None` without libdevice.
fn fast_options(fast: FastMath) -> Option<Options> {
    let o = options(3);
    o.libdevice.as_ref()?;
    Some(Options { fast, ..o })
}

/// The f32 arithmetic instructions of `ptx` that say how they round:
/// `div`, `rcp`, `sqrt`, `rsqrt`, `ex2` lines, trimmed to their opcode.
fn rounding(ptx: &str) -> Vec<String> {
    let mut v: Vec<String> = ptx
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .filter(|op| {
            ["div.", "rcp.", "sqrt.", "rsqrt.", "ex2."]
                .iter()
                .any(|p| op.starts_with(p))
        })
        .map(str::to_string)
        .collect();
    v.sort();
    v
}

/// Each relaxation and the single-precision instructions it makes (the
/// rounding ones, sorted), for each operation; the first row is the
/// default, IEEE and without flush-to-zero. `expf` is libdevice's either
/// way (its `ex2.approx.ftz` is exact enough after range reduction), the
/// fast form being one multiply and `ex2.approx.ftz` (checked below).
#[test]
fn each_relaxation_makes_its_approximate_instructions() {
    let only = |f: fn(&mut FastMath)| {
        let mut m = FastMath::default();
        f(&mut m);
        m
    };
    let rows: [(FastMath, [&[&str]; 4]); 6] = [
        (
            FastMath::default(),
            [
                &["div.rn.f32"],
                &["rcp.rn.f32"],
                &["sqrt.rn.f32"],
                &["rcp.rn.f32", "sqrt.rn.f32"],
            ],
        ),
        (
            FastMath::ALL,
            [
                &["div.approx.ftz.f32"],
                &["rcp.approx.ftz.f32"],
                &["sqrt.approx.ftz.f32"],
                &["rsqrt.approx.ftz.f32"],
            ],
        ),
        (
            only(|m| m.div = true),
            [
                &["div.approx.f32"],
                &["rcp.approx.f32"],
                &["sqrt.rn.f32"],
                &["rcp.approx.f32", "sqrt.rn.f32"],
            ],
        ),
        (
            only(|m| m.recip = true),
            [
                &["div.rn.f32"],
                &["rcp.approx.f32"],
                &["sqrt.rn.f32"],
                &["rcp.approx.f32", "sqrt.rn.f32"],
            ],
        ),
        (
            only(|m| m.sqrt = true),
            [
                &["div.rn.f32"],
                &["rcp.rn.f32"],
                &["sqrt.approx.f32"],
                &["rsqrt.approx.f32"],
            ],
        ),
        (
            only(|m| m.rsqrt = true),
            [
                &["div.rn.f32"],
                &["rcp.rn.f32"],
                &["sqrt.rn.f32"],
                &["rsqrt.approx.f32"],
            ],
        ),
    ];
    let ops = [Op::Div, Op::Recip, Op::Sqrt, Op::Rsqrt];
    let m = module(ops.iter().map(|op| op_kernel(*op, &Type::F32)).collect());
    for (fast, want) in rows {
        let Some(o) = fast_options(fast) else {
            return;
        };
        let text = ptx(&m, &o);
        // One kernel after another: split at each entry.
        let kernels: Vec<&str> = text.split(".visible .entry").skip(1).collect();
        assert_eq!(kernels.len(), ops.len(), "{text}");
        for ((op, k), want) in ops.iter().zip(&kernels).zip(want) {
            assert_eq!(rounding(k), want.to_vec(), "{op:?} with {fast:?}:\n{k}");
            // Flush to zero on every f32 instruction, or on none.
            let f32_ops: Vec<&str> = k
                .lines()
                .filter_map(|l| l.split_whitespace().next())
                .filter(|op| {
                    op.ends_with(".f32") && !op.starts_with("ld.") && !op.starts_with("st.")
                })
                .collect();
            assert!(!f32_ops.is_empty(), "{k}");
            for i in f32_ops {
                assert_eq!(i.contains(".ftz"), fast.ftz, "{op:?} {i} with {fast:?}");
            }
        }
    }
}

/// `expf` is libdevice's `__nv_expf` by default and `__nv_fast_expf` with
/// fast functions: one multiply by log2(e) and `ex2.approx.ftz.f32`.
#[test]
fn fast_expf_is_libdevice_fast_form() {
    let m = module(vec![op_kernel(Op::Exp, &Type::F32)]);
    let (Some(off), Some(on)) = (
        fast_options(FastMath::default()),
        fast_options(FastMath::ALL),
    ) else {
        return;
    };
    let at0 = |o: &Options| {
        let o = Options {
            opt_level: 0,
            ..o.clone()
        };
        write_llvm(&m, &analyze(&m), &o).unwrap_or_else(|e| panic!("{e}"))
    };
    let (ll_off, ll_on) = (at0(&off), at0(&on));
    assert!(ll_off.contains("call float @__nv_expf("), "{ll_off}");
    assert!(!ll_off.contains("call float @__nv_fast_"), "{ll_off}");
    assert!(ll_on.contains("call float @__nv_fast_expf("), "{ll_on}");
    let fast = ptx(&m, &on);
    let body: Vec<&str> = fast
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .filter(|op| op.ends_with(".f32") && !op.starts_with("ld.") && !op.starts_with("st."))
        .collect();
    assert_eq!(body, ["mul.rn.ftz.f32", "ex2.approx.ftz.f32"], "{fast}");
    let precise = ptx(&m, &off);
    assert!(
        precise.matches(".f32").count() > 4 && !precise.contains("mul.rn.ftz"),
        "{precise}"
    );
}

/// Flush-to-zero is per module: the functions' `denormal-fp-math-f32`
/// and libdevice's `nvvm-reflect-ftz` (1 with it, 0 without, as before).
#[test]
fn flush_to_zero_is_per_module() {
    let m = module(vec![op_kernel(Op::Exp, &Type::F32)]);
    for (fast, ftz) in [(FastMath::default(), 0), (FastMath::ALL, 1)] {
        let Some(o) = fast_options(fast) else {
            return;
        };
        let ll = write_llvm(&m, &analyze(&m), &o).unwrap_or_else(|e| panic!("{e}"));
        assert!(
            ll.contains(&format!("!\"nvvm-reflect-ftz\", i32 {ftz}}}")),
            "{ll}"
        );
        assert_eq!(
            ll.contains("\"denormal-fp-math-f32\"=\"preserve-sign,preserve-sign\""),
            ftz == 1,
            "{ll}"
        );
    }
}

/// `double` stays IEEE: every relaxation leaves its PTX as it was, but for
/// `.ftz` on the f32 tests libdevice's `exp` makes of its argument's high
/// word (`abs.f32`, `setp.lt.f32` against thresholds near 4.2, which a
/// flushed denormal passes or fails alike): nvcc's `-ftz=true` does the
/// same.
#[test]
fn double_is_never_relaxed() {
    let ops = [Op::Div, Op::Recip, Op::Sqrt, Op::Rsqrt, Op::Exp];
    let m = module(ops.iter().map(|op| op_kernel(*op, &Type::F64)).collect());
    let (Some(off), Some(on)) = (
        fast_options(FastMath::default()),
        fast_options(FastMath::ALL),
    ) else {
        return;
    };
    let precise = ptx(&m, &off);
    assert!(
        precise.contains("div.rn.f64") && precise.contains("sqrt.rn.f64"),
        "{precise}"
    );
    let fast = ptx(&m, &on);
    assert!(fast.contains("abs.ftz.f32"), "{fast}");
    assert_eq!(fast.replace(".ftz.f32", ".f32"), precise);
}
