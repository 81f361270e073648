//! C literals: integer, floating and character constants with their C types
//! (C11 6.4.4: the type of an integer constant depends on its value, base and
//! suffix).
//!
//! Owns: [`int_constant`], [`float_constant`], [`char_constant`],
//! [`string_literal`] and the one decoder of escape sequences.

use super::ctype::CType;
use crate::ir::{FloatKind, IntKind};
use lang_c::ast::{Float, FloatBase, FloatFormat, Integer, IntegerBase, IntegerSize};

/// Value and type of an integer constant; `Err` with a message when it does
/// not fit any type.
pub fn int_constant(c: &Integer) -> Result<(i128, CType), String> {
    let radix = match c.base {
        IntegerBase::Decimal => 10,
        IntegerBase::Octal => 8,
        IntegerBase::Hexadecimal => 16,
        IntegerBase::Binary => 2,
    };
    let digits = c.number.replace('\'', "");
    let v = u128::from_str_radix(&digits, radix)
        .map_err(|_| format!("integer constant '{}' is too large", c.number))?;
    let decimal = matches!(c.base, IntegerBase::Decimal);
    let mut candidates: Vec<IntKind> = vec![];
    let min = match c.suffix.size {
        IntegerSize::Int => 0,
        IntegerSize::Long | IntegerSize::LongLong => 1,
    };
    for (rank, (s, u)) in [(IntKind::I32, IntKind::U32), (IntKind::I64, IntKind::U64)]
        .into_iter()
        .enumerate()
    {
        if rank < min {
            continue;
        }
        if c.suffix.unsigned {
            candidates.push(u);
        } else if decimal {
            candidates.push(s);
        } else {
            candidates.push(s);
            candidates.push(u);
        }
    }
    if decimal && !c.suffix.unsigned {
        candidates.push(IntKind::I64);
    }
    for k in candidates {
        let max: u128 = if k.is_signed() {
            (1u128 << (k.bits() - 1)) - 1
        } else {
            (1u128 << k.bits()) - 1
        };
        if v <= max {
            return Ok((v as i128, CType::Int(k)));
        }
    }
    if v <= u64::MAX as u128 {
        // gcc: "integer constant is so large that it is unsigned".
        return Ok((v as i128, CType::Int(IntKind::U64)));
    }
    Err(format!(
        "integer constant '{}' is too large for its type",
        c.number
    ))
}

/// Value and type of a floating constant: a `long double` one (suffix `L`,
/// as `DBL_MAX` is spelled, `((double)1.79…e+308L)`) is rounded from its
/// decimal digits to `double` once (device code computes `long double` in
/// double precision); an imaginary one (GNU suffix `i`, as in `_Complex_I`)
/// has the complex type of its format and the value as its imaginary part.
pub fn float_constant(c: &Float) -> Result<(f64, CType), String> {
    let text = c.number.replace('\'', "");
    let v = match c.base {
        FloatBase::Decimal => text.parse::<f64>().ok(),
        FloatBase::Hexadecimal => parse_hex_float(&text),
    }
    .ok_or_else(|| format!("invalid floating constant '{}'", c.number))?;
    let ty = match c.suffix.format {
        FloatFormat::Float => CType::Float(FloatKind::F32),
        FloatFormat::Double => CType::Float(FloatKind::F64),
        FloatFormat::LongDouble => CType::LongDouble,
        FloatFormat::TS18661Format(_) => {
            return Err(format!(
                "floating constant '{}' of a _FloatN type is not supported on the device",
                c.number
            ))
        }
    };
    if c.suffix.imaginary {
        return Ok((v, CType::Complex(Box::new(ty))));
    }
    Ok((v, ty))
}

/// `1.8p3` (hex digits, optional point, binary exponent; no `0x` prefix).
fn parse_hex_float(text: &str) -> Option<f64> {
    let t = text.trim_start_matches("0x").trim_start_matches("0X");
    let (mant, exp) = match t.find(['p', 'P']) {
        Some(i) => (&t[..i], t[i + 1..].parse::<i32>().ok()?),
        None => (t, 0),
    };
    let (int, frac) = mant.split_once('.').unwrap_or((mant, ""));
    let mut v = 0f64;
    for d in int.chars() {
        v = v * 16.0 + f64::from(d.to_digit(16)?);
    }
    let mut scale = 1.0 / 16.0;
    for d in frac.chars() {
        v += f64::from(d.to_digit(16)?) * scale;
        scale /= 16.0;
    }
    Some(v * 2f64.powi(exp))
}

/// The bytes C escape sequences in `inner` (the text between the quotes of
/// a character constant or string literal) stand for; UTF-8 text stays as
/// its bytes.
fn unescape(inner: &str) -> Result<Vec<u8>, String> {
    let b = inner.as_bytes();
    let mut out = vec![];
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'\\' {
            out.push(b[i]);
            i += 1;
            continue;
        }
        let Some(&c) = b.get(i + 1) else {
            return Err("a backslash at the end of a literal".into());
        };
        i += 2;
        let v = match c {
            b'n' => 10,
            b't' => 9,
            b'r' => 13,
            b'a' => 7,
            b'b' => 8,
            b'f' => 12,
            b'v' => 11,
            b'0'..=b'7' => {
                let mut v = u32::from(c - b'0');
                let mut n = 1;
                while n < 3 && i < b.len() && (b'0'..=b'7').contains(&b[i]) {
                    v = v * 8 + u32::from(b[i] - b'0');
                    i += 1;
                    n += 1;
                }
                v
            }
            b'x' => {
                let start = i;
                while i < b.len() && b[i].is_ascii_hexdigit() {
                    i += 1;
                }
                u32::from_str_radix(&inner[start..i], 16)
                    .map_err(|e| format!("bad \\x escape: {e}"))?
            }
            c => u32::from(c),
        };
        out.push((v & 0xff) as u8);
    }
    Ok(out)
}

/// Value of a character constant as written (`'a'`, `'\n'`, `'\x41'`); its
/// type is `int`.
pub fn char_constant(text: &str) -> Result<i128, String> {
    let inner = text
        .strip_prefix('\'')
        .and_then(|s| s.strip_suffix('\''))
        .ok_or_else(|| format!("unsupported character constant {text}"))?;
    let bytes = unescape(inner)?;
    let [v] = bytes.as_slice() else {
        return Err(format!("unsupported character constant {text}"));
    };
    // char is signed on x86-64.
    Ok(i128::from(*v as i8))
}

/// The bytes of a (possibly concatenated) narrow string literal, without
/// the terminating NUL.
pub fn string_literal(parts: &[String]) -> Result<Vec<u8>, String> {
    let mut out = vec![];
    for p in parts {
        let inner = p
            .strip_prefix("u8\"")
            .or_else(|| p.strip_prefix('"'))
            .and_then(|s| s.strip_suffix('"'))
            .ok_or_else(|| format!("unsupported string literal {p} (only narrow strings)"))?;
        out.extend(unescape(inner)?);
    }
    Ok(out)
}
