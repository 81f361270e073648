//! Clause operands in the host scope: C expressions inside clauses are
//! parsed and checked (so a typo is an error at its column, not a host
//! compiler error in generated code), and data clause items become host
//! ranges ([`HostMap`]), each with the fact of its object (in a const one:
//! [`HostMap::in_const`], whose `copy` `schedule::decide_data` makes
//! `copyin`).
//!
//! Owns: [`ClauseCtx`] with [`ClauseCtx::check_expr`] and
//! [`ClauseCtx::data_item`]. May call: `scope`, `ctype`, `source`, `directive`.

use super::ctype::CType;
use super::scope::{Scope, SymKind};
use super::source::SourceMap;
use crate::diag::{DResult, Diagnostics};
use crate::directive::{Access, ClauseExpr, VarRef};
use crate::ir::host::{HostMap, MapKind, MAP_BLOCK, MAP_NO_EXTENT};
use crate::ir::{HostAddr, HostBytes, HostType, Lvalue, Scaled, SrcLoc, UserExpr};
use lang_c::ast::Expression;
use lang_c::span::Span;
use lang_c::visit::{self, Visit};

/// Checks clause operands of one directive.
pub struct ClauseCtx<'a> {
    sm: &'a SourceMap,
    scope: &'a Scope,
    /// Offset of the directive text in the preprocessed text.
    base: usize,
}

/// A data clause item resolved in the host scope.
pub struct DataItem {
    /// The variable the reference starts from.
    pub var: String,
    /// Its type.
    pub ty: CType,
    /// The item is the variable itself or a sub-array of it (not one of its
    /// members).
    pub whole: bool,
    /// The host range.
    pub map: HostMap,
    /// For a sub-array through pointers to pointers (`a[0:n][0:m]`): one
    /// [`MapKind::Rows`] map per further pointer level, after `map`.
    pub rows: Vec<HostMap>,
    /// For a sub-array through a pointer that is a struct member
    /// (`s.p[0:n]`): that pointer, attached once the range is present
    /// (detached, on `exit data`).
    pub attach: Option<HostMap>,
}

/// What a pointer with no sub-array denotes in a clause.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BarePointer {
    /// The pointer itself (attach, detach, deviceptr).
    Itself,
    /// The present block its target lies in (`present(p)`, `copyout(p)`,
    /// `update self(p)`: [`MAP_BLOCK`]).
    Block,
    /// An error: the extent is needed (a file-scope `declare`).
    Error,
}

/// The host bytes a variable reference denotes.
pub struct HostRange {
    /// Address of the first byte.
    pub start: HostAddr,
    /// Length in bytes.
    pub bytes: HostBytes,
    /// The reference goes through a struct member.
    pub member: bool,
    /// The lvalue of the pointer a sub-array goes through, when that
    /// pointer is a struct member or an element (`a[i][0:m]` of `double
    /// **a`): attached to the section.
    pub pointer_member: Option<Lvalue>,
    /// The type of the object the reference ends at (for a sub-array: the
    /// array or pointer it is taken of).
    pub ty: CType,
    /// A bare pointer standing for the present block of its target
    /// ([`BarePointer::Block`]): `start` is the pointer's value, `bytes` 0.
    pub block: bool,
    /// The rows of a sub-array through pointers to pointers: per further
    /// pointer level, the byte offset of each row from its pointer's
    /// target (a sum) and its length in bytes.
    pub rows: Vec<(Vec<Scaled>, Scaled)>,
}

struct Idents(Vec<(String, Span)>);

impl<'ast> Visit<'ast> for Idents {
    fn visit_expression(&mut self, e: &'ast Expression, span: &'ast Span) {
        if let Expression::Identifier(id) = e {
            self.0.push((id.node.name.clone(), id.span));
        }
        visit::visit_expression(self, e, span);
    }
}

