//! Loop-nesting facts of the candidate loops (`loops`), read on the C AST
//! (lowering records them): the loops a loop collapses ([`collapsed_loops`]),
//! the body that runs in every iteration ([`body_of`]), and whether a loop
//! is reached from another through nothing but declarations and loops
//! ([`tightly_nested`], for the `kernels` mappings).
//!
//! (What a partitioned loop does with the scalars of the scope around it,
//! beyond its clauses — automatic privates, implicit reductions, the race
//! warnings — is decided on the IR: `schedule::auto_privates`,
//! `schedule::implicit_reductions`.)
//!
//! Owns: [`collapsed_loops`], [`body_of`], [`tightly_nested`]. May call:
//! `canon`, `effects`, `loops` (its types).

use super::loops::Cand;
use lang_c::ast::*;
use lang_c::span::Node;

/// The loops candidate loop `c` collapses, after itself.
pub(super) fn collapsed_loops<'a>(c: &Cand<'a>) -> Vec<&'a Node<ForStatement>> {
    let mut out = vec![];
    let mut body = &c.f.node.statement;
    for _ in 1..c.clauses.collapse {
        match super::canon::next_in_nest(body, c.clauses.collapse_force) {
            Ok(next) => {
                out.push(next.inner);
                body = &next.inner.node.statement;
            }
            Err(_) => break,
        }
    }
    out
}

/// The body of candidate loop `c` (inside the loops it collapses; with
/// `collapse(force:n)` the outermost loop's, which holds the code that runs
/// in every iteration).
pub(super) fn body_of<'a>(c: &Cand<'a>) -> &'a Node<Statement> {
    let mut body = &c.f.node.statement;
    if c.clauses.collapse_force {
        return body;
    }
    for _ in 1..c.clauses.collapse {
        match super::canon::next_in_nest(body, false) {
            Ok(next) => body = &next.inner.node.statement,
            Err(_) => return body,
        }
    }
    body
}

/// Whether the statement starting at byte `target` is reached from `s`
/// through nothing but blocks whose other items are declarations with
/// side-effect-free initialisers, and `for` loops: running `s` again in
/// another gang then only repeats work private to each thread.
pub(super) fn tightly_nested(s: &Node<Statement>, target: usize) -> bool {
    if s.span.start == target {
        return true;
    }
    match &s.node {
        Statement::For(f) => tightly_nested(&f.node.statement, target),
        Statement::Compound(items) => {
            let mut found = false;
            for item in items {
                match &item.node {
                    BlockItem::Declaration(d) => {
                        let pure = d
                            .node
                            .declarators
                            .iter()
                            .all(|x| match &x.node.initializer {
                                None => true,
                                Some(init) => initializer_pure(&init.node),
                            });
                        if !pure {
                            return false;
                        }
                    }
                    // An empty statement (`for (…) {…};`) is nothing.
                    BlockItem::Statement(st) if matches!(st.node, Statement::Expression(None)) => {}
                    BlockItem::Statement(st) => {
                        if found || !tightly_nested(st, target) {
                            return false;
                        }
                        found = true;
                    }
                    BlockItem::StaticAssert(_) => {}
                }
            }
            found
        }
        _ => false,
    }
}

/// True when an initialiser has no side effects.
fn initializer_pure(i: &Initializer) -> bool {
    match i {
        Initializer::Expression(e) => super::effects::pure(e),
        Initializer::List(items) => items
            .iter()
            .all(|x| initializer_pure(&x.node.initializer.node)),
    }
}
