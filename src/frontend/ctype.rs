//! C types as sema sees them, and their mapping to IR types.
//!
//! Owns: [`CType`], function signatures ([`FnType`]), variable-length array
//! lengths ([`VlaLen`]), sizes and alignments (x86-64 SysV) and
//! [`CType::to_ir`] (values) / [`CType::mem_ir`] (objects in memory): a
//! `long double` value is an IR `f64` but its object the host's 16 bytes of
//! x87 extended precision; a `_Complex` value is, like a struct, carried as
//! the address of its storage. Struct and union layouts live in
//! `record.rs`, the usual arithmetic conversions in `conv.rs`.

use super::record::StructRef;
use crate::ir::{FloatKind, IntKind, LocalId, Type};
use lang_c::ast::Expression;
use lang_c::span::Node;
use std::rc::Rc;

/// The length of a variable-length array dimension.
#[derive(Clone, Debug, PartialEq)]
pub enum VlaLen {
    /// As declared: the element count is this expression, evaluated in the
    /// scope of the declaration (host code, or a device function's
    /// parameters).
    Expr(Rc<Node<Expression>>),
    /// Inside device code: the whole array's size in bytes is held by this
    /// local (a kernel parameter the host computed with `sizeof`, or a local
    /// a device function computed on entry).
    Bytes(LocalId),
}

/// A function's signature.
#[derive(Clone, Debug, PartialEq)]
pub struct FnType {
    pub ret: CType,
    /// Parameter types after adjustment (arrays and functions become
    /// pointers); `None` for a function declared without a prototype.
    pub params: Option<Vec<CType>>,
    /// Ends with `...`.
    pub variadic: bool,
}

/// A C object or function type (qualifiers dropped: they do not change code).
#[derive(Clone, Debug, PartialEq)]
pub enum CType {
    Void,
    /// `_Bool`: one byte holding 0 or 1.
    Bool,
    /// `char` … `unsigned long long`; enums are `int`.
    Int(IntKind),
    Float(FloatKind),
    /// `long double`: on the host the x87 80-bit extended format in 16
    /// bytes (x86-64 SysV). Device code computes with it in double
    /// precision (as nvc does); reading and writing its memory converts
    /// exactly (`lower::x87`).
    LongDouble,
    /// `_Complex T` for a real floating `T` (`float`, `double` or `long
    /// double`): two `T`, the real part first. A value of it is carried as
    /// the address of its storage, as a struct's is (`lower::complex`).
    Complex(Box<CType>),
    Ptr(Box<CType>),
    /// An array of constant length; `None` when the length is not given
    /// (`extern double u[];`, an incomplete type).
    Array(Box<CType>, Option<u64>),
    /// A variable-length array (C99 6.7.6.2).
    Vla(Box<CType>, VlaLen),
    /// A function designator (only callable, never a value in device code).
    Function(Box<FnType>),
    /// A struct or union.
    Struct(StructRef),
    /// A type accc does not compile for the device (`long double`,
    /// `_Complex`, …), named for messages; an error only when device code
    /// uses it.
    Unsupported(String),
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

    /// True for the real arithmetic types (integers and real floating
    /// types), whose values are one IR scalar. C counts the complex types
    /// as arithmetic too: see [`CType::is_complex`].
    pub fn is_arithmetic(&self) -> bool {
        self.is_integer() || self.is_floating()
    }

    /// True for the real floating types (`float`, `double`, `long double`).
    pub fn is_floating(&self) -> bool {
        matches!(self, CType::Float(_) | CType::LongDouble)
    }

    /// True for the complex types.
    pub fn is_complex(&self) -> bool {
        matches!(self, CType::Complex(_))
    }

    /// C's arithmetic types: the real ones and the complex ones.
    pub fn is_c_arithmetic(&self) -> bool {
        self.is_arithmetic() || self.is_complex()
    }

    /// The real type of a complex type (its parts), or the type itself.
    pub fn real(&self) -> CType {
        match self {
            CType::Complex(t) => (**t).clone(),
            t => t.clone(),
        }
    }

    /// True when a value of this type is carried as the address of its
    /// storage (structs and unions, complex numbers).
    pub fn by_address(&self) -> bool {
        matches!(self, CType::Struct(_) | CType::Complex(_))
    }

    /// True for scalar types (arithmetic or pointer).
    pub fn is_scalar(&self) -> bool {
        self.is_arithmetic() || matches!(self, CType::Ptr(_))
    }

    /// True for arrays of any kind.
    pub fn is_array(&self) -> bool {
        matches!(self, CType::Array(..) | CType::Vla(..))
    }

    /// The element type of a pointer or array.
    pub fn element(&self) -> Option<&CType> {
        match self {
            CType::Ptr(t) | CType::Array(t, _) | CType::Vla(t, _) => Some(t),
            _ => None,
        }
    }

    /// Array-to-pointer and function-to-pointer decay.
    pub fn decay(&self) -> CType {
        match self {
            CType::Array(t, _) | CType::Vla(t, _) => CType::Ptr(t.clone()),
            CType::Function(_) => CType::Ptr(Box::new(self.clone())),
            t => t.clone(),
        }
    }

