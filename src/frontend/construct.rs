//! Constructs: a `data` construct becomes a host data region; a compute
//! construct (`parallel`, `kernels`, `serial`, and their combined `loop`
//! forms) is outlined as a kernel with its data maps, arguments and launch
//! geometry. Clauses that later work will implement are rejected here with a
//! "not supported yet" error at the clause.
//!
//! Owns: `Walker::construct` and the choice of gang/worker/vector levels for
//! loops inside a region. May call: `lower`, `clauses`, `canon`, `ir`.

use super::canon::{canonical, trip_text};
use super::clauses::ClauseCtx;
use super::lower::{LoopSpec, Lower};
use super::unit::Walker;
use crate::diag::{DResult, Diagnostics};
use crate::directive::{Clause, ClauseKind, DefaultKind, DirectiveKind};
use crate::ir::host::{Construct, ConstructKind};
use crate::ir::{GridSize, Kernel, Launch, Parallelism, Stmt};
use lang_c::ast::*;
use lang_c::span::Node;
use std::collections::HashMap;

/// gang/worker/vector levels used by enclosing loops (or, in a routine,
/// above the routine's level).
#[derive(Clone, Copy, Default)]
pub struct Levels {
    pub gang: bool,
    pub worker: bool,
    pub vector: bool,
}

