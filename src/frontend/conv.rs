//! The usual arithmetic conversions and integer promotions of C (C11 6.3.1),
//! implemented once for the whole compiler.
//!
//! Owns: [`promote`], [`usual_arith`]. May call: `ctype`.

use super::ctype::CType;
use crate::ir::FloatKind;

/// Integer promotion: types narrower than `int` (and `_Bool`) become `int`.
pub fn promote(t: &CType) -> CType {
    match t {
        CType::Bool => CType::INT,
        CType::Int(k) if k.bits() < 32 => CType::INT,
        t => t.clone(),
    }
}

/// The common type of two arithmetic operands (C11 6.3.1.8): complex when
/// either is, of the common real type of their real types.
pub fn usual_arith(a: &CType, b: &CType) -> CType {
    use CType::Float;
    if a.is_complex() || b.is_complex() {
        return CType::Complex(Box::new(usual_arith(&a.real(), &b.real())));
    }
    match (a, b) {
        (CType::LongDouble, _) | (_, CType::LongDouble) => CType::LongDouble,
        (Float(FloatKind::F64), _) | (_, Float(FloatKind::F64)) => Float(FloatKind::F64),
        (Float(FloatKind::F32), _) | (_, Float(FloatKind::F32)) => Float(FloatKind::F32),
        _ => {
            let (pa, pb) = (promote(a), promote(b));
            let (CType::Int(x), CType::Int(y)) = (&pa, &pb) else {
                return pa;
            };
            let (x, y) = (*x, *y);
            if x == y {
                return pa;
            }
            if x.is_signed() == y.is_signed() {
                return CType::Int(if x.bits() >= y.bits() { x } else { y });
            }
            let (s, u) = if x.is_signed() { (x, y) } else { (y, x) };
            if u.bits() >= s.bits() {
                CType::Int(u)
            } else if s.bits() > u.bits() {
                CType::Int(s)
            } else {
                CType::Int(s.unsigned())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::IntKind;

    #[test]
    fn conversions() {
        let u = CType::Int(IntKind::U32);
        let l = CType::LONG;
        assert_eq!(usual_arith(&CType::INT, &u), u);
        assert_eq!(usual_arith(&u, &l), l);
        assert_eq!(
            usual_arith(&CType::Int(IntKind::I8), &CType::Bool),
            CType::INT
        );
        assert_eq!(usual_arith(&CType::ULONG, &CType::LONG), CType::ULONG);
        assert_eq!(
            usual_arith(&CType::INT, &CType::Float(FloatKind::F32)),
            CType::Float(FloatKind::F32)
        );
        assert_eq!(
            usual_arith(&CType::DOUBLE, &CType::LongDouble),
            CType::LongDouble
        );
        let cf = CType::Complex(Box::new(CType::Float(FloatKind::F32)));
        assert_eq!(usual_arith(&cf, &CType::INT), cf);
        assert_eq!(
            usual_arith(&CType::DOUBLE, &cf),
            CType::Complex(Box::new(CType::DOUBLE))
        );
        assert_eq!(
            usual_arith(&cf, &CType::LongDouble),
            CType::Complex(Box::new(CType::LongDouble))
        );
    }
}
