//! Clause validation per the OpenACC 3.3 spec: which clauses each directive
//! allows, which may follow `device_type`, which may appear once, which
//! exclude each other, which are required, and argument-count rules.

use super::ast::{Clause, ClauseKind, Directive, DirectiveKind};
use super::error::{DirectiveError, PResult};
use super::names::ClauseName::{self, *};

const PARALLEL: &[ClauseName] = &[
    Async,
    Wait,
    NumGangs,
    NumWorkers,
    VectorLength,
    DeviceType,
    If,
    SelfClause,
    Reduction,
    Copy,
    CopyIn,
    CopyOut,
    Create,
    NoCreate,
    Present,
    DevicePtr,
    Attach,
    Private,
    FirstPrivate,
    Default,
];
const SERIAL: &[ClauseName] = &[
    Async,
    Wait,
    DeviceType,
    If,
    SelfClause,
    Reduction,
    Copy,
    CopyIn,
    CopyOut,
    Create,
    NoCreate,
    Present,
    DevicePtr,
    Attach,
    Private,
    FirstPrivate,
    Default,
];
const KERNELS: &[ClauseName] = &[
    Async,
    Wait,
    NumGangs,
    NumWorkers,
    VectorLength,
    DeviceType,
    If,
    SelfClause,
    Copy,
    CopyIn,
    CopyOut,
    Create,
    NoCreate,
    Present,
    DevicePtr,
    Attach,
    Default,
];
const DATA_DIR: &[ClauseName] = &[
    If, Async, Wait, DeviceType, Copy, CopyIn, CopyOut, Create, NoCreate, Present, DevicePtr,
    Attach, Default,
];
const ENTER_DATA: &[ClauseName] = &[If, Async, Wait, CopyIn, Create, Attach];
const EXIT_DATA: &[ClauseName] = &[If, Async, Wait, CopyOut, Delete, Detach, Finalize];
const HOST_DATA: &[ClauseName] = &[If, IfPresent, UseDevice];
const LOOP: &[ClauseName] = &[
    Collapse,
    Gang,
    Worker,
    Vector,
    Seq,
    Independent,
    Auto,
    Tile,
    DeviceType,
    Private,
    Reduction,
];
const ATOMIC: &[ClauseName] = &[If];
const DECLARE: &[ClauseName] = &[
    Copy,
    CopyIn,
    CopyOut,
    Create,
    Present,
    DevicePtr,
    DeviceResident,
    Link,
];
const INIT: &[ClauseName] = &[DeviceType, DeviceNum, If];
const SET: &[ClauseName] = &[DefaultAsync, DeviceNum, DeviceType, If];
const UPDATE: &[ClauseName] = &[
    Async, Wait, DeviceType, If, IfPresent, SelfClause, Host, Device,
];
const WAIT: &[ClauseName] = &[Async, If];
const ROUTINE: &[ClauseName] = &[Gang, Worker, Vector, Seq, Bind, DeviceType, NoHost];

/// Clauses that may follow `device_type`, per directive family.
const DT_COMPUTE: &[ClauseName] = &[Async, Wait, NumGangs, NumWorkers, VectorLength];
const DT_ASYNC: &[ClauseName] = &[Async, Wait];
const DT_LOOP: &[ClauseName] = &[Collapse, Gang, Worker, Vector, Seq, Independent, Auto, Tile];
const DT_ROUTINE: &[ClauseName] = &[Gang, Worker, Vector, Seq, Bind];

/// Clauses that may appear at most once (per `device_type` section).
const ONCE: &[ClauseName] = &[
    If,
    SelfClause,
    Default,
    Async,
    NumGangs,
    NumWorkers,
    VectorLength,
    Collapse,
    Gang,
    Worker,
    Vector,
    Seq,
    Independent,
    Auto,
    Tile,
    Bind,
    NoHost,
    DeviceNum,
    DefaultAsync,
    Finalize,
    IfPresent,
];

/// The clause lists whose union a directive allows (combined: compute ∪ loop).
fn lists(dir: &DirectiveKind) -> [&'static [ClauseName]; 2] {
    match dir {
        DirectiveKind::Parallel => [PARALLEL, &[]],
        DirectiveKind::Serial => [SERIAL, &[]],
        DirectiveKind::Kernels => [KERNELS, &[]],
        DirectiveKind::Data => [DATA_DIR, &[]],
        DirectiveKind::EnterData => [ENTER_DATA, &[]],
        DirectiveKind::ExitData => [EXIT_DATA, &[]],
        DirectiveKind::HostData => [HOST_DATA, &[]],
        DirectiveKind::Loop => [LOOP, &[]],
        DirectiveKind::ParallelLoop => [PARALLEL, LOOP],
        DirectiveKind::SerialLoop => [SERIAL, LOOP],
        DirectiveKind::KernelsLoop => [KERNELS, LOOP],
        DirectiveKind::Cache { .. } => [&[], &[]],
        DirectiveKind::Atomic(_) => [ATOMIC, &[]],
        DirectiveKind::Declare => [DECLARE, &[]],
        DirectiveKind::Init | DirectiveKind::Shutdown => [INIT, &[]],
        DirectiveKind::Set => [SET, &[]],
        DirectiveKind::Update => [UPDATE, &[]],
        DirectiveKind::Wait(_) => [WAIT, &[]],
        DirectiveKind::Routine(_) => [ROUTINE, &[]],
    }
}

