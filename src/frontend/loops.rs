//! The candidate loops of a compute region (or routine) and what their
//! source says, which lowering records on each counted loop it makes: the
//! candidates are the C `for` statements with loop directives, and in a
//! `kernels` construct every canonical `for` loop; for each, its clauses,
//! its trip count as host C text where the bounds can be evaluated where
//! the construct is, its size clauses, and whether it is tightly nested in
//! the candidate around it ([`LoopSpec`]). The levels are decided on the
//! IR, by `schedule::plan_levels`, with the remarks; a `tile(*)` size
//! stays `*` (`None`) for the schedule to choose (`schedule::tile`).
//!
//! Owns: `Walker::loop_specs`. May call: `canon`, `effects`, `clauses`,
//! `loopvars`, `literal`, `ir`; `parsed` (the directives and text it
//! reads).

use super::canon::{canonical, trip_text};
use super::loopclauses::Clauses;
use super::loopvars::{body_of, collapsed_loops, tightly_nested};
use super::lower::LoopSpec;
use super::unit::Walker;
use crate::diag::{DResult, Diagnostics};
use crate::directive::DirectiveKind;
use crate::ir::{ComputeKind, HostType, LoopSizes, SrcLoc, UserExpr};
use lang_c::ast::*;
use lang_c::span::Node;
use std::collections::HashMap;

/// A candidate loop.
pub(super) struct Cand<'a> {
    pub(super) stmt: &'a Node<Statement>,
    pub(super) f: &'a Node<ForStatement>,
    /// Has a loop directive (else: a kernels loop the compiler may
    /// parallelise on its own).
    pub(super) directive: bool,
    pub(super) clauses: Clauses,
    pub(super) loc: SrcLoc,
    pub(super) children: Vec<Cand<'a>>,
}

/// The identifiers of an expression.
pub(super) fn idents(e: &Node<Expression>) -> Vec<String> {
    struct I(Vec<String>);
    impl<'ast> lang_c::visit::Visit<'ast> for I {
        fn visit_identifier(&mut self, i: &'ast Identifier, _: &'ast lang_c::span::Span) {
            self.0.push(i.name.clone());
        }
    }
    let mut v = I(vec![]);
    lang_c::visit::Visit::visit_expression(&mut v, &e.node, &e.span);
    v.0
}

/// The names a statement declares (locals, loop variables).
fn declared(s: &Node<Statement>) -> Vec<String> {
    struct D(Vec<String>);
    impl<'ast> lang_c::visit::Visit<'ast> for D {
        fn visit_declarator(&mut self, d: &'ast Declarator, span: &'ast lang_c::span::Span) {
            if let DeclaratorKind::Identifier(id) = &d.kind.node {
                self.0.push(id.node.name.clone());
            }
            lang_c::visit::visit_declarator(self, d, span);
        }
        fn visit_for_statement(&mut self, f: &'ast ForStatement, span: &'ast lang_c::span::Span) {
            if let Ok(c) = canonical(f) {
                self.0.push(c.var.to_string());
            }
            lang_c::visit::visit_for_statement(self, f, span);
        }
    }
    let mut d = D(vec![]);
    lang_c::visit::Visit::visit_statement(&mut d, &s.node, &s.span);
    d.0
}

