//! C literals: integer, floating and character constants with their C types
//! (C11 6.4.4: the type of an integer constant depends on its value, base and
//! suffix).
//!
//! Owns: [`int_constant`], [`float_constant`], [`char_constant`].

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

/// Value and type of a floating constant.
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
        FloatFormat::LongDouble | FloatFormat::TS18661Format(_) => {
            return Err(format!(
                "floating constant '{}' of type long double is not supported on the device",
                c.number
            ))
        }
    };
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

/// Value of a character constant as written (`'a'`, `'\n'`, `'\x41'`); its
/// type is `int`.
pub fn char_constant(text: &str) -> Result<i128, String> {
    let inner = text
        .strip_prefix('\'')
        .and_then(|s| s.strip_suffix('\''))
        .ok_or_else(|| format!("unsupported character constant {text}"))?;
    let mut chars = inner.chars();
    let v = match chars.next() {
        Some('\\') => match chars.next() {
            Some('n') => 10,
            Some('t') => 9,
            Some('r') => 13,
            Some('0'..='7') => {
                let o: String = inner[1..].chars().take_while(|c| c.is_digit(8)).collect();
                i128::from_str_radix(&o, 8).map_err(|e| e.to_string())?
            }
            Some('x') => i128::from_str_radix(&inner[2..], 16).map_err(|e| e.to_string())?,
            Some('a') => 7,
            Some('b') => 8,
            Some('f') => 12,
            Some('v') => 11,
            Some(c) => c as i128,
            None => return Err(format!("invalid character constant {text}")),
        },
        Some(c) => c as i128,
        None => return Err(format!("empty character constant {text}")),
    };
    // char is signed on x86-64.
    Ok(((v as u8) as i8) as i128)
}
