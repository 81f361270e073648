//! What a partitioned loop does with the scalars of the scope around it,
//! beyond what its clauses say, as nvc does for real code:
//! * **automatic privates**: a scalar the body assigns before reading it in
//!   every iteration (`privatize`) is private to the loop (`tmp1 =
//!   rowstr[j]` in a gang loop; `sum = 0.0` before a worker loop that
//!   reduces into `sum`) — shared, the loop's threads would race on it.
//!   Found here only for the two rules below (issue 16): the IR pass
//!   `schedule::auto_privates` makes the copies and the remarks;
//! * **implicit reductions**: a loop nested in one that reduces into `v`
//!   (or in a construct that does), partitioned and assigning `v` without a
//!   clause of its own for it, reduces into `v` too (`parallel loop gang
//!   reduction(+:s)` over `loop worker` / `loop vector` loops that add to
//!   `s`: OpenACC asks for the clause on each loop; nvc and GCC supply it).
//!
//! (Where a partitioned loop assigns a scalar it leaves shared, a remark
//! warns of the race: `schedule::auto_privates` finds them on the IR.)
//!
//! Owns: `Walker::auto_privates`, `Walker::implicit_reductions` and the
//! loop-nesting tests [`tightly_nested`] and [`body_of`]. Every choice is a
//! remark. May call: `privatize`, `canon`, `effects`, `levels` (its types).

use super::canon::canonical;
use super::levels::Cand;
use super::lower::{LoopReduction, Private};
use super::privatize::{assigned, written_first, InnerUse};
use super::unit::Walker;
use crate::ir::SrcLoc;
use lang_c::ast::*;
use lang_c::span::Node;
use std::collections::HashMap;

impl Walker<'_> {
    /// The scalars of the scope around loop `c` that its body assigns
    /// before reading in every iteration, and that no clause of the loop
    /// names (its `reductions` included), nor a data clause of the
    /// construct (`shared`): private to the loop.
    pub(super) fn auto_privates(
        &self,
        c: &Cand,
        reductions: &[LoopReduction],
        shared: &[String],
    ) -> Vec<Private> {
        let body = body_of(c);
        let own_var = canonical(&c.f.node).ok().map(|k| k.var.to_string());
        // The variables of loops with a directive are theirs already.
        let loop_vars = loop_vars(c, true);
        let mut inner: HashMap<usize, &Cand> = HashMap::new();
        fn index<'c, 'a>(c: &'c Cand<'a>, out: &mut HashMap<usize, &'c Cand<'a>>) {
            for k in &c.children {
                out.insert(k.stmt.span.start, k);
                index(k, out);
            }
        }
        index(c, &mut inner);
        // A variable an atomic construct updates is shared on purpose.
        let atomics = self.atomic_targets(body);
        let mut out = vec![];
        for name in assigned(body) {
            if own_var.as_deref() == Some(name.as_str())
                || atomics.contains(&name)
                || shared.contains(&name)
                || loop_vars.contains(&name)
                || c.clauses.privates.iter().any(|p| p.var == name)
                || reductions.iter().any(|r| r.var == name)
            {
                continue;
            }
            let scalar = self.scope.lookup(&name).is_some_and(|s| {
                s.ty.is_arithmetic() || matches!(s.ty, super::ctype::CType::Ptr(_))
            });
            if !scalar {
                continue;
            }
            let use_of = |start: usize| match inner.get(&start) {
                Some(k) if k.clauses.privates.iter().any(|p| p.var == name) => InnerUse::Private,
                Some(k) if k.clauses.reductions.iter().any(|r| r.var == name) => {
                    InnerUse::Reduction
                }
                _ => InnerUse::None,
            };
            if written_first(body, &name, &use_of) {
                out.push(Private {
                    var: name,
                    first: false,
                    part: false,
                    section: None,
                    loc: c.loc.clone(),
                });
            }
        }
        out
    }

    /// The reductions loop `c` (partitioned) takes from the loops and the
    /// construct around it (`above`): each variable of theirs its body
    /// assigns, that its own clauses (and `privates`) do not name.
    pub(super) fn implicit_reductions(
        &self,
        c: &Cand,
        above: &[(LoopReduction, SrcLoc)],
        privates: &[Private],
    ) -> Vec<(LoopReduction, SrcLoc)> {
        let names = assigned(body_of(c));
        let mut out: Vec<(LoopReduction, SrcLoc)> = vec![];
        for (r, origin) in above {
            let named = c.clauses.reductions.iter().any(|x| x.var == r.var)
                || c.clauses.privates.iter().any(|p| p.var == r.var)
                || privates.iter().any(|p| p.var == r.var)
                || out.iter().any(|(x, _)| x.var == r.var);
            if !named && names.contains(&r.var) {
                out.push((
                    LoopReduction {
                        loc: c.loc.clone(),
                        ..r.clone()
                    },
                    origin.clone(),
                ));
            }
        }
        out
    }
}

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

/// The variables of the loops candidate loop `c` collapses and of the
/// loops with directives inside it: private to their loops already.
fn loop_vars(c: &Cand, with_directive_only: bool) -> Vec<String> {
    let mut out: Vec<String> = collapsed_loops(c)
        .iter()
        .filter_map(|f| canonical(&f.node).ok().map(|k| k.var.to_string()))
        .collect();
    fn inner(c: &Cand, only: bool, out: &mut Vec<String>) {
        for k in &c.children {
            if k.directive || !only {
                if let Ok(v) = canonical(&k.f.node) {
                    out.push(v.var.to_string());
                }
            }
            inner(k, only, out);
        }
    }
    inner(c, with_directive_only, &mut out);
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