impl Walker<'_> {
    /// The candidate loops of statement `s` (with `dirs` attached): loops
    /// with a loop directive, and in `kernels` every `for` loop.
    fn candidates<'a>(
        &self,
        s: &'a Node<Statement>,
        dirs: &[usize],
        kind: ComputeKind,
    ) -> DResult<Vec<Cand<'a>>> {
        // An atomic statement is not a loop (lowered where it is), nor is
        // a statement a `cache` directive heads (lowering checks where it
        // is and records it on its loop).
        let dirs: Vec<usize> = dirs
            .iter()
            .copied()
            .filter(|&i| {
                !matches!(
                    self.unit.dirs[i].kind,
                    DirectiveKind::Atomic(_) | DirectiveKind::Cache { .. }
                )
            })
            .collect();
        let dirs = &dirs[..];
        for &i in dirs {
            let d = &self.unit.dirs[i];
            if !matches!(
                d.kind,
                DirectiveKind::Loop
                    | DirectiveKind::ParallelLoop
                    | DirectiveKind::KernelsLoop
                    | DirectiveKind::SerialLoop
            ) {
                return Err(Diagnostics::one(
                    Some(self.unit.pragma_loc(i, d.kind_span.start)),
                    format!(
                        "a '{}' directive inside a compute construct is not supported yet",
                        d.kind.name()
                    ),
                ));
            }
        }
        if let Statement::For(f) = &s.node {
            let (clauses, loc) = match dirs.last() {
                Some(&i) => (
                    self.loop_clauses(i)?,
                    self.unit.pragma_loc(i, self.unit.dirs[i].kind_span.start),
                ),
                None if kind == ComputeKind::Kernels && canonical(&f.node).is_ok() => (
                    Clauses {
                        collapse: 1,
                        ..Clauses::default()
                    },
                    self.unit.sm.loc(s.span.start),
                ),
                None => {
                    let b = &f.node.statement;
                    let dirs: Vec<usize> = self
                        .unit
                        .att
                        .by_stmt
                        .get(&b.span.start)
                        .cloned()
                        .unwrap_or_default();
                    return self.candidates(b, &dirs, kind);
                }
            };
            // A collapsed nest is one loop: its inner loops are not candidates.
            let mut body = &f.node.statement;
            for _ in 1..clauses.collapse {
                match super::canon::next_in_nest(body, clauses.collapse_force) {
                    Ok(next) => body = &next.inner.node.statement,
                    Err(why) => return Err(Diagnostics::one(Some(loc), why)),
                }
            }
            let body_dirs: Vec<usize> = self
                .unit
                .att
                .by_stmt
                .get(&body.span.start)
                .cloned()
                .unwrap_or_default();
            let children = self.candidates(body, &body_dirs, kind)?;
            return Ok(vec![Cand {
                stmt: s,
                f,
                directive: !dirs.is_empty(),
                clauses,
                loc,
                children,
            }]);
        }
        if let Some(&i) = dirs.last() {
            return Err(Diagnostics::one(
                Some(self.unit.sm.loc(s.span.start)),
                format!(
                    "a '{}' directive must be followed by a 'for' loop",
                    self.unit.dirs[i].kind.name()
                ),
            ));
        }
        self.children(s, kind)
    }

    /// The candidates nested in `s` (not `s` itself).
    fn children<'a>(&self, s: &'a Node<Statement>, kind: ComputeKind) -> DResult<Vec<Cand<'a>>> {
        let mut out = vec![];
        let mut visit = |st: &'a Node<Statement>| -> DResult<()> {
            let dirs: Vec<usize> = self
                .unit
                .att
                .by_stmt
                .get(&st.span.start)
                .cloned()
                .unwrap_or_default();
            out.extend(self.candidates(st, &dirs, kind)?);
            Ok(())
        };
        match &s.node {
            Statement::Compound(items) => {
                for item in items {
                    if let BlockItem::Statement(st) = &item.node {
                        visit(st)?;
                    }
                }
            }
            Statement::If(i) => {
                visit(&i.node.then_statement)?;
                if let Some(e) = &i.node.else_statement {
                    visit(e)?;
                }
            }
            Statement::For(f) => visit(&f.node.statement)?,
            Statement::While(w) => visit(&w.node.statement)?,
            Statement::DoWhile(w) => visit(&w.node.statement)?,
            Statement::Switch(w) => visit(&w.node.statement)?,
            Statement::Labeled(l) => visit(&l.node.statement)?,
            _ => {}
        }
        Ok(out)
    }

    /// The trip count of loop `f` as host C text, when its bounds are free
    /// of side effects and of names the region declares.
    fn host_trip(&self, f: &Node<ForStatement>, region_names: &[String]) -> Option<String> {
        let c = canonical(&f.node).ok()?;
        let text = |e: &Node<Expression>| -> Option<String> {
            let ok = super::effects::pure(e) && idents(e).iter().all(|i| !region_names.contains(i));
            ok.then(|| self.unit.text[e.span.start..e.span.end].to_string())
        };
        let step = match c.step {
            Some(e) => Some(text(e)?),
            None => None,
        };
        Some(trip_text(
            &c,
            &text(c.init)?,
            &text(c.limit)?,
            step.as_deref(),
        ))
    }

    /// The trip count of candidate `c` as host C text: with `collapse(n)`,
    /// the product of its loops' (in `unsigned long long`), each free of
    /// side effects, of names the region declares and of the variables of
    /// the loops around it in the nest.
    fn nest_trip(&self, c: &Cand, region_names: &[String]) -> Option<String> {
        let inner = collapsed_loops(c);
        if inner.is_empty() {
            return self.host_trip(c.f, region_names);
        }
        let mut names = region_names.to_vec();
        let mut factors = vec![];
        for f in std::iter::once(c.f).chain(inner) {
            factors.push(format!(
                "(unsigned long long){}",
                self.host_trip(f, &names)?
            ));
            names.push(canonical(&f.node).ok()?.var.to_string());
        }
        Some(factors.join(" * "))
    }

    /// The candidate loops of region statement `s` of a `kind` construct
    /// (a routine's body: `Parallel`), by the offset of their `for`
    /// statements; `dirs` are the loop directives attached to `s` itself
    /// (a combined construct's own directive).
    pub fn loop_specs(
        &self,
        s: &Node<Statement>,
        dirs: &[usize],
        kind: ComputeKind,
    ) -> DResult<HashMap<usize, LoopSpec>> {
        let cands = self.candidates(s, dirs, kind)?;
        let names = declared(s);
        let mut out = HashMap::new();
        for c in &cands {
            self.record(c, None, &names, &mut out);
        }
        Ok(out)
    }

    /// Records candidate `c` (nested in `parent`) and the candidates in it.
    fn record(
        &self,
        c: &Cand,
        parent: Option<&Cand>,
        names: &[String],
        out: &mut HashMap<usize, LoopSpec>,
    ) {
        let cl = &c.clauses;
        let const_trip = collapsed_loops(c)
            .iter()
            .try_fold(const_trip(&c.f.node), |t, f| {
                Some(t?.checked_mul(const_trip(&f.node)?))
            })
            .flatten();
        let sizes = LoopSizes {
            trip: self.nest_trip(c, names).map(|text| UserExpr {
                text,
                loc: c.loc.clone(),
                ty: HostType::ULongLong,
            }),
            const_trip,
            gang: cl.gang_num.clone(),
            worker: cl.worker_num.clone(),
            vector: cl.vector_len.clone(),
        };
        out.insert(
            c.stmt.span.start,
            LoopSpec {
                loc: c.loc.clone(),
                collapse: cl.collapse,
                collapse_force: cl.collapse_force,
                tile: cl.tile.clone(),
                chunk: cl.chunk,
                reductions: cl.reductions.clone(),
                privates: cl.privates.clone(),
                sizes,
                directive: c.directive.then(|| cl.directive()),
                // Only declarations and loops lead to it from its parent's body.
                loose: parent.is_some_and(|p| !tightly_nested(body_of(p), c.stmt.span.start)),
                outside: canonical(&c.f.node)
                    .ok()
                    .filter(|k| !c.directive && k.decl.is_none())
                    .map(|k| k.var.to_string()),
            },
        );
        for k in &c.children {
            self.record(k, Some(c), names, out);
        }
    }
}

/// The trip count of a canonical loop whose bounds and step are integer
/// literals.
fn const_trip(f: &ForStatement) -> Option<u64> {
    fn lit(e: &Node<Expression>) -> Option<i128> {
        match &e.node {
            Expression::Constant(c) => match &c.node {
                Constant::Integer(i) => super::literal::int_constant(i).ok().map(|(v, _)| v),
                _ => None,
            },
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Minus => {
                lit(&u.node.operand).map(|v| -v)
            }
            _ => None,
        }
    }
    let c = canonical(f).ok()?;
    let (init, limit) = (lit(c.init)?, lit(c.limit)?);
    let step = match c.step {
        Some(s) => lit(s)?,
        None => 1,
    }
    .abs();
    use crate::ir::LoopCmp::*;
    let span = match c.cmp {
        Lt => limit - init,
        Le => limit - init + 1,
        Gt => init - limit,
        Ge => init - limit + 1,
    };
    if step == 0 {
        return None;
    }
    u64::try_from(span.max(0).div_euclid(step) + i128::from(span.max(0) % step != 0)).ok()
}