impl Walker<'_> {
    fn not_yet<T>(&self, p: usize, c: &Clause, on: &str) -> DResult<T> {
        self.clause_err(
            p,
            c,
            format!(
                "the '{}' clause on '{on}' is not supported yet",
                c.name().as_str()
            ),
        )
    }

    /// Handles directive `p` attached to `s` (with `rest` attached after it).
    pub fn construct(&mut self, p: usize, rest: &[usize], s: &Node<Statement>) {
        let d = &self.dirs[p];
        let r = match d.kind {
            DirectiveKind::Data => self.data(p, rest, s),
            DirectiveKind::Parallel
            | DirectiveKind::Kernels
            | DirectiveKind::Serial
            | DirectiveKind::ParallelLoop
            | DirectiveKind::KernelsLoop
            | DirectiveKind::SerialLoop => self.compute(p, rest, s),
            DirectiveKind::HostData => self.host_data(p, rest, s),
            DirectiveKind::EnterData
            | DirectiveKind::ExitData
            | DirectiveKind::Update
            | DirectiveKind::Declare => {
                // Standalone: runs where its line is, before the statement.
                self.standalone(p);
                self.stmt_with(s, rest);
                Ok(())
            }
            DirectiveKind::Routine(_) => Err(Diagnostics::one(
                Some(self.pragma_loc(p, d.kind_span.start)),
                "'#pragma acc routine' without a name must be followed by a function declaration or definition",
            )),
            // In a routine, loop directives belong to its device version.
            DirectiveKind::Loop if self.in_routine => {
                self.stmt_with(s, rest);
                Ok(())
            }
            DirectiveKind::Loop => Err(Diagnostics::one(
                Some(self.pragma_loc(p, d.kind_span.start)),
                "a 'loop' directive outside a compute construct (orphaned loop) is not supported yet",
            )),
            _ => Err(Diagnostics::one(
                Some(self.pragma_loc(p, d.kind_span.start)),
                format!("the '{}' directive is not supported yet", d.kind.name()),
            )),
        };
        self.report(r);
    }

    fn compute(&mut self, p: usize, rest: &[usize], s: &Node<Statement>) -> DResult<()> {
        let d = &self.dirs[p];
        let name = d.kind.name();
        let combined = matches!(
            d.kind,
            DirectiveKind::ParallelLoop | DirectiveKind::KernelsLoop | DirectiveKind::SerialLoop
        );
        let serial = matches!(d.kind, DirectiveKind::Serial | DirectiveKind::SerialLoop);
        let kernels = matches!(d.kind, DirectiveKind::Kernels | DirectiveKind::KernelsLoop);
        let ctx = ClauseCtx {
            sm: self.sm,
            scope: &self.scope,
            base: self.pragmas[p].text_start,
        };
        let (mut num_gangs, mut num_workers, mut vector_length, mut default_none) =
            (None, None, None, false);
        let mut default_present = false;
        for c in &d.clauses {
            match &c.kind {
                ClauseKind::Data(_) | ClauseKind::If(_) => {}
                ClauseKind::Default(DefaultKind::Present) => default_present = true,
                ClauseKind::NumGangs(v) if v.len() == 1 => num_gangs = Some(ctx.check_expr(&v[0])?),
                ClauseKind::NumWorkers(e) => num_workers = Some(ctx.check_expr(e)?),
                ClauseKind::VectorLength(e) => vector_length = Some(ctx.check_expr(e)?),
                ClauseKind::Default(DefaultKind::None) => default_none = true,
                ClauseKind::Gang(g)
                    if combined
                        && g.num.is_none()
                        && g.dim.is_none()
                        && g.static_size.is_none() => {}
                ClauseKind::Worker(None)
                | ClauseKind::Vector(None)
                | ClauseKind::Seq
                | ClauseKind::Independent
                | ClauseKind::Auto
                    if combined => {}
                _ => return self.not_yet(p, c, name),
            }
        }
        let items = self.data_items(p, d)?;
        let cond = self.if_cond(p, d)?;
        let loc = self.pragma_loc(p, d.kind_span.start);

        // Loop levels, by the offset of each `for` with a loop directive.
        let mut loops = HashMap::new();
        let mut top_gang: Option<(String, bool)> = None;
        let top_dirs: Vec<usize> = if combined { vec![p] } else { rest.to_vec() };
        self.assign_levels(
            s,
            &top_dirs,
            Levels::default(),
            serial,
            kernels,
            true,
            &mut loops,
            &mut top_gang,
        )?;

        // Lower the region. Scalars in data clauses live in device memory;
        // in `kernels`, so do the scalars the region assigns (implicitly
        // `copy`, OpenACC 3.3 2.5.3): found by lowering once, then again.
        let mut by_ref: std::collections::HashSet<String> = items
            .iter()
            .filter(|i| i.ty.is_arithmetic())
            .map(|i| i.var.clone())
            .collect();
        let (body, params, vars) = loop {
            let mut scope = self.scope.clone();
            let mut lower = Lower::new(
                self.sm,
                &mut scope,
                &mut self.routines,
                &loops,
                super::lower::Mode::Region,
            );
            lower.by_ref = by_ref.clone();
            lower.stmt(s)?;
            let (body, params, vars) = lower.finish();
            let assigned = assigned_params(&body, &params);
            let more: Vec<String> = vars
                .iter()
                .zip(&params)
                .filter(|(v, p)| {
                    kernels
                        && !v.by_ref
                        && v.size_of.is_none()
                        && v.ty.is_arithmetic()
                        && assigned.contains(&p.local)
                })
                .map(|(v, _)| v.name.clone())
                .collect();
            if more.is_empty() {
                break (body, params, vars);
            }
            by_ref.extend(more);
        };

        if default_none {
            for v in vars.iter().filter(|v| v.size_of.is_none()) {
                let has_attribute = items.iter().any(|i| i.whole && i.var == v.name)
                    || self.data_stack.iter().flatten().any(|x| x.var == v.name);
                if !has_attribute && (v.by_ref || !v.ty.is_arithmetic()) {
                    return Err(Diagnostics::one(
                        Some(loc),
                        format!("'{}' is used in the region but appears in no data clause, and the construct has 'default(none)'", v.name),
                    ));
                }
            }
        }

        // Host side: maps and arguments.
        let (maps, args) = self.kernel_data(&items, &params, &vars, default_present);

        // Launch geometry.
        let used = levels_used(&body.body, |f| self.routines.level_of(f));
        let (has_vector, has_worker) = (used.vector, used.worker);
        let launch = if serial {
            Launch {
                grid: GridSize::Const(1),
                block: [GridSize::Const(1), GridSize::Const(1)],
            }
        } else {
            let bx = match vector_length {
                Some(e) => GridSize::Host(e),
                None => GridSize::Const(if has_vector { 128 } else { 1 }),
            };
            let by = match num_workers {
                Some(e) => GridSize::Host(e),
                None => GridSize::Const(if has_worker { 4 } else { 1 }),
            };
            let has_gang = used.gang;
            let grid = match (num_gangs, top_gang) {
                (Some(e), _) => GridSize::Host(e),
                // No gang loop: one gang (statements outside gang loops run
                // once per gang).
                (None, _) if !has_gang => GridSize::Const(1),
                (None, Some((trip, spread))) => GridSize::FromTrip { trip, spread },
                (None, None) => GridSize::FromTrip {
                    trip: "0".into(),
                    spread: false,
                },
            };
            Launch {
                grid,
                block: [bx, by],
            }
        };
        let kernel = self.module.kernels.len();
        self.module.kernels.push(Kernel {
            name: format!(
                "__accc_{}_{}_l{}_{}",
                self.function, kernel, loc.line, self.unit_tag
            ),
            construct: name.to_string(),
            loc: loc.clone(),
            params,
            body,
            launch,
        });
        self.plan.constructs.push(Construct {
            kind: ConstructKind::Compute { kernel, args },
            name: name.to_string(),
            loc,
            stmt: s.span.start..s.span.end,
            cond,
            maps,
        });
        Ok(())
    }

    /// Chooses the parallelism of every loop with a loop directive in the
    /// region statement `s`. `dirs` are the loop directives attached to `s`
    /// itself; `top` is true while `s` is at the region's top level (then a
    /// gang loop's trip count can be computed on the host).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn assign_levels(
        &self,
        s: &Node<Statement>,
        dirs: &[usize],
        outer: Levels,
        serial: bool,
        kernels: bool,
        top: bool,
        out: &mut HashMap<usize, LoopSpec>,
        top_gang: &mut Option<(String, bool)>,
    ) -> DResult<()> {
        for &i in dirs {
            let d = &self.dirs[i];
            if !matches!(
                d.kind,
                DirectiveKind::Loop
                    | DirectiveKind::ParallelLoop
                    | DirectiveKind::KernelsLoop
                    | DirectiveKind::SerialLoop
            ) {
                return Err(Diagnostics::one(
                    Some(self.pragma_loc(i, d.kind_span.start)),
                    format!(
                        "a '{}' directive inside a compute construct is not supported yet",
                        d.kind.name()
                    ),
                ));
            }
        }
        let mut inner = outer;
        if let (Statement::For(f), Some(&i)) = (&s.node, dirs.last()) {
            let d = &self.dirs[i];
            let loc = self.pragma_loc(i, d.kind_span.start);
            let (mut gang, mut worker, mut vector, mut seq, mut explicit) =
                (false, false, false, false, false);
            let mut independent = false;
            for c in &d.clauses {
                match &c.kind {
                    ClauseKind::Gang(g)
                        if g.num.is_none() && g.dim.is_none() && g.static_size.is_none() =>
                    {
                        gang = true;
                        explicit = true;
                    }
                    ClauseKind::Worker(None) => {
                        worker = true;
                        explicit = true;
                    }
                    ClauseKind::Vector(None) => {
                        vector = true;
                        explicit = true;
                    }
                    ClauseKind::Seq | ClauseKind::Auto => seq = true,
                    ClauseKind::Independent => independent = true,
                    _ if d.kind != DirectiveKind::Loop => {} // construct clauses, checked by `compute`
                    _ => return self.not_yet(i, c, "loop"),
                }
            }
            if kernels && !explicit && !seq && !independent {
                // In kernels the compiler must prove the loop parallel.
                let proven = canonical(&f.node)
                    .map_err(str::to_string)
                    .and_then(|c| super::depend::independent(self.text, &f.node.statement, c.var));
                seq = proven.is_err();
            }
            if !explicit && !seq {
                // No level given: the levels not used by enclosing loops.
                let nested = self.has_nested_loop_directive(&f.node.statement);
                (gang, worker, vector) = match (outer.gang, outer.worker, outer.vector) {
                    (_, _, true) => (false, false, false),
                    (false, false, false) if nested => (true, false, false),
                    (false, false, false) => (true, false, true),
                    _ => (false, false, true),
                };
            }
            let nest_err = |what: &str| -> DResult<()> {
                Err(Diagnostics::one(Some(loc.clone()), format!("a {what} loop may not be nested inside a loop of the same or an inner level")))
            };
            if gang && (outer.gang || outer.worker || outer.vector) {
                return nest_err("gang");
            }
            if worker && (outer.worker || outer.vector) {
                return nest_err("worker");
            }
            if vector && outer.vector {
                return nest_err("vector");
            }
            let par = if serial || seq || !(gang || worker || vector) {
                Parallelism::Seq
            } else {
                Parallelism::Par {
                    gang,
                    worker,
                    vector,
                }
            };
            if let (Parallelism::Par { gang: true, .. }, true) = (par, top) {
                *top_gang = self.host_trip(f).map(|t| (t, vector || worker));
            }
            inner = Levels {
                gang: outer.gang || gang,
                worker: outer.worker || worker,
                vector: outer.vector || vector,
            };
            out.insert(s.span.start, LoopSpec { par, loc });
            let body = &f.node.statement;
            let dirs = self
                .att
                .by_stmt
                .get(&body.span.start)
                .cloned()
                .unwrap_or_default();
            return self.assign_levels(body, &dirs, inner, serial, kernels, false, out, top_gang);
        }
        if let Some(&i) = dirs.last() {
            let d = &self.dirs[i];
            return Err(Diagnostics::one(
                Some(self.sm.loc(s.span.start)),
                format!(
                    "a '{}' directive must be followed by a 'for' loop",
                    d.kind.name()
                ),
            ));
        }
        self.assign_children(s, inner, serial, kernels, top, out, top_gang)
    }

    #[allow(clippy::too_many_arguments)]
    fn assign_children(
        &self,
        s: &Node<Statement>,
        outer: Levels,
        serial: bool,
        kernels: bool,
        top: bool,
        out: &mut HashMap<usize, LoopSpec>,
        top_gang: &mut Option<(String, bool)>,
    ) -> DResult<()> {
        let mut visit = |st: &Node<Statement>, top: bool| {
            let dirs = self
                .att
                .by_stmt
                .get(&st.span.start)
                .cloned()
                .unwrap_or_default();
            self.assign_levels(st, &dirs, outer, serial, kernels, top, out, top_gang)
        };
        match &s.node {
            Statement::Compound(items) => {
                // Only the first statement of the region's block, before any
                // declaration, keeps a host-computable trip count.
                let mut still_top = top;
                for item in items {
                    match &item.node {
                        BlockItem::Statement(st) => {
                            visit(st, still_top)?;
                            still_top = false;
                        }
                        _ => still_top = false,
                    }
                }
                Ok(())
            }
            Statement::If(i) => {
                visit(&i.node.then_statement, false)?;
                match &i.node.else_statement {
                    Some(e) => visit(e, false),
                    None => Ok(()),
                }
            }
            Statement::For(f) => visit(&f.node.statement, false),
            Statement::While(w) => visit(&w.node.statement, false),
            Statement::DoWhile(w) => visit(&w.node.statement, false),
            Statement::Switch(w) => visit(&w.node.statement, false),
            Statement::Labeled(l) => visit(&l.node.statement, false),
            _ => Ok(()),
        }
    }

    /// True when a loop directive is attached to a `for` inside `s`.
    fn has_nested_loop_directive(&self, s: &Node<Statement>) -> bool {
        struct Finder<'a, 'b>(&'a Walker<'b>, bool);
        impl<'ast> lang_c::visit::Visit<'ast> for Finder<'_, '_> {
            fn visit_statement(&mut self, st: &'ast Statement, span: &'ast lang_c::span::Span) {
                if matches!(st, Statement::For(_)) && self.0.att.by_stmt.contains_key(&span.start) {
                    self.1 = true;
                }
                lang_c::visit::visit_statement(self, st, span);
            }
        }
        let mut f = Finder(self, false);
        lang_c::visit::Visit::visit_statement(&mut f, &s.node, &s.span);
        f.1
    }

    /// The trip count of a canonical loop as host C text, when its bounds
    /// are free of side effects.
    fn host_trip(&self, f: &Node<ForStatement>) -> Option<String> {
        let c = canonical(&f.node).ok()?;
        let text = |e: &Node<Expression>| -> Option<String> {
            super::effects::pure(e).then(|| self.text[e.span.start..e.span.end].to_string())
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
}

/// Which levels (gang, worker, vector) any loop of the body, or of a
/// routine it calls (whose level `level_of` gives), is partitioned on.
fn levels_used(b: &[Stmt], level_of: impl Fn(usize) -> crate::ir::RoutineLevel) -> Levels {
    use crate::ir::RoutineLevel as R;
    let mut used = Levels::default();
    crate::ir::walk_stmts(b, &mut |s| {
        if let Stmt::Call { func, .. } = s {
            let l = level_of(*func);
            used.gang |= l >= R::Gang;
            used.worker |= l >= R::Worker;
            used.vector |= l >= R::Vector;
        }
        if let Stmt::Loop(l) = s {
            if let Parallelism::Par {
                gang,
                worker,
                vector,
            } = l.par
            {
                used.gang |= gang;
                used.worker |= worker;
                used.vector |= vector;
            }
        }
    });
    used
}

/// The parameter locals the body assigns.
fn assigned_params(
    f: &crate::ir::Function,
    params: &[crate::ir::Param],
) -> Vec<crate::ir::LocalId> {
    let mut out = vec![];
    crate::ir::walk_stmts(&f.body, &mut |s| {
        if let Stmt::Assign { local, .. } = s {
            if params.iter().any(|p| p.local == *local) {
                out.push(*local);
            }
        }
    });
    out
}
