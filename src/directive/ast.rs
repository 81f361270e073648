//! The Directive AST: plain data describing one parsed `#pragma acc` line.
//!
//! Every span is a byte range into the directive text given to
//! [`parse`](super::parse) (what follows `#pragma acc`). C expressions inside
//! clauses are not parsed here: they are kept as [`ClauseExpr`] source text for
//! the front end's C expression parser.

use std::ops::Range;

/// A byte range into the directive text.
pub type Span = Range<usize>;

/// An identifier with its position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ident {
    /// The identifier as written.
    pub name: String,
    /// Where it is.
    pub span: Span,
}

/// A C expression kept as source text (trimmed; balanced brackets; never empty).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClauseExpr {
    /// The exact source text, without surrounding white space.
    pub text: String,
    /// Where `text` is.
    pub span: Span,
}

/// A size expression (`tile`, `gang(static:…)`): `*` or an integer expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SizeExpr {
    /// `*`: the implementation chooses.
    Star(Span),
    /// An integer expression.
    Expr(ClauseExpr),
}

/// A variable reference in a var-list: a name followed by members, subscripts
/// and array sections (`a[0:n]`, `s.x[2:3]`, `p->q`, `u[1:k][0:M]`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VarRef {
    /// The exact source text of the whole reference.
    pub text: String,
    /// Where `text` is.
    pub span: Span,
    /// The variable the reference starts from.
    pub base: Ident,
    /// The accesses applied to `base`, left to right.
    pub path: Vec<Access>,
}

/// One step of a [`VarRef`] path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Access {
    /// `.name` (`arrow == false`) or `->name` (`arrow == true`).
    Member {
        /// The member name.
        name: Ident,
        /// Whether the access is through a pointer (`->`).
        arrow: bool,
    },
    /// `[expr]`: one element.
    Index(ClauseExpr),
    /// `[lower:length]`: an array section; a missing bound is `None`
    /// (lower defaults to 0, length to the rest of the array).
    Section {
        /// The first element, if written.
        lower: Option<ClauseExpr>,
        /// The number of elements, if written.
        length: Option<ClauseExpr>,
        /// The span of the brackets and their contents.
        span: Span,
    },
}

/// The argument of a `wait` clause or directive:
/// `[devnum:int-expr:][queues:]int-expr-list`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WaitArg {
    /// The device number, when `devnum:` is given.
    pub devnum: Option<ClauseExpr>,
    /// Whether the `queues:` keyword was written (no semantic difference).
    pub queues: bool,
    /// The async queues to wait for (at least one).
    pub queue_exprs: Vec<ClauseExpr>,
}

/// The argument of a `device_type` clause.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DeviceTypeList {
    /// `*`: every device type.
    Any(Span),
    /// A list of device-type names (`nvidia`, `host`, `default`, …).
    Names(Vec<Ident>),
}

/// A reduction operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReductionOp {
    /// `+`
    Add,
    /// `*`
    Mul,
    /// `max`
    Max,
    /// `min`
    Min,
    /// `&`
    BitAnd,
    /// `|`
    BitOr,
    /// `^`
    BitXor,
    /// `&&`
    And,
    /// `||`
    Or,
}

/// Which data clause a [`DataClause`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DataKind {
    /// `copy` (also `pcopy`, `present_or_copy`).
    Copy,
    /// `copyin` (also `pcopyin`, `present_or_copyin`).
    CopyIn,
    /// `copyout` (also `pcopyout`, `present_or_copyout`).
    CopyOut,
    /// `create` (also `pcreate`, `present_or_create`).
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
    /// `use_device` (host_data)
    UseDevice,
    /// `device_resident` (declare)
    DeviceResident,
    /// `link` (declare)
    Link,
    /// `host` (update): copy device → host.
    Host,
    /// `device` (update): copy host → device.
    Device,
    /// `self(var-list)` on `update`: same as `host`.
    UpdateSelf,
}

/// How a data clause was spelled (the kinds are the same; kept for messages).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DataSpelling {
    /// The OpenACC 3.3 name (`copy`).
    Canonical,
    /// The long legacy name (`present_or_copy`).
    PresentOr,
    /// The short legacy name (`pcopy`).
    Short,
}

