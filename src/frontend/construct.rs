//! Constructs: a `data` construct becomes a host data region; a compute
//! construct (`parallel`, `kernels`, `serial`, and their combined `loop`
//! forms) is outlined as a kernel with its data maps, arguments and launch
//! geometry. Clauses that later work will implement are rejected here with a
//! "not supported yet" error at the clause.
//!
//! Owns: `Walker::construct` and the choice of gang/worker/vector levels for
//! loops inside a region. May call: `lower`, `clauses`, `canon`, `ir`.

use super::clauses::ClauseCtx;
use super::levels::{Levels, RegionKind, Sizes};
use super::lower::Lower;
use super::unit::Walker;
use crate::diag::{DResult, Diagnostics};
use crate::directive::{Clause, ClauseKind, DefaultKind, DirectiveKind};
use crate::ir::host::{Construct, ConstructKind};
use crate::ir::{Kernel, Stmt};
use lang_c::ast::*;
use lang_c::span::Node;

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
        let mut sizes = Sizes::default();
        let (mut default_none, mut default_present) = (false, false);
        for c in &d.clauses {
            match &c.kind {
                ClauseKind::Data(_) | ClauseKind::If(_) => {}
                ClauseKind::Default(DefaultKind::Present) => default_present = true,
                ClauseKind::NumGangs(v) => {
                    for e in v {
                        sizes.num_gangs.push(ctx.check_expr(e)?);
                    }
                }
                ClauseKind::NumWorkers(e) => sizes.num_workers = Some(ctx.check_expr(e)?),
                ClauseKind::VectorLength(e) => sizes.vector_length = Some(ctx.check_expr(e)?),
                ClauseKind::Default(DefaultKind::None) => default_none = true,
                // The loop clauses of a combined construct: see `levels`.
                ClauseKind::Gang(_)
                | ClauseKind::Worker(_)
                | ClauseKind::Vector(_)
                | ClauseKind::Seq
                | ClauseKind::Independent
                | ClauseKind::Auto
                | ClauseKind::Collapse { .. }
                | ClauseKind::Tile(_)
                    if combined => {}
                _ => return self.not_yet(p, c, name),
            }
        }
        let items = self.data_items(p, d)?;
        let cond = self.if_cond(p, d)?;
        let loc = self.pragma_loc(p, d.kind_span.start);

        // Loop levels, by the offset of each `for` with a loop directive.
        let top_dirs: Vec<usize> = if combined { vec![p] } else { rest.to_vec() };
        let kind = if serial {
            RegionKind::Serial
        } else if kernels {
            RegionKind::Kernels
        } else {
            RegionKind::Parallel
        };
        let plan = self.plan_loops(s, &top_dirs, kind, Levels::default())?;
        let loops = plan.loops.clone();

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
        let launch = plan.launch(
            &sizes,
            call_levels(&body.body, |f| self.routines.level_of(f)),
        );
        self.remarks.extend(plan.remarks.iter().cloned());
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
}

/// The levels the routines the body calls use (their `level_of`).
fn call_levels(b: &[Stmt], level_of: impl Fn(usize) -> crate::ir::RoutineLevel) -> Levels {
    use crate::ir::RoutineLevel as R;
    let mut used = Levels::default();
    crate::ir::walk_stmts(b, &mut |s| {
        if let Stmt::Call { func, .. } = s {
            let l = level_of(*func);
            used.gang |= l >= R::Gang;
            used.worker |= l >= R::Worker;
            used.vector |= l >= R::Vector;
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
