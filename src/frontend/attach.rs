//! Attaching directives to statements: each `#pragma acc` line applies to the
//! statement that follows it, also in un-braced positions
//! (`for (…)` ⏎ `#pragma acc loop` ⏎ `for (…)`).
//!
//! Owns: [`attach`]. May call: `pragma`.

use super::pragma::Pragma;
use lang_c::ast::*;
use lang_c::visit::{self, Visit};
use std::collections::HashMap;

/// Statement start offsets in source order (outer before inner on ties).
struct Starts(Vec<usize>);

impl<'ast> Visit<'ast> for Starts {
    fn visit_statement(&mut self, s: &'ast Statement, span: &'ast lang_c::span::Span) {
        self.0.push(span.start);
        visit::visit_statement(self, s, span);
    }
}

/// The result of attaching.
pub struct Attached {
    /// Statement start offset → indices of the pragmas attached to it, in order.
    pub by_stmt: HashMap<usize, Vec<usize>>,
    /// Pragmas followed by no statement (at file scope, before `}`, or before
    /// a declaration).
    pub unattached: Vec<usize>,
}

/// Attaches every pragma to the first statement that begins after it, when
/// only white space and preprocessor lines separate them.
pub fn attach(text: &str, unit: &TranslationUnit, pragmas: &[Pragma]) -> Attached {
    let mut starts = Starts(vec![]);
    starts.visit_translation_unit(unit);
    let mut s = starts.0;
    s.sort(); // stable: preorder kept among equal starts
    let mut by_stmt: HashMap<usize, Vec<usize>> = HashMap::new();
    let mut unattached = vec![];
    for (i, p) in pragmas.iter().enumerate() {
        let next = s.partition_point(|&x| x < p.end);
        let ok = s.get(next).filter(|&&st| only_blank(&text[p.end..st]));
        match ok {
            Some(&st) => by_stmt.entry(st).or_default().push(i),
            None => unattached.push(i),
        }
    }
    Attached {
        by_stmt,
        unattached,
    }
}

/// True when `between` holds only white space and `#` lines.
fn only_blank(between: &str) -> bool {
    between.lines().all(|l| {
        let t = l.trim();
        t.is_empty() || t.starts_with('#')
    })
}
