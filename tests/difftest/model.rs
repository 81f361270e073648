//! Checks the generator's model of C against the host compiler: random expressions
//! over variables with known spans go into a C program that asserts, with
//! `_Generic`, that each has the type the generator computed, and checks at run time
//! that its value lies in the computed span (and is a multiple of 2^-k when the span
//! says exact with grain k), for variables set to the ends of their spans, zero and
//! random values. Built with the sanitizers when they are installed, so the
//! expressions are also checked for undefined behaviour at those values.

use super::ctx::Ctx;
use super::env::{Env, Scalar};
use super::expr::{prec, Expr};
use super::features::Features;
use super::span::Span;
use super::ty::Ty;
use super::{build_and_run, sanitizer_flags};
use std::fmt::Write as _;
use std::fs;

/// Values each variable takes, one per run of the checks.
const VECTORS: usize = 6;

/// A C constant of integer value `v` of a type able to hold it.
fn int_const(v: i128) -> String {
    if v == i128::from(i64::MIN) {
        "(-9223372036854775807ll - 1)".to_string()
    } else if v < 0 || v <= i128::from(i64::MAX) {
        format!("{v}ll")
    } else {
        format!("{v}ull")
    }
}

/// The values a variable with span `span` takes: its ends, the value nearest zero,
/// random ones (multiples of the grain for exact floating spans).
fn values(ctx: &mut Ctx, ty: Ty, span: Span) -> Vec<Value> {
    let mut out = Vec::new();
    for k in 0..VECTORS {
        out.push(match span {
            Span::Int { lo, hi } => Value::Int(match k {
                0 => lo,
                1 => hi,
                2 => 0.clamp(lo, hi),
                _ => lo + i128::from(ctx.rng.next_u64()) % (hi - lo + 1),
            }),
            Span::Fp { lo, hi, grain } => {
                let g = 2f64.powi(-grain.unwrap_or(0));
                let v = match k {
                    0 => lo,
                    1 => hi,
                    2 => 0.0,
                    _ => lo + (hi - lo) * (ctx.rng.below(1 << 20) as f64 / f64::from(1 << 20)),
                };
                let v = (v / g).round() * g;
                let v = if ty == Ty::Float {
                    f64::from(v as f32)
                } else {
                    v
                };
                Value::Fp(v.clamp(lo, hi))
            }
        });
    }
    out
}

/// A variable's value in one run.
enum Value {
    Int(i128),
    Fp(f64),
}

/// The run-time check that `r` (of type `ty`) lies in `span`.
fn span_check(ty: Ty, span: Span) -> String {
    match span {
        Span::Int { lo, hi } if ty.is_signed() => {
            format!(
                "(long long)r >= {} && (long long)r <= {}",
                int_const(lo),
                int_const(hi)
            )
        }
        Span::Int { lo, hi } => format!(
            "(unsigned long long)r >= {}ull && (unsigned long long)r <= {}ull",
            lo, hi
        ),
        Span::Fp { lo, hi, grain } => {
            let slack = |x: f64| x.abs() * 1e-12;
            let mut c = format!(
                "(double)r >= {:e} && (double)r <= {:e}",
                lo - slack(lo),
                hi + slack(hi)
            );
            if let Some(k) = grain {
                let _ = write!(
                    c,
                    " && floor(ldexp((double)r, {k})) == ldexp((double)r, {k})"
                );
            }
            c
        }
    }
}

/// The variables: for each type one spanning the whole type (floating: ±1e6) and
/// one narrow (`-5..=5`, `0..=9`, multiples of 0.25 in ±8).
fn variables() -> Vec<Scalar> {
    let mut vars = Vec::new();
    for ty in Ty::ALL {
        let wide = if ty.is_float() {
            Span::Fp {
                lo: -1e6,
                hi: 1e6,
                grain: None,
            }
        } else {
            Span::full(ty)
        };
        let narrow = if ty.is_float() {
            Span::Fp {
                lo: -8.0,
                hi: 8.0,
                grain: Some(2),
            }
        } else if ty.is_signed() {
            Span::int(-5, 5)
        } else {
            Span::int(0, 9)
        };
        for (k, span) in [wide, narrow].into_iter().enumerate() {
            let name = format!("x{}{k}", ty.tag());
            vars.push(Scalar {
                text: name.clone(),
                base: name,
                ty,
                span,
                mutable: false,
            });
        }
    }
    vars
}

/// The C program checking `exprs` over `vars`.
fn program(ctx: &mut Ctx, vars: &[Scalar], exprs: &[Expr]) -> String {
    let mut s = String::from(
        "#include <limits.h>\n#include <math.h>\n#include <stdio.h>\n\nstatic int fails;\n\
         static void bad(int e, int v)\n{\n    if (fails++ < 20)\n        \
         printf(\"expression %d is out of its span for vector %d\\n\", e, v);\n}\n\n\
         int main(void)\n{\n",
    );
    for v in vars {
        let vals: Vec<String> = values(ctx, v.ty, v.span)
            .into_iter()
            .map(|x| match x {
                Value::Int(i) => int_const(i),
                Value::Fp(f) => format!("{f:e}"),
            })
            .collect();
        let table_ty = if v.ty.is_float() {
            "double"
        } else if v.ty.is_signed() {
            "long long"
        } else {
            "unsigned long long"
        };
        let _ = writeln!(
            s,
            "    static const {table_ty} {}_v[] = {{{}}};",
            v.text,
            vals.join(", ")
        );
    }
    let _ = writeln!(s, "    for (int v = 0; v < {VECTORS}; v++) {{");
    for v in vars {
        let _ = writeln!(
            s,
            "        {t} {n} = ({t}){n}_v[v];",
            t = v.ty.name(),
            n = v.text
        );
    }
    for (k, e) in exprs.iter().enumerate() {
        let t = e.ty.name();
        let _ = writeln!(
            s,
            "        _Static_assert(_Generic(({x}), {t}: 1, default: 0), \"expression {k} is not {t}\");\n        \
             {{\n            {t} r = {x};\n            if (!({c}))\n                bad({k}, v);\n        }}",
            x = e.at(prec::ASSIGN),
            c = span_check(e.ty, e.span)
        );
    }
    s += "    }\n    printf(\"%d failures\\n\", fails);\n    return fails != 0;\n}\n";
    s
}

#[test]
fn expression_model_matches_cc() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let sanitize = sanitizer_flags(dir);
    if let Err(e) = &sanitize {
        eprintln!(
            "expression_model_matches_cc: no sanitizers ({e}); checking types and spans only"
        );
    }
    let flags: Vec<&str> = match &sanitize {
        Ok(f) => f.iter().copied().chain(["-std=c11"]).collect(),
        Err(_) => vec!["-O1", "-w", "-std=c11"],
    };
    let vars = variables();
    let env = Env {
        scalars: vars.clone(),
        ..Env::default()
    };
    for seed in 0..3 {
        let mut ctx = Ctx::new(seed, Features::NONE);
        let exprs: Vec<Expr> = (0..150)
            .map(|_| {
                let ty = ctx.any_ty();
                let depth = ctx.rng.range(1, 4) as u32;
                ctx.expr(&env, ty, depth)
            })
            .collect();
        let text = program(&mut ctx, &vars, &exprs);
        let src = dir.join(format!("model_{seed}.c"));
        fs::write(&src, &text).unwrap();
        match build_and_run(&src, &flags, dir, &format!("model_{seed}")) {
            Ok(_) => {}
            Err(e) => {
                let kept = super::keep(&format!("model_{seed}.c"), &text);
                panic!("model check {seed} failed: {e}\nprogram: {kept}");
            }
        }
    }
}
