//! Clause operands in the host scope: C expressions inside clauses are
//! parsed and checked (so a typo is an error at its column, not a host
//! compiler error in generated code), and data clause items become host
//! ranges ([`HostMap`]).
//!
//! Owns: [`ClauseCtx`] with [`ClauseCtx::check_expr`] and
//! [`ClauseCtx::data_item`]. May call: `scope`, `ctype`, `source`, `directive`.

use super::ctype::CType;
use super::scope::{Scope, SymKind};
use super::source::SourceMap;
use crate::diag::{DResult, Diagnostics};
use crate::directive::{Access, ClauseExpr, VarRef};
use crate::ir::host::{HostMap, MapKind};
use crate::ir::SrcLoc;
use lang_c::ast::Expression;
use lang_c::span::Span;
use lang_c::visit::{self, Visit};

/// Checks clause operands of one directive.
pub struct ClauseCtx<'a> {
    pub sm: &'a SourceMap,
    pub scope: &'a Scope,
    /// Offset of the directive text in the preprocessed text.
    pub base: usize,
}

/// A data clause item resolved in the host scope.
pub struct DataItem {
    /// The variable's name.
    pub var: String,
    /// Its type.
    pub ty: CType,
    /// The host range.
    pub map: HostMap,
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

impl ClauseCtx<'_> {
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

    /// Resolves one data clause item to a host range.
    pub fn data_item(&self, v: &VarRef, kind: MapKind) -> DResult<DataItem> {
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
        let ty = sym.ty.clone();
        let (start, bytes) = match v.path.as_slice() {
            [] => match &ty {
                CType::Ptr(_) => {
                    return self.err(
                        v.span.start,
                        format!("pointer '{name}' in a data clause needs a sub-array giving its extent (e.g. '{name}[0:n]')"),
                    )
                }
                t if t.size().is_none() => {
                    return self.err(v.span.start, format!("'{name}' of type '{t}' cannot appear in a data clause yet"))
                }
                _ => (format!("(const void *)&({name})"), format!("sizeof({name})")),
            },
            [Access::Section { lower, length, span }] => {
                let elem = match &ty {
                    CType::Ptr(e) | CType::Array(e, _) => e,
                    t => {
                        return self.err(
                            v.base.span.start,
                            format!("sub-array '{}' of '{name}', which is not an array or pointer (type '{t}')", v.text),
                        )
                    }
                };
                if elem.size().is_none() {
                    return self.err(span.start, format!("sub-array of '{name}' whose element type '{elem}' has no size"));
                }
                let lo = match lower {
                    Some(e) => self.check_expr(e)?,
                    None => "0".to_string(),
                };
                let len = match (length, &ty) {
                    (Some(e), _) => self.check_expr(e)?,
                    (None, CType::Array(_, Some(n))) => format!("({n} - {lo})"),
                    (None, _) => {
                        return self.err(span.start, format!("sub-array of pointer '{name}' needs a length ('{name}[lo:length]')"))
                    }
                };
                (
                    format!("(const void *)(({name}) + {lo})"),
                    format!("(unsigned long)({len}) * sizeof(*({name}))"),
                )
            }
            [Access::Index(i)] if matches!(ty, CType::Ptr(_) | CType::Array(..)) => {
                let i = self.check_expr(i)?;
                (format!("(const void *)&(({name})[{i}])"), format!("sizeof(*({name}))"))
            }
            [Access::Section { .. } | Access::Index(_), ..] if !matches!(ty, CType::Ptr(_) | CType::Array(..)) => {
                return self.err(
                    v.base.span.start,
                    format!("sub-array '{}' of '{name}', which is not an array or pointer (type '{ty}')", v.text),
                )
            }
            _ => {
                return self.err(
                    v.span.start,
                    format!("'{}': struct members and multi-dimensional sub-arrays in data clauses are not supported yet", v.text),
                )
            }
        };
        Ok(DataItem {
            var: name.clone(),
            ty,
            map: HostMap {
                name: v.text.clone(),
                start,
                bytes,
                kind,
            },
        })
    }
}