impl<'a> ClauseCtx<'a> {
    /// The context of a directive whose text starts at byte `base` of the
    /// preprocessed text, in the host scope `scope`.
    pub fn new(sm: &'a SourceMap, scope: &'a Scope, base: usize) -> Self {
        ClauseCtx { sm, scope, base }
    }

    fn loc(&self, offset: usize) -> SrcLoc {
        self.sm.loc(self.base + offset)
    }

    fn err<T>(&self, offset: usize, msg: impl Into<String>) -> DResult<T> {
        Err(Diagnostics::one(Some(self.loc(offset)), msg))
    }

    /// Parses a clause expression and checks that its names are declared;
    /// returns its C text.
    pub fn check_expr(&self, e: &ClauseExpr) -> DResult<String> {
        // lang-c parses whole translation units: wrap the expression in a
        // function, after typedefs for the names visible here.
        let mut prefix = String::new();
        for t in self.scope.typedef_names() {
            prefix.push_str(&format!("typedef int {t};\n"));
        }
        prefix.push_str("void __accc_clause(void) { (");
        let src = format!("{prefix}{}\n); }}\n", e.text);
        let config = lang_c::driver::Config::with_gcc();
        let unit = match lang_c::driver::parse_preprocessed(&config, src) {
            Ok(p) => p.unit,
            Err(p) => {
                let at = e.span.start + p.offset.saturating_sub(prefix.len()).min(e.text.len());
                return self.err(
                    at,
                    format!("expected an expression in clause argument '{}'", e.text),
                );
            }
        };
        let mut ids = Idents(vec![]);
        ids.visit_translation_unit(&unit);
        for (name, span) in ids.0 {
            if self.scope.lookup(&name).is_none() {
                let at = e.span.start + span.start.saturating_sub(prefix.len());
                return self.err(at, format!("use of undeclared identifier '{name}'"));
            }
        }
        Ok(format!("({})", e.text))
    }

    /// Resolves one data clause item to a host range; on `exit data`
    /// (`exit`), a pointer member's section detaches it instead of
    /// attaching it.
    pub fn data_item(
        &self,
        v: &VarRef,
        kind: MapKind,
        flags: u32,
        exit: bool,
    ) -> DResult<DataItem> {
        let (ty, r) = self.range_of(v, BarePointer::Block)?;
        let flags = flags
            | if r.block {
                MAP_BLOCK | MAP_NO_EXTENT
            } else {
                0
            };
        if kind == MapKind::CopyOut {
            self.check_writable(v, "copyout")?;
        }
        let attach = r.pointer_member.as_ref().map(|p| HostMap {
            name: p.c_spelling(),
            start: HostAddr::Of(p.clone()),
            bytes: HostBytes::SizeOf(p.clone()),
            kind: if exit {
                MapKind::Detach
            } else {
                MapKind::Attach
            },
            flags: 0,
            extent_guard: None,
            implicit: false,
            in_const: false,
        });
        let rows = r
            .rows
            .iter()
            .map(|(offset, bytes)| HostMap {
                name: v.text.clone(),
                start: HostAddr::Bytes(offset.clone()),
                bytes: HostBytes::Scaled(bytes.clone()),
                kind: MapKind::Rows,
                flags: 0,
                extent_guard: None,
                implicit: false,
                in_const: false,
            })
            .collect();
        Ok(DataItem {
            var: v.base.name.clone(),
            ty,
            whole: !r.member,
            map: HostMap {
                name: v.text.clone(),
                start: r.start,
                bytes: r.bytes,
                kind,
                flags,
                extent_guard: None,
                implicit: false,
                in_const: self.is_readonly(v),
            },
            rows,
            attach,
        })
    }

    /// Whether `v` lies inside a const-qualified object (reached without
    /// going through a pointer), which the host may keep in read-only memory.
    pub fn is_readonly(&self, v: &VarRef) -> bool {
        self.scope.lookup(&v.base.name).is_some_and(|s| s.readonly)
            && !v
                .path
                .iter()
                .any(|a| matches!(a, Access::Member { arrow: true, .. }))
    }

