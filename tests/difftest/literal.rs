//! Literals in many spellings: decimal, hex and octal integers with every suffix
//! (`u l ul lu ll ull`, either case), typed by C's rules (`0xFFFFFFFF` is unsigned,
//! `4294967295` is long); character constants; floating literals in decimal,
//! exponent and hex forms (`.5`, `3.`, `375e-3`, `1e3f`, `0x1p4`, `0x3.p-2F`).

use super::expr::{prec, Expr};
use super::rng::Rng;
use super::span::{Span, FP_LIMIT};
use super::ty::Ty;

/// The type C gives an integer constant of value `v` (C11 6.4.4.1, LP64), or `None`
/// when it has none. `decimal`: written in base 10; `suffix`: lower-cased.
pub fn int_literal_type(v: u128, decimal: bool, suffix: &str) -> Option<Ty> {
    use Ty::*;
    let candidates: &[Ty] = match (suffix, decimal) {
        ("", true) => &[Int, Long, LLong],
        ("", false) => &[Int, UInt, Long, ULong, LLong, ULLong],
        ("u", _) => &[UInt, ULong, ULLong],
        ("l", true) => &[Long, LLong],
        ("l", false) => &[Long, ULong, LLong, ULLong],
        ("ul" | "lu", _) => &[ULong, ULLong],
        ("ll", true) => &[LLong],
        ("ll", false) => &[LLong, ULLong],
        ("ull" | "llu", _) => &[ULLong],
        _ => panic!("unknown suffix {suffix}"),
    };
    candidates
        .iter()
        .copied()
        .find(|t| v as i128 <= t.max_int())
}

/// `v` spelled in a random base.
fn spell(rng: &mut Rng, v: u128) -> (String, bool) {
    match rng.below(10) {
        0..=5 => (v.to_string(), true),
        6 | 7 => (format!("0x{v:x}"), false),
        8 => (format!("0X{v:X}"), false),
        _ if v == 0 => ("0".to_string(), true),
        _ => (format!("0{v:o}"), false),
    }
}

/// A suffix in a random case (`ul` also as `lu`, `Ul`, ...).
fn spell_suffix(rng: &mut Rng, suffix: &str) -> String {
    let s = match suffix {
        "ul" if rng.chance(30) => "lu",
        "ull" if rng.chance(30) => "llu",
        s => s,
    };
    match rng.below(3) {
        0 => s.to_string(),
        1 => s.to_uppercase(),
        // Mixed case; `l` and `ll` keep one case (`lL` is not a suffix).
        _ => s.replace('u', "U"),
    }
}

/// An integer literal of exactly type `ty` (one of the promoted types).
pub fn int_literal(rng: &mut Rng, ty: Ty) -> Expr {
    debug_assert!(!ty.is_float() && ty == ty.promote());
    let v: i128 = match rng.below(9) {
        0 => 0,
        1 => 1,
        2 => rng.range(2, 20).into(),
        3 => rng.range(0, 255).into(),
        4 => {
            let bits = if ty.is_signed() {
                ty.bits() - 1
            } else {
                ty.bits()
            };
            let p = 1i128 << rng.below(u64::from(bits));
            p + i128::from(rng.range(-1, 0))
        }
        5 => ty.max_int(),
        6 => ty.min_int(),
        _ => ty.min_int() + (i128::from(rng.next_u64()) % (ty.max_int() - ty.min_int() + 1)),
    };
    let v = if ty.is_signed() && v > 0 && rng.chance(35) {
        -v
    } else {
        v
    };
    let suffix = match ty {
        Ty::Int => "",
        Ty::UInt => "u",
        Ty::Long => "l",
        Ty::ULong => "ul",
        Ty::LLong => "ll",
        _ => "ull",
    };
    if v == ty.min_int() && ty.is_signed() {
        let text = if rng.chance(50) {
            ty.min_macro().to_string()
        } else {
            format!("(-{}{} - 1)", ty.max_int(), spell_suffix(rng, suffix))
        };
        return Expr::leaf(text, ty, Span::int(v, v));
    }
    let (digits, _) = spell(rng, v.unsigned_abs());
    let lit = format!("{digits}{}", spell_suffix(rng, suffix));
    if v < 0 {
        let mut e = Expr::leaf(format!("-{lit}"), ty, Span::int(v, v));
        e.prec = prec::UNARY;
        e
    } else {
        Expr::leaf(lit, ty, Span::int(v, v))
    }
}

