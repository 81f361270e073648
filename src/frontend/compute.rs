//! Compute constructs (`parallel`, `kernels`, `serial` and their `loop`
//! forms), outlined as kernels in steps that each own one concern:
//! * gather the clauses ([`Walker::compute_clauses`] → [`Compute`]);
//! * the candidate loops of each segment ([`Walker::segment_loops`]);
//! * outline: lower each segment to a kernel body, its loops' levels
//!   undecided ([`Walker::outline`]; `schedule::plan_levels` decides);
//! * check `default(none)` ([`Walker::check_default_none`]);
//! * record the data: one data region for a `kernels` construct of several
//!   kernels ([`Walker::region_data`]), else each kernel's own maps, as
//!   the facts `schedule::data` decides from once the kernels are lowered
//!   (`ir::hostdata`);
//! * make each kernel (its size clauses; `schedule` computes its launch)
//!   and host construct ([`Walker::emit_kernel`]).
//!
//! Each segment is lowered once: in a `kernels` region every host scalar
//! is lowered by reference, recorded as demotable; the decide step makes
//! those no kernel of the region writes values (`schedule::demote`).
//!
//! Owns: `Walker::compute` and its steps, `Walker::host_kind`. May call:
//! `lower`, `loops`, `clauses`, `data`, `analysis::depend` (`HostKind`,
//! the fact recorded for the dependence test), `ir`; the walk's owners (`parsed`, `output`,
//! `place`) through their methods.

use super::clauses::DataItem;
use super::ctype::CType;
use super::lower::{HostVar, LoopReduction, LoopSpec, Lower, Private};
use super::unit::Walker;
use crate::analysis::depend::HostKind;
use crate::diag::{DResult, Diagnostics};
use crate::directive::{ClauseKind, DefaultKind, DirectiveKind};
use crate::ir::host::{AsyncSpec, Construct, ConstructKind, MapKind, Queue};
use crate::ir::hostdata::{DataScope, DataVar, UndecidedData, Visible};
use crate::ir::{
    ComputeKind, Function, HostType, Kernel, Param, ParamMode, Remark, SizeClauses, SrcLoc,
    UserExpr,
};
use lang_c::ast::*;
use lang_c::span::Node;
use std::collections::{HashMap, HashSet};

/// What a compute construct's directive says, gathered once.
struct Compute {
    name: &'static str,
    /// A combined construct (`parallel loop`, …).
    combined: bool,
    kind: ComputeKind,
    sizes: SizeClauses,
    default_none: bool,
    default_present: bool,
    /// `reduction` on the construct itself.
    region_reds: Vec<LoopReduction>,
    region_privs: Vec<Private>,
    asyncs: AsyncSpec,
    items: Vec<DataItem>,
    cond: Option<UserExpr>,
    loc: SrcLoc,
}

/// One segment lowered: the kernel body, its parameters and the host
/// variables they carry.
type Lowered = (Function, Vec<Param>, Vec<HostVar>);

/// The candidate loops of one segment, by the offset of their `for`
/// statements.
type Loops = HashMap<usize, LoopSpec>;