    /// An error when `clause` would copy device data into the const object
    /// `v` (writing read-only memory).
    pub fn check_writable(&self, v: &VarRef, clause: &str) -> DResult<()> {
        if self.is_readonly(v) {
            return self.err(
                v.span.start,
                format!(
                    "'{}' is const-qualified; '{clause}' would write to it{}",
                    v.text,
                    if clause == "copyout" {
                        " (use 'copyin')"
                    } else {
                        ""
                    }
                ),
            );
        }
        Ok(())
    }

    /// An `attach`/`detach` item: a pointer lvalue (`p`, `s.p`, `a[i]`).
    pub fn pointer_item(&self, v: &VarRef, kind: MapKind) -> DResult<DataItem> {
        let (ty, r) = self.range_of(v, BarePointer::Itself)?;
        if !matches!(r.ty, CType::Ptr(_))
            || v.path.iter().any(|a| matches!(a, Access::Section { .. }))
        {
            return self.err(
                v.span.start,
                format!(
                    "'{}' in an attach or detach clause must be a pointer",
                    v.text
                ),
            );
        }
        Ok(DataItem {
            var: v.base.name.clone(),
            ty,
            whole: v.path.is_empty(),
            map: HostMap {
                name: v.text.clone(),
                start: r.start,
                bytes: r.bytes,
                kind,
                flags: 0,
                extent_guard: None,
                implicit: false,
                in_const: false,
            },
            rows: vec![],
            attach: None,
        })
    }

