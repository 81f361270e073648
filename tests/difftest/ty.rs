//! The C arithmetic types of generated programs and C's conversion rules for them,
//! for LP64 (x86-64 Linux, and accc's device code, whose layouts follow the host's).

/// An arithmetic C type. Plain `char` is left out (its signedness is the target's).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Ty {
    SChar,
    UChar,
    Short,
    UShort,
    Int,
    UInt,
    Long,
    ULong,
    LLong,
    ULLong,
    Float,
    Double,
}

impl Ty {
    pub const ALL: [Ty; 12] = [
        Ty::SChar,
        Ty::UChar,
        Ty::Short,
        Ty::UShort,
        Ty::Int,
        Ty::UInt,
        Ty::Long,
        Ty::ULong,
        Ty::LLong,
        Ty::ULLong,
        Ty::Float,
        Ty::Double,
    ];

    /// The integer types.
    pub const INTS: [Ty; 10] = [
        Ty::SChar,
        Ty::UChar,
        Ty::Short,
        Ty::UShort,
        Ty::Int,
        Ty::UInt,
        Ty::Long,
        Ty::ULong,
        Ty::LLong,
        Ty::ULLong,
    ];

    /// The C spelling.
    pub fn name(self) -> &'static str {
        match self {
            Ty::SChar => "signed char",
            Ty::UChar => "unsigned char",
            Ty::Short => "short",
            Ty::UShort => "unsigned short",
            Ty::Int => "int",
            Ty::UInt => "unsigned",
            Ty::Long => "long",
            Ty::ULong => "unsigned long",
            Ty::LLong => "long long",
            Ty::ULLong => "unsigned long long",
            Ty::Float => "float",
            Ty::Double => "double",
        }
    }

    pub fn is_float(self) -> bool {
        matches!(self, Ty::Float | Ty::Double)
    }

    /// A signed integer type.
    pub fn is_signed(self) -> bool {
        matches!(self, Ty::SChar | Ty::Short | Ty::Int | Ty::Long | Ty::LLong)
    }

    pub fn bits(self) -> u32 {
        match self {
            Ty::SChar | Ty::UChar => 8,
            Ty::Short | Ty::UShort => 16,
            Ty::Int | Ty::UInt | Ty::Float => 32,
            Ty::Long | Ty::ULong | Ty::LLong | Ty::ULLong | Ty::Double => 64,
        }
    }

    /// `sizeof`.
    pub fn size(self) -> i128 {
        i128::from(self.bits() / 8)
    }

    /// Significand bits of a floating type (24, 53).
    pub fn precision(self) -> i32 {
        if self == Ty::Float {
            24
        } else {
            53
        }
    }

    /// Integer conversion rank (C11 6.3.1.1).
    fn rank(self) -> u32 {
        match self {
            Ty::SChar | Ty::UChar => 1,
            Ty::Short | Ty::UShort => 2,
            Ty::Int | Ty::UInt => 3,
            Ty::Long | Ty::ULong => 4,
            _ => 5,
        }
    }

    /// Smallest value of an integer type.
    pub fn min_int(self) -> i128 {
        if self.is_signed() {
            -(1i128 << (self.bits() - 1))
        } else {
            0
        }
    }

    /// Largest value of an integer type.
    pub fn max_int(self) -> i128 {
        if self.is_signed() {
            (1i128 << (self.bits() - 1)) - 1
        } else {
            (1i128 << self.bits()) - 1
        }
    }

    /// The macro naming the smallest value of a signed type of rank >= int.
    pub fn min_macro(self) -> &'static str {
        match self {
            Ty::Int => "INT_MIN",
            Ty::Long => "LONG_MIN",
            _ => "LLONG_MIN",
        }
    }

    /// Integer promotion: char and short become int.
    pub fn promote(self) -> Ty {
        match self {
            Ty::SChar | Ty::UChar | Ty::Short | Ty::UShort => Ty::Int,
            t => t,
        }
    }

    /// The unsigned type of the same width, after promotion.
    pub fn to_unsigned(self) -> Ty {
        match self.promote() {
            Ty::Int => Ty::UInt,
            Ty::Long => Ty::ULong,
            Ty::LLong => Ty::ULLong,
            t => t,
        }
    }

    /// A short tag for names (`sc`, `ull`, `d`, ...).
    pub fn tag(self) -> &'static str {
        match self {
            Ty::SChar => "sc",
            Ty::UChar => "uc",
            Ty::Short => "s",
            Ty::UShort => "us",
            Ty::Int => "i",
            Ty::UInt => "u",
            Ty::Long => "l",
            Ty::ULong => "ul",
            Ty::LLong => "ll",
            Ty::ULLong => "ull",
            Ty::Float => "f",
            Ty::Double => "d",
        }
    }
}

/// The usual arithmetic conversions (C11 6.3.1.8): the type `a op b` is computed in.
pub fn usual(a: Ty, b: Ty) -> Ty {
    if a == Ty::Double || b == Ty::Double {
        return Ty::Double;
    }
    if a == Ty::Float || b == Ty::Float {
        return Ty::Float;
    }
    let (a, b) = (a.promote(), b.promote());
    if a == b {
        return a;
    }
    if a.is_signed() == b.is_signed() {
        return if a.rank() >= b.rank() { a } else { b };
    }
    let (s, u) = if a.is_signed() { (a, b) } else { (b, a) };
    if u.rank() >= s.rank() {
        u
    } else if s.max_int() >= u.max_int() {
        s
    } else {
        s.to_unsigned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usual_conversions_on_lp64() {
        assert_eq!(usual(Ty::SChar, Ty::UShort), Ty::Int);
        assert_eq!(usual(Ty::Int, Ty::UInt), Ty::UInt);
        assert_eq!(usual(Ty::Long, Ty::UInt), Ty::Long);
        assert_eq!(usual(Ty::LLong, Ty::ULong), Ty::ULLong);
        assert_eq!(usual(Ty::ULLong, Ty::Float), Ty::Float);
        assert_eq!(usual(Ty::Float, Ty::Double), Ty::Double);
        assert_eq!(Ty::Short.min_int(), -32768);
        assert_eq!(Ty::ULong.max_int(), u64::MAX as i128);
    }
}
