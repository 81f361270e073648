//! Clause and directive names: the spelling table (including legacy aliases)
//! and the payload-free [`ClauseName`] used by validation and messages.

use super::ast::{Clause, ClauseKind, DataKind, DataSpelling, Directive, DirectiveKind};

/// The name of a clause, without its arguments.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ClauseName {
    /// `async`
    Async,
    /// `wait`
    Wait,
    /// `num_gangs`
    NumGangs,
    /// `num_workers`
    NumWorkers,
    /// `vector_length`
    VectorLength,
    /// `device_type` / `dtype`
    DeviceType,
    /// `if`
    If,
    /// `self` (compute constructs: a condition; `update`: a var-list)
    SelfClause,
    /// `reduction`
    Reduction,
    /// `private`
    Private,
    /// `firstprivate`
    FirstPrivate,
    /// `copy`
    Copy,
    /// `copyin`
    CopyIn,
    /// `copyout`
    CopyOut,
    /// `create`
    Create,
    /// `no_create`
    NoCreate,
    /// `present`
    Present,
    /// `deviceptr`
    DevicePtr,
    /// `attach`
    Attach,
    /// `detach`
    Detach,
    /// `delete`
    Delete,
    /// `finalize`
    Finalize,
    /// `if_present`
    IfPresent,
    /// `default`
    Default,
    /// `use_device`
    UseDevice,
    /// `device_resident`
    DeviceResident,
    /// `link`
    Link,
    /// `host`
    Host,
    /// `device`
    Device,
    /// `collapse`
    Collapse,
    /// `gang`
    Gang,
    /// `worker`
    Worker,
    /// `vector`
    Vector,
    /// `seq`
    Seq,
    /// `independent`
    Independent,
    /// `auto`
    Auto,
    /// `tile`
    Tile,
    /// `nohost`
    NoHost,
    /// `bind`
    Bind,
    /// `device_num`
    DeviceNum,
    /// `default_async`
    DefaultAsync,
}

/// Every accepted clause spelling, with its name and (for data clauses) spelling.
const SPELLINGS: &[(&str, ClauseName, DataSpelling)] = {
    use ClauseName::*;
    use DataSpelling::{Canonical as C, PresentOr as P, Short as S};
    &[
        ("async", Async, C),
        ("wait", Wait, C),
        ("num_gangs", NumGangs, C),
        ("num_workers", NumWorkers, C),
        ("vector_length", VectorLength, C),
        ("device_type", DeviceType, C),
        ("dtype", DeviceType, S),
        ("if", If, C),
        ("self", SelfClause, C),
        ("reduction", Reduction, C),
        ("private", Private, C),
        ("firstprivate", FirstPrivate, C),
        ("copy", Copy, C),
        ("pcopy", Copy, S),
        ("present_or_copy", Copy, P),
        ("copyin", CopyIn, C),
        ("pcopyin", CopyIn, S),
        ("present_or_copyin", CopyIn, P),
        ("copyout", CopyOut, C),
        ("pcopyout", CopyOut, S),
        ("present_or_copyout", CopyOut, P),
        ("create", Create, C),
        ("pcreate", Create, S),
        ("present_or_create", Create, P),
        ("no_create", NoCreate, C),
        ("present", Present, C),
        ("deviceptr", DevicePtr, C),
        ("attach", Attach, C),
        ("detach", Detach, C),
        ("delete", Delete, C),
        ("finalize", Finalize, C),
        ("if_present", IfPresent, C),
        ("default", Default, C),
        ("use_device", UseDevice, C),
        ("device_resident", DeviceResident, C),
        ("link", Link, C),
        ("host", Host, C),
        ("device", Device, C),
        ("collapse", Collapse, C),
        ("gang", Gang, C),
        ("worker", Worker, C),
        ("vector", Vector, C),
        ("seq", Seq, C),
        ("independent", Independent, C),
        ("auto", Auto, C),
        ("tile", Tile, C),
        ("nohost", NoHost, C),
        ("bind", Bind, C),
        ("device_num", DeviceNum, C),
        ("default_async", DefaultAsync, C),
    ]
};

/// Looks a clause spelling up: its name and how it was spelled.
pub(crate) fn lookup_clause(word: &str) -> Option<(ClauseName, DataSpelling)> {
    SPELLINGS
        .iter()
        .find(|(s, _, _)| *s == word)
        .map(|&(_, n, sp)| (n, sp))
}

impl ClauseName {
    /// The canonical spelling (`copyin`, `device_type`, …).
    pub fn as_str(self) -> &'static str {
        SPELLINGS
            .iter()
            .find(|(_, n, sp)| *n == self && *sp == DataSpelling::Canonical)
            .map_or("?", |(s, _, _)| s)
    }

    /// The data kind of a clause taking a data var-list (`self` is `update`'s).
    pub(crate) fn data_kind(self) -> Option<DataKind> {
        use ClauseName as N;
        Some(match self {
            N::Copy => DataKind::Copy,
            N::CopyIn => DataKind::CopyIn,
            N::CopyOut => DataKind::CopyOut,
            N::Create => DataKind::Create,
            N::NoCreate => DataKind::NoCreate,
            N::Present => DataKind::Present,
            N::DevicePtr => DataKind::DevicePtr,
            N::Attach => DataKind::Attach,
            N::Detach => DataKind::Detach,
            N::Delete => DataKind::Delete,
            N::UseDevice => DataKind::UseDevice,
            N::DeviceResident => DataKind::DeviceResident,
            N::Link => DataKind::Link,
            N::Host => DataKind::Host,
            N::Device => DataKind::Device,
            N::SelfClause => DataKind::UpdateSelf,
            _ => return None,
        })
    }
}

