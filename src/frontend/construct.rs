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
use super::lower::{LoopReduction, Lower};
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
            | DirectiveKind::Wait(_)
            | DirectiveKind::Declare
            | DirectiveKind::Init
            | DirectiveKind::Shutdown
            | DirectiveKind::Set => {
                // Standalone: runs where its line is, before the statement.
                self.standalone(p);
                self.stmt_with(s, rest);
                Ok(())
            }
            DirectiveKind::Routine(_) => Err(Diagnostics::one(
                Some(self.pragma_loc(p, d.kind_span.start)),
                "'#pragma acc routine' without a name must be followed by a function declaration or definition",
            )),
            // Its host version is made for the whole file at the end
            // (`atomic_host_versions`); in a routine, the device version is
            // the routine's.
            DirectiveKind::Atomic(_) => {
                self.stmt_with(s, rest);
                Ok(())
            }
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
        // `reduction` on the construct itself (on a combined one: the loop's).
        let mut region_reds = vec![];
        let mut region_privs = vec![];
        for c in &d.clauses {
            match &c.kind {
                ClauseKind::Private(_) | ClauseKind::FirstPrivate(_) if combined => {}
                ClauseKind::Private(vars) | ClauseKind::FirstPrivate(vars) => {
                    let first = matches!(c.kind, ClauseKind::FirstPrivate(_));
                    for v in vars {
                        region_privs.push(self.private_item(p, v, first)?);
                    }
                }
                // (Not on `kernels`: the directive parser rejects it.)
                ClauseKind::Reduction { .. } if combined => {}
                ClauseKind::Reduction { op, vars } => {
                    for v in vars {
                        region_reds.push(self.reduction_item(p, *op, v)?);
                    }
                }
                ClauseKind::Data(_) | ClauseKind::If(_) => {}
                ClauseKind::Async(_) | ClauseKind::Wait(_) => {}
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
        let asyncs = self.asyncs(p, d)?;
        let items = self.data_items(p, d)?;
        let cond = self.if_cond(p, d)?;
        let loc = self.pragma_loc(p, d.kind_span.start);

        let kind = if serial {
            RegionKind::Serial
        } else if kernels {
            RegionKind::Kernels
        } else {
            RegionKind::Parallel
        };
        // A kernels construct holding several loop nests: one kernel per nest
        // (and per run of other statements), launched in order, inside one
        // data region (OpenACC 3.3 2.5.3).
        let segments = if kind == RegionKind::Kernels && !combined {
            self.kernels_segments(s)
        } else {
            vec![s]
        };
        let top_dirs: Vec<usize> = if combined { vec![p] } else { rest.to_vec() };
        let mut plans = vec![];
        for seg in &segments {
            let dirs: Vec<usize> = if segments.len() == 1 {
                top_dirs.clone()
            } else {
                self.att
                    .by_stmt
                    .get(&seg.span.start)
                    .cloned()
                    .unwrap_or_default()
            };
            let shared = items.iter().map(|i| i.var.clone()).collect();
            let mut plan =
                self.plan_loops(seg, &dirs, kind, Levels::default(), &region_reds, shared)?;
            plan.reduces |= !region_reds.is_empty();
            plans.push(plan);
        }
        for r in &region_reds {
            self.remarks.push((
                r.loc.clone(),
                format!(
                    "reduction({}:{}) across the gangs of the construct",
                    r.op.symbol(),
                    r.var
                ),
            ));
        }

        // Lower every segment. Scalars in data clauses live in device
        // memory; in `kernels`, so do the scalars the region assigns
        // (implicitly `copy`, OpenACC 3.3 2.5.3): found by lowering once,
        // then again.
        // Reduction variables too: their results outlive the region
        // (implicitly `copy`, OpenACC 3.3 2.6.2).
        let mut by_ref: std::collections::HashSet<String> = items
            .iter()
            .filter(|i| i.ty.is_c_arithmetic())
            .map(|i| i.var.clone())
            .chain(
                plans
                    .iter()
                    .flat_map(|p| p.loops.values())
                    .flat_map(|l| &l.reductions)
                    .chain(&region_reds)
                    .map(|r| r.var.clone()),
            )
            .chain(self.atomic_targets(s))
            .collect();
        let mut narrowed = vec![];
        let lowered = loop {
            narrowed.clear();
            let mut out = vec![];
            let mut more = vec![];
            let mut promoted = vec![];
            for (seg, plan) in segments.iter().zip(&plans) {
                let mut scope = self.scope.clone();
                let mut lower = Lower::new(
                    self.sm,
                    &mut scope,
                    &mut self.routines,
                    &plan.loops,
                    super::lower::Mode::Region,
                );
                lower.atomics = Some(&self.atomics);
                lower.text = self.text;
                lower.by_ref = by_ref.clone();
                lower.one_thread = kind == RegionKind::Serial;
                if region_reds.is_empty() && region_privs.is_empty() {
                    lower.stmt(seg)?;
                } else {
                    lower.region(seg, &region_reds, &region_privs)?;
                }
                promoted.append(&mut lower.promote);
                if let Some(at) = lower.narrowed.take() {
                    narrowed.push(at);
                }
                let (body, params, vars) = lower.finish();
                let assigned = assigned_params(&body, &params);
                more.extend(
                    vars.iter()
                        .zip(&params)
                        .filter(|(v, p)| {
                            kernels
                                && !v.by_ref
                                && v.size_of.is_none()
                                && v.ty.is_c_arithmetic()
                                && (assigned.contains(&p.local)
                                    // A long double or complex value is
                                    // written through its bytes.
                                    || (v.written && v.ty.real() == super::ctype::CType::LongDouble)
                                    || (v.written && v.ty.is_complex()))
                        })
                        .map(|(v, _)| v.name.clone()),
                );
                out.push((body, params, vars));
            }
            // Gang reductions inside other loops: the construct reduces.
            promoted.retain(|r: &LoopReduction| !region_reds.iter().any(|x| x.var == r.var));
            for r in &promoted {
                self.remarks.push((
                    r.loc.clone(),
                    format!(
                        "reduction({}:{}) across gangs inside another loop: each gang accumulates every run of the loop, combined at the end of the construct",
                        r.op.symbol(),
                        r.var
                    ),
                ));
            }
            if more.is_empty() && promoted.is_empty() {
                break out;
            }
            region_reds.extend(promoted);
            by_ref.extend(more);
        };

        for at in narrowed {
            self.remarks.push((at, super::lower::NARROWED.to_string()));
        }
        // A value broadcast to a worker's lanes meets at a row barrier,
        // which needs rows of whole warps or of a power of two lanes, as
        // reductions do.
        for (plan, (body, _, _)) in plans.iter_mut().zip(&lowered) {
            let mut row = false;
            crate::ir::walk_stmts(&body.body, &mut |st| {
                row |= matches!(st, Stmt::Barrier(crate::ir::BarrierScope::Row));
            });
            plan.reduces |= row;
        }
        if default_none {
            for v in lowered
                .iter()
                .flat_map(|l| &l.2)
                .filter(|v| v.size_of.is_none())
            {
                let has_attribute = items.iter().any(|i| i.whole && i.var == v.name)
                    || self.data_stack.iter().flatten().any(|x| x.var == v.name)
                    || region_reds.iter().any(|r| r.var == v.name)
                    || plans
                        .iter()
                        .flat_map(|p| p.loops.values())
                        .any(|l| l.reductions.iter().any(|r| r.var == v.name));
                if !has_attribute && (v.by_ref || !v.ty.is_c_arithmetic()) {
                    return Err(Diagnostics::one(
                        Some(loc),
                        format!("'{}' is used in the region but appears in no data clause, and the construct has 'default(none)'", v.name),
                    ));
                }
            }
        }

        // How each kernel uses the pointers it has no clause for (their
        // implicit sections: the union over the kernels).
        let mut uses = std::collections::HashMap::new();
        for (body, params, vars) in &lowered {
            super::extent::merge_uses(&mut uses, super::extent::pointer_uses(body, params, vars));
        }

        // One kernel: its maps and arguments. Several: one data region with
        // the clauses and every variable's implicit map, then the kernels.
        let whole_maps = if segments.len() > 1 {
            let (mut params, mut vars) = (vec![], vec![]);
            for (_, ps, vs) in &lowered {
                for (p, v) in ps.iter().zip(vs) {
                    if v.size_of.is_none()
                        && !vars
                            .iter()
                            .any(|x: &super::lower::HostVar| x.name == v.name)
                    {
                        params.push(p.clone());
                        vars.push(v.clone());
                    }
                }
            }
            let (maps, _) =
                self.kernel_data(&items, (&params, &vars), &uses, default_present, Some(&loc));
            // The region's queue, evaluated once, is every kernel's; its
            // waits come before the region's data.
            let mut outer = asyncs.clone();
            if outer.queue.is_some() {
                outer.bind = Some(format!("__accc_kq{}", s.span.start));
            }
            self.plan.constructs.push(Construct {
                kind: ConstructKind::Data { asyncs: outer },
                name: name.to_string(),
                loc: loc.clone(),
                stmt: s.span.start..s.span.end,
                cond: cond.clone(),
                maps,
            });
            let mut visible: Vec<super::data::Visible> = vars
                .iter()
                .map(|v| super::data::Visible {
                    var: v.name.clone(),
                    start: match (&v.ty, uses.get(&v.name)) {
                        _ if v.by_ref => format!("(const void *)&({})", v.name),
                        // The start of its implicit section.
                        (
                            crate::frontend::ctype::CType::Ptr(e),
                            Some(super::extent::Use::Known(sec)),
                        ) if !default_present => sec.host_map(&v.name, e.size()).start,
                        _ => format!("(const void *)({})", v.name),
                    },
                    deviceptr: false,
                    no_create: false,
                })
                .collect();
            visible.extend(
                items
                    .iter()
                    .filter(|i| i.whole)
                    .map(|i| super::data::Visible {
                        var: i.var.clone(),
                        start: i.map.start.clone(),
                        deviceptr: i.map.kind == crate::ir::host::MapKind::DevicePtr,
                        no_create: i.map.kind == crate::ir::host::MapKind::NoCreate,
                    }),
            );
            self.data_stack.push(visible);
            false
        } else {
            true
        };
        for ((seg, plan), (body, params, vars)) in segments.iter().zip(&plans).zip(lowered) {
            let (maps, args) = if whole_maps {
                self.kernel_data(&items, (&params, &vars), &uses, default_present, Some(&loc))
            } else {
                let none = std::collections::HashMap::new();
                let (_, args) =
                    self.kernel_data(&[], (&params, &vars), &none, default_present, None);
                (vec![], args)
            };
            let (launch, notes) = plan.launch(
                &sizes,
                call_levels(&body.body, |f| self.routines.level_of(f)),
            );
            self.remarks.extend(plan.sized_remarks(&launch));
            let kernel = self.module.kernels.len();
            let kloc = if whole_maps {
                loc.clone()
            } else {
                self.sm.loc(seg.span.start)
            };
            self.remarks
                .extend(notes.into_iter().map(|n| (kloc.clone(), n)));
            self.module.kernels.push(Kernel {
                name: format!(
                    "__accc_{}_{}_l{}_{}",
                    self.function, kernel, kloc.line, self.unit_tag
                ),
                construct: name.to_string(),
                loc: kloc.clone(),
                params,
                body,
                launch,
                scratch: None,
            });
            // In a region of several kernels: the region's queue (its
            // data region did the waits).
            let asyncs = if whole_maps {
                asyncs.clone()
            } else {
                crate::ir::host::AsyncSpec {
                    queue: asyncs
                        .queue
                        .as_ref()
                        .map(|_| Some(format!("__accc_kq{}", s.span.start))),
                    ..Default::default()
                }
            };
            self.plan.constructs.push(Construct {
                kind: ConstructKind::Compute {
                    kernel,
                    args,
                    asyncs,
                },
                name: name.to_string(),
                loc: kloc,
                stmt: seg.span.start..seg.span.end,
                cond: cond.clone(),
                maps,
            });
        }
        if !whole_maps {
            self.data_stack.pop();
        }
        Ok(())
    }

    /// The parts of a kernels construct's block that become kernels of
    /// their own: each statement holding a loop, and each run of other
    /// statements between them. One part (the whole) when the block
    /// declares something (later parts would need it) or holds fewer than
    /// two loops.
    fn kernels_segments<'s>(&self, s: &'s Node<Statement>) -> Vec<&'s Node<Statement>> {
        let Statement::Compound(items) = &s.node else {
            return vec![s];
        };
        let mut stmts = vec![];
        for item in items {
            match &item.node {
                BlockItem::Statement(st) => stmts.push(st),
                _ => return vec![s],
            }
        }
        let has_loop = |st: &Node<Statement>| {
            struct F(bool);
            impl<'ast> lang_c::visit::Visit<'ast> for F {
                fn visit_for_statement(
                    &mut self,
                    _: &'ast ForStatement,
                    _: &'ast lang_c::span::Span,
                ) {
                    self.0 = true;
                }
            }
            let mut f = F(false);
            lang_c::visit::Visit::visit_statement(&mut f, &st.node, &st.span);
            f.0
        };
        if stmts.iter().filter(|st| has_loop(st)).count() < 2 {
            return vec![s];
        }
        // Each statement is a segment of its own (runs of plain statements
        // would need a node spanning them; one small kernel each is correct).
        stmts
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