/// Whether `dir` allows clause `c` at all.
pub(crate) fn allowed(dir: &DirectiveKind, c: ClauseName) -> bool {
    lists(dir).iter().any(|l| l.contains(&c))
}

/// The clauses that may follow `device_type` on `dir`; `None` when
/// `device_type` does not open a section there (init, shutdown, set).
fn after_device_type(dir: &DirectiveKind) -> Option<[&'static [ClauseName]; 2]> {
    Some(match dir {
        DirectiveKind::Parallel | DirectiveKind::Kernels => [DT_COMPUTE, &[]],
        DirectiveKind::Serial | DirectiveKind::Data | DirectiveKind::Update => [DT_ASYNC, &[]],
        DirectiveKind::Loop => [DT_LOOP, &[]],
        DirectiveKind::ParallelLoop | DirectiveKind::KernelsLoop => [DT_COMPUTE, DT_LOOP],
        DirectiveKind::SerialLoop => [DT_ASYNC, DT_LOOP],
        DirectiveKind::Routine(_) => [DT_ROUTINE, &[]],
        _ => return None,
    })
}

/// The clauses of which at least one must appear, if the directive has such a rule.
fn required(dir: &DirectiveKind) -> Option<&'static [ClauseName]> {
    Some(match dir {
        DirectiveKind::Data => &[
            Copy, CopyIn, CopyOut, Create, NoCreate, Present, DevicePtr, Attach, Default,
        ],
        DirectiveKind::EnterData => &[CopyIn, Create, Attach],
        DirectiveKind::ExitData => &[CopyOut, Delete, Detach],
        DirectiveKind::HostData => &[UseDevice],
        DirectiveKind::Update => &[SelfClause, Host, Device],
        DirectiveKind::Set => &[DefaultAsync, DeviceNum, DeviceType],
        DirectiveKind::Declare => DECLARE,
        _ => return None,
    })
}

/// `'a', 'b' or 'c'`
fn one_of(names: &[ClauseName]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("'{}'", n.as_str())).collect();
    match quoted.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => quoted.join(""),
    }
}

