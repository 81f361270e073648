//! The directive grammar: the directive name (with the arguments that belong
//! to it: `cache(…)`, `wait(…)`, `routine(…)`, atomic clauses) and the clause
//! list, with clause placement checked as each clause is read.

use super::ast::{AtomicKind, Clause, Directive, DirectiveKind, Ident};
use super::cursor::Cursor;
use super::error::{DirectiveError, PResult};
use super::names::{lookup_clause, ClauseName};
use super::rules::{check_clause_placement, validate};

/// Parses one directive line (see [`super::parse`]).
pub(crate) fn parse_directive(text: &str) -> PResult<Directive> {
    let mut cur = Cursor::new(text);
    let (kind, kind_span) = directive_name(&mut cur)?;
    let mut d = Directive {
        kind,
        kind_span,
        clauses: Vec::new(),
    };
    clause_list(&mut cur, &mut d)?;
    validate(&d)?;
    Ok(d)
}

/// Reads the directive name and what belongs to it.
fn directive_name(cur: &mut Cursor<'_>) -> PResult<(DirectiveKind, std::ops::Range<usize>)> {
    let Some(id) = cur.ident() else {
        let found = cur.found();
        return Err(cur.error(format!("expected OpenACC directive name, found {found}")));
    };
    let start = id.span.start;
    let kind = match id.name.as_str() {
        "parallel" | "serial" | "kernels" => {
            let save = cur.pos;
            let is_loop = cur.ident().is_some_and(|w| w.name == "loop");
            if !is_loop {
                cur.pos = save;
            }
            match (id.name.as_str(), is_loop) {
                ("parallel", false) => DirectiveKind::Parallel,
                ("parallel", true) => DirectiveKind::ParallelLoop,
                ("serial", false) => DirectiveKind::Serial,
                ("serial", true) => DirectiveKind::SerialLoop,
                ("kernels", false) => DirectiveKind::Kernels,
                _ => DirectiveKind::KernelsLoop,
            }
        }
        "enter" | "exit" => {
            if cur.ident().is_none_or(|w| w.name != "data") {
                cur.pos = id.span.end;
                return Err(cur.error(format!("expected 'data' after '{}'", id.name)));
            }
            if id.name == "enter" {
                DirectiveKind::EnterData
            } else {
                DirectiveKind::ExitData
            }
        }
        "data" => DirectiveKind::Data,
        "host_data" => DirectiveKind::HostData,
        "loop" => DirectiveKind::Loop,
        "atomic" => DirectiveKind::Atomic(None),
        "declare" => DirectiveKind::Declare,
        "init" => DirectiveKind::Init,
        "shutdown" => DirectiveKind::Shutdown,
        "set" => DirectiveKind::Set,
        "update" => DirectiveKind::Update,
        "cache" => {
            cur.expect(b'(', || "expected '(' after 'cache'".to_string())?;
            let readonly = cur.keyword_colon("readonly").is_some();
            let vars = cur.var_list_tail("cache")?;
            DirectiveKind::Cache { readonly, vars }
        }
        "wait" => DirectiveKind::Wait(if cur.eat(b'(') {
            Some(cur.wait_arg_tail("wait")?)
        } else {
            None
        }),
        "routine" => DirectiveKind::Routine(if cur.eat(b'(') {
            let Some(name) = cur.ident() else {
                return Err(cur.error("expected function name in 'routine' directive"));
            };
            cur.close("routine")?;
            Some(name)
        } else {
            None
        }),
        "end" => return Err(end_directive(cur, &id)),
        other => {
            return Err(DirectiveError::new(
                start,
                format!("unknown OpenACC directive '{other}'"),
            ))
        }
    };
    Ok((kind, start..cur.pos))
}

/// The error for Fortran's `end` directives.
fn end_directive(cur: &mut Cursor<'_>, end: &Ident) -> DirectiveError {
    let mut what = String::from("end");
    while let Some(w) = cur.ident() {
        what.push(' ');
        what.push_str(&w.name);
    }
    DirectiveError::new(
        end.span.start,
        format!(
            "'{what}' is Fortran syntax; in C an OpenACC construct applies to the statement \
             or block that follows it"
        ),
    )
}

/// Reads clauses until the end of the text.
fn clause_list(cur: &mut Cursor<'_>, d: &mut Directive) -> PResult<()> {
    let mut after_dt = false;
    loop {
        if cur.at_end() {
            return Ok(());
        }
        if !d.clauses.is_empty() || matches!(d.kind, DirectiveKind::Atomic(Some(_))) {
            cur.eat(b',');
        }
        let Some(word) = cur.ident() else {
            let found = cur.found();
            return Err(cur.error(format!("expected OpenACC clause, found {found}")));
        };
        let start = word.span.start;
        if let DirectiveKind::Atomic(op) = &mut d.kind {
            if let Some(k) = atomic_kind(&word.name) {
                if let Some(prev) = op {
                    return Err(DirectiveError::new(
                        start,
                        format!(
                            "'{}' and '{}' clauses are mutually exclusive",
                            prev.as_str(),
                            k.as_str()
                        ),
                    ));
                }
                if !d.clauses.is_empty() {
                    return Err(DirectiveError::new(
                        start,
                        format!(
                            "'{}' clause must come first on 'atomic' directive",
                            k.as_str()
                        ),
                    ));
                }
                *op = Some(k);
                d.kind_span.end = word.span.end;
                continue;
            }
        }
        let Some((name, spelling)) = lookup_clause(&word.name) else {
            return Err(DirectiveError::new(
                start,
                format!(
                    "unknown clause '{}' on '{}' directive",
                    word.name,
                    d.kind.name()
                ),
            ));
        };
        check_clause_placement(&d.kind, name, &word.name, start, after_dt)?;
        let kind = cur.clause_args(name, &word, spelling, &d.kind)?;
        after_dt |= name == ClauseName::DeviceType;
        d.clauses.push(Clause {
            kind,
            span: start..cur.pos,
        });
    }
}

/// The atomic clause a word names, if any.
fn atomic_kind(w: &str) -> Option<AtomicKind> {
    Some(match w {
        "read" => AtomicKind::Read,
        "write" => AtomicKind::Write,
        "update" => AtomicKind::Update,
        "capture" => AtomicKind::Capture,
        _ => return None,
    })
}