/// The integer `v` as a constant of exactly type `ty` (a cast of a literal of a
/// type that holds it, unless the literal already has type `ty`).
pub fn int_value(v: i128, ty: Ty) -> Expr {
    debug_assert!(ty.min_int() <= v && v <= ty.max_int(), "{v} is no {ty:?}");
    let (text, lit_ty) = if v == i128::from(i64::MIN) {
        ("(-9223372036854775807ll - 1)".to_string(), Ty::LLong)
    } else if i128::from(i32::MIN) < v && v <= i128::from(i32::MAX) {
        (v.to_string(), Ty::Int)
    } else if i128::from(i64::MIN) < v && v <= i128::from(i64::MAX) {
        (format!("{v}ll"), Ty::LLong)
    } else {
        (format!("{v}ull"), Ty::ULLong)
    };
    let mut lit = Expr::leaf(text, lit_ty, Span::int(v, v));
    if v < 0 {
        lit.prec = prec::UNARY;
    }
    if lit_ty == ty {
        return lit;
    }
    super::ops::cast(ty, &lit).expect("integer conversions are defined")
}

/// The floating value `v` (a small multiple of a power of two, so the decimal
/// spelling is exact) as a constant of type `ty`.
pub fn fp_value(v: f64, ty: Ty) -> Expr {
    let suffix = if ty == Ty::Float { "f" } else { "" };
    let mut e = Expr::leaf(format!("{v:?}{suffix}"), ty, Span::fp_point(v, ty));
    if v < 0.0 {
        e.prec = prec::UNARY;
    }
    e
}

/// An integer literal with a random value, base and suffix, of whatever type C
/// gives it (e.g. `0x80000000` is unsigned, `2147483648` is long); negated
/// sometimes (so `-1u` and `-0x80000000` appear too).
pub fn any_int_literal(rng: &mut Rng) -> Expr {
    let v: u128 = match rng.below(6) {
        0 => rng.below(300).into(),
        1 => (1u128 << rng.below(64)) - u128::from(rng.below(2)),
        2 => u128::from(rng.next_u64() >> rng.below(64)),
        3 => *rng.pick(&[0x7fff_ffff, 0x8000_0000, 0xffff_ffff, 0x1_0000_0000]),
        4 => *rng.pick(&[i64::MAX as u128, 1u128 << 63, u64::MAX as u128]),
        _ => rng.below(70000).into(),
    };
    let suffix = *rng.pick(&["", "", "", "u", "l", "ul", "ll", "ull"]);
    let (digits, decimal) = spell(rng, v);
    let Some(ty) = int_literal_type(v, decimal, suffix) else {
        return int_literal(rng, Ty::ULLong);
    };
    let text = format!("{digits}{}", spell_suffix(rng, suffix));
    let lit = Expr::leaf(text, ty, Span::int(v as i128, v as i128));
    if rng.chance(20) {
        super::ops::neg(&lit)
    } else {
        lit
    }
}

/// A character constant (type int).
pub fn char_constant(rng: &mut Rng) -> Expr {
    let (text, v) = *rng.pick(&[
        ("'a'", 97),
        ("'Z'", 90),
        ("'0'", 48),
        ("' '", 32),
        ("'\\n'", 10),
        ("'\\0'", 0),
        ("'\\x41'", 65),
        ("'\\101'", 65),
        ("'\\\\'", 92),
        ("'\\''", 39),
        ("'\\t'", 9),
    ]);
    Expr::leaf(text, Ty::Int, Span::int(v, v))
}

