//! Loop levels: which loops of a compute region are partitioned, over which
//! levels and launch axes; each planned loop's [`LoopSizes`] (its trip
//! count, its size clauses), from which `schedule::geometry` computes the
//! launch.
//!
//! Owns: [`RegionPlan`], `Walker::plan_loops`: the candidate loops (C
//! `for` statements with loop directives, and in `kernels` every `for`
//! loop), and for each the facts the decisions read. The decisions are
//! `schedule`'s:
//! * `parallel`: `schedule::levels::parallel_loop` (levels from the
//!   directive and the nest's shape, nesting errors);
//! * `kernels`: `schedule::kernels::map_nest` (the OpenUH mappings), from
//!   the facts `kernels_nest` gathers;
//! * `serial`: every loop sequential, one thread.
//!
//! (Issue 16: this plan still runs on the C AST before lowering, though
//! lowering only records each loop's levels in [`crate::ir::Loop::par`]:
//! what still reads them before lowering is the promotion of nested gang
//! reductions (`compute`), and the plan's remarks; the `kernels` facts come
//! from a probe lowering (`depend`). It moves onto the IR's
//! [`crate::ir::Loop::directive`] with those.)
//!
//! (The reductions partitioned loops take from the loops around them and
//! the scalars they privatise are the IR's: `schedule::implicit_reductions`
//! and `schedule::auto_privates`.) Every decision is a remark
//! (`-Minfo=accel`; a partitioned loop's names the thread counts of the
//! launch, [`Remark::Levels`]). May call: `canon`, `effects`, `clauses`, `loopvars`,
//! `kernels_nest`, `ir`, `schedule::levels`; `parsed` (the directives and
//! text it reads).

use super::canon::{canonical, trip_text};
use super::loopclauses::Clauses;
use super::lower::{LoopReduction, LoopSpec};
use super::unit::Walker;
use crate::diag::{DResult, Diagnostics};
use crate::directive::DirectiveKind;
use crate::ir::{HostType, LoopSizes, Parallelism, Remark, SrcLoc, UserExpr};
use crate::schedule::levels::{parallel_loop, Outer, Shape};
use lang_c::ast::*;
use lang_c::span::Node;
use std::collections::HashMap;

/// Which compute construct a region belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RegionKind {
    Parallel,
    Kernels,
    Serial,
}

/// A loop the plan decides about.
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

/// What was decided for one loop.
#[derive(Clone, Debug)]
pub(super) struct Decision {
    pub(super) par: Parallelism,
    /// Trip count as host C text, when the bounds can be evaluated where
    /// the construct is.
    pub(super) trip: Option<String>,
    /// `gang(num:)` / `vector(len)` / `worker(num)`, each located at
    /// its clause's argument.
    pub(super) gang_num: Option<UserExpr>,
    pub(super) worker_num: Option<UserExpr>,
    pub(super) vector_len: Option<UserExpr>,
    pub(super) why: Remark,
    /// Its reductions.
    pub(super) reductions: Vec<LoopReduction>,
    /// Its trip count when the bounds are integer literals.
    pub(super) const_trip: Option<u64>,
}

/// The plan of one compute region.
pub struct RegionPlan {
    /// Loop specs by the offset of their `for` statements.
    pub loops: HashMap<usize, LoopSpec>,
    /// `file:line: text` remarks, in source order.
    pub remarks: Vec<(SrcLoc, Remark)>,
    /// The variables the construct's data clauses name: in device memory
    /// in the probe lowering (`depend`).
    pub(super) shared: Vec<String>,
}

