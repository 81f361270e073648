//! The `cache` directive in lowering: the variables of one at the top of
//! a counted loop's body become the loop's [`CacheVar`]s (lowered after
//! the body, in the loop's scope, so that a variable the body does not
//! use is not made a kernel parameter); one heading a plain loop's body
//! is a remark (nothing to cache in a loop that runs sequentially), one
//! anywhere else an error (OpenACC 3.3, 2.10: it must be at the top of a
//! loop).
//!
//! Owns: `Lower::cache_at`, `Lower::check_cache`, `Lower::cache_vars`.
//! May call: `lower`'s expression lowering, `frontend::{cachedir, clauses, loops}`.

use super::{Binding, Lower, Resolved};
use crate::diag::{DResult, Diagnostics};
use crate::directive::{Access, VarRef};
use crate::frontend::cachedir::CacheDir;
use crate::ir::{CacheVar, Remark, SrcLoc};
use lang_c::ast::{BlockItem, Statement};
use lang_c::span::{Node, Span};

/// What a loop body's top is to the `cache` directive there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Top {
    /// A counted loop's: its variables are recorded on the loop.
    Counted(usize),
    /// A plain loop's (C semantics, sequential): a remark.
    Plain(usize),
}

impl Top {
    fn start(self) -> usize {
        match self {
            Top::Counted(s) | Top::Plain(s) => s,
        }
    }
}

/// The start of the first item of loop body `body` (the body itself when
/// it is no block).
pub(super) fn top_of(body: &Node<Statement>) -> usize {
    match &body.node {
        Statement::Compound(items) => items.first().map_or(body.span.start, |i| match &i.node {
            BlockItem::Statement(s) => s.span.start,
            _ => i.span.start,
        }),
        _ => body.span.start,
    }
}

