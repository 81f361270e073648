//! What each operator computes, as the PTX that accc's NVPTX back end
//! generates computes it.
//!
//! Owns: [`norm`], [`bin`], [`cmp`], [`un`], [`cvt`], [`math`], [`fma`]
//! and [`atom`]. Values are register bits (see [`crate::code`]). The cases C
//! leaves undefined are given PTX's answer:
//! * integers wrap; `MIN / -1` is `MIN` and `MIN % -1` is 0;
//! * division by zero (PTX: "unspecified, machine-specific"): the answer of
//!   the GPU's division sequence — an unsigned quotient of all ones, a
//!   signed one of -1 (1 for a negative dividend), a remainder equal to the
//!   dividend;
//! * shifts by the width or more are clamped (`shl`, `shr.u` give 0, `shr.s`
//!   the sign), as PTX's `shl`/`shr` do;
//! * float → integer conversions saturate and give 0 for NaN (`cvt.rzi`);
//!   8-bit targets convert through 16 bits (NVPTX has no 8-bit `cvt`), so
//!   they saturate at the 16-bit limits and then wrap;
//! * float arithmetic is IEEE with round-to-nearest and no flush-to-zero
//!   (LLVM's defaults, which the back end keeps); a multiply-add is fused
//!   (one rounding, [`fma`]) only where the bytecode says `fma`, as PTX's
//!   `fma.rn` where the back end contracted one;
//!   `min`/`max` return the non-NaN operand (IEEE minNum, PTX `min.f32`);
//! * math functions are Rust's (the C library's): correctly rounded for
//!   sqrt, fabs, floor, ceil, fmin, fmax and fmod, as libdevice; exp, log,
//!   pow, sin, cos, tan and atan2 are within a few ulp of libdevice's
//!   results but not always bit-identical to them.
//!
//! May call: [`crate::code`].

use crate::code::{AtomOp, BinOp, CmpOp, MathFn, Ty, UnOp};

/// `v` reduced to the bits of `ty` (zero-extended; `B1`: the low bit).
#[inline]
pub fn norm(ty: Ty, v: u64) -> u64 {
    match ty.bits() {
        64 => v,
        bits => v & ((1u64 << bits) - 1),
    }
}

/// The value of `v` (bits of `ty`) as a signed 64-bit number
/// (sign-extended for signed types, zero-extended otherwise).
#[inline]
pub fn sext(ty: Ty, v: u64) -> i64 {
    let bits = ty.bits();
    if !ty.signed() || bits == 64 {
        return v as i64;
    }
    let shift = 64 - bits;
    ((v << shift) as i64) >> shift
}

fn f32_of(v: u64) -> f32 {
    f32::from_bits(v as u32)
}

fn f64_of(v: u64) -> f64 {
    f64::from_bits(v)
}

fn of_f32(x: f32) -> u64 {
    u64::from(x.to_bits())
}

fn of_f64(x: f64) -> u64 {
    x.to_bits()
}

/// `a op b` at `ty`.
#[inline]
pub fn bin(op: BinOp, ty: Ty, a: u64, b: u64) -> u64 {
    match ty {
        Ty::F32 => {
            let (x, y) = (f32_of(a), f32_of(b));
            of_f32(match op {
                BinOp::Add => x + y,
                BinOp::Sub => x - y,
                BinOp::Mul => x * y,
                BinOp::Div => x / y,
                BinOp::Rem => x % y,
                BinOp::Min => x.min(y),
                BinOp::Max => x.max(y),
                // Bitwise operators on floats never reach the bytecode.
                _ => f32::NAN,
            })
        }
        Ty::F64 => {
            let (x, y) = (f64_of(a), f64_of(b));
            of_f64(match op {
                BinOp::Add => x + y,
                BinOp::Sub => x - y,
                BinOp::Mul => x * y,
                BinOp::Div => x / y,
                BinOp::Rem => x % y,
                BinOp::Min => x.min(y),
                BinOp::Max => x.max(y),
                _ => f64::NAN,
            })
        }
        _ => norm(ty, int_bin(op, ty, a, b)),
    }
}

