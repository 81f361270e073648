//! What generated code may use at a point of the program: scalars, arrays (and
//! which of their elements), routine functions, and the current iteration's index.

use super::span::Span;
use super::ty::Ty;

/// A scalar that may be read (and, if `mutable`, assigned).
#[derive(Clone, Debug)]
pub struct Scalar {
    /// How it is written: `l3`, `st0.m1`.
    pub text: String,
    /// The variable a read depends on: `l3`, `st0`.
    pub base: String,
    pub ty: Ty,
    /// Invariant: every value it holds lies in this span.
    pub span: Span,
    pub mutable: bool,
}

/// How an array is indexed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Shape {
    /// `a[N]`.
    Flat,
    /// `m[R][C]`.
    Grid,
    /// A local array `t[len]`.
    Local(i128),
}

/// Which elements of an array the current code may read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    No,
    /// Only the current iteration's element (it may be written by this loop).
    Own,
    /// Any element.
    Any,
}

#[derive(Clone, Debug)]
pub struct ArrayView {
    pub name: String,
    pub ty: Ty,
    /// Invariant of every element.
    pub span: Span,
    pub shape: Shape,
    pub read: Access,
    /// The current iteration's element may be written (local arrays: any element).
    pub write: bool,
}

/// The current iteration's element: `a[flat]` and `m[row][col]`.
#[derive(Clone, Debug)]
pub struct Own {
    pub flat: String,
    pub row: String,
    pub col: String,
}

/// A `#pragma acc routine seq` function.
#[derive(Clone, Debug)]
pub struct Func {
    pub name: String,
    pub ret: Ty,
    /// Span of the result.
    pub span: Span,
    /// Parameter types and the spans their arguments must lie in.
    pub params: Vec<(Ty, Span)>,
}

#[derive(Clone, Debug, Default)]
pub struct Env {
    pub scalars: Vec<Scalar>,
    pub arrays: Vec<ArrayView>,
    pub own: Option<Own>,
    pub funcs: Vec<Func>,
    /// Values of the macros N, R, C (N = R * C).
    pub n: i128,
    pub r: i128,
    pub c: i128,
}
