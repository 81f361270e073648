//! The host plan: what the host rewrite must splice into the preprocessed
//! text for each construct (data movement, kernel arguments, launch), as
//! decided by the front end. Host code stays C text: every expression here
//! is C source evaluated in the construct's scope.
//!
//! Owns: [`HostPlan`], [`Construct`], [`HostMap`], [`HostArg`].

use super::SrcLoc;
use std::ops::Range;

/// Data clause kinds, numbered as `enum __ptxrt_map_kind` in `ptxrt.h`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MapKind {
    Copy = 0,
    CopyIn = 1,
    CopyOut = 2,
    Create = 3,
    Present = 4,
}

/// One data clause item (or an implicit one): a contiguous host range.
#[derive(Clone, Debug, PartialEq)]
pub struct HostMap {
    /// As written (`a[0:n]`), for runtime messages.
    pub name: String,
    /// C expression: address of the first byte.
    pub start: String,
    /// C expression: length in bytes.
    pub bytes: String,
    pub kind: MapKind,
}

/// How the host passes one kernel parameter.
#[derive(Clone, Debug, PartialEq)]
pub enum HostArg {
    /// The address of a host variable whose value is passed (firstprivate).
    Value { var: String },
    /// A byte size (`unsigned long`): the C expression `expr` (a `sizeof`
    /// of a variable-length array), evaluated at the construct.
    Size { expr: String },
    /// The device address of the host address `ptr` (C expression: a
    /// pointer's value, an array, or `&scalar`), found through the present
    /// table; `section` is the C expression of an address inside the mapped
    /// range when a clause maps it with a section. `name` is for messages.
    DevicePtr {
        name: String,
        ptr: String,
        section: Option<String>,
    },
}

/// What a construct is.
#[derive(Clone, Debug, PartialEq)]
pub enum ConstructKind {
    /// A compute construct outlined as kernel number `kernel` of the module.
    Compute { kernel: usize, args: Vec<HostArg> },
    /// A `data` construct.
    Data,
}

/// One construct to rewrite.
#[derive(Clone, Debug, PartialEq)]
pub struct Construct {
    pub kind: ConstructKind,
    /// As written: "parallel loop", "data", ...
    pub name: String,
    pub loc: SrcLoc,
    /// Byte range of the statement the directive applies to.
    pub stmt: Range<usize>,
    /// The `if` clause's condition (C text), if any.
    pub cond: Option<String>,
    /// Data clause items, in clause order (implicit ones last).
    pub maps: Vec<HostMap>,
}

/// All constructs of a translation unit, ordered by statement start; when two
/// constructs apply to one statement the outer comes first.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct HostPlan {
    pub constructs: Vec<Construct>,
}