impl DataKind {
    /// The clause name of this data kind.
    pub fn clause_name(self) -> ClauseName {
        use ClauseName as N;
        match self {
            DataKind::Copy => N::Copy,
            DataKind::CopyIn => N::CopyIn,
            DataKind::CopyOut => N::CopyOut,
            DataKind::Create => N::Create,
            DataKind::NoCreate => N::NoCreate,
            DataKind::Present => N::Present,
            DataKind::DevicePtr => N::DevicePtr,
            DataKind::Attach => N::Attach,
            DataKind::Detach => N::Detach,
            DataKind::Delete => N::Delete,
            DataKind::UseDevice => N::UseDevice,
            DataKind::DeviceResident => N::DeviceResident,
            DataKind::Link => N::Link,
            DataKind::Host => N::Host,
            DataKind::Device => N::Device,
            DataKind::UpdateSelf => N::SelfClause,
        }
    }
}

impl ClauseKind {
    /// The clause's name.
    pub fn name(&self) -> ClauseName {
        use ClauseName as N;
        match self {
            ClauseKind::Async(_) => N::Async,
            ClauseKind::Wait(_) => N::Wait,
            ClauseKind::NumGangs(_) => N::NumGangs,
            ClauseKind::NumWorkers(_) => N::NumWorkers,
            ClauseKind::VectorLength(_) => N::VectorLength,
            ClauseKind::DeviceType { .. } => N::DeviceType,
            ClauseKind::If(_) => N::If,
            ClauseKind::SelfIf(_) => N::SelfClause,
            ClauseKind::Reduction { .. } => N::Reduction,
            ClauseKind::Private(_) => N::Private,
            ClauseKind::FirstPrivate(_) => N::FirstPrivate,
            ClauseKind::Data(d) => d.kind.clause_name(),
            ClauseKind::Finalize => N::Finalize,
            ClauseKind::IfPresent => N::IfPresent,
            ClauseKind::Default(_) => N::Default,
            ClauseKind::Collapse { .. } => N::Collapse,
            ClauseKind::Gang(_) => N::Gang,
            ClauseKind::Worker(_) => N::Worker,
            ClauseKind::Vector(_) => N::Vector,
            ClauseKind::Seq => N::Seq,
            ClauseKind::Independent => N::Independent,
            ClauseKind::Auto => N::Auto,
            ClauseKind::Tile(_) => N::Tile,
            ClauseKind::NoHost => N::NoHost,
            ClauseKind::Bind(_) => N::Bind,
            ClauseKind::DeviceNum(_) => N::DeviceNum,
            ClauseKind::DefaultAsync(_) => N::DefaultAsync,
        }
    }
}

impl Clause {
    /// The clause's name.
    pub fn name(&self) -> ClauseName {
        self.kind.name()
    }
}

impl DirectiveKind {
    /// The directive's name as written in C (`parallel loop`, `enter data`, …).
    pub fn name(&self) -> &'static str {
        match self {
            DirectiveKind::Parallel => "parallel",
            DirectiveKind::Serial => "serial",
            DirectiveKind::Kernels => "kernels",
            DirectiveKind::Data => "data",
            DirectiveKind::EnterData => "enter data",
            DirectiveKind::ExitData => "exit data",
            DirectiveKind::HostData => "host_data",
            DirectiveKind::Loop => "loop",
            DirectiveKind::ParallelLoop => "parallel loop",
            DirectiveKind::SerialLoop => "serial loop",
            DirectiveKind::KernelsLoop => "kernels loop",
            DirectiveKind::Cache { .. } => "cache",
            DirectiveKind::Atomic(_) => "atomic",
            DirectiveKind::Declare => "declare",
            DirectiveKind::Init => "init",
            DirectiveKind::Shutdown => "shutdown",
            DirectiveKind::Set => "set",
            DirectiveKind::Update => "update",
            DirectiveKind::Wait(_) => "wait",
            DirectiveKind::Routine(_) => "routine",
        }
    }

    /// Whether this is a compute construct (`parallel`, `serial`, `kernels`)
    /// or a combined construct containing one.
    pub fn is_compute(&self) -> bool {
        matches!(
            self,
            DirectiveKind::Parallel
                | DirectiveKind::Serial
                | DirectiveKind::Kernels
                | DirectiveKind::ParallelLoop
                | DirectiveKind::SerialLoop
                | DirectiveKind::KernelsLoop
        )
    }

    /// Whether this directive has loop clauses (`loop` or a combined construct).
    pub fn is_loop(&self) -> bool {
        matches!(
            self,
            DirectiveKind::Loop
                | DirectiveKind::ParallelLoop
                | DirectiveKind::SerialLoop
                | DirectiveKind::KernelsLoop
        )
    }
}

/// The directive's name for messages: `"parallel loop"`, `"data"`, ….
pub fn directive_name(d: &Directive) -> &'static str {
    d.kind.name()
}
