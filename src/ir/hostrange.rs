//! Host ranges: the addresses and byte counts of data the host plan maps,
//! updates and passes to kernels, as small typed forms rather than C
//! text, so a pass can tell a whole variable from a section or an
//! implicit section and split a range into chunks without re-parsing C.
//! Only the user's objects ([`Lvalue`]) and counts ([`Scaled::count`])
//! are C text.
//!
//! Owns: [`Lvalue`], [`Scaled`], [`HostAddr`], [`HostBytes`]. May call:
//! nothing outside `ir`. The front end builds them (`frontend::clauses`,
//! `frontend::implicit`, `frontend::data`); `codegen::host` renders them.

use super::UserExpr;

/// An object of the user's program named in C, as the host sees it in the
/// construct's scope: a variable, a member, an element (`a`, `(s).p`,
/// `(a)[(i)]`, `((p)[0])[0]`), built from names and checked clause
/// expressions. It stands for the object (under `&` and `sizeof`) or, for
/// a pointer or an array, for its value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lvalue(pub String);

impl Lvalue {
    /// The variable `name`.
    pub fn var(name: &str) -> Lvalue {
        Lvalue(name.to_string())
    }
}

/// `count * sizeof(elem)`, in the type of `count` (a number of bytes when
/// `elem` is `None`). `elem` is only measured, never evaluated.
#[derive(Clone, Debug, PartialEq)]
pub struct Scaled {
    pub count: UserExpr,
    pub elem: Option<Lvalue>,
}

/// An address the host computes (a `const void *` for the runtime).
#[derive(Clone, Debug, PartialEq)]
pub enum HostAddr {
    /// The address of the object: `&lv`.
    Of(Lvalue),
    /// The value of the pointer or array `lv`.
    Value(Lvalue),
    /// `by` bytes past the target of pointer `ptr`, in integer arithmetic
    /// (the address may lie outside the object); a null `ptr` stays null.
    /// An implicit section's start.
    Offset { ptr: Lvalue, by: Scaled },
    /// The sum of the terms as an integer, passed where an address goes:
    /// the byte offset of each row from its pointer's target, in a
    /// [`MapKind::Rows`] map (`0` when empty).
    ///
    /// [`MapKind::Rows`]: super::host::MapKind::Rows
    Bytes(Vec<Scaled>),
}

/// A length in bytes the host computes (an `unsigned long`).
#[derive(Clone, Debug, PartialEq)]
pub enum HostBytes {
    /// None: a bare pointer standing for its present block.
    Zero,
    /// `sizeof(lv)`: the whole object.
    SizeOf(Lvalue),
    /// A section's length.
    Scaled(Scaled),
}
