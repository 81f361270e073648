//! The data environment (OpenACC 3.3 2.6–2.8, 2.13, 2.14.4–2.14.7): data
//! clauses as host maps, the `data`, `enter data`, `exit data`, `update`,
//! `host_data` and `declare` directives, and the maps and arguments of a
//! compute construct (explicit clauses, then the implicit data attributes).
//!
//! Owns: the `Walker` methods for those directives, [`Visible`] (what the
//! enclosing data constructs map), and the host side of a compute
//! construct's data ([`Walker::kernel_data`]). Standalone directives
//! (`enter data`, `exit data`, `update`, `declare` in a function) replace
//! their own blanked line. May call: `clauses`, `ir::host`.

use super::clauses::{BarePointer, ClauseCtx, DataItem};
use super::ctype::CType;
use super::lower::HostVar;
use super::unit::Walker;
use crate::analysis::sections::Use;
use crate::diag::{DResult, Diagnostics};
use crate::directive::{Clause, ClauseKind, DataKind, Directive, DirectiveKind, WaitArg};
use crate::ir::host::{
    AsyncSpec, Construct, ConstructKind, HostArg, HostMap, MapKind, Queue, UpdateItem,
    MAP_ALWAYSIN, MAP_ALWAYSOUT, MAP_READONLY, MAP_ZERO,
};
use crate::ir::{HostAddr, HostBytes, HostType, Lvalue, Param, ParamMode, SrcLoc, UserExpr};
use lang_c::ast::Statement;
use lang_c::span::Node;
use std::collections::HashMap;

