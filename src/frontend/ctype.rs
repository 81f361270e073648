//! C types as sema sees them, and their mapping to IR types.
//!
//! Owns: [`CType`], sizes (x86-64 SysV) and [`CType::to_ir`]. The usual
//! arithmetic conversions live in `conv.rs`, not here.

use crate::ir::{FloatKind, IntKind, Type};

/// A C object or function type (qualifiers dropped: they do not change code).
#[derive(Clone, Debug, PartialEq)]
pub enum CType {
    Void,
    /// `_Bool`: one byte holding 0 or 1.
    Bool,
    /// `char` … `unsigned long long`; enums are `int`.
    Int(IntKind),
    Float(FloatKind),
    Ptr(Box<CType>),
    /// An array; `None` when the size is unknown or not constant (VLA).
    Array(Box<CType>, Option<u64>),
    /// A function designator (only callable, never a value in device code).
    Function(Box<CType>),
    /// A struct or union (named for messages); not usable in regions yet.
    Aggregate(String),
}

impl CType {
    /// `int`.
    pub const INT: CType = CType::Int(IntKind::I32);
    /// `long`.
    pub const LONG: CType = CType::Int(IntKind::I64);
    /// `unsigned long` (`size_t`).
    pub const ULONG: CType = CType::Int(IntKind::U64);
    /// `double`.
    pub const DOUBLE: CType = CType::Float(FloatKind::F64);

    /// True for integer types (including `_Bool`).
    pub fn is_integer(&self) -> bool {
        matches!(self, CType::Int(_) | CType::Bool)
    }

    /// True for arithmetic types.
    pub fn is_arithmetic(&self) -> bool {
        self.is_integer() || matches!(self, CType::Float(_))
    }

    /// True for scalar types (arithmetic or pointer).
    pub fn is_scalar(&self) -> bool {
        self.is_arithmetic() || matches!(self, CType::Ptr(_))
    }

    /// The element type of a pointer or array.
    pub fn element(&self) -> Option<&CType> {
        match self {
            CType::Ptr(t) | CType::Array(t, _) => Some(t),
            _ => None,
        }
    }

    /// Array-to-pointer and function-to-pointer decay.
    pub fn decay(&self) -> CType {
        match self {
            CType::Array(t, _) => CType::Ptr(t.clone()),
            CType::Function(_) => CType::Ptr(Box::new(self.clone())),
            t => t.clone(),
        }
    }

    /// Size in bytes; `None` for incomplete types.
    pub fn size(&self) -> Option<u64> {
        Some(match self {
            CType::Void | CType::Function(_) | CType::Aggregate(_) => return None,
            CType::Bool => 1,
            CType::Int(k) => u64::from(k.bits() / 8),
            CType::Float(FloatKind::F32) => 4,
            CType::Float(FloatKind::F64) => 8,
            CType::Ptr(_) => 8,
            CType::Array(t, n) => t.size()?.checked_mul((*n)?)?,
        })
    }

    /// The IR type of a value of this type (arrays: the storage type).
    pub fn to_ir(&self) -> Option<Type> {
        Some(match self {
            CType::Void => Type::Void,
            CType::Bool => Type::Int(IntKind::U8),
            CType::Int(k) => Type::Int(*k),
            CType::Float(k) => Type::Float(*k),
            CType::Ptr(t) => match &**t {
                CType::Void => Type::Int(IntKind::U8).ptr_to(),
                t => t.to_ir()?.ptr_to(),
            },
            CType::Array(t, Some(n)) => Type::Array(Box::new(t.to_ir()?), *n),
            CType::Array(t, None) => t.to_ir()?.ptr_to(),
            CType::Function(_) | CType::Aggregate(_) => return None,
        })
    }
}

impl std::fmt::Display for CType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CType::Void => write!(f, "void"),
            CType::Bool => write!(f, "_Bool"),
            CType::Int(k) => write!(
                f,
                "{}",
                match k {
                    IntKind::Bool => "_Bool",
                    IntKind::I8 => "char",
                    IntKind::U8 => "unsigned char",
                    IntKind::I16 => "short",
                    IntKind::U16 => "unsigned short",
                    IntKind::I32 => "int",
                    IntKind::U32 => "unsigned int",
                    IntKind::I64 => "long",
                    IntKind::U64 => "unsigned long",
                }
            ),
            CType::Float(FloatKind::F32) => write!(f, "float"),
            CType::Float(FloatKind::F64) => write!(f, "double"),
            CType::Ptr(t) => write!(f, "{t} *"),
            CType::Array(t, Some(n)) => write!(f, "{t}[{n}]"),
            CType::Array(t, None) => write!(f, "{t}[]"),
            CType::Function(r) => write!(f, "{r} (function)"),
            CType::Aggregate(n) => write!(f, "{n}"),
        }
    }
}
