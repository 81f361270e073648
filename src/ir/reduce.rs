//! Reductions: what a `reduction(op:var)` clause asks of a loop.
//!
//! Owns: [`RedOp`], [`Reduction`], [`RedTarget`] and each operator's
//! identity. The front end attaches reductions to [`Loop`]s; `schedule`
//! expands them into per-thread partials, warp shuffles, shared memory and
//! (across gangs) a last-gang-done finish.
//!
//! [`Loop`]: super::Loop

use super::expr::{ExprId, Literal};
use super::function::LocalId;
use super::types::{FloatKind, IntKind, Type};

/// A reduction operator (OpenACC 3.3 2.5.15).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RedOp {
    Add,
    Mul,
    Max,
    Min,
    BitAnd,
    BitOr,
    BitXor,
    /// `&&`: the result is 1 or 0 of the variable's type.
    And,
    /// `||`.
    Or,
    /// `*` on complex numbers: the elements of each part pair up, real then
    /// imaginary (`count` is even), and combine as complex products.
    ComplexMul,
}

impl RedOp {
    /// The operator as written in a clause.
    pub fn symbol(self) -> &'static str {
        match self {
            RedOp::Add => "+",
            RedOp::Mul | RedOp::ComplexMul => "*",
            RedOp::Max => "max",
            RedOp::Min => "min",
            RedOp::BitAnd => "&",
            RedOp::BitOr => "|",
            RedOp::BitXor => "^",
            RedOp::And => "&&",
            RedOp::Or => "||",
        }
    }

    /// Whether the operator applies to values of `ty` (the bitwise ones
    /// only to integers).
    pub fn applies_to(self, ty: &Type) -> bool {
        match ty {
            Type::Int(_) if self == RedOp::ComplexMul => false,
            Type::Int(k) => *k != IntKind::Bool,
            Type::Float(_) => !matches!(self, RedOp::BitAnd | RedOp::BitOr | RedOp::BitXor),
            _ => false,
        }
    }

    /// The identity of the operator for `ty` (what each private copy starts
    /// from): 0 for `+ | ^ ||`, 1 for `* &&`, all ones for `&`, the least
    /// value (−∞ for floats) for `max`, the greatest (+∞) for `min`.
    pub fn identity(self, ty: &Type) -> Literal {
        let float = matches!(ty, Type::Float(_));
        match (self, ty) {
            (RedOp::Add | RedOp::BitOr | RedOp::BitXor | RedOp::Or, _) => {
                if float {
                    Literal::Float(0.0)
                } else {
                    Literal::Int(0)
                }
            }
            (RedOp::Mul | RedOp::And | RedOp::ComplexMul, _) => {
                if float {
                    Literal::Float(1.0)
                } else {
                    Literal::Int(1)
                }
            }
            (RedOp::BitAnd, _) => Literal::Int(-1),
            (RedOp::Max, Type::Float(_)) => Literal::Float(f64::NEG_INFINITY),
            (RedOp::Min, Type::Float(_)) => Literal::Float(f64::INFINITY),
            (RedOp::Max, Type::Int(k)) => Literal::Int(int_min(*k)),
            (RedOp::Min, Type::Int(k)) => Literal::Int(int_max(*k)),
            (RedOp::Max | RedOp::Min, _) => Literal::Int(0),
        }
    }
}

impl RedOp {
    /// The values one reduced element is made of: the two parts of a
    /// complex number for [`RedOp::ComplexMul`], else one.
    pub fn width(self) -> u64 {
        if self == RedOp::ComplexMul {
            2
        } else {
            1
        }
    }

    /// The identity of value `j` of an element (see [`RedOp::width`]): the
    /// imaginary part of the complex 1 is 0.
    pub fn identity_of(self, ty: &Type, j: u64) -> Literal {
        if self == RedOp::ComplexMul && j == 1 {
            return Literal::Float(0.0);
        }
        self.identity(ty)
    }
}