/// A clause taking a var-list with data semantics.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataClause {
    /// Which data clause.
    pub kind: DataKind,
    /// How it was spelled.
    pub spelling: DataSpelling,
    /// The `readonly:` modifier (copyin only).
    pub readonly: bool,
    /// The `zero:` modifier (copyout and create only).
    pub zero: bool,
    /// `alwaysin:` (OpenACC 3.4; also `always:` on copy and copyin): copy
    /// the data to the device even when it is present already.
    pub always_in: bool,
    /// `alwaysout:` (OpenACC 3.4; also `always:` on copy and copyout): copy
    /// the data back to the host at the end even when it stays present.
    pub always_out: bool,
    /// `capture:` (OpenACC 3.4; structured data and compute constructs):
    /// the data gets a device copy of its own even where memory is shared.
    pub capture: bool,
    /// The variables (at least one).
    pub vars: Vec<VarRef>,
}

/// The argument of a `default` clause.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DefaultKind {
    /// `default(none)`
    None,
    /// `default(present)`
    Present,
}

/// The arguments of a `gang` clause; all `None` when written without parentheses.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GangArgs {
    /// `[num:]int-expr`
    pub num: Option<ClauseExpr>,
    /// `dim:int-expr`
    pub dim: Option<ClauseExpr>,
    /// `static:size-expr`
    pub static_size: Option<SizeExpr>,
}

/// The argument of a `bind` clause.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BindName {
    /// `bind(name)`
    Ident(Ident),
    /// `bind("name")`: `literal` is the string literal as written, quotes included.
    Str {
        /// The literal as written.
        literal: String,
        /// Where it is.
        span: Span,
    },
}

/// A clause: its payload and the span from its name to its closing parenthesis.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clause {
    /// What the clause is, with its arguments.
    pub kind: ClauseKind,
    /// Where it is.
    pub span: Span,
}

/// Every OpenACC 3.3 clause (C), with its typed arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClauseKind {
    /// `async[(int-expr)]`
    Async(Option<ClauseExpr>),
    /// `wait[(wait-argument)]`
    Wait(Option<WaitArg>),
    /// `num_gangs(int-expr-list)`: 1 to 3 expressions.
    NumGangs(Vec<ClauseExpr>),
    /// `num_workers(int-expr)`
    NumWorkers(ClauseExpr),
    /// `vector_length(int-expr)`
    VectorLength(ClauseExpr),
    /// `device_type(list)`; `dtype` records the `dtype` spelling.
    DeviceType {
        /// The device types.
        list: DeviceTypeList,
        /// Whether it was spelled `dtype`.
        dtype: bool,
    },
    /// `if(condition)`
    If(ClauseExpr),
    /// `self[(condition)]` on a compute construct (`self(var-list)` on
    /// `update` is a [`DataClause`] of kind [`DataKind::UpdateSelf`]).
    SelfIf(Option<ClauseExpr>),
    /// `reduction(op:var-list)`
    Reduction {
        /// The operator.
        op: ReductionOp,
        /// The variables.
        vars: Vec<VarRef>,
    },
    /// `private(var-list)`
    Private(Vec<VarRef>),
    /// `firstprivate(var-list)`
    FirstPrivate(Vec<VarRef>),
    /// A data clause (copy, copyin, …, use_device, host, device, update's self).
    Data(DataClause),
    /// `finalize`
    Finalize,
    /// `if_present`
    IfPresent,
    /// `default(none|present)`
    Default(DefaultKind),
    /// `collapse([force:]n)`
    Collapse {
        /// Whether `force:` was written.
        force: bool,
        /// The loop count.
        count: ClauseExpr,
    },
    /// `gang[(gang-arg-list)]`
    Gang(GangArgs),
    /// `worker[([num:]int-expr)]`
    Worker(Option<ClauseExpr>),
    /// `vector[([length:]int-expr)]`
    Vector(Option<ClauseExpr>),
    /// `seq`
    Seq,
    /// `independent`
    Independent,
    /// `auto`
    Auto,
    /// `tile(size-expr-list)`
    Tile(Vec<SizeExpr>),
    /// `nohost`
    NoHost,
    /// `bind(name)` or `bind("name")`
    Bind(BindName),
    /// `device_num(int-expr)`
    DeviceNum(ClauseExpr),
    /// `default_async(int-expr)`
    DefaultAsync(ClauseExpr),
}

