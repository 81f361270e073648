//! C literals: strings (escaped byte by byte, so any file name or clause
//! text is a valid literal), integers with the suffix of their type, and
//! floating values that read back to the same bits.
//!
//! Owns: [`c_str`], [`c_bytes`], [`uint`], [`int`], [`ull`], [`float`]. May call:
//! [`super::CExpr`].

use super::{CExpr, CUnOp};

/// A C string literal of `s`: quotes, backslashes and newlines escaped,
/// bytes outside printable ASCII as octal escapes.
pub fn c_str(s: &str) -> String {
    c_bytes(s.as_bytes())
}

/// A C string literal of the bytes `b` (which need not be UTF-8), escaped
/// as [`c_str`] escapes.
pub fn c_bytes(b: &[u8]) -> String {
    let mut out = String::from("\"");
    for &c in b {
        match c {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            b'\n' => out.push_str("\\n"),
            c if c.is_ascii() && !c.is_ascii_control() => out.push(char::from(c)),
            c => out.push_str(&format!("\\{c:03o}")),
        }
    }
    out.push('"');
    out
}

/// An `unsigned int` literal (`128u`).
pub fn uint(n: u32) -> CExpr {
    CExpr::Atom(format!("{n}u"))
}

/// An `unsigned long long` literal (`65535ULL`).
pub fn ull(n: u64) -> CExpr {
    CExpr::Atom(format!("{n}ULL"))
}

/// A `long long` literal (`-5LL` is `-` applied to `5LL`; the most negative
/// value, which has no literal, is `-9223372036854775807LL - 1`).
pub fn int(n: i64) -> CExpr {
    if n == i64::MIN {
        return CExpr::bin(
            super::CBinOp::Sub,
            CExpr::un(CUnOp::Neg, CExpr::Atom(format!("{}LL", i64::MAX))),
            CExpr::Atom("1".into()),
        );
    }
    let lit = CExpr::Atom(format!("{}LL", n.unsigned_abs()));
    if n < 0 {
        CExpr::un(CUnOp::Neg, lit)
    } else {
        lit
    }
}

/// A floating literal of `v` as a `float` (`single`) or a `double`: the
/// shortest decimal that reads back to the same value, with a `.` or an
/// exponent so C reads it as floating; infinities and NaN through the
/// builtins GCC, Clang and NVCC share.
pub fn float(v: f64, single: bool) -> CExpr {
    let f = if single { "f" } else { "" };
    if v.is_nan() {
        return CExpr::call(
            format!("__builtin_nan{f}"),
            vec![CExpr::Atom("\"\"".into())],
        );
    }
    if v.is_infinite() {
        let inf = CExpr::call(format!("__builtin_inf{f}"), vec![]);
        return if v < 0.0 {
            CExpr::un(CUnOp::Neg, inf)
        } else {
            inf
        };
    }
    let mut s = if single {
        format!("{:?}", v.abs() as f32)
    } else {
        format!("{:?}", v.abs())
    };
    if !s.contains(['.', 'e']) {
        s.push_str(".0");
    }
    let lit = CExpr::Atom(format!("{s}{f}"));
    if v.is_sign_negative() {
        CExpr::un(CUnOp::Neg, lit)
    } else {
        lit
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_escape_every_byte_c_would_misread() {
        assert_eq!(c_str("a\"b\\c\nd"), "\"a\\\"b\\\\c\\nd\"");
        assert_eq!(c_str("é\t"), "\"\\303\\251\\011\"");
        assert_eq!(c_bytes(b"%d\xff\0"), "\"%d\\377\\000\"");
    }

    #[test]
    fn numbers() {
        assert_eq!(uint(128).to_c(), "128u");
        assert_eq!(ull(65535).to_c(), "65535ULL");
        assert_eq!(int(-5).to_c(), "-5LL");
        assert_eq!(int(i64::MIN).to_c(), "-9223372036854775807LL - 1");
        assert_eq!(float(1.0, false).to_c(), "1.0");
        assert_eq!(float(0.1, true).to_c(), "0.1f");
        assert_eq!(float(-1e300, false).to_c(), "-1e300");
        assert_eq!(float(f64::INFINITY, true).to_c(), "__builtin_inff()");
        assert_eq!(float(f64::NAN, false).to_c(), "__builtin_nan(\"\")");
        // `-0.0` keeps its sign.
        assert_eq!(float(-0.0, false).to_c(), "-0.0");
    }
}
