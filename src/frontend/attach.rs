//! Attaching directives to statements and declarations: each `#pragma acc`
//! line applies to the statement that follows it, also in un-braced
//! positions (`for (…)` ⏎ `#pragma acc loop` ⏎ `for (…)`), or to the
//! declaration or function definition that follows it (`routine`).
//!
//! Owns: [`attach`]. May call: `pragma`.

use super::pragma::Pragma;
use lang_c::ast::*;
use lang_c::visit::{self, Visit};
use std::collections::HashMap;

/// Statement start offsets in source order (outer before inner on ties),
/// and declaration start offsets (file-scope declarations, function
/// definitions, block-scope declarations).
struct Starts(Vec<usize>, Vec<usize>);

impl<'ast> Visit<'ast> for Starts {
    fn visit_statement(&mut self, s: &'ast Statement, span: &'ast lang_c::span::Span) {
        self.0.push(span.start);
        visit::visit_statement(self, s, span);
    }

    fn visit_external_declaration(
        &mut self,
        d: &'ast ExternalDeclaration,
        span: &'ast lang_c::span::Span,
    ) {
        self.1.push(span.start);
        visit::visit_external_declaration(self, d, span);
    }

    fn visit_block_item(&mut self, b: &'ast BlockItem, span: &'ast lang_c::span::Span) {
        if let BlockItem::Declaration(_) = b {
            self.1.push(span.start);
        }
        visit::visit_block_item(self, b, span);
    }
}

/// The result of attaching.
pub struct Attached {
    /// Statement start offset → indices of the pragmas attached to it, in order.
    pub by_stmt: HashMap<usize, Vec<usize>>,
    /// Declaration (or function definition) start offset → indices of the
    /// pragmas attached to it, in order.
    pub by_decl: HashMap<usize, Vec<usize>>,
    /// Pragmas followed by neither (at the end of the file, before `}`).
    pub unattached: Vec<usize>,
}

/// Attaches every pragma to the first statement that begins after it, when
/// only white space and preprocessor lines separate them.
pub fn attach(text: &str, unit: &TranslationUnit, pragmas: &[Pragma]) -> Attached {
    let mut starts = Starts(vec![], vec![]);
    starts.visit_translation_unit(unit);
    let (mut s, mut d) = (starts.0, starts.1);
    s.sort(); // stable: preorder kept among equal starts
    d.sort();
    let mut by_stmt: HashMap<usize, Vec<usize>> = HashMap::new();
    let mut by_decl: HashMap<usize, Vec<usize>> = HashMap::new();
    let mut unattached = vec![];
    let next = |starts: &[usize], end: usize| {
        let k = starts.partition_point(|&x| x < end);
        starts
            .get(k)
            .copied()
            .filter(|&st| only_blank(&text[end..st]))
    };
    for (i, p) in pragmas.iter().enumerate() {
        match (next(&s, p.end), next(&d, p.end)) {
            (Some(st), _) => by_stmt.entry(st).or_default().push(i),
            (None, Some(dc)) => by_decl.entry(dc).or_default().push(i),
            (None, None) => unattached.push(i),
        }
    }
    Attached {
        by_stmt,
        by_decl,
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