#[inline]
fn int_bin(op: BinOp, ty: Ty, a: u64, b: u64) -> u64 {
    let signed = ty.signed();
    let bits = ty.bits();
    match op {
        BinOp::Add => a.wrapping_add(b),
        BinOp::Sub => a.wrapping_sub(b),
        BinOp::Mul => a.wrapping_mul(b),
        BinOp::Div | BinOp::Rem => {
            let rem = op == BinOp::Rem;
            if signed {
                let (x, y) = (sext(ty, a), sext(ty, b));
                if y == 0 {
                    return if rem {
                        x as u64
                    } else if x < 0 {
                        1
                    } else {
                        u64::MAX
                    };
                }
                (if rem {
                    x.wrapping_rem(y)
                } else {
                    x.wrapping_div(y)
                }) as u64
            } else if b == 0 {
                if rem {
                    a
                } else {
                    u64::MAX
                }
            } else if rem {
                a % b
            } else {
                a / b
            }
        }
        BinOp::And => a & b,
        BinOp::Or => a | b,
        BinOp::Xor => a ^ b,
        BinOp::Shl => {
            if b >= u64::from(bits) {
                0
            } else {
                a << b
            }
        }
        BinOp::Shr => {
            if signed {
                let x = sext(ty, a);
                (x >> b.min(63)) as u64
            } else if b >= u64::from(bits) {
                0
            } else {
                a >> b
            }
        }
        BinOp::Min | BinOp::Max => {
            let less = if signed {
                sext(ty, a) < sext(ty, b)
            } else {
                a < b
            };
            if less == (op == BinOp::Min) {
                a
            } else {
                b
            }
        }
    }
}

/// `a cmp b` at `ty` (pointers compare unsigned).
#[inline]
pub fn cmp(op: CmpOp, ty: Ty, a: u64, b: u64) -> bool {
    use std::cmp::Ordering;
    let ord: Option<Ordering> = match ty {
        Ty::F32 => f32_of(a).partial_cmp(&f32_of(b)),
        Ty::F64 => f64_of(a).partial_cmp(&f64_of(b)),
        t if t.signed() => Some(sext(t, a).cmp(&sext(t, b))),
        t => Some(norm(t, a).cmp(&norm(t, b))),
    };
    match (op, ord) {
        // Unordered (a NaN): only `!=` holds.
        (CmpOp::Ne, None) => true,
        (_, None) => false,
        (CmpOp::Eq, Some(o)) => o == Ordering::Equal,
        (CmpOp::Ne, Some(o)) => o != Ordering::Equal,
        (CmpOp::Lt, Some(o)) => o == Ordering::Less,
        (CmpOp::Le, Some(o)) => o != Ordering::Greater,
        (CmpOp::Gt, Some(o)) => o == Ordering::Greater,
        (CmpOp::Ge, Some(o)) => o != Ordering::Less,
    }
}

/// `op a` at `ty`.
#[inline]
pub fn un(op: UnOp, ty: Ty, a: u64) -> u64 {
    match (op, ty) {
        (UnOp::Neg, Ty::F32) => a ^ 0x8000_0000,
        (UnOp::Neg, Ty::F64) => a ^ (1 << 63),
        (UnOp::Neg, t) => norm(t, a.wrapping_neg()),
        (UnOp::Not, t) => norm(t, !a),
    }
}

