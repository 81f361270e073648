//! The data environment (OpenACC 3.3 2.6–2.8, 2.13, 2.14.4–2.14.7): data
//! clauses as host maps, the `data`, `enter data`, `exit data`, `update`,
//! `host_data` and `declare` directives, and what the front end records
//! of a compute construct's data.
//!
//! Owns: the `Walker` methods for those directives, and the host side of a
//! compute construct's data ([`Walker::data_vars`]: the facts of its host
//! variables, [`Walker::host_facts`], which `schedule::data` gives
//! `analysis::data_attrs` to decide once the kernels are lowered). What
//! the enclosing data constructs map ([`Visible`]) is `place`'s: these
//! methods enter and leave its data regions. Standalone directives
//! (`enter data`, `exit data`, `update`, `declare` in a function) replace
//! their own blanked line.
//! May call: `clauses`, `ir::host`, `ir::hostdata`; the walk's
//! owners (`parsed`, `output`, `place`) through their methods.

use super::clauses::{BarePointer, ClauseCtx, DataItem};
use super::ctype::CType;
use super::lower::HostVar;
use super::unit::Walker;
use crate::diag::{DResult, Diagnostics};
use crate::directive::{Clause, ClauseKind, DataKind, Directive, DirectiveKind, WaitArg};
use crate::ir::host::{
    AsyncSpec, Construct, ConstructKind, HostMap, MapKind, Queue, UpdateItem, MAP_ALWAYSIN,
    MAP_ALWAYSOUT, MAP_READONLY, MAP_ZERO,
};
use crate::ir::hostdata::{DataVar, HostFacts, Shape, Visible};
use crate::ir::{HostType, SrcLoc, UserExpr};
use lang_c::ast::Statement;
use lang_c::span::Node;

/// How a data clause becomes maps on a given directive.
fn map_kind(k: DataKind) -> Option<MapKind> {
    Some(match k {
        DataKind::Copy => MapKind::Copy,
        DataKind::CopyIn => MapKind::CopyIn,
        DataKind::CopyOut => MapKind::CopyOut,
        DataKind::Create | DataKind::DeviceResident => MapKind::Create,
        DataKind::Present => MapKind::Present,
        DataKind::NoCreate => MapKind::NoCreate,
        DataKind::Delete => MapKind::Delete,
        DataKind::Attach => MapKind::Attach,
        DataKind::Detach => MapKind::Detach,
        DataKind::DevicePtr => MapKind::DevicePtr,
        DataKind::UseDevice
        | DataKind::Link
        | DataKind::Host
        | DataKind::Device
        | DataKind::UpdateSelf => return None,
    })
}