impl Walker<'_> {
    /// Outlines compute construct `p` on statement `s` (`rest`: the
    /// directives attached after it).
    pub(super) fn compute(&mut self, p: usize, rest: &[usize], s: &Node<Statement>) -> DResult<()> {
        let c = self.compute_clauses(p)?;
        // A kernels construct holding several loop nests: one kernel per nest
        // (and per run of other statements), launched in order, inside one
        // data region (OpenACC 3.3 2.5.3).
        let segments = if c.kind == ComputeKind::Kernels && !c.combined {
            self.kernels_segments(s)
        } else {
            vec![s]
        };
        let top_dirs: Vec<usize> = if c.combined { vec![p] } else { rest.to_vec() };
        let loops = self.segment_loops(&segments, &top_dirs, &c)?;
        let lowered = self.outline(s, &segments, &loops, &c)?;
        if c.default_none {
            self.check_default_none(&c, &loops, &lowered)?;
        }
        // One kernel: its data. Several: one data region with the clauses
        // and every variable's implicit map, then the kernels (what each
        // decides: `schedule::data`).
        let region = (segments.len() > 1).then(|| self.region_data(s, &c, &lowered));
        for (seg, body) in segments.iter().zip(lowered) {
            self.emit_kernel(s, seg, body, &c, region.as_deref());
        }
        Ok(())
    }

    /// Gathers the clauses of compute directive `p`; clauses later work
    /// will implement are "not supported yet" errors.
    fn compute_clauses(&self, p: usize) -> DResult<Compute> {
        let d = &self.unit.dirs[p];
        let name = d.kind.name();
        use DirectiveKind as K;
        let combined = matches!(d.kind, K::ParallelLoop | K::KernelsLoop | K::SerialLoop);
        let kind = match d.kind {
            K::Serial | K::SerialLoop => ComputeKind::Serial,
            K::Kernels | K::KernelsLoop => ComputeKind::Kernels,
            _ => ComputeKind::Parallel,
        };
        let ctx = self.clause_ctx(p);
        let mut sizes = SizeClauses::default();
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
                        sizes.num_gangs.push(ctx.user_expr(e, HostType::LongLong)?);
                    }
                }
                ClauseKind::NumWorkers(e) => {
                    sizes.num_workers = Some(ctx.user_expr(e, HostType::LongLong)?)
                }
                ClauseKind::VectorLength(e) => {
                    sizes.vector_length = Some(ctx.user_expr(e, HostType::LongLong)?)
                }
                ClauseKind::Default(DefaultKind::None) => default_none = true,
                // The loop clauses of a combined construct: see `loops`.
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
        Ok(Compute {
            name,
            combined,
            kind,
            sizes,
            default_none,
            default_present,
            region_reds,
            region_privs,
            asyncs: self.asyncs(p, d)?,
            items: self.data_items(p, d)?,
            cond: self.if_cond(p, d)?,
            loc: self.unit.pragma_loc(p, d.kind_span.start),
        })
    }

    /// The candidate loops of each segment (`top_dirs`: the loop
    /// directives of a single segment); remarks for the construct's own
    /// reductions.
    fn segment_loops(
        &mut self,
        segments: &[&Node<Statement>],
        top_dirs: &[usize],
        c: &Compute,
    ) -> DResult<Vec<Loops>> {
        let mut out = vec![];
        for seg in segments {
            let dirs: Vec<usize> = if segments.len() == 1 {
                top_dirs.to_vec()
            } else {
                self.unit
                    .att
                    .by_stmt
                    .get(&seg.span.start)
                    .cloned()
                    .unwrap_or_default()
            };
            out.push(self.loop_specs(seg, &dirs, c.kind)?);
        }
        for r in &c.region_reds {
            self.out.remark(
                r.loc.clone(),
                format!(
                    "reduction({}:{}) across the gangs of the construct",
                    r.op.symbol(),
                    r.var
                )
                .into(),
            );
        }
        Ok(out)
    }

    /// Lowers every segment, once. Scalars in data clauses live in device
    /// memory; in `kernels`, every host scalar is lowered in device memory
    /// too, recorded as demotable (`HostVar::demotable`): `schedule::demote`
    /// makes those no kernel of the region writes values once the region
    /// is lowered (the assigned ones are implicitly `copy`, OpenACC 3.3
    /// 2.5.3). Reduction variables live in device memory too: their
    /// results outlive the region (implicitly `copy`, OpenACC 3.3 2.6.2),
    /// and so do the variables of plain `for` loops declared outside them
    /// (their C form assigns them, unseen by the demotion).
    fn outline(
        &mut self,
        s: &Node<Statement>,
        segments: &[&Node<Statement>],
        loops: &[Loops],
        c: &Compute,
    ) -> DResult<Vec<Lowered>> {
        let by_ref: HashSet<String> = c
            .items
            .iter()
            .filter(|i| i.ty.is_c_arithmetic())
            .map(|i| i.var.clone())
            .chain(
                loops
                    .iter()
                    .flat_map(|l| l.values())
                    .flat_map(|l| &l.reductions)
                    .chain(&c.region_reds)
                    .map(|r| r.var.clone()),
            )
            .chain(self.atomic_targets(s))
            // The C form of a plain `for` loop assigns its variable.
            .chain(
                loops
                    .iter()
                    .flat_map(|l| l.values())
                    .filter_map(|l| l.outside.clone()),
            )
            .collect();
        let kernels = c.kind == ComputeKind::Kernels;
        let (mut out, mut narrowed) = (vec![], vec![]);
        for (seg, l) in segments.iter().zip(loops) {
            let (l, n) = self.lower_segment(seg, l, c, &by_ref, kernels)?;
            narrowed.extend(n);
            out.push(l);
        }
        for at in narrowed {
            self.out.remark(at, super::lower::NARROWED.into());
        }
        Ok(out)
    }

    /// The lowering of segment `seg` (its candidate loops `loops`) with
    /// the variables `by_ref` (or, with `all`, every host scalar) in device
    /// memory: the kernel, and where long double was narrowed.
    fn lower_segment(
        &mut self,
        seg: &Node<Statement>,
        loops: &Loops,
        c: &Compute,
        by_ref: &HashSet<String>,
        all: bool,
    ) -> DResult<(Lowered, Option<SrcLoc>)> {
        let mut scope = self.scope.clone();
        let mut lower = Lower::new(
            self.unit,
            &mut scope,
            &mut self.routines,
            loops,
            super::lower::Mode::Region,
        )
        .with_by_ref(by_ref.clone(), all);
        if c.region_reds.is_empty() && c.region_privs.is_empty() {
            lower.stmt(seg)?;
        } else {
            lower.region(seg, &c.region_reds, &c.region_privs)?;
        }
        let narrowed = lower.take_narrowed();
        let cached = lower.take_cache_remarks();
        let lowered = lower.finish();
        for (at, r) in cached {
            self.out.remark(at, r);
        }
        Ok((lowered, narrowed))
    }

    /// `default(none)`: every variable the region uses needs a data
    /// attribute, but for scalars it only reads (implicitly firstprivate).
    /// Which demotable scalars a `kernels` region writes is known once it
    /// is lowered: `schedule::demote` checks those
    /// ([`UndecidedData::default_none`]).
    fn check_default_none(&self, c: &Compute, loops: &[Loops], lowered: &[Lowered]) -> DResult<()> {
        for v in lowered
            .iter()
            .flat_map(|l| &l.2)
            .filter(|v| v.size_of.is_none())
        {
            let has_attribute = c.items.iter().any(|i| i.whole && i.var == v.name)
                || self.place.visible(&v.name).is_some()
                || c.region_reds.iter().any(|r| r.var == v.name)
                || loops
                    .iter()
                    .flat_map(|l| l.values())
                    .any(|l| l.reductions.iter().any(|r| r.var == v.name));
            if !has_attribute && ((v.by_ref && !v.demotable) || !v.ty.is_c_arithmetic()) {
                return Err(Diagnostics::one(
                    Some(c.loc.clone()),
                    format!("'{}' is used in the region but appears in no data clause, and the construct has 'default(none)'", v.name),
                ));
            }
        }
        Ok(())
    }

    /// The data region of a `kernels` construct of several kernels: the
    /// clauses and every variable's implicit map, around the kernels, as
    /// recorded for `schedule::data` ([`DataScope::Region`]). Gives what
    /// its clauses name, which its kernels see ([`DataScope::InRegion`]:
    /// the others see what it maps implicitly).
    fn region_data(
        &mut self,
        s: &Node<Statement>,
        c: &Compute,
        lowered: &[Lowered],
    ) -> Vec<Visible> {
        let first = self.out.next_kernel();
        let mut vars: Vec<DataVar> = vec![];
        for (k, (_, _, vs)) in lowered.iter().enumerate() {
            for v in self.data_vars(first + k, vs, &c.items) {
                if v.facts.size_of.is_none() && !vars.iter().any(|x| x.facts.name == v.facts.name) {
                    vars.push(v);
                }
            }
        }
        self.out
            .remark(c.loc.clone(), Remark::Maps { kernel: first });
        // The region's queue, evaluated once, is every kernel's; its
        // waits come before the region's data.
        let mut outer = c.asyncs.clone();
        if outer.queue.is_some() {
            outer.bind = Some(s.span.start);
        }
        self.out.construct(Construct {
            kind: ConstructKind::Data { asyncs: outer },
            name: c.name.to_string(),
            loc: c.loc.clone(),
            stmt: s.span.start..s.span.end,
            cond: c.cond.clone(),
            maps: Self::maps_of(&c.items),
            body: vec![],
            undecided: Some(Box::new(UndecidedData {
                scope: DataScope::Region {
                    kernels: (first..first + lowered.len()).collect(),
                },
                vars,
                default_present: c.default_present,
                default_none: c.default_none,
                loc: c.loc.clone(),
            })),
        });
        // A `deviceptr` or `no_create` variable keeps what its clause
        // says in every kernel of the region.
        c.items
            .iter()
            .filter(|i| i.whole)
            .map(|i| Visible {
                var: i.var.clone(),
                start: i.map.start.clone(),
                deviceptr: i.map.kind == MapKind::DevicePtr,
                no_create: i.map.kind == MapKind::NoCreate,
            })
            .collect()
    }

    /// What the dependence test may assume of host variable `v`, a
    /// kernel parameter: a scalar, memory of its own (an array, a
    /// `restrict` pointer) or memory that may overlap another's.
    fn host_kind(&self, v: &HostVar) -> HostKind {
        match &v.ty {
            _ if v.size_of.is_some() => HostKind::MayAlias,
            t if t.is_c_arithmetic() => HostKind::Scalar,
            _ => match self.scope.lookup(&v.name) {
                Some(x) if x.restrict || matches!(x.ty, CType::Array(..) | CType::Vla(..)) => {
                    HostKind::NoAlias
                }
                _ => HostKind::MayAlias,
            },
        }
    }

    /// Segment `seg` of construct `s` as a kernel: its data (its own maps
    /// unless `region` gives the clauses of the data region of a `kernels`
    /// construct of several kernels around it), its launch, and its host
    /// construct.
    fn emit_kernel(
        &mut self,
        s: &Node<Statement>,
        seg: &Node<Statement>,
        (body, mut params, vars): Lowered,
        c: &Compute,
        region: Option<&[Visible]>,
    ) {
        let in_region = region.is_some();
        let kernel = self.out.next_kernel();
        let (scope, data, maps) = match region {
            // What the region's clauses give (the others: what it maps
            // implicitly, once decided).
            Some(named) => {
                let mut data = self.data_vars(kernel, &vars, &[]);
                for v in &mut data {
                    v.facts.clause = named.iter().find(|x| x.var == v.facts.name).cloned();
                }
                (DataScope::InRegion, data, vec![])
            }
            None => {
                self.out.remark(c.loc.clone(), Remark::Maps { kernel });
                let data = self.data_vars(kernel, &vars, &c.items);
                (DataScope::Kernel, data, Self::maps_of(&c.items))
            }
        };
        let undecided = UndecidedData {
            scope,
            vars: data,
            default_present: c.default_present,
            default_none: c.default_none,
            loc: c.loc.clone(),
        };
        let kloc = if in_region {
            self.unit.sm.loc(seg.span.start)
        } else {
            c.loc.clone()
        };
        // What `schedule` says of the launch (after the loops' remarks,
        // `schedule::plan_levels`'s).
        self.out.remark(kloc.clone(), Remark::Launch { kernel });
        // The pointers' fact (the dependence test's, the back end's):
        // memory of their own.
        for (p, v) in params.iter_mut().zip(&vars) {
            p.own = p.mode == ParamMode::DevicePtr && self.host_kind(v) == HostKind::NoAlias;
        }
        self.out.add_kernel(Kernel {
            name: format!(
                "__accc_{}_{}_l{}_{}",
                self.place.function(),
                kernel,
                kloc.line,
                self.unit.unit_tag
            ),
            construct: c.name.to_string(),
            loc: kloc.clone(),
            params,
            body,
            sizes: c.sizes.clone(),
            launch: None,
            scratch: None,
            kind: c.kind,
        });
        // In a region of several kernels: the region's queue (its data
        // region did the waits).
        let asyncs = if in_region {
            AsyncSpec {
                queue: c.asyncs.queue.as_ref().map(|_| Queue::Bound(s.span.start)),
                ..Default::default()
            }
        } else {
            c.asyncs.clone()
        };
        let mut compute = Construct {
            kind: ConstructKind::Compute {
                kernel,
                args: vec![],
                asyncs,
                launch: None,
            },
            name: c.name.to_string(),
            loc: kloc,
            stmt: seg.span.start..seg.span.end,
            cond: c.cond.clone(),
            maps,
            body: vec![],
            undecided: Some(Box::new(undecided)),
        };
        compute.body.push(compute.host_fallback());
        self.out.construct(compute);
    }
}