/// C's conversion of `v` (bits of `from`) to `to`, as NVPTX does it (see
/// the module doc for float → integer).
#[inline]
pub fn cvt(from: Ty, to: Ty, v: u64) -> u64 {
    if to == Ty::B1 {
        return u64::from(match from {
            Ty::F32 => f32_of(v) != 0.0,
            Ty::F64 => f64_of(v) != 0.0,
            t => norm(t, v) != 0,
        });
    }
    match (from.is_float(), to.is_float()) {
        (false, false) => {
            // Integers and pointers: extend by the source's signedness,
            // then truncate.
            let x = if from.signed() {
                sext(from, v) as u64
            } else {
                norm(from, v)
            };
            norm(to, x)
        }
        (false, true) => {
            let signed = from.signed();
            let x = norm(from, v);
            match to {
                Ty::F32 => of_f32(if signed {
                    sext(from, x) as f32
                } else {
                    x as f32
                }),
                _ => of_f64(if signed {
                    sext(from, x) as f64
                } else {
                    x as f64
                }),
            }
        }
        (true, false) => {
            let x = if from == Ty::F32 {
                f64::from(f32_of(v))
            } else {
                f64_of(v)
            };
            // Rust's float-to-int `as` saturates and maps NaN to 0, as
            // cvt.rzi does.
            let bits = match to {
                Ty::I8 | Ty::I16 => x as i16 as u64,
                Ty::U8 | Ty::U16 => u64::from(x as u16),
                Ty::I32 => x as i32 as u64,
                Ty::U32 => u64::from(x as u32),
                Ty::I64 => x as i64 as u64,
                _ => x as u64,
            };
            norm(to, bits)
        }
        (true, true) => match (from, to) {
            (Ty::F32, Ty::F64) => of_f64(f64::from(f32_of(v))),
            (Ty::F64, Ty::F32) => of_f32(f64_of(v) as f32),
            _ => v,
        },
    }
}

/// `a * b + c` at `ty` (`F32` or `F64`), rounded once (PTX `fma.rn`;
/// Rust's `mul_add` is the correctly rounded IEEE fusedMultiplyAdd).
pub fn fma(ty: Ty, a: u64, b: u64, c: u64) -> u64 {
    if ty == Ty::F32 {
        of_f32(f32_of(a).mul_add(f32_of(b), f32_of(c)))
    } else {
        of_f64(f64_of(a).mul_add(f64_of(b), f64_of(c)))
    }
}

/// `f(a[, b])` at `ty` (`F32` or `F64`).
pub fn math(f: MathFn, ty: Ty, a: u64, b: u64) -> u64 {
    if ty == Ty::F32 {
        let (x, y) = (f32_of(a), f32_of(b));
        return of_f32(match f {
            MathFn::Sqrt => x.sqrt(),
            MathFn::Exp => x.exp(),
            MathFn::Log => x.ln(),
            MathFn::Pow => x.powf(y),
            MathFn::Fabs => x.abs(),
            MathFn::Sin => x.sin(),
            MathFn::Cos => x.cos(),
            MathFn::Tan => x.tan(),
            MathFn::Atan2 => x.atan2(y),
            MathFn::Floor => x.floor(),
            MathFn::Ceil => x.ceil(),
            MathFn::Fmin => x.min(y),
            MathFn::Fmax => x.max(y),
            MathFn::Fmod => x % y,
        });
    }
    let (x, y) = (f64_of(a), f64_of(b));
    of_f64(match f {
        MathFn::Sqrt => x.sqrt(),
        MathFn::Exp => x.exp(),
        MathFn::Log => x.ln(),
        MathFn::Pow => x.powf(y),
        MathFn::Fabs => x.abs(),
        MathFn::Sin => x.sin(),
        MathFn::Cos => x.cos(),
        MathFn::Tan => x.tan(),
        MathFn::Atan2 => x.atan2(y),
        MathFn::Floor => x.floor(),
        MathFn::Ceil => x.ceil(),
        MathFn::Fmin => x.min(y),
        MathFn::Fmax => x.max(y),
        MathFn::Fmod => x % y,
    })
}

