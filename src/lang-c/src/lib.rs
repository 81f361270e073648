//! C language parser and abstract syntax tree
//!
//! ```
//! use lang_c::driver::{Config, parse};
//!
//! fn main() {
//!     let config = Config::default();
//!     println!("{:?}", parse(&config, "example.c"));
//! }
//! ```

#![allow(deprecated)]
#![allow(ellipsis_inclusive_range_patterns)]
#![allow(unknown_lints, mismatched_lifetime_syntaxes)]
// Upstream code, generated in part: not held to accc's lints.
#![allow(clippy::all)]

#[rustfmt::skip]
pub mod ast;
#[rustfmt::skip]
pub mod driver;
#[rustfmt::skip]
pub mod loc;
#[rustfmt::skip]
pub mod print;
#[rustfmt::skip]
pub mod span;
#[rustfmt::skip]
pub mod visit;

#[rustfmt::skip]
mod astutil;
#[rustfmt::skip]
mod env;
#[rustfmt::skip]
mod fxhash;
#[rustfmt::skip]
mod parser;
/// The reserved words of C11 and of GNU C (accc's fork: public, for
/// accc's name legaliser).
#[rustfmt::skip]
pub mod strings;

/// One external declaration at a time (accc's fork).
pub use parser::gnu::{SyntaxError, UnitParser};