    /// The host range of a variable reference: the variable, a member, a
    /// sub-array. Returns the variable's type and the range. A pointer with
    /// no sub-array denotes what `bare` says.
    pub fn range_of(&self, v: &VarRef, bare: BarePointer) -> DResult<(CType, HostRange)> {
        let name = &v.base.name;
        let Some(sym) = self.scope.lookup(name) else {
            return self.err(
                v.base.span.start,
                format!("use of undeclared identifier '{name}'"),
            );
        };
        if !matches!(sym.kind, SymKind::Global | SymKind::Local | SymKind::Param) {
            return self.err(
                v.base.span.start,
                format!("'{name}' in a data clause is not a variable"),
            );
        }
        let var_ty = sym.ty.clone();
        // Everything up to the last member access selects one object; the
        // subscripts after it may be sub-arrays.
        let split = v
            .path
            .iter()
            .rposition(|a| matches!(a, Access::Member { .. }))
            .map_or(0, |i| i + 1);
        let (prefix, suffix) = v.path.split_at(split);
        let mut lv = Lvalue::var(name);
        let mut t = var_ty.clone();
        for a in prefix {
            match a {
                Access::Member { name: m, arrow } => {
                    let st = match (&t, arrow) {
                        (CType::Struct(s), false) => s.clone(),
                        (CType::Ptr(inner), true) => match &**inner {
                            CType::Struct(s) => s.clone(),
                            _ => {
                                return self.err(
                                    m.span.start,
                                    format!(
                                    "'->{}' on '{}', which is not a pointer to a struct or union",
                                    m.name,
                                    lv.c_spelling()
                                ),
                                )
                            }
                        },
                        _ => {
                            return self.err(
                                m.span.start,
                                format!(
                                    "member '{}' of '{}', which is not a struct or union",
                                    m.name,
                                    lv.c_spelling()
                                ),
                            )
                        }
                    };
                    if let Some(why) = st.unusable() {
                        return self.err(m.span.start, why);
                    }
                    let Some((mt, _)) = st.member(&m.name) else {
                        return self.err(
                            m.span.start,
                            format!("no member named '{}' in '{}'", m.name, st.name()),
                        );
                    };
                    lv = lv.member(&m.name, *arrow);
                    t = mt;
                }
                Access::Index(i) => {
                    let Some(e) = t.element().cloned() else {
                        return self.err(
                            v.span.start,
                            format!(
                                "subscript of '{}', which is not an array or pointer",
                                lv.c_spelling()
                            ),
                        );
                    };
                    lv = lv.index(vec![self.check_expr(i)?]);
                    t = e;
                }
                Access::Section { span, .. } => {
                    return self.err(
                        span.start,
                        format!(
                            "'{}': a sub-array followed by a member access is not contiguous",
                            v.text
                        ),
                    )
                }
            }
        }
        let member = split > 0;
        if suffix.is_empty() {
            return match &t {
                CType::Ptr(_) if bare == BarePointer::Error => self.err(
                    v.span.start,
                    format!("pointer '{}' in a data clause needs a sub-array giving its extent (e.g. '{}[0:n]')", v.text, v.text),
                ),
                CType::Ptr(_) if bare == BarePointer::Block => Ok((
                    var_ty,
                    HostRange {
                        start: HostAddr::Value(lv.clone()),
                        bytes: HostBytes::Zero,
                        member,
                        pointer_member: None,
                        ty: t,
                        block: true,
                        rows: vec![],
                    },
                )),
                t if t.size().is_none() && !t.runtime_sized() => {
                    self.err(v.span.start, format!("'{}' of type '{t}' cannot appear in a data clause", v.text))
                }
                _ => Ok((
                    var_ty,
                    HostRange {
                        start: HostAddr::Of(lv.clone()),
                        bytes: HostBytes::SizeOf(lv),
                        member,
                        pointer_member: None,
                        ty: t,
                        block: false,
                        rows: vec![],
                    },
                )),
            };
        }
        let pointer_member = (member && matches!(t, CType::Ptr(_))).then(|| lv.clone());
        let t_section = t.clone();
        // Each further pointer level (`a[0:n][0:m]` with `double **a`)
        // starts a level of rows.
        let mut levels: Vec<&[Access]> = vec![];
        let mut lt = t.clone();
        let mut from = 0;
        for (k, a) in suffix.iter().enumerate() {
            if k > from && matches!(lt, CType::Ptr(_)) {
                levels.push(&suffix[from..k]);
                from = k;
            }
            if let Access::Member { name: m, .. } = a {
                return self.err(
                    m.span.start,
                    format!(
                        "'{}': struct members in data clauses are not supported yet",
                        v.text
                    ),
                );
            }
            lt = match lt.element() {
                Some(e) => e.clone(),
                None => break, // reported by `section`
            };
        }
        levels.push(&suffix[from..]);
        // Leading levels that select one pointer (`a[i][0:m]`) are just the
        // lvalue of the pointer the section goes through, attached to it.
        let (mut lv, mut t, mut member, mut pointer_member) = (lv, t, member, pointer_member);
        while levels.len() > 1 && levels[0].iter().all(|a| matches!(a, Access::Index(_))) {
            for a in levels[0] {
                if let Access::Index(i) = a {
                    lv = lv.index(vec![self.check_expr(i)?]);
                    t = t.element().cloned().unwrap_or(t);
                }
            }
            levels.remove(0);
            member = true;
            pointer_member = Some(lv.clone());
        }
        let (start, bytes) = self.section(v, &lv, levels[0], &t)?;
        let mut rows = vec![];
        let mut base = lv.clone();
        let mut bt = t.clone();
        for (k, level) in levels.iter().enumerate() {
            // The row's pointer type and an unevaluated expression of it.
            for _ in 0..level.len() {
                base = base.index(vec!["0".into()]);
                bt = bt.element().cloned().unwrap_or(bt);
            }
            let Some(next) = levels.get(k + 1) else {
                break;
            };
            rows.push(self.row(v, &base, next, &bt)?);
        }
        Ok((
            var_ty,
            HostRange {
                start,
                bytes,
                member,
                pointer_member,
                ty: t_section,
                block: false,
                rows,
            },
        ))
    }