impl Walker<'_> {
    /// The clause context of directive `p`.
    pub fn clause_ctx(&self, p: usize) -> ClauseCtx<'_> {
        ClauseCtx::new(self.unit.sm, &self.scope, self.unit.pragmas[p].text_start)
    }

    /// The data clauses of directive `p` as data items, in clause order; a
    /// sub-array through a pointer member is followed by its attach (on
    /// `exit data`: its detach).
    pub fn data_items(&self, p: usize, d: &Directive) -> DResult<Vec<DataItem>> {
        let ctx = self.clause_ctx(p);
        let mut items = vec![];
        for c in &d.clauses {
            let ClauseKind::Data(dc) = &c.kind else {
                continue;
            };
            let Some(kind) = map_kind(dc.kind) else {
                continue;
            };
            let flags = [
                (dc.zero, MAP_ZERO),
                (dc.readonly, MAP_READONLY),
                (dc.always_in, MAP_ALWAYSIN),
                (dc.always_out, MAP_ALWAYSOUT),
            ]
            .iter()
            .filter(|(on, _)| *on)
            .fold(0, |f, (_, bit)| f | bit);
            let exit = d.kind == DirectiveKind::ExitData;
            for v in &dc.vars {
                let item = match kind {
                    MapKind::Attach | MapKind::Detach => ctx.pointer_item(v, kind)?,
                    MapKind::DevicePtr => {
                        let it = ctx.pointer_item(v, kind)?;
                        if !it.whole || !v.path.is_empty() {
                            return self.clause_err(
                                p,
                                c,
                                format!(
                                    "'{}' in a deviceptr clause must be a pointer variable",
                                    v.text
                                ),
                            );
                        }
                        it
                    }
                    _ => ctx.data_item(v, kind, flags, exit)?,
                };
                items.push(item);
            }
        }
        Ok(items)
    }

    /// The maps of data items: each item, its rows (through pointers to
    /// pointers), then the pointer it attaches.
    pub fn maps_of(items: &[DataItem]) -> Vec<HostMap> {
        let mut maps = vec![];
        for i in items {
            maps.push(i.map.clone());
            maps.extend(i.rows.iter().cloned());
            maps.extend(i.attach.clone());
        }
        maps
    }

    /// What the data items give their variables, for nested constructs.
    fn visible(items: &[DataItem]) -> Vec<Visible> {
        // An attach or detach item names the pointer's own storage, not
        // what it points to: it gives the variable no data attribute.
        items
            .iter()
            .filter(|i| {
                i.whole
                    && !matches!(
                        i.map.kind,
                        MapKind::Attach | MapKind::Detach | MapKind::Delete
                    )
            })
            .map(|i| Visible {
                var: i.var.clone(),
                start: i.map.start.clone(),
                deviceptr: i.map.kind == MapKind::DevicePtr,
                no_create: i.map.kind == MapKind::NoCreate,
            })
            .collect()
    }

    pub fn clause_err<T>(&self, p: usize, c: &Clause, msg: String) -> DResult<T> {
        Err(Diagnostics::one(
            Some(self.unit.pragma_loc(p, c.span.start)),
            msg,
        ))
    }

    /// The `if` clause's condition.
    pub fn if_cond(&self, p: usize, d: &Directive) -> DResult<Option<UserExpr>> {
        for c in &d.clauses {
            if let ClauseKind::If(e) = &c.kind {
                return Ok(Some(self.clause_ctx(p).user_expr(e, HostType::Bool)?));
            }
        }
        Ok(None)
    }

    /// The `async` and `wait` clauses (of the `wait` directive: its
    /// argument and its `async` clause).
    pub fn asyncs(&self, p: usize, d: &Directive) -> DResult<AsyncSpec> {
        let ctx = self.clause_ctx(p);
        let mut a = AsyncSpec::default();
        let wait = |w: &Option<WaitArg>, a: &mut AsyncSpec| -> DResult<()> {
            let mut qs = vec![];
            if let Some(w) = w {
                if let Some(dev) = &w.devnum {
                    a.wait_dev = Some(ctx.user_expr(dev, HostType::Int)?);
                }
                for q in &w.queue_exprs {
                    qs.push(ctx.user_expr(q, HostType::Int)?);
                }
            }
            a.waits = Some(qs);
            Ok(())
        };
        for c in &d.clauses {
            match &c.kind {
                ClauseKind::Async(e) => {
                    a.queue = Some(match e {
                        Some(e) => Queue::Expr(ctx.user_expr(e, HostType::Int)?),
                        None => Queue::NoVal,
                    })
                }
                ClauseKind::Wait(w) => wait(w, &mut a)?,
                _ => {}
            }
        }
        if let DirectiveKind::Wait(w) = &d.kind {
            wait(w, &mut a)?;
        }
        Ok(a)
    }

    /// The construct record every directive pushes.
    fn push_construct(
        &mut self,
        p: usize,
        kind: ConstructKind,
        stmt: std::ops::Range<usize>,
        cond: Option<UserExpr>,
        maps: Vec<HostMap>,
    ) {
        let d = &self.unit.dirs[p];
        self.out.construct(Construct {
            kind,
            name: d.kind.name().to_string(),
            loc: self.unit.pragma_loc(p, d.kind_span.start),
            stmt,
            cond,
            maps,
            body: vec![],
            undecided: None,
        });
    }

    /// The remarks of a construct's data clauses (`generating copyin(a[0:n])`,
    /// for `-Minfo=accel`); attach items follow from their data items.
    fn data_remarks(&mut self, loc: &SrcLoc, maps: &[HostMap]) {
        for t in crate::ir::map_lines(maps) {
            self.out.remark(loc.clone(), t.into());
        }
    }

    /// A `data` construct: a data region around its statement.
    pub fn data(&mut self, p: usize, rest: &[usize], s: &Node<Statement>) -> DResult<()> {
        let d = &self.unit.dirs[p];
        let items = self.data_items(p, d)?;
        let cond = self.if_cond(p, d)?;
        let asyncs = self.asyncs(p, d)?;
        self.place.enter_data(Self::visible(&items));
        let maps = Self::maps_of(&items);
        let loc = self.unit.pragma_loc(p, d.kind_span.start);
        self.data_remarks(&loc, &maps);
        self.push_construct(
            p,
            ConstructKind::Data { asyncs },
            s.span.start..s.span.end,
            cond,
            maps,
        );
        self.stmt_with(s, rest);
        self.place.leave_data();
        Ok(())
    }

    /// A standalone directive (`enter data`, `exit data`, `update`,
    /// `declare` in a function, …) at pragma `p`: replaces its own line.
    pub fn standalone(&mut self, p: usize) {
        let r = self.standalone_directive(p);
        self.out.report(r);
    }

    fn standalone_directive(&mut self, p: usize) -> DResult<()> {
        let d = &self.unit.dirs[p];
        let line = self.unit.pragmas[p].start..self.unit.pragmas[p].end;
        let cond = self.if_cond(p, d)?;
        match &d.kind {
            DirectiveKind::EnterData | DirectiveKind::ExitData => {
                let items = self.data_items(p, d)?;
                let asyncs = self.asyncs(p, d)?;
                let kind = if d.kind == DirectiveKind::EnterData {
                    ConstructKind::EnterData { asyncs }
                } else {
                    let finalize = d.clauses.iter().any(|c| c.kind == ClauseKind::Finalize);
                    ConstructKind::ExitData { finalize, asyncs }
                };
                if items.is_empty() {
                    return Err(Diagnostics::one(
                        Some(self.unit.pragma_loc(p, d.kind_span.start)),
                        format!("'{}' needs at least one data clause", d.kind.name()),
                    ));
                }
                self.push_construct(p, kind, line, cond, Self::maps_of(&items));
            }
            DirectiveKind::Update => {
                let ctx = self.clause_ctx(p);
                let mut updates = vec![];
                for c in &d.clauses {
                    let ClauseKind::Data(dc) = &c.kind else {
                        continue;
                    };
                    let to_device = match dc.kind {
                        DataKind::Device => true,
                        DataKind::Host | DataKind::UpdateSelf => false,
                        _ => continue,
                    };
                    for v in &dc.vars {
                        let (_, r) = ctx.range_of(v, BarePointer::Block)?;
                        if !r.rows.is_empty() {
                            return self.clause_err(
                                p,
                                c,
                                format!("'{}': 'update' of a sub-array through pointers to pointers is not supported; update one row at a time (one pointer's section, such as 'a[i][0:m]')", v.text),
                            );
                        }
                        if !to_device {
                            ctx.check_writable(v, "update self")?;
                        }
                        updates.push(UpdateItem {
                            name: v.text.clone(),
                            start: r.start,
                            bytes: r.bytes,
                            to_device,
                            block: r.block,
                        });
                    }
                }
                if updates.is_empty() {
                    return Err(Diagnostics::one(
                        Some(self.unit.pragma_loc(p, d.kind_span.start)),
                        "'update' needs at least one 'self', 'host' or 'device' clause",
                    ));
                }
                let if_present = d.clauses.iter().any(|c| c.kind == ClauseKind::IfPresent);
                let asyncs = self.asyncs(p, d)?;
                self.push_construct(
                    p,
                    ConstructKind::Update {
                        items: updates,
                        if_present,
                        asyncs,
                    },
                    line,
                    cond,
                    vec![],
                );
            }
            DirectiveKind::Wait(_) => {
                let asyncs = self.asyncs(p, d)?;
                self.push_construct(p, ConstructKind::Wait { asyncs }, line, cond, vec![]);
            }
            DirectiveKind::Declare => {
                let items = self.data_items(p, d)?;
                for c in &d.clauses {
                    if let ClauseKind::Data(dc) = &c.kind {
                        if dc.kind == DataKind::Link {
                            return self.clause_err(
                                p,
                                c,
                                "'link' is for global variables ('declare' at file scope)".into(),
                            );
                        }
                    }
                }
                self.place.declare(Self::visible(&items));
                // The region: from the directive to the end of the block.
                let end = self.place.block_end().unwrap_or(line.end);
                self.push_construct(
                    p,
                    ConstructKind::DeclareLocal,
                    line.start..end.max(line.end),
                    None,
                    Self::maps_of(&items),
                );
            }
            DirectiveKind::Init | DirectiveKind::Shutdown | DirectiveKind::Set => {
                let kind = ConstructKind::Device(self.device_directive(p, d)?);
                self.push_construct(p, kind, line, cond, vec![]);
            }
            k => {
                return Err(Diagnostics::one(
                    Some(self.unit.pragma_loc(p, d.kind_span.start)),
                    format!("the '{}' directive is not supported yet", k.name()),
                ))
            }
        }
        Ok(())
    }

    /// `host_data use_device(…)`: the statement sees device addresses.
    pub fn host_data(&mut self, p: usize, rest: &[usize], s: &Node<Statement>) -> DResult<()> {
        let d = &self.unit.dirs[p];
        let mut vars = vec![];
        for c in &d.clauses {
            let ClauseKind::Data(dc) = &c.kind else {
                continue;
            };
            if dc.kind != DataKind::UseDevice {
                continue;
            }
            for v in &dc.vars {
                let sym = self.scope.lookup(&v.base.name);
                match sym.map(|s| &s.ty) {
                    Some(CType::Ptr(_) | CType::Array(..) | CType::Vla(..))
                        if v.path.is_empty() => {}
                    _ => {
                        return self.clause_err(
                            p,
                            c,
                            format!(
                                "'{}' in use_device must be a pointer or array variable",
                                v.text
                            ),
                        )
                    }
                };
                vars.push(v.base.name.clone());
            }
        }
        let if_present = d.clauses.iter().any(|c| c.kind == ClauseKind::IfPresent);
        let cond = self.if_cond(p, d)?;
        self.push_construct(
            p,
            ConstructKind::HostData { vars, if_present },
            s.span.start..s.span.end,
            cond,
            vec![],
        );
        self.stmt_with(s, rest);
        Ok(())
    }

    /// The data of a compute construct as the front end records it (issue
    /// 16): the facts of the host variables `vars` behind the parameters
    /// of kernel `kernel` under the construct's data items `items`
    /// ([`Walker::host_facts`]), for `schedule::data` to decide with
    /// `analysis::data_attrs` once the kernels are lowered.
    pub fn data_vars(&self, kernel: usize, vars: &[HostVar], items: &[DataItem]) -> Vec<DataVar> {
        vars.iter()
            .enumerate()
            .map(|(param, v)| DataVar {
                kernel,
                param,
                facts: self.host_facts(v, items),
            })
            .collect()
    }

    /// What the C source says of host variable `var` for its data
    /// attributes, under a construct with the data items `items`: its
    /// type's class, whether it is a const object, and the clause (of the
    /// construct, else of the innermost enclosing data construct) that
    /// names it.
    pub fn host_facts(&self, var: &HostVar, items: &[DataItem]) -> HostFacts {
        let clause = Self::visible(items)
            .into_iter()
            .find(|v| v.var == var.name)
            .or_else(|| self.place.visible(&var.name).cloned());
        HostFacts {
            name: var.name.clone(),
            size_of: var.size_of.clone(),
            by_ref: var.by_ref,
            demotable: var.demotable,
            shape: match &var.ty {
                CType::Array(_, Some(_)) | CType::Vla(..) => Shape::Array,
                CType::Ptr(elem) => Shape::Pointer { elem: elem.size() },
                _ => Shape::Other,
            },
            const_object: self.scope.lookup(&var.name).is_some_and(|s| s.readonly),
            clause,
            member_in_clause: items.iter().any(|i| i.var == var.name),
        }
    }
}

