//! The canonical text form of a directive (what follows `#pragma acc`), used
//! by snapshot tests and `--emit=ir`. Legacy spellings print as their 3.3
//! names, lists are joined with `", "`, and expressions print as written.
//! Parsing the printed text gives back the same directive (up to spans).

use std::fmt::{self, Display, Formatter, Write};

use super::ast::{
    Access, BindName, Clause, ClauseExpr, ClauseKind, DefaultKind, DeviceTypeList, Directive,
    DirectiveKind, SizeExpr, VarRef, WaitArg,
};

/// Writes `items` separated by `", "`.
fn list<T: Display>(f: &mut Formatter<'_>, items: &[T]) -> fmt::Result {
    for (i, it) in items.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        write!(f, "{it}")?;
    }
    Ok(())
}

impl Display for ClauseExpr {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl Display for SizeExpr {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            SizeExpr::Star(_) => f.write_char('*'),
            SizeExpr::Expr(e) => write!(f, "{e}"),
        }
    }
}

impl Display for VarRef {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str(&self.base.name)?;
        for a in &self.path {
            match a {
                Access::Member { name, arrow } => {
                    f.write_str(if *arrow { "->" } else { "." })?;
                    f.write_str(&name.name)?;
                }
                Access::Index(e) => write!(f, "[{e}]")?,
                Access::Section { lower, length, .. } => {
                    f.write_char('[')?;
                    if let Some(l) = lower {
                        write!(f, "{l}")?;
                    }
                    f.write_char(':')?;
                    if let Some(n) = length {
                        write!(f, "{n}")?;
                    }
                    f.write_char(']')?;
                }
            }
        }
        Ok(())
    }
}

impl Display for WaitArg {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        if let Some(d) = &self.devnum {
            write!(f, "devnum:{d}:")?;
        }
        if self.queues {
            f.write_str("queues:")?;
        }
        list(f, &self.queue_exprs)
    }
}

/// Writes `(e)` when `e` is present.
fn opt_paren(f: &mut Formatter<'_>, e: &Option<ClauseExpr>) -> fmt::Result {
    match e {
        Some(e) => write!(f, "({e})"),
        None => Ok(()),
    }
}

impl Display for Clause {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let name = self.name().as_str();
        f.write_str(name)?;
        match &self.kind {
            ClauseKind::Async(e) | ClauseKind::SelfIf(e) => opt_paren(f, e),
            ClauseKind::Worker(e) | ClauseKind::Vector(e) => opt_paren(f, e),
            ClauseKind::Wait(w) => match w {
                Some(w) => write!(f, "({w})"),
                None => Ok(()),
            },
            ClauseKind::NumGangs(es) => {
                f.write_char('(')?;
                list(f, es)?;
                f.write_char(')')
            }
            ClauseKind::NumWorkers(e)
            | ClauseKind::VectorLength(e)
            | ClauseKind::If(e)
            | ClauseKind::DeviceNum(e)
            | ClauseKind::DefaultAsync(e) => write!(f, "({e})"),
            ClauseKind::DeviceType { list: l, .. } => match l {
                DeviceTypeList::Any(_) => f.write_str("(*)"),
                DeviceTypeList::Names(ns) => {
                    let names: Vec<&str> = ns.iter().map(|n| n.name.as_str()).collect();
                    write!(f, "({})", names.join(", "))
                }
            },
            ClauseKind::Reduction { op, vars } => {
                write!(f, "({}:", op.as_str())?;
                list(f, vars)?;
                f.write_char(')')
            }
            ClauseKind::Private(vs) | ClauseKind::FirstPrivate(vs) => {
                f.write_char('(')?;
                list(f, vs)?;
                f.write_char(')')
            }
            ClauseKind::Data(d) => {
                f.write_char('(')?;
                let mut mods = vec![];
                match (d.always_in, d.always_out) {
                    (true, true) => mods.push("always"),
                    (true, false) => mods.push("alwaysin"),
                    (false, true) => mods.push("alwaysout"),
                    (false, false) => {}
                }
                for (on, m) in [
                    (d.readonly, "readonly"),
                    (d.zero, "zero"),
                    (d.capture, "capture"),
                ] {
                    if on {
                        mods.push(m);
                    }
                }
                if !mods.is_empty() {
                    write!(f, "{}:", mods.join(", "))?;
                }
                list(f, &d.vars)?;
                f.write_char(')')
            }
            ClauseKind::Finalize
            | ClauseKind::IfPresent
            | ClauseKind::Seq
            | ClauseKind::Independent
            | ClauseKind::Auto
            | ClauseKind::NoHost => Ok(()),
            ClauseKind::Default(k) => match k {
                DefaultKind::None => f.write_str("(none)"),
                DefaultKind::Present => f.write_str("(present)"),
            },
            ClauseKind::Collapse { force, count } => {
                let force = if *force { "force:" } else { "" };
                write!(f, "({force}{count})")
            }
            ClauseKind::Gang(g) => {
                let mut parts = Vec::new();
                if let Some(n) = &g.num {
                    parts.push(format!("num:{n}"));
                }
                if let Some(d) = &g.dim {
                    parts.push(format!("dim:{d}"));
                }
                if let Some(s) = &g.static_size {
                    parts.push(format!("static:{s}"));
                }
                if parts.is_empty() {
                    Ok(())
                } else {
                    write!(f, "({})", parts.join(", "))
                }
            }
            ClauseKind::Tile(ts) => {
                f.write_char('(')?;
                list(f, ts)?;
                f.write_char(')')
            }
            ClauseKind::Bind(b) => match b {
                BindName::Ident(id) => write!(f, "({})", id.name),
                BindName::Str { literal, .. } => write!(f, "({literal})"),
            },
        }
    }
}

impl Display for DirectiveKind {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())?;
        match self {
            DirectiveKind::Cache { readonly, vars } => {
                f.write_char('(')?;
                if *readonly {
                    f.write_str("readonly:")?;
                }
                list(f, vars)?;
                f.write_char(')')
            }
            DirectiveKind::Atomic(Some(k)) => write!(f, " {}", k.as_str()),
            DirectiveKind::Wait(Some(w)) => write!(f, "({w})"),
            DirectiveKind::Routine(Some(n)) => write!(f, "({})", n.name),
            _ => Ok(()),
        }
    }
}

impl Display for Directive {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.kind)?;
        for c in &self.clauses {
            write!(f, " {c}")?;
        }
        Ok(())
    }
}
