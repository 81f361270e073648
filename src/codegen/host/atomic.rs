//! An atomic statement's host version as C: the `__atomic` builtins of GCC
//! and Clang on a pointer to `x` (a load, a store, or a compare-and-swap
//! loop computing the new value with C's own conversions, right for every
//! operator and type), in braces, with as many lines as the statement had
//! so later lines keep their numbers.
//!
//! Owns: [`write`]. May call: `ir` (the host plan's [`HostAtomic`]).

use crate::ir::host::{AtomicUpdate, Captured, HostAtomic};

/// The C of atomic operation `a` in place of `stmt` (the statement's
/// text); `cond` (C, the `if` clause compared with 0): where it is false
/// the statement runs as written.
pub fn write(a: &HostAtomic, stmt: &str, cond: Option<&str>) -> String {
    let x = &a.x;
    let mut out =
        format!("{{ __typeof__({x}) *__accc_ap = &({x}); __typeof__({x}) __accc_ao, __accc_an; ");
    let operand = |out: &mut String, e: &str| {
        out.push_str(&format!("__typeof__({e}) __accc_ae = ({e}); "));
    };
    match &a.update {
        None => out.push_str("__atomic_load(__accc_ap, &__accc_ao, __ATOMIC_RELAXED); "),
        Some(AtomicUpdate::Set(e)) if a.capture.is_none() => {
            operand(&mut out, e);
            out.push_str(
                "__accc_an = __accc_ae; __atomic_store(__accc_ap, &__accc_an, __ATOMIC_RELAXED); ",
            );
        }
        Some(upd) => {
            let new = match upd {
                AtomicUpdate::Set(e) => {
                    operand(&mut out, e);
                    "__accc_ae".to_string()
                }
                AtomicUpdate::Op {
                    op,
                    expr,
                    expr_first,
                } => {
                    let e = match expr {
                        Some(e) => {
                            operand(&mut out, e);
                            "__accc_ae"
                        }
                        None => "1",
                    };
                    let o = op.c_op();
                    if *expr_first {
                        format!("{e} {o} __accc_ao")
                    } else {
                        format!("__accc_ao {o} {e}")
                    }
                }
            };
            out.push_str(&format!(
                "__atomic_load(__accc_ap, &__accc_ao, __ATOMIC_RELAXED); do {{ __accc_an = {new}; }} while (!__atomic_compare_exchange(__accc_ap, &__accc_ao, &__accc_an, 0, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED)); "
            ));
        }
    }
    if let Some((v, when)) = &a.capture {
        let val = match when {
            Captured::Old => "__accc_ao",
            Captured::New => "__accc_an",
        };
        out.push_str(&format!("{v} = {val}; "));
    }
    out.push('}');
    match cond {
        Some(c) => format!("if ({c}) {out} else {stmt}"),
        None => out + &"\n".repeat(stmt.matches('\n').count()),
    }
}

#[cfg(test)]
mod tests {
    use super::write;
    use crate::ir::host::{AtomicArith, AtomicUpdate, Captured, HostAtomic};

    #[test]
    fn forms() {
        let read = HostAtomic {
            x: "a[i]".into(),
            update: None,
            capture: Some(("v".into(), Captured::Old)),
        };
        assert_eq!(
            write(&read, "v =\n a[i];", None),
            "{ __typeof__(a[i]) *__accc_ap = &(a[i]); __typeof__(a[i]) __accc_ao, __accc_an; __atomic_load(__accc_ap, &__accc_ao, __ATOMIC_RELAXED); v = __accc_ao; }\n"
        );
        let write_ = HostAtomic {
            x: "x".into(),
            update: Some(AtomicUpdate::Set("y".into())),
            capture: None,
        };
        assert!(write(&write_, "x = y;", None).contains(
            "__typeof__(y) __accc_ae = (y); __accc_an = __accc_ae; __atomic_store(__accc_ap, &__accc_an, __ATOMIC_RELAXED); }"
        ));
        let update = HostAtomic {
            x: "x".into(),
            update: Some(AtomicUpdate::Op {
                op: AtomicArith::Div,
                expr: Some("2".into()),
                expr_first: true,
            }),
            capture: Some(("w".into(), Captured::New)),
        };
        let c = write(&update, "w = x = 2 / x;", Some("(c) != 0"));
        assert!(c.starts_with("if ((c) != 0) { "), "{c}");
        assert!(
            c.contains("do { __accc_an = __accc_ae / __accc_ao; }"),
            "{c}"
        );
        assert!(c.ends_with("w = __accc_an; } else w = x = 2 / x;"), "{c}");
        let inc = HostAtomic {
            x: "x".into(),
            update: Some(AtomicUpdate::Op {
                op: AtomicArith::Sub,
                expr: None,
                expr_first: false,
            }),
            capture: None,
        };
        assert!(write(&inc, "x--;", None).contains("__accc_an = __accc_ao - 1;"));
    }
}