impl Walker<'_> {
    /// The directives at file scope (outside every function): `declare`
    /// registers its globals with the runtime; other standalone directives
    /// cannot be there.
    pub fn file_scope_directives(&mut self) {
        let inside = |w: &Self, p: usize| {
            let (s, e) = (w.unit.pragmas[p].start, w.unit.pragmas[p].end);
            w.unit
                .fn_defs
                .values()
                .any(|f| f.span.start <= s && e <= f.span.end)
        };
        for p in 0..self.unit.dirs.len() {
            let d = &self.unit.dirs[p];
            if !d.kind.is_standalone() || inside(self, p) {
                continue;
            }
            let r = if d.kind == DirectiveKind::Declare {
                self.global_declare(p)
            } else {
                Err(Diagnostics::one(
                    Some(self.unit.pragma_loc(p, d.kind_span.start)),
                    format!("'#pragma acc {}' must be inside a function", d.kind.name()),
                ))
            };
            self.out.report(r);
        }
    }

    /// A file-scope `declare`: its global variables get device copies for
    /// the whole program (create, copyin, device_resident) or follow the
    /// data clauses that map them (link).
    fn global_declare(&mut self, p: usize) -> DResult<()> {
        let d = &self.unit.dirs[p];
        let loc = self.unit.pragma_loc(p, d.kind_span.start);
        let ctx = self.clause_ctx(p);
        let mut out = vec![];
        for c in &d.clauses {
            let ClauseKind::Data(dc) = &c.kind else {
                continue;
            };
            let kind = match dc.kind {
                DataKind::Create | DataKind::DeviceResident => MapKind::Create as i32,
                DataKind::CopyIn => MapKind::CopyIn as i32,
                DataKind::Link => crate::ir::host::DECLARE_LINK,
                _ => {
                    return self.clause_err(
                        p,
                        c,
                        format!("a 'declare' directive at file scope may only use create, copyin, device_resident and link, not '{}'", c.name().as_str()),
                    )
                }
            };
            for v in &dc.vars {
                if !v.path.is_empty() {
                    return self.clause_err(
                        p,
                        c,
                        format!("'{}': a file-scope 'declare' names whole variables", v.text),
                    );
                }
                let (_, r) = ctx.range_of(v, BarePointer::Error)?;
                out.push((
                    v.base.name.clone(),
                    crate::ir::host::GlobalDeclare {
                        name: v.text.clone(),
                        start: r.start,
                        bytes: r.bytes,
                        kind,
                        loc: loc.clone(),
                    },
                ));
            }
        }
        for (name, g) in out {
            self.routines.declare_global(&name);
            self.out.declare_global(g);
        }
        Ok(())
    }
}