/// The operation of an `atomic` construct.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AtomicKind {
    /// `atomic read`
    Read,
    /// `atomic write`
    Write,
    /// `atomic update`
    Update,
    /// `atomic capture`
    Capture,
}

/// Which directive a line is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DirectiveKind {
    /// `parallel`
    Parallel,
    /// `serial`
    Serial,
    /// `kernels`
    Kernels,
    /// `data`
    Data,
    /// `enter data`
    EnterData,
    /// `exit data`
    ExitData,
    /// `host_data`
    HostData,
    /// `loop`
    Loop,
    /// `parallel loop`
    ParallelLoop,
    /// `serial loop`
    SerialLoop,
    /// `kernels loop`
    KernelsLoop,
    /// `cache([readonly:]var-list)`
    Cache {
        /// Whether `readonly:` was written.
        readonly: bool,
        /// The variables (at least one).
        vars: Vec<VarRef>,
    },
    /// `atomic [read|write|update|capture]`; `None` when no atomic clause was
    /// written, which means `update`.
    Atomic(Option<AtomicKind>),
    /// `declare`
    Declare,
    /// `init`
    Init,
    /// `shutdown`
    Shutdown,
    /// `set`
    Set,
    /// `update`
    Update,
    /// `wait [(wait-argument)]`
    Wait(Option<WaitArg>),
    /// `routine [(name)]`
    Routine(Option<Ident>),
}

/// One parsed directive line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Directive {
    /// Which directive, with the arguments that belong to its name.
    pub kind: DirectiveKind,
    /// The span of the directive name (`enter data`: both words; `wait(…)`,
    /// `routine(…)`, `cache(…)`: the name and its parenthesised argument;
    /// `atomic read`: both words).
    pub kind_span: Span,
    /// The clauses, in source order (order matters after `device_type`).
    pub clauses: Vec<Clause>,
}

impl AtomicKind {
    /// The clause word (`read`, …).
    pub fn as_str(self) -> &'static str {
        match self {
            AtomicKind::Read => "read",
            AtomicKind::Write => "write",
            AtomicKind::Update => "update",
            AtomicKind::Capture => "capture",
        }
    }
}

impl ReductionOp {
    /// The operator as written in a `reduction` clause.
    pub fn as_str(self) -> &'static str {
        match self {
            ReductionOp::Add => "+",
            ReductionOp::Mul => "*",
            ReductionOp::Max => "max",
            ReductionOp::Min => "min",
            ReductionOp::BitAnd => "&",
            ReductionOp::BitOr => "|",
            ReductionOp::BitXor => "^",
            ReductionOp::And => "&&",
            ReductionOp::Or => "||",
        }
    }
}

impl DirectiveKind {
    /// An executable directive that stands alone (applies where it is, not
    /// to a following statement): `enter data`, `exit data`, `update`,
    /// `wait`, `init`, `shutdown`, `set`, and `declare`.
    pub fn is_standalone(&self) -> bool {
        matches!(
            self,
            DirectiveKind::EnterData
                | DirectiveKind::ExitData
                | DirectiveKind::Update
                | DirectiveKind::Wait(_)
                | DirectiveKind::Init
                | DirectiveKind::Shutdown
                | DirectiveKind::Set
                | DirectiveKind::Declare
        )
    }
}

impl BindName {
    /// The bound name: the identifier, or the literal without its quotes.
    pub fn name(&self) -> &str {
        match self {
            BindName::Ident(id) => &id.name,
            BindName::Str { literal, .. } => literal
                .strip_prefix('"')
                .and_then(|s| s.strip_suffix('"'))
                .unwrap_or(literal),
        }
    }
}

impl AtomicKind {
    /// The operation an `atomic` directive performs (`None` means update).
    pub fn effective(kind: Option<AtomicKind>) -> AtomicKind {
        kind.unwrap_or(AtomicKind::Update)
    }
}
