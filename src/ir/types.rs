//! IR types: the C scalar types device code computes with, pointers into
//! device memory, and fixed-size arrays (for thread-private locals).
//!
//! Owns: [`Type`] and its size/alignment under the x86-64 SysV layout (the
//! device reads host bytes, so sizes must match the host exactly).

/// Width and signedness of an integer type. `Bool` is the 1-bit truth value
/// that comparisons produce; C's `_Bool` objects are `U8` in memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IntKind {
    /// 1-bit truth value (result of comparisons and logical operators).
    Bool,
    I8,
    U8,
    I16,
    U16,
    I32,
    U32,
    I64,
    U64,
}

impl IntKind {
    /// Width in bits.
    pub fn bits(self) -> u32 {
        match self {
            IntKind::Bool => 1,
            IntKind::I8 | IntKind::U8 => 8,
            IntKind::I16 | IntKind::U16 => 16,
            IntKind::I32 | IntKind::U32 => 32,
            IntKind::I64 | IntKind::U64 => 64,
        }
    }

    /// True for the signed kinds.
    pub fn is_signed(self) -> bool {
        matches!(
            self,
            IntKind::I8 | IntKind::I16 | IntKind::I32 | IntKind::I64
        )
    }

    /// The unsigned kind of the same width (`Bool` stays `Bool`).
    pub fn unsigned(self) -> IntKind {
        match self {
            IntKind::I8 => IntKind::U8,
            IntKind::I16 => IntKind::U16,
            IntKind::I32 => IntKind::U32,
            IntKind::I64 => IntKind::U64,
            k => k,
        }
    }

    /// True where `+`, `-` and `*` never overflow, as C promises for
    /// signed integers of `int` width or wider (C11 6.5p5: an overflow is
    /// undefined). Narrower signed kinds wrap: C computes their arithmetic
    /// in `int` and converts back, which lowering may fold into the kind.
    pub fn arith_never_overflows(self) -> bool {
        self.is_signed() && self.bits() >= 32
    }

    fn name(self) -> &'static str {
        match self {
            IntKind::Bool => "bool",
            IntKind::I8 => "i8",
            IntKind::U8 => "u8",
            IntKind::I16 => "i16",
            IntKind::U16 => "u16",
            IntKind::I32 => "i32",
            IntKind::U32 => "u32",
            IntKind::I64 => "i64",
            IntKind::U64 => "u64",
        }
    }
}

/// IEEE binary floating-point kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FloatKind {
    F32,
    F64,
}

/// The type of an IR value or local.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    /// No value (statements, calls of void functions).
    Void,
    /// An integer.
    Int(IntKind),
    /// A floating-point number.
    Float(FloatKind),
    /// A pointer to device (global) memory holding values of the pointee type.
    Ptr(Box<Type>),
    /// A fixed-size array: only as the type of a local (thread-private storage).
    Array(Box<Type>, u64),
    /// A C struct or union: `size` bytes aligned to `align` (a power of two,
    /// at most 16; `size` is a multiple of it). Only as the type of a local
    /// or a pointee: members are reached through byte offsets, whole values
    /// move with [`Stmt::Copy`](super::Stmt::Copy).
    Blob { size: u64, align: u64 },
}

impl Type {
    /// `int`.
    pub const I32: Type = Type::Int(IntKind::I32);
    /// `long` (LP64).
    pub const I64: Type = Type::Int(IntKind::I64);
    /// `unsigned long` / `size_t`.
    pub const U64: Type = Type::Int(IntKind::U64);
    /// The truth value.
    pub const BOOL: Type = Type::Int(IntKind::Bool);
    /// `float`.
    pub const F32: Type = Type::Float(FloatKind::F32);
    /// `double`.
    pub const F64: Type = Type::Float(FloatKind::F64);

    /// A pointer to `self`.
    pub fn ptr_to(&self) -> Type {
        Type::Ptr(Box::new(self.clone()))
    }

    /// The pointee of a pointer type.
    pub fn pointee(&self) -> Option<&Type> {
        match self {
            Type::Ptr(t) => Some(t),
            _ => None,
        }
    }

    /// Size in bytes (x86-64 SysV; pointers are 8 bytes).
    pub fn size(&self) -> u64 {
        match self {
            Type::Void => 0,
            Type::Int(IntKind::Bool) => 1,
            Type::Int(k) => u64::from(k.bits() / 8),
            Type::Float(FloatKind::F32) => 4,
            Type::Float(FloatKind::F64) => 8,
            Type::Ptr(_) => 8,
            Type::Array(t, n) => t.size().saturating_mul(*n),
            Type::Blob { size, .. } => *size,
        }
    }

    /// Alignment in bytes (x86-64 SysV: scalars are aligned to their size,
    /// arrays to their element, blobs as recorded).
    pub fn align(&self) -> u64 {
        match self {
            Type::Array(e, _) => e.align(),
            Type::Blob { align, .. } => *align,
            t => t.size().clamp(1, 8),
        }
    }

    /// True for integers (including the truth value).
    pub fn is_int(&self) -> bool {
        matches!(self, Type::Int(_))
    }

    /// True for floating-point types.
    pub fn is_float(&self) -> bool {
        matches!(self, Type::Float(_))
    }
}

impl std::fmt::Display for Type {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Type::Void => write!(f, "void"),
            Type::Int(k) => write!(f, "{}", k.name()),
            Type::Float(FloatKind::F32) => write!(f, "f32"),
            Type::Float(FloatKind::F64) => write!(f, "f64"),
            Type::Ptr(t) => write!(f, "ptr<{t}>"),
            Type::Array(t, n) => write!(f, "[{t}; {n}]"),
            Type::Blob { size, align } => write!(f, "blob<{size}, {align}>"),
        }
    }
}
