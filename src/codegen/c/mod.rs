//! The C-text writer every back end that writes C shares (the host
//! rewrite today; the CUDA-C and host-C writers of the same IR later):
//! expressions as trees written with C's precedence ([`CExpr`]), literals
//! ([`lit`]), statement layout ([`CWriter`]) and the name legaliser
//! ([`Namer`]). No back end formats a C operator, literal or identifier
//! of its own.
//!
//! Owns: the modules below. May call: nothing outside it.

mod expr;
pub mod lit;
mod names;
mod writer;

pub use expr::{CBinOp, CExpr, CUnOp};
pub use lit::c_str;
pub use names::{is_keyword, Namer};
pub use writer::{CWriter, Layout};