    /// A clause's expression as the host evaluates it: checked
    /// ([`Self::check_expr`]), converted to `ty`, located where it is
    /// written.
    pub fn user_expr(&self, e: &ClauseExpr, ty: HostType) -> DResult<UserExpr> {
        Ok(UserExpr {
            text: self.check_expr(e)?,
            loc: self.loc(e.span.start),
            ty,
        })
    }

    /// An integer constant clause expression's value, if it is one.
    pub fn const_value(&self, e: &ClauseExpr) -> Option<i128> {
        let t = e.text.trim();
        if let Ok(v) = t.parse::<i128>() {
            return Some(v);
        }
        let x = parse_expression(t)?;
        let mut scope = self.scope.clone();
        super::declare::const_int(&x, &mut scope, self.sm).ok()
    }

    /// The host range of a reference with subscripts and sub-arrays
    /// (`a[0:n]`, `u[1:k]`, `a[i][0:m]`, `b[0:n][0:M]`): its first byte and
    /// its length, see [`Self::dims`].
    fn section(
        &self,
        v: &VarRef,
        lv: &Lvalue,
        path: &[Access],
        ty: &CType,
    ) -> DResult<(HostAddr, HostBytes)> {
        let (dims, m) = self.dims(v, &lv.c_spelling(), path, ty)?;
        let los: Vec<String> = dims.iter().map(|d| d.lo.clone()).collect();
        Ok((
            HostAddr::Of(lv.clone().index(los)),
            HostBytes::Scaled(self.scaled(
                v,
                &dims[m].len,
                HostType::ULong,
                lv.clone().index(zeros(m + 1)),
            )),
        ))
    }

    /// `count` (C text checked already) elements like `elem`, counted in
    /// `ty`, located at item `v`.
    fn scaled(&self, v: &VarRef, count: &str, ty: HostType, elem: Lvalue) -> Scaled {
        Scaled {
            count: UserExpr {
                text: count.to_string(),
                loc: self.loc(v.span.start),
                ty,
            },
            elem: Some(elem),
        }
    }

    /// The row of one further pointer level of a sub-array through
    /// pointers to pointers: `path` applied to each pointer of type `ty`,
    /// whose C expression `base` is only used in `sizeof` (never
    /// evaluated). Returns the C expressions of the byte offset of the row
    /// from the pointer's target (a sum) and of its length in bytes.
    fn row(
        &self,
        v: &VarRef,
        base: &Lvalue,
        path: &[Access],
        ty: &CType,
    ) -> DResult<(Vec<Scaled>, Scaled)> {
        let (dims, m) = self.dims(v, &base.c_spelling(), path, ty)?;
        let mut offset = vec![];
        for (k, d) in dims.iter().enumerate() {
            if d.lo != "0" {
                let elem = base.clone().index(zeros(k + 1));
                offset.push(self.scaled(v, &d.lo, HostType::Long, elem));
            }
        }
        let elem = base.clone().index(zeros(m + 1));
        Ok((offset, self.scaled(v, &dims[m].len, HostType::ULong, elem)))
    }