impl Lower<'_> {
    /// Lowers `f` with `top` as the top of the loop body being lowered.
    pub(super) fn cache_at<T>(&mut self, top: Top, f: impl FnOnce(&mut Self) -> T) -> T {
        let saved = self.cache_top.replace(top);
        let r = f(self);
        self.cache_top = saved;
        r
    }

    /// Checks the `cache` directives heading the statement or declaration
    /// at `start`: at a plain loop's top, a remark per variable; at a
    /// counted loop's, nothing yet ([`Lower::cache_vars`]); elsewhere, an
    /// error.
    pub(super) fn check_cache(&mut self, start: usize) -> DResult<()> {
        let Some(dirs) = self.caches.get(&start) else {
            return Ok(());
        };
        match self.cache_top.filter(|t| t.start() == start) {
            Some(Top::Counted(_)) => Ok(()),
            Some(Top::Plain(_)) => {
                for d in dirs {
                    for (v, at) in &d.vars {
                        let why = format!(
                            "'{}' is not cached: the loop runs sequentially (a plain C loop)",
                            v.text
                        );
                        self.cache_remarks.push((at.clone(), why.into()));
                    }
                }
                Ok(())
            }
            None => Err(Diagnostics::one(
                dirs.first().map(|d| d.loc.clone()),
                "'#pragma acc cache' must be at the top of a loop body",
            )),
        }
    }

    /// The cache variables of the directives heading `top` (the first item
    /// of a counted loop's body), lowered in the current scope (the loop's,
    /// after its body), with the remark for each.
    pub(super) fn cache_vars(&mut self, top: usize) -> DResult<Vec<CacheVar>> {
        let Some(dirs) = self.caches.get(&top).cloned() else {
            return Ok(vec![]);
        };
        let mut out = vec![];
        for d in &dirs {
            for (v, at) in &d.vars {
                let c = self.cache_var(d, v, at)?;
                let otherwise = match &c.why {
                    Some(why) => format!("'{}' is not cached: {why}", c.text),
                    None => format!(
                        "'{}' is not cached: the loop is not partitioned across vector lanes",
                        c.text
                    ),
                };
                self.cache_remarks.push((
                    at.clone(),
                    Remark::Cache {
                        at: at.clone(),
                        otherwise,
                    },
                ));
                out.push(c);
            }
        }
        Ok(out)
    }

    fn cache_var(&mut self, d: &CacheDir, v: &VarRef, at: &SrcLoc) -> DResult<CacheVar> {
        let err = |msg: String| Err(Diagnostics::one(Some(at.clone()), msg));
        let mut c = CacheVar {
            text: v.text.clone(),
            loc: at.clone(),
            readonly: d.readonly,
            first: None,
            lengths: vec![],
            why: None,
        };
        // Every name must be visible here (the directive is checked even
        // where it is not used).
        let mut texts = vec![];
        for a in &v.path {
            match a {
                Access::Index(e) => texts.push(e.text.clone()),
                Access::Section { lower, length, .. } => {
                    texts.extend(lower.iter().chain(length).map(|e| e.text.clone()));
                }
                Access::Member { .. } => {}
            }
        }
        let mut parsed = vec![];
        for t in &texts {
            let Some(e) = crate::frontend::clauses::parse_expression(t) else {
                return err(format!(
                    "expected an expression in 'cache' item '{}'",
                    v.text
                ));
            };
            for name in crate::frontend::loops::idents(&e) {
                if !self.visible(&name) {
                    return err(format!("use of undeclared identifier '{name}'"));
                }
            }
            parsed.push(e);
        }
        let base = &v.base.name;
        if !self.visible(base) {
            return err(format!("use of undeclared identifier '{base}'"));
        }
        let why = if v.path.is_empty() {
            Some("only array sections and elements are cached")
        } else if v.path.iter().any(|a| matches!(a, Access::Member { .. })) {
            Some("struct members are not cached")
        } else if v
            .path
            .iter()
            .any(|a| matches!(a, Access::Section { length: None, .. }))
        {
            Some("a section needs a length")
        } else if !self.used_here(base) {
            Some("the loop does not use it")
        } else {
            None
        };
        if let Some(why) = why {
            c.why = Some(why.to_string());
            return Ok(c);
        }
        // The first element `base[lo0][lo1]…`, and the lengths.
        let mut first = base.clone();
        for a in &v.path {
            match a {
                Access::Index(e) => first.push_str(&format!("[{}]", e.text)),
                Access::Section { lower, .. } => first.push_str(&format!(
                    "[{}]",
                    lower.as_ref().map_or("0", |e| e.text.as_str())
                )),
                Access::Member { .. } => {}
            }
        }
        let Some(fe) = crate::frontend::clauses::parse_expression(&first) else {
            return err(format!(
                "expected an array section in 'cache' item '{}'",
                v.text
            ));
        };
        let lowered = self.in_block(|l| {
            let addr = match l.expr(&fe)? {
                super::expr::Val::L(place, ty) if ty.is_arithmetic() => {
                    Some(l.addr_of(place, &ty, Span::none())?)
                }
                _ => None,
            };
            let mut lengths = vec![];
            for a in &v.path {
                lengths.push(match a {
                    Access::Section {
                        length: Some(n), ..
                    } => match crate::frontend::clauses::parse_expression(&n.text) {
                        Some(e) => Some(l.rvalue_as(&e, &crate::frontend::ctype::CType::LONG)?),
                        None => None,
                    },
                    _ => None,
                });
            }
            Ok((addr, lengths))
        });
        let ((addr, lengths), code) = match lowered {
            Ok(x) => x,
            Err(d) => {
                let msg = d.0.first().map_or(String::new(), |x| x.message.clone());
                return err(format!("in 'cache' item '{}': {msg}", v.text));
            }
        };
        c.why = match (addr, code.is_empty()) {
            (None, _) => Some("not an element of an array of arithmetic type".into()),
            (Some(_), false) => Some("its bounds need code of their own".into()),
            (Some(a), true) => {
                c.first = Some(a);
                c.lengths = lengths;
                None
            }
        };
        Ok(c)
    }

    /// Whether `name` names a variable here, without making it a kernel
    /// parameter.
    fn visible(&self, name: &str) -> bool {
        self.scopes.iter().any(|s| s.contains_key(name))
            || self.vars.iter().any(|v| v.name == name)
            || self.host.lookup(name).is_some()
    }

    /// Whether `name` is a local of the body or a host variable the body
    /// already uses (a kernel parameter), so that lowering it adds none.
    fn used_here(&mut self, name: &str) -> bool {
        if self.scopes.iter().any(|s| s.contains_key(name))
            || self
                .vars
                .iter()
                .any(|v| v.name == name && v.size_of.is_none())
        {
            return matches!(
                self.resolve(name, Span::none()),
                Ok(Resolved::Local(Binding::Local(_), _) | Resolved::Param(_))
            );
        }
        false
    }
}