/// The least value of an integer kind (as a two's-complement pattern).
fn int_min(k: IntKind) -> i128 {
    if k.is_signed() {
        -(1i128 << (k.bits() - 1))
    } else {
        0
    }
}

/// The greatest value of an integer kind.
fn int_max(k: IntKind) -> i128 {
    if k.is_signed() {
        (1i128 << (k.bits() - 1)) - 1
    } else {
        (1i128 << k.bits()) - 1
    }
}

/// Where a reduction's result goes.
#[derive(Clone, Debug, PartialEq)]
pub enum RedTarget {
    /// A local of the code around the loop (a gang-private variable, or
    /// the private copy of an enclosing reduction): after the loop every
    /// thread that ran it holds `target op Σ`.
    Local(LocalId),
    /// Device memory: `ptr` (`ptr<T>`, evaluated after the loop) is the
    /// address of a variable that outlives the region. `*ptr = *ptr op Σ`
    /// happens once: by the last gang to finish when the loop is shared
    /// among gangs, else by one thread of the threads that ran the loop.
    Memory(ExprId),
}

/// One variable of a `reduction` clause on a loop.
#[derive(Clone, Debug, PartialEq)]
pub struct Reduction {
    pub op: RedOp,
    /// The private copy the loop body accumulates into (each thread's own):
    /// a scalar, or an array or struct whose `parts` are reduced.
    pub private: LocalId,
    pub target: RedTarget,
    /// The scalar elements reduced (each set to the operator's identity
    /// before the loop): for a scalar private, one part of one element at
    /// offset 0 of the private's type.
    pub parts: Vec<RedPart>,
}

/// A run of scalar elements of a reduction's private (and target) object:
/// `count` values of `ty` at byte offsets `offset + k * stride`.
#[derive(Clone, Debug, PartialEq)]
pub struct RedPart {
    pub offset: u64,
    pub ty: Type,
    pub count: u64,
    pub stride: u64,
}

impl Reduction {
    /// The scalar element type when the private is a scalar (one part of
    /// one element at offset 0 of the private's own type).
    pub fn scalar(&self, private_ty: &Type) -> bool {
        matches!(self.parts.as_slice(), [p] if p.offset == 0 && p.count == 1 && &p.ty == private_ty)
    }

    /// The number of scalar elements reduced.
    pub fn elements(&self) -> u64 {
        self.parts.iter().map(|p| p.count).sum()
    }
}

/// Whether `ty` is a type a reduction may have: an integer (not `bool`)
/// or a float.
pub fn reducible(ty: &Type) -> bool {
    matches!(ty, Type::Int(k) if *k != IntKind::Bool)
        || matches!(ty, Type::Float(FloatKind::F32 | FloatKind::F64))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identities() {
        assert_eq!(RedOp::Max.identity(&Type::I32), Literal::Int(-(1 << 31)));
        assert_eq!(
            RedOp::Min.identity(&Type::Int(IntKind::U8)),
            Literal::Int(255)
        );
        assert_eq!(RedOp::Min.identity(&Type::I32), Literal::Int((1 << 31) - 1));
        assert_eq!(
            RedOp::Max.identity(&Type::Int(IntKind::U64)),
            Literal::Int(0)
        );
        assert_eq!(RedOp::Mul.identity(&Type::F64), Literal::Float(1.0));
        assert_eq!(
            RedOp::Max.identity(&Type::F64),
            Literal::Float(f64::NEG_INFINITY)
        );
        assert!(!RedOp::BitXor.applies_to(&Type::F64));
        assert!(RedOp::And.applies_to(&Type::F64));
        assert!(!RedOp::ComplexMul.applies_to(&Type::I32));
        assert_eq!(
            RedOp::ComplexMul.identity_of(&Type::F32, 0),
            Literal::Float(1.0)
        );
        assert_eq!(
            RedOp::ComplexMul.identity_of(&Type::F32, 1),
            Literal::Float(0.0)
        );
        assert_eq!((RedOp::ComplexMul.width(), RedOp::Mul.width()), (2, 1));
    }
}