/// The new value of an atomic `op` on `old` with `value` at `ty`.
pub fn atom(op: AtomOp, ty: Ty, old: u64, value: u64) -> u64 {
    match op {
        AtomOp::Add => bin(BinOp::Add, ty, old, value),
        AtomOp::Sub => bin(BinOp::Sub, ty, old, value),
        AtomOp::Min => bin(BinOp::Min, ty, old, value),
        AtomOp::Max => bin(BinOp::Max, ty, old, value),
        AtomOp::And => old & value,
        AtomOp::Or => old | value,
        AtomOp::Xor => old ^ value,
        AtomOp::Exch => value,
        AtomOp::IncWrap => {
            let (o, v) = (norm(ty, old), norm(ty, value));
            if o >= v {
                0
            } else {
                norm(ty, o + 1)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn i32b(x: i32) -> u64 {
        u64::from(x as u32)
    }

    #[test]
    fn integers_wrap_and_divide_as_ptx() {
        assert_eq!(bin(BinOp::Add, Ty::I32, i32b(i32::MAX), 1), i32b(i32::MIN));
        assert_eq!(bin(BinOp::Mul, Ty::U8, 200, 2), 144);
        assert_eq!(bin(BinOp::Div, Ty::I32, i32b(-7), 2), i32b(-3));
        assert_eq!(bin(BinOp::Rem, Ty::I32, i32b(-7), 2), i32b(-1));
        assert_eq!(
            bin(BinOp::Div, Ty::I32, i32b(i32::MIN), i32b(-1)),
            i32b(i32::MIN)
        );
        assert_eq!(bin(BinOp::Rem, Ty::I32, i32b(i32::MIN), i32b(-1)), 0);
        assert_eq!(bin(BinOp::Div, Ty::U32, 5, 0), 0xffff_ffff);
        assert_eq!(bin(BinOp::Rem, Ty::U32, 5, 0), 5);
        assert_eq!(bin(BinOp::Div, Ty::I32, i32b(-5), 0), 1);
        assert_eq!(bin(BinOp::Div, Ty::I64, 5, 0), u64::MAX);
        assert_eq!(bin(BinOp::Div, Ty::U64, u64::MAX, 2), u64::MAX / 2);
    }

    #[test]
    fn shifts_clamp() {
        assert_eq!(bin(BinOp::Shl, Ty::U32, 1, 31), 0x8000_0000);
        assert_eq!(bin(BinOp::Shl, Ty::U32, 1, 32), 0);
        assert_eq!(bin(BinOp::Shr, Ty::U32, 0x8000_0000, 40), 0);
        assert_eq!(bin(BinOp::Shr, Ty::I32, i32b(-8), 1), i32b(-4));
        assert_eq!(bin(BinOp::Shr, Ty::I32, i32b(-8), 99), i32b(-1));
        assert_eq!(bin(BinOp::Shl, Ty::I8, 1, 7), 0x80);
        assert_eq!(bin(BinOp::Shr, Ty::I8, 0x80, 7), 0xff);
        assert_eq!(bin(BinOp::Shl, Ty::U64, 1, 63), 1 << 63);
        assert_eq!(bin(BinOp::Shl, Ty::U64, 1, 64), 0);
    }

    #[test]
    fn min_max_by_signedness() {
        assert_eq!(bin(BinOp::Min, Ty::I32, i32b(-1), 1), i32b(-1));
        assert_eq!(bin(BinOp::Min, Ty::U32, i32b(-1), 1), 1);
        let nan = of_f64(f64::NAN);
        assert_eq!(bin(BinOp::Max, Ty::F64, nan, of_f64(2.0)), of_f64(2.0));
    }

    #[test]
    fn comparisons() {
        assert!(cmp(CmpOp::Lt, Ty::I32, i32b(-1), 0));
        assert!(!cmp(CmpOp::Lt, Ty::U32, i32b(-1), 0));
        let nan = of_f32(f32::NAN);
        assert!(cmp(CmpOp::Ne, Ty::F32, nan, nan));
        assert!(!cmp(CmpOp::Eq, Ty::F32, nan, nan));
        assert!(!cmp(CmpOp::Ge, Ty::F32, nan, of_f32(0.0)));
        assert!(cmp(CmpOp::Eq, Ty::F64, of_f64(0.0), of_f64(-0.0)));
    }

    #[test]
    fn conversions() {
        assert_eq!(cvt(Ty::I8, Ty::I32, 0xff), i32b(-1));
        assert_eq!(cvt(Ty::U8, Ty::I32, 0xff), 255);
        assert_eq!(cvt(Ty::I32, Ty::U8, i32b(-1)), 0xff);
        assert_eq!(cvt(Ty::I32, Ty::Ptr, i32b(-1)), u64::MAX);
        assert_eq!(cvt(Ty::U32, Ty::Ptr, 0xffff_ffff), 0xffff_ffff);
        assert_eq!(cvt(Ty::F64, Ty::I32, of_f64(-2.9)), i32b(-2));
        assert_eq!(cvt(Ty::F64, Ty::I32, of_f64(1e20)), i32b(i32::MAX));
        assert_eq!(cvt(Ty::F64, Ty::U32, of_f64(-5.0)), 0);
        assert_eq!(cvt(Ty::F32, Ty::I64, of_f32(f32::NAN)), 0);
        assert_eq!(cvt(Ty::F64, Ty::I8, of_f64(300.0)), 44);
        assert_eq!(cvt(Ty::F64, Ty::U8, of_f64(-1.0)), 0);
        assert_eq!(cvt(Ty::F64, Ty::B1, of_f64(f64::NAN)), 1);
        assert_eq!(cvt(Ty::F32, Ty::B1, of_f32(-0.0)), 0);
        assert_eq!(cvt(Ty::I32, Ty::F64, i32b(-3)), of_f64(-3.0));
        assert_eq!(cvt(Ty::U64, Ty::F32, u64::MAX), of_f32(u64::MAX as f32));
        assert_eq!(cvt(Ty::F64, Ty::F32, of_f64(0.1)), of_f32(0.1));
        assert_eq!(cvt(Ty::B1, Ty::I32, 1), 1);
    }

    #[test]
    fn unary_and_atomics() {
        assert_eq!(un(UnOp::Neg, Ty::I32, 1), i32b(-1));
        assert_eq!(un(UnOp::Not, Ty::B1, 1), 0);
        assert_eq!(un(UnOp::Neg, Ty::F64, of_f64(2.0)), of_f64(-2.0));
        assert_eq!(atom(AtomOp::IncWrap, Ty::U32, 3, 3), 0);
        assert_eq!(atom(AtomOp::IncWrap, Ty::U32, 2, 3), 3);
        assert_eq!(
            atom(AtomOp::Add, Ty::F32, of_f32(1.5), of_f32(2.0)),
            of_f32(3.5)
        );
        assert_eq!(
            math(MathFn::Sqrt, Ty::F64, of_f64(2.0), 0),
            of_f64(2f64.sqrt())
        );
        assert_eq!(
            math(MathFn::Fmod, Ty::F32, of_f32(7.5), of_f32(2.0)),
            of_f32(1.5)
        );
    }

    /// One rounding: (1 + 2^-k)(1 - 2^-k) - 1 is -2^-2k exactly, which
    /// the unfused product rounds away to 0.
    #[test]
    fn fma_rounds_once() {
        let (a, b) = (1.0 + f32::EPSILON, 1.0 - f32::EPSILON);
        let fused = fma(Ty::F32, of_f32(a), of_f32(b), of_f32(-1.0));
        assert_eq!(fused, of_f32(-f32::EPSILON * f32::EPSILON));
        assert_eq!(a * b - 1.0, 0.0);
        let (a, b) = (1.0 + f64::EPSILON, 1.0 - f64::EPSILON);
        let fused = fma(Ty::F64, of_f64(a), of_f64(b), of_f64(-1.0));
        assert_eq!(fused, of_f64(-f64::EPSILON * f64::EPSILON));
        assert_eq!(a * b - 1.0, 0.0);
    }
}
