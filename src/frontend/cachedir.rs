//! The `cache` directives of a unit, by the statement or declaration they
//! head: lowering records the variables of one at the top of a counted
//! loop's body on the loop (`lower/cache.rs`), reports one heading any
//! other statement of device code, and remarks on one it cannot use.
//!
//! Owns: [`CacheDir`], [`specs`]. May call: `directive`, `parsed`'s data.

use super::attach::Attached;
use super::pragma::Pragma;
use super::source::SourceMap;
use crate::directive::{Directive, DirectiveKind, VarRef};
use crate::ir::SrcLoc;
use std::collections::HashMap;

/// One `cache(…)` directive.
#[derive(Clone, Debug)]
pub struct CacheDir {
    /// `readonly:` was written.
    pub readonly: bool,
    /// Its variables, each with where it is written.
    pub vars: Vec<(VarRef, SrcLoc)>,
    /// Where the directive's name is.
    pub loc: SrcLoc,
}

/// Every `cache` directive, by the start of the statement or declaration
/// it is attached to (in source order where several head one).
pub fn specs(
    sm: &SourceMap,
    pragmas: &[Pragma],
    dirs: &[Directive],
    att: &Attached,
) -> HashMap<usize, Vec<CacheDir>> {
    let mut out: HashMap<usize, Vec<CacheDir>> = HashMap::new();
    for (&start, idx) in att.by_stmt.iter().chain(&att.by_decl) {
        for &i in idx {
            let (Some(d), Some(p)) = (dirs.get(i), pragmas.get(i)) else {
                continue;
            };
            if let DirectiveKind::Cache { readonly, vars } = &d.kind {
                let at = |o: usize| sm.loc(p.text_start + o);
                out.entry(start).or_default().push(CacheDir {
                    readonly: *readonly,
                    vars: vars.iter().map(|v| (v.clone(), at(v.span.start))).collect(),
                    loc: at(d.kind_span.start),
                });
            }
        }
    }
    for v in out.values_mut() {
        v.sort_by_key(|d| (d.loc.line, d.loc.col));
    }
    out
}
