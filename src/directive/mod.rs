//! OpenACC 3.3 directive grammar for C: the text after `#pragma acc` → a typed
//! [`Directive`] AST, with clause validation.
//!
//! Owns: the directive and clause grammar ([`parse`]), the AST types, the
//! per-directive clause rules of the spec (allowed clauses, clauses allowed
//! after `device_type`, at-most-once clauses, mutually exclusive and required
//! clauses), and the canonical text form (`Display`). May call: nothing else in
//! accc. C expressions inside clauses are not parsed here: each is kept as a
//! [`ClauseExpr`] (exact source text and span) for the front end's C parser.
//! Every span and error offset is a byte offset into the text given to
//! [`parse`]; the front end adds the pragma's position.
//!
//! Files: `ast.rs` (types), `names.rs` (spellings, [`ClauseName`]),
//! `cursor.rs` (scanner, expression capture), `varref.rs` (var-lists),
//! `clause.rs` (clause arguments), `parser.rs` (directive names, clause list),
//! `rules.rs` (validation), `display.rs` (canonical text), `error.rs`.

mod ast;
mod clause;
mod cursor;
mod display;
mod error;
mod names;
mod parser;
mod rules;
mod varref;

#[cfg(test)]
mod tests;

pub use ast::{
    Access, AtomicKind, BindName, Clause, ClauseExpr, ClauseKind, DataClause, DataKind,
    DataSpelling, DefaultKind, DeviceTypeList, Directive, DirectiveKind, GangArgs, Ident,
    ReductionOp, SizeExpr, Span, VarRef, WaitArg,
};
pub use error::DirectiveError;
pub use names::{directive_name, ClauseName};

/// Parses the text of one directive line, i.e. what follows `#pragma acc` (already
/// macro-expanded by the preprocessor; may contain line continuations already joined).
/// Offsets in the result and in errors are byte offsets into `text`.
pub fn parse(text: &str) -> Result<Directive, DirectiveError> {
    parser::parse_directive(text)
}