/// The exact decimal spelling of `m * 2^e`.
fn exact_decimal(m: u64, e: i32) -> (String, String) {
    if e >= 0 {
        return ((u128::from(m) << e).to_string(), String::new());
    }
    let k = (-e) as u32;
    let num = u128::from(m) * 5u128.pow(k);
    let s = format!("{num:0>width$}", width = k as usize + 1);
    let (int, frac) = s.split_at(s.len() - k as usize);
    (int.to_string(), frac.trim_end_matches('0').to_string())
}

/// A floating literal of type `ty` (`f` suffix for float), value within
/// `FP_LIMIT`, negated sometimes.
pub fn fp_literal(rng: &mut Rng, ty: Ty) -> Expr {
    let suffix = if ty == Ty::Float {
        if rng.chance(70) {
            "f"
        } else {
            "F"
        }
    } else {
        ""
    };
    let (text, value) = if rng.chance(70) {
        // m * 2^e: exact.
        let (m, e) = match rng.below(3) {
            0 => (1, rng.range(-8, 10) as i32),
            1 => (rng.below(64), rng.range(-4, 4) as i32),
            _ => (rng.below(4096), rng.range(-6, 6) as i32),
        };
        let value = m as f64 * 2f64.powi(e);
        let text = if rng.chance(25) {
            match rng.below(3) {
                0 => format!("0x{m:x}p{e}"),
                1 => format!("0X{m:X}P{e:+}"),
                _ => format!("0x{m:x}.p{e}"),
            }
        } else {
            let (int, frac) = exact_decimal(m, e);
            match rng.below(5) {
                0 if int == "0" && !frac.is_empty() => format!(".{frac}"),
                1 if frac.is_empty() => format!("{int}."),
                2 => {
                    let digits = format!("{int}{frac}").trim_start_matches('0').to_string();
                    let digits = if digits.is_empty() {
                        "0".into()
                    } else {
                        digits
                    };
                    format!("{digits}e-{}", frac.len())
                }
                3 => format!("{int}.{frac}E0"),
                _ => format!("{int}.{}", if frac.is_empty() { "0" } else { &frac }),
            }
        };
        (text, value)
    } else {
        // A decimal that is usually not exact in binary.
        let d = rng.range(1, 99999);
        let x = rng.range(-5, 4);
        let text = match rng.below(3) {
            0 => format!("{d}e{x}"),
            1 => format!("{d}.e{x}"),
            _ => format!("{d}.0e{x:+}"),
        };
        let value = if ty == Ty::Float {
            f64::from(text.parse::<f32>().unwrap())
        } else {
            text.parse::<f64>().unwrap()
        };
        (text, value)
    };
    debug_assert!(value.abs() <= FP_LIMIT);
    let lit = Expr::leaf(format!("{text}{suffix}"), ty, Span::fp_point(value, ty));
    if value != 0.0 && rng.chance(30) {
        super::ops::neg(&lit)
    } else {
        lit
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literal_types_follow_c() {
        assert_eq!(int_literal_type(0x7fff_ffff, false, ""), Some(Ty::Int));
        assert_eq!(int_literal_type(0x8000_0000, false, ""), Some(Ty::UInt));
        assert_eq!(int_literal_type(0x8000_0000, true, ""), Some(Ty::Long));
        assert_eq!(int_literal_type(1 << 63, true, ""), None);
        assert_eq!(int_literal_type(1 << 63, false, "l"), Some(Ty::ULong));
        assert_eq!(int_literal_type(5, true, "ll"), Some(Ty::LLong));
        assert_eq!(exact_decimal(3, -3), ("0".into(), "375".into()));
        assert_eq!(exact_decimal(5, 2), ("20".into(), String::new()));
    }
}