    /// True when the type's size is known only at run time (it is or holds
    /// a variable-length array).
    pub fn runtime_sized(&self) -> bool {
        match self {
            CType::Vla(..) => true,
            CType::Array(t, _) => t.runtime_sized(),
            _ => false,
        }
    }

    /// True when the type is or points to a type of run-time size (a
    /// variable-length array parameter is a pointer to one).
    pub fn has_vla(&self) -> bool {
        match self {
            CType::Ptr(t) => t.has_vla(),
            t => t.runtime_sized(),
        }
    }

    /// Size in bytes; `None` for incomplete and variable-length types.
    pub fn size(&self) -> Option<u64> {
        Some(match self {
            CType::Void | CType::Function(_) | CType::Unsupported(_) | CType::Vla(..) => {
                return None
            }
            CType::Bool => 1,
            CType::Int(k) => u64::from(k.bits() / 8),
            CType::Float(FloatKind::F32) => 4,
            CType::Float(FloatKind::F64) => 8,
            CType::LongDouble => 16,
            CType::Complex(t) => 2 * t.size()?,
            CType::Ptr(_) => 8,
            CType::Array(t, n) => t.size()?.checked_mul((*n)?)?,
            CType::Struct(s) => return s.layout().map(|l| l.size),
        })
    }

    /// Alignment in bytes; `None` for incomplete types.
    pub fn align(&self) -> Option<u64> {
        match self {
            CType::Array(t, _) | CType::Vla(t, _) | CType::Complex(t) => t.align(),
            CType::Struct(s) => s.layout().map(|l| l.align),
            CType::LongDouble => Some(16),
            t => t.size().map(|s| s.clamp(1, 8)),
        }
    }

    /// The IR type of a value or object of this type: scalars as
    /// themselves (`long double` as `f64`), constant arrays as arrays of
    /// their elements' objects, structs and complex numbers as blobs.
    /// `None` for types device code cannot hold (VLAs, functions,
    /// incomplete types).
    pub fn to_ir(&self) -> Option<Type> {
        Some(match self {
            CType::Void => Type::Void,
            CType::Bool => Type::Int(IntKind::U8),
            CType::Int(k) => Type::Int(*k),
            CType::Float(k) => Type::Float(*k),
            CType::LongDouble => Type::F64,
            CType::Complex(_) => Type::Blob {
                size: self.size()?,
                align: self.align()?,
            },
            CType::Ptr(t) => t.pointee_ir()?.ptr_to(),
            CType::Array(t, Some(n)) => Type::Array(Box::new(t.mem_ir()?), *n),
            CType::Array(_, None) | CType::Vla(..) => return None,
            CType::Struct(s) => {
                let l = s.layout()?;
                Type::Blob {
                    size: l.size,
                    align: l.align,
                }
            }
            CType::Function(_) | CType::Unsupported(_) => return None,
        })
    }

    /// The IR type of an object of this type in memory: as [`Self::to_ir`]
    /// but for `long double`, whose object is the host's 16 bytes.
    pub fn mem_ir(&self) -> Option<Type> {
        match self {
            CType::LongDouble => Some(Type::Blob {
                size: 16,
                align: 16,
            }),
            t => t.to_ir(),
        }
    }

    /// The IR type of a pointer to an object of this type (arrays: to their
    /// first element).
    pub fn decay_or_pointer_ir(&self) -> Option<Type> {
        if self.is_array() {
            self.decay().to_ir()
        } else {
            self.pointee_ir().map(|t| t.ptr_to())
        }
    }

    /// The IR pointee type of a pointer to this type. Pointers to arrays of
    /// unknown or run-time length point at their first element (address
    /// arithmetic on them is done in bytes); `void *` is a byte pointer.
    pub fn pointee_ir(&self) -> Option<Type> {
        match self {
            CType::Void => Some(Type::Int(IntKind::U8)),
            CType::Array(t, None) | CType::Vla(t, _) => t.pointee_ir(),
            CType::Array(t, Some(_)) if t.runtime_sized() => t.pointee_ir(),
            CType::Function(_) => Some(Type::Int(IntKind::U8)),
            CType::Struct(s) if s.layout().is_none() => Some(Type::Int(IntKind::U8)),
            t => t.mem_ir(),
        }
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
            CType::LongDouble => write!(f, "long double"),
            CType::Complex(t) => write!(f, "_Complex {t}"),
            CType::Ptr(t) => write!(f, "{t} *"),
            CType::Array(t, Some(n)) => write!(f, "{t}[{n}]"),
            CType::Array(t, None) => write!(f, "{t}[]"),
            CType::Vla(t, _) => write!(f, "{t}[*]"),
            CType::Function(s) => write!(f, "{} (function)", s.ret),
            CType::Struct(s) => write!(f, "{}", s.name()),
            CType::Unsupported(n) => write!(f, "{n}"),
        }
    }
}