/// Checks the clause `c` at the moment it is read (after the clauses before
/// it): allowed on the directive, and allowed after a preceding `device_type`.
pub(crate) fn check_clause_placement(
    dir: &DirectiveKind,
    c: ClauseName,
    word: &str,
    at: usize,
    after_dt: bool,
) -> PResult<()> {
    let dname = dir.name();
    if !allowed(dir, c) {
        return Err(DirectiveError::new(
            at,
            format!("'{word}' clause is not allowed on '{dname}' directive"),
        ));
    }
    if after_dt && c != DeviceType {
        if let Some(ls) = after_device_type(dir) {
            if !ls.iter().any(|l| l.contains(&c)) {
                return Err(DirectiveError::new(
                    at,
                    format!(
                        "'{word}' clause may not follow a 'device_type' clause on '{dname}' \
                         directive"
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// Validates a whole parsed directive (placement was checked while parsing).
pub(crate) fn validate(d: &Directive) -> PResult<()> {
    let dir = &d.kind;
    let sectioned = after_device_type(dir).is_some();
    let mut start = 0;
    for (i, c) in d.clauses.iter().enumerate() {
        if sectioned && c.name() == DeviceType {
            check_section(dir, &d.clauses[start..i])?;
            start = i + 1;
        }
    }
    check_section(dir, &d.clauses[start..])?;
    if !sectioned {
        check_once(&d.clauses, &[DeviceType])?;
    }
    if let Some(req) = required(dir) {
        if !d.clauses.iter().any(|c| req.contains(&c.name())) {
            let msg = if *dir == DirectiveKind::Declare {
                "'declare' directive requires at least one clause".to_string()
            } else {
                format!(
                    "'{}' directive requires at least one {} clause",
                    dir.name(),
                    one_of(req)
                )
            };
            return Err(DirectiveError::new(d.kind_span.start, msg));
        }
    }
    check_arguments(d)
}

/// Duplicate and exclusivity checks inside one `device_type` section.
fn check_section(dir: &DirectiveKind, cs: &[Clause]) -> PResult<()> {
    check_once(cs, ONCE)?;
    let groups: &[&[ClauseName]] = if matches!(dir, DirectiveKind::Routine(_)) {
        &[&[Gang, Worker, Vector, Seq]]
    } else if dir.is_loop() {
        &[
            &[Seq, Independent, Auto],
            &[Seq, Gang],
            &[Seq, Worker],
            &[Seq, Vector],
        ]
    } else {
        &[]
    };
    for group in groups {
        let mut first: Option<ClauseName> = None;
        for c in cs {
            let n = c.name();
            if !group.contains(&n) {
                continue;
            }
            match first {
                Some(f) if f != n => {
                    return Err(DirectiveError::new(
                        c.span.start,
                        format!(
                            "'{}' and '{}' clauses are mutually exclusive",
                            f.as_str(),
                            n.as_str()
                        ),
                    ));
                }
                _ => first = Some(n),
            }
        }
    }
    Ok(())
}

/// Fails on the second occurrence of any clause in `once`.
fn check_once(cs: &[Clause], once: &[ClauseName]) -> PResult<()> {
    for (i, c) in cs.iter().enumerate() {
        let n = c.name();
        if once.contains(&n) && cs[..i].iter().any(|p| p.name() == n) {
            return Err(DirectiveError::new(
                c.span.start,
                format!("duplicate '{}' clause", n.as_str()),
            ));
        }
    }
    Ok(())
}

/// Argument rules that depend on the directive.
fn check_arguments(d: &Directive) -> PResult<()> {
    let dir = &d.kind;
    let dname = dir.name();
    let kernels = matches!(dir, DirectiveKind::Kernels | DirectiveKind::KernelsLoop);
    let parallel_like = matches!(dir, DirectiveKind::ParallelLoop | DirectiveKind::SerialLoop);
    let routine = matches!(dir, DirectiveKind::Routine(_));
    let mut multi_gangs = false;
    for c in &d.clauses {
        match &c.kind {
            ClauseKind::NumGangs(es) => {
                if kernels && es.len() > 1 {
                    return Err(DirectiveError::new(
                        es[1].span.start,
                        format!("'num_gangs' clause on '{dname}' directive takes one argument"),
                    ));
                }
                if es.len() > 3 {
                    return Err(DirectiveError::new(
                        es[3].span.start,
                        "'num_gangs' clause takes at most 3 arguments",
                    ));
                }
                multi_gangs |= es.len() > 1;
            }
            ClauseKind::Gang(g) => {
                if let (true, Some(e)) = (parallel_like || routine, &g.num) {
                    return Err(arg_error(e.span.start, "num", "gang", dname, "num_gangs"));
                }
                if let (true, Some(e)) = (routine, &g.static_size) {
                    let at = match e {
                        super::ast::SizeExpr::Star(s) => s.start,
                        super::ast::SizeExpr::Expr(e) => e.span.start,
                    };
                    return Err(DirectiveError::new(
                        at,
                        "'static' argument of 'gang' clause is not allowed on 'routine' directive",
                    ));
                }
                if let (true, Some(e)) = (kernels, &g.dim) {
                    return Err(DirectiveError::new(
                        e.span.start,
                        format!(
                            "'dim' argument of 'gang' clause is not allowed on '{dname}' directive"
                        ),
                    ));
                }
            }
            ClauseKind::Worker(Some(e)) if parallel_like || routine => {
                return Err(arg_error(
                    e.span.start,
                    "num",
                    "worker",
                    dname,
                    "num_workers",
                ));
            }
            ClauseKind::Vector(Some(e)) if parallel_like || routine => {
                return Err(arg_error(
                    e.span.start,
                    "length",
                    "vector",
                    dname,
                    "vector_length",
                ));
            }
            _ => {}
        }
    }
    if multi_gangs && matches!(dir, DirectiveKind::Parallel | DirectiveKind::ParallelLoop) {
        if let Some(r) = d.clauses.iter().find(|c| c.name() == Reduction) {
            return Err(DirectiveError::new(
                r.span.start,
                format!(
                    "'reduction' clause is not allowed on '{dname}' directive whose 'num_gangs' \
                     clause has more than one argument"
                ),
            ));
        }
    }
    Ok(())
}

/// A level-of-parallelism argument not allowed on `dname`.
fn arg_error(at: usize, arg: &str, clause: &str, dname: &str, instead: &str) -> DirectiveError {
    let hint = if dname == "routine" {
        String::new()
    } else {
        format!("; use '{instead}'")
    };
    DirectiveError::new(
        at,
        format!(
            "'{arg}' argument of '{clause}' clause is not allowed on '{dname}' directive{hint}"
        ),
    )
}