/// The identifiers of an expression.
fn idents(e: &Node<Expression>) -> Vec<String> {
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
pub(super) fn declared(s: &Node<Statement>) -> Vec<String> {
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
        kind: RegionKind,
    ) -> DResult<Vec<Cand<'a>>> {
        // An atomic statement is not a loop (lowered where it is).
        let dirs: Vec<usize> = dirs
            .iter()
            .copied()
            .filter(|&i| !matches!(self.unit.dirs[i].kind, DirectiveKind::Atomic(_)))
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
                None if kind == RegionKind::Kernels && canonical(&f.node).is_ok() => (
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
    fn children<'a>(&self, s: &'a Node<Statement>, kind: RegionKind) -> DResult<Vec<Cand<'a>>> {
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
    pub(super) fn host_trip(
        &self,
        f: &Node<ForStatement>,
        region_names: &[String],
    ) -> Option<String> {
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

    /// Plans the loops of region statement `s` of a `kind` construct;
    /// `dirs` are the loop directives attached to `s` itself (a combined
    /// construct's own directive). In a routine, `outer` marks the levels
    /// above the routine's; `shared` are the variables the construct's
    /// data clauses name.
    pub fn plan_loops(
        &self,
        s: &Node<Statement>,
        dirs: &[usize],
        kind: RegionKind,
        outer: Outer,
        shared: Vec<String>,
    ) -> DResult<RegionPlan> {
        let cands = self.candidates(s, dirs, kind)?;
        let region_names = declared(s);
        let mut plan = RegionPlan {
            loops: HashMap::new(),
            remarks: vec![],
            shared,
        };
        match kind {
            RegionKind::Serial => self.plan_serial(&cands, &region_names, &mut plan),
            RegionKind::Parallel => {
                for c in &cands {
                    self.plan_parallel(c, outer, &region_names, &mut plan)?;
                }
            }
            RegionKind::Kernels => {
                let probed = self.probe_loops(s, &cands, &plan.shared);
                for c in &cands {
                    self.plan_kernels_nest(c, &region_names, &probed, &mut plan)?;
                }
            }
        }
        plan.remarks.sort_by_key(|(l, _)| (l.line, l.col));
        Ok(plan)
    }

    pub(super) fn record(&self, plan: &mut RegionPlan, c: &Cand, mut d: Decision) {
        d.const_trip = super::loopvars::collapsed_loops(c)
            .iter()
            .try_fold(const_trip(&c.f.node), |t, f| {
                Some(t?.checked_mul(const_trip(&f.node)?))
            })
            .flatten();
        let tile = tile_sizes(&c.clauses.tile);
        if !tile.is_empty() {
            // As written: the innermost loop's size first.
            let sizes: Vec<String> = tile.iter().rev().map(u32::to_string).collect();
            d.why.push_str(&format!(", tile({})", sizes.join(",")));
        }
        for r in &d.reductions {
            let what = match r.section {
                None if r.index.is_some() => {
                    format!("{}[{}]", r.var, r.index.as_deref().unwrap_or(""))
                }
                None => r.var.clone(),
                Some((lo, 1)) => format!("{}[{lo}]", r.var),
                Some((lo, n)) => format!("{}[{lo}:{n}]", r.var),
            };
            d.why
                .push_str(&format!(", reduction({}:{what})", r.op.symbol()));
        }
        plan.remarks.push((c.loc.clone(), d.why.clone()));
        // A loop without directive that stays sequential keeps C's semantics.
        if !c.directive && d.par == Parallelism::Seq {
            return;
        }
        let sizes = LoopSizes {
            trip: d.trip.map(|text| UserExpr {
                text,
                loc: c.loc.clone(),
                ty: HostType::ULongLong,
            }),
            const_trip: d.const_trip,
            gang: d.gang_num,
            worker: d.worker_num,
            vector: d.vector_len,
        };
        plan.loops.insert(
            c.stmt.span.start,
            LoopSpec {
                par: d.par,
                loc: c.loc.clone(),
                collapse: c.clauses.collapse,
                collapse_force: c.clauses.collapse_force,
                tile,
                chunk: c.clauses.chunk,
                reductions: d.reductions,
                privates: c.clauses.privates.clone(),
                sizes,
                directive: c.directive.then(|| c.clauses.directive()),
            },
        );
    }

    fn plan_serial(&self, cands: &[Cand], names: &[String], plan: &mut RegionPlan) {
        for c in cands {
            let d = Decision {
                par: Parallelism::Seq,
                trip: self.host_trip(c.f, names),
                gang_num: None,
                worker_num: None,
                vector_len: None,
                why: "loop run sequentially: serial construct".into(),
                reductions: c.clauses.reductions.clone(),
                const_trip: None,
            };
            self.record(plan, c, d);
            self.plan_serial(&c.children, names, plan);
        }
    }

    /// A loop of a parallel construct (or routine) and, recursively, the
    /// loops in it.
    fn plan_parallel(
        &self,
        c: &Cand,
        outer: Outer,
        names: &[String],
        plan: &mut RegionPlan,
    ) -> DResult<()> {
        let cl = &c.clauses;
        let shape = Shape {
            nested: !c.children.is_empty(),
            nested_twice: c.children.iter().any(|k| !k.children.is_empty()),
        };
        let decided = parallel_loop(&cl.directive(), outer, shape)
            .map_err(|e| Diagnostics::one(Some(c.loc.clone()), e.to_string()))?;
        let par = decided.par;
        let why: Option<Remark> = decided.seq_why.map(Remark::from);
        let why =
            why.unwrap_or_else(|| Remark::of_loop(par, cl.collapse as usize, cl.collapse_force));
        let d = Decision {
            par,
            trip: self.host_trip(c.f, names),
            gang_num: cl.gang_num.clone(),
            worker_num: cl.worker_num.clone(),
            vector_len: cl.vector_len.clone(),
            why,
            reductions: cl.reductions.clone(),
            const_trip: None,
        };
        self.record(plan, c, d);
        for k in &c.children {
            self.plan_parallel(k, decided.inner, names, plan)?;
        }
        Ok(())
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

/// The sizes of `tile(…)`, `*` chosen: 32 for the innermost loop, then 8,
/// then 4 (at most 1024 threads a tile).
fn tile_sizes(t: &[Option<u32>]) -> Vec<u32> {
    let n = t.len();
    t.iter()
        .enumerate()
        .map(|(i, s)| {
            s.unwrap_or(match n - 1 - i {
                0 => {
                    if n == 1 {
                        128
                    } else {
                        32
                    }
                }
                1 => 8,
                _ => 4,
            })
        })
        .collect()
}