/// A variable an enclosing data construct (or function-scope `declare`)
/// gives a data attribute.
#[derive(Clone, Debug)]
pub struct Visible {
    pub var: String,
    /// The start of its mapped section.
    pub start: HostAddr,
    /// `deviceptr`: its value is a device address already.
    pub deviceptr: bool,
    /// `no_create`: a kernel sees its device copy if present, else itself.
    pub no_create: bool,
}

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
        ClauseCtx {
            sm: self.sm,
            scope: &self.scope,
            base: self.pragmas[p].text_start,
        }
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
            Some(self.pragma_loc(p, c.span.start)),
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
        let d = &self.dirs[p];
        self.plan.insert(Construct {
            kind,
            name: d.kind.name().to_string(),
            loc: self.pragma_loc(p, d.kind_span.start),
            stmt,
            cond,
            maps,
            body: vec![],
        });
    }

    /// The remarks of a construct's data clauses (`generating copyin(a[0:n])`,
    /// for `-Minfo=accel`); attach items follow from their data items.
    fn data_remarks(&mut self, loc: &SrcLoc, maps: &[HostMap]) {
        for t in crate::ir::map_lines(maps) {
            self.remarks.push((loc.clone(), t.into()));
        }
    }

    /// A `data` construct: a data region around its statement.
    pub fn data(&mut self, p: usize, rest: &[usize], s: &Node<Statement>) -> DResult<()> {
        let d = &self.dirs[p];
        let items = self.data_items(p, d)?;
        let cond = self.if_cond(p, d)?;
        let asyncs = self.asyncs(p, d)?;
        self.data_stack.push(Self::visible(&items));
        let maps = Self::maps_of(&items);
        let loc = self.pragma_loc(p, d.kind_span.start);
        self.data_remarks(&loc, &maps);
        self.push_construct(
            p,
            ConstructKind::Data { asyncs },
            s.span.start..s.span.end,
            cond,
            maps,
        );
        self.stmt_with(s, rest);
        self.data_stack.pop();
        Ok(())
    }

    /// A standalone directive (`enter data`, `exit data`, `update`,
    /// `declare` in a function, …) at pragma `p`: replaces its own line.
    pub fn standalone(&mut self, p: usize) {
        let r = self.standalone_directive(p);
        self.report(r);
    }

    fn standalone_directive(&mut self, p: usize) -> DResult<()> {
        let d = &self.dirs[p];
        let line = self.pragmas[p].start..self.pragmas[p].end;
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
                        Some(self.pragma_loc(p, d.kind_span.start)),
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
                        Some(self.pragma_loc(p, d.kind_span.start)),
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
                if let Some(top) = self.data_stack.last_mut() {
                    top.extend(Self::visible(&items));
                }
                // The region: from the directive to the end of the block.
                let end = self.block_ends.last().copied().unwrap_or(line.end);
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
                    Some(self.pragma_loc(p, d.kind_span.start)),
                    format!("the '{}' directive is not supported yet", k.name()),
                ))
            }
        }
        Ok(())
    }

    /// `host_data use_device(…)`: the statement sees device addresses.
    pub fn host_data(&mut self, p: usize, rest: &[usize], s: &Node<Statement>) -> DResult<()> {
        let d = &self.dirs[p];
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

    /// The maps and kernel arguments of a compute construct: its explicit
    /// data clauses, then what OpenACC 3.3 2.6.2 implies for the variables
    /// the region uses — arrays and aggregates `copy` (`present` under
    /// `default(present)`), scalars by value (firstprivate), pointers
    /// translated through the present table (with the section their
    /// subscripts reach, `uses`, mapped present-or-copy: issue 15),
    /// `deviceptr` pointers as they are, `no_create` ones translated when
    /// present. An aggregate whose members appear in clauses is mapped
    /// first, so their attaches find it.
    ///
    /// With `remark_at`, the maps are a remark there ([`crate::ir::Remark::Maps`] of
    /// the next kernel, rendered from the host plan once scheduled:
    /// `generating implicit copyin(w)`, for `-Minfo=accel`), and so is
    /// each pointer whose extent cannot be derived.
    pub fn kernel_data(
        &mut self,
        items: &[DataItem],
        (params, vars): (&[Param], &[HostVar]),
        uses: &HashMap<String, Use>,
        default_present: bool,
        remark_at: Option<&SrcLoc>,
    ) -> (Vec<HostMap>, Vec<HostArg>) {
        let implicit_kind = if default_present {
            MapKind::Present
        } else {
            MapKind::Copy
        };
        let mut first = vec![];
        let mut implicit = vec![];
        let mut args = vec![];
        let mut underived = vec![];
        let visible = |name: &str| {
            Self::visible(items)
                .into_iter()
                .find(|v| v.var == name)
                .or_else(|| {
                    self.data_stack
                        .iter()
                        .rev()
                        .flatten()
                        .find(|v| v.var == name)
                        .cloned()
                })
        };
        for (param, var) in params.iter().zip(vars) {
            if let Some(obj) = &var.size_of {
                args.push(HostArg::Size {
                    bytes: HostBytes::SizeOf(obj.clone()),
                });
                continue;
            }
            let vis = visible(&var.name);
            if let ParamMode::Value = param.mode {
                args.push(HostArg::Value {
                    var: Lvalue::var(&var.name),
                });
                continue;
            }
            if vis.as_ref().is_some_and(|v| v.deviceptr) {
                args.push(HostArg::Value {
                    var: Lvalue::var(&var.name),
                });
                continue;
            }
            let explicit = vis.is_some();
            let mut section = vis.as_ref().map(|v| v.start.clone());
            if !explicit {
                // A const object is never copied back (it may be read-only).
                let readonly = self.scope.lookup(&var.name).is_some_and(|s| s.readonly);
                let whole = |start: HostAddr| HostMap {
                    name: var.name.clone(),
                    start,
                    bytes: HostBytes::SizeOf(Lvalue::var(&var.name)),
                    kind: if readonly && implicit_kind == MapKind::Copy {
                        MapKind::CopyIn
                    } else {
                        implicit_kind
                    },
                    flags: 0,
                    extent_guard: None,
                    implicit: true,
                };
                if var.by_ref {
                    let m = whole(HostAddr::Of(Lvalue::var(&var.name)));
                    if items.iter().any(|i| i.var == var.name) {
                        first.push(m); // its members are in clauses
                    } else {
                        implicit.push(m);
                    }
                } else if matches!(var.ty, CType::Array(_, Some(_)) | CType::Vla(..)) {
                    implicit.push(whole(HostAddr::Value(Lvalue::var(&var.name))));
                } else if let (CType::Ptr(elem), false) = (&var.ty, default_present) {
                    match uses.get(&var.name) {
                        Some(Use::Known(sec)) => {
                            let loc = remark_at.cloned().unwrap_or_default();
                            let m = sec.host_map(&var.name, elem.size(), &loc);
                            section = Some(m.start.clone());
                            implicit.push(m);
                        }
                        Some(Use::Unknown(why)) => underived.push(format!(
                            "'{}' has no data clause and its extent cannot be derived ({why}): its target must be present on the device",
                            var.name
                        )),
                        None => {}
                    }
                }
            }
            let ptr = if var.by_ref {
                HostAddr::Of(Lvalue::var(&var.name))
            } else {
                HostAddr::Value(Lvalue::var(&var.name))
            };
            args.push(HostArg::DevicePtr {
                name: var.name.clone(),
                ptr,
                section: section.map(Box::new),
                if_present: vis.as_ref().is_some_and(|v| v.no_create),
            });
        }
        let explicit = Self::maps_of(items);
        if let Some(loc) = remark_at {
            let kernel = self.module.kernels.len();
            let maps = crate::ir::Remark::Maps { kernel };
            self.remarks.push((loc.clone(), maps));
            for r in underived {
                self.remarks.push((loc.clone(), r.into()));
            }
        }
        let mut maps = first;
        maps.extend(explicit);
        maps.extend(implicit);
        (maps, args)
    }
}

impl Walker<'_> {
    /// The directives at file scope (outside every function): `declare`
    /// registers its globals with the runtime; other standalone directives
    /// cannot be there.
    pub fn file_scope_directives(&mut self) {
        let inside = |w: &Self, p: usize| {
            let (s, e) = (w.pragmas[p].start, w.pragmas[p].end);
            w.fn_defs
                .values()
                .any(|f| f.span.start <= s && e <= f.span.end)
        };
        for p in 0..self.dirs.len() {
            let d = &self.dirs[p];
            if !d.kind.is_standalone() || inside(self, p) {
                continue;
            }
            let r = if d.kind == DirectiveKind::Declare {
                self.global_declare(p)
            } else {
                Err(Diagnostics::one(
                    Some(self.pragma_loc(p, d.kind_span.start)),
                    format!("'#pragma acc {}' must be inside a function", d.kind.name()),
                ))
            };
            self.report(r);
        }
    }

    /// A file-scope `declare`: its global variables get device copies for
    /// the whole program (create, copyin, device_resident) or follow the
    /// data clauses that map them (link).
    fn global_declare(&mut self, p: usize) -> DResult<()> {
        let d = &self.dirs[p];
        let loc = self.pragma_loc(p, d.kind_span.start);
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
            self.plan.declares.push(g);
        }
        Ok(())
    }
}