    /// The dimensions `path` selects of the array or pointer `name` of type
    /// `ty`, and the index of the last one that is not complete. They must
    /// be contiguous: after the first dimension that selects more than one
    /// element, every dimension must be complete.
    fn dims(
        &self,
        v: &VarRef,
        name: &str,
        path: &[Access],
        ty: &CType,
    ) -> DResult<(Vec<Dim>, usize)> {
        let mut dims = vec![];
        let mut t = ty.clone();
        for (k, acc) in path.iter().enumerate() {
            // A variable-length dimension whose length is a variable is
            // complete when the section's length names that variable.
            let mut vla_len: Option<String> = None;
            let (elem, extent) = match &t {
                CType::Ptr(e) if k == 0 => ((**e).clone(), None),
                CType::Array(e, n) => ((**e).clone(), *n),
                CType::Vla(e, len) => {
                    if let crate::frontend::ctype::VlaLen::Expr(x) = len {
                        if let lang_c::ast::Expression::Identifier(id) = &x.node {
                            vla_len = Some(id.node.name.clone());
                        }
                    }
                    ((**e).clone(), None)
                }
                t => {
                    return self.err(
                        v.base.span.start,
                        format!(
                        "sub-array '{}' of '{name}', which is not an array or pointer (type '{t}')",
                        v.text
                    ),
                    )
                }
            };
            let dim = match acc {
                Access::Index(i) => Dim {
                    lo: self.check_expr(i)?,
                    len: "1".into(),
                    one: true,
                    full: extent == Some(1),
                },
                Access::Section {
                    lower,
                    length,
                    span,
                } => {
                    let lo_const = match lower {
                        Some(e) => self.const_value(e),
                        None => Some(0),
                    };
                    let lo = match lower {
                        Some(e) => self.check_expr(e)?,
                        None => "0".to_string(),
                    };
                    let (len, len_const) = match (length, extent) {
                        (Some(e), _) => (self.check_expr(e)?, self.const_value(e)),
                        (None, Some(n)) => (format!("({n} - {lo})"), lo_const.map(|l| i128::from(n) - l)),
                        (None, None) => {
                            return self.err(span.start, format!("sub-array of '{name}' needs a length ('{name}[lo:length]'): the extent of this dimension is not known"))
                        }
                    };
                    let names_vla = vla_len.is_some()
                        && length.as_ref().map(|e| e.text.trim()) == vla_len.as_deref();
                    Dim {
                        lo,
                        len,
                        one: len_const == Some(1),
                        full: lo_const == Some(0)
                            && ((extent.is_some() && len_const == extent.map(i128::from))
                                || names_vla),
                    }
                }
                Access::Member { name: m, .. } => {
                    return self.err(
                        m.span.start,
                        format!(
                            "'{}': struct members in data clauses are not supported yet",
                            v.text
                        ),
                    )
                }
            };
            dims.push(dim);
            t = elem;
        }
        if t.size().is_none() && !t.runtime_sized() {
            let why = match &t {
                CType::Struct(s) => s.unusable().map(|w| format!(" ({w})")),
                _ => None,
            };
            return self.err(
                v.span.start,
                format!(
                    "sub-array of '{name}' whose element type '{t}' has no size{}",
                    why.unwrap_or_default()
                ),
            );
        }
        for k in 1..dims.len() {
            if !dims[k].full && !dims[..k].iter().all(|d| d.one) {
                return self.err(
                    v.span.start,
                    format!("sub-array '{}' is not contiguous: after the first dimension that selects more than one element, every dimension must be complete", v.text),
                );
            }
        }
        let m = (0..dims.len()).rev().find(|&k| !dims[k].full).unwrap_or(0);
        Ok((dims, m))
    }
}

/// One dimension of a sub-array (C expressions).
struct Dim {
    lo: String,
    len: String,
    /// Selects one element.
    one: bool,
    /// Selects the whole dimension.
    full: bool,
}

/// The C expression `text` (a clause argument) as a syntax tree, parsed on
/// its own (spans are those of the wrapper, not of the source); `None` when
/// it is not one expression.
pub fn parse_expression(text: &str) -> Option<lang_c::span::Node<lang_c::ast::Expression>> {
    let src = format!("int __accc_c = ({text});");
    let config = lang_c::driver::Config::with_gcc();
    let unit = lang_c::driver::parse_preprocessed(&config, src).ok()?.unit;
    let lang_c::ast::ExternalDeclaration::Declaration(d) = &unit.0.first()?.node else {
        return None;
    };
    let init = d.node.declarators.first()?.node.initializer.as_ref()?;
    match &init.node {
        lang_c::ast::Initializer::Expression(x) => Some((**x).clone()),
        _ => None,
    }
}

/// `n` subscripts 0: the first element along `n` dimensions.
fn zeros(n: usize) -> Vec<String> {
    vec!["0".to_string(); n]
}
