//! The host plan: what the host does for each construct (data movement,
//! kernel arguments, launch, waits, device management), as decided by the
//! front end, held in [`Module::host`](super::Module::host). Its values
//! are typed: the user's expressions as [`UserExpr`] (with their clause's
//! location and the type the host converts them to), the user's objects as
//! [`Lvalue`](super::Lvalue)s, addresses and byte counts as [`HostAddr`]
//! and [`HostBytes`], an atomic statement's host version as the operation
//! it is ([`HostAtomic`]). Text are: names for messages, the user's
//! expressions inside those (C as written, checked; an atomic statement's
//! operands as written) and the host fallback (the user's statement
//! re-emitted verbatim, [`ConstructKind::Fallback`]). Only
//! `codegen::host` turns the plan into C; `hosttext.rs` prints it and
//! `read/plan.rs` reads it back.
//!
//! Owns: [`HostPlan`], [`Construct`], [`ConstructKind`], [`HostMap`],
//! [`UpdateItem`], [`AsyncSpec`], [`Queue`], [`HostArg`],
//! [`GlobalDeclare`], [`DeviceDirective`] (and the device type numbers of
//! its runtime calls), [`HostAtomic`]. May call: nothing outside `ir`.

use super::hostdata::UndecidedData;
use super::{HostAddr, HostBytes, LaunchPlan, SrcLoc, UserExpr};
use std::ops::Range;

/// Data clause kinds, numbered as `enum __ptxrt_map_kind` in `ptxrt.h`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MapKind {
    Copy = 0,
    CopyIn = 1,
    CopyOut = 2,
    Create = 3,
    Present = 4,
    NoCreate = 5,
    Delete = 6,
    /// The range is a host pointer to attach.
    Attach = 7,
    Detach = 8,
    DevicePtr = 9,
    /// The rows of the pointers of the data item before it (pointer-to-
    /// pointer sub-arrays): `start` is the byte offset of each row from
    /// its pointer's target (as a pointer-sized integer), `bytes` its
    /// length (`PTXRT_MAP_ROWS`).
    Rows = 10,
}

impl MapKind {
    /// The clause that makes this map, as written (`copyin`, `no_create`, …).
    pub fn clause(self) -> &'static str {
        match self {
            MapKind::Copy => "copy",
            MapKind::CopyIn => "copyin",
            MapKind::CopyOut => "copyout",
            MapKind::Create => "create",
            MapKind::Present => "present",
            MapKind::NoCreate => "no_create",
            MapKind::Delete => "delete",
            MapKind::Attach => "attach",
            MapKind::Detach => "detach",
            MapKind::DevicePtr => "deviceptr",
            MapKind::Rows => "rows",
        }
    }
}

/// `PTXRT_MAP_ZERO`: new device memory is zeroed.
pub const MAP_ZERO: u32 = 1;
/// `PTXRT_MAP_READONLY`.
pub const MAP_READONLY: u32 = 2;
/// `PTXRT_MAP_ALWAYSIN`: copy in even when present (`alwaysin`, `always`).
pub const MAP_ALWAYSIN: u32 = 4;
/// `PTXRT_MAP_ALWAYSOUT`: copy out even when it stays present.
pub const MAP_ALWAYSOUT: u32 = 8;
/// `PTXRT_MAP_BLOCK`: the item stands for the present block that holds its
/// first byte when there is one (a bare pointer; an implicit section).
pub const MAP_BLOCK: u32 = 16;
/// `PTXRT_MAP_NO_EXTENT`: the item has no extent of its own (a bare
/// pointer: its target must be present).
pub const MAP_NO_EXTENT: u32 = 32;

/// One data clause item (or an implicit one): a contiguous host range.
#[derive(Clone, Debug, PartialEq)]
pub struct HostMap {
    /// As written (`a[0:n]`), for runtime messages.
    pub name: String,
    /// The address of the first byte.
    pub start: HostAddr,
    /// The length in bytes.
    pub bytes: HostBytes,
    pub kind: MapKind,
    /// [`MAP_ZERO`] | [`MAP_READONLY`] | [`MAP_ALWAYSIN`] |
    /// [`MAP_ALWAYSOUT`] | [`MAP_BLOCK`] | [`MAP_NO_EXTENT`].
    pub flags: u32,
    /// A condition ([`HostType::Bool`]) under which `bytes` is the item's
    /// extent (an implicit section's assumptions); when it is false at run
    /// time the item has no extent ([`MAP_NO_EXTENT`] is added).
    ///
    /// [`HostType::Bool`]: super::HostType::Bool
    pub extent_guard: Option<UserExpr>,
    /// Made by the compiler (OpenACC 3.3 2.6.2: a variable the construct
    /// uses that no data clause names; text form ` implicit`), not by a
    /// data clause. A variable a data clause of a compute construct names
    /// is shared on purpose ([`HostPlan::clause_vars`]): the automatic
    /// privatisation (`schedule::privatize`) leaves it alone.
    pub implicit: bool,
    /// A data clause's item inside a const-qualified object (reached
    /// without a pointer; text form ` const`): `schedule::decide_data`
    /// makes its `copy` a `copyin` (`analysis::data_attrs::of_const`) and
    /// clears it.
    pub in_const: bool,
}

/// One item of an `update` directive.
#[derive(Clone, Debug, PartialEq)]
pub struct UpdateItem {
    pub name: String,
    /// First byte and length in bytes.
    pub start: HostAddr,
    pub bytes: HostBytes,
    /// `device(…)`; else `self(…)`/`host(…)`.
    pub to_device: bool,
    /// A bare pointer: the present block holding its target
    /// (`PTXRT_UPDATE_BLOCK`; `bytes` is 0).
    pub block: bool,
}

/// The queue an `async` clause names.
#[derive(Clone, Debug, PartialEq)]
pub enum Queue {
    /// `async` alone (`acc_async_noval`).
    NoVal,
    /// `async(e)`: an `int` expression.
    Expr(UserExpr),
    /// The queue the enclosing construct bound to its queue variable
    /// number `.0` ([`AsyncSpec::bind`]): the kernels of a `kernels`
    /// construct of several loop nests.
    Bound(usize),
}

/// The `async` and `wait` clauses of a directive (`struct __ptxrt_async`
/// in ptxrt.h); their expressions are `int`s ([`HostType::Int`]).
///
/// [`HostType::Int`]: super::HostType::Int
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AsyncSpec {
    /// The queue: `None` without `async`.
    pub queue: Option<Queue>,
    /// `None` without `wait`; `Some(vec![])` for `wait` alone (all queues).
    pub waits: Option<Vec<UserExpr>>,
    /// `wait(devnum: e: …)`: the device of the queues.
    pub wait_dev: Option<UserExpr>,
    /// The number of a variable (an `int` the construct declares, visible
    /// in its statement; `codegen::host` names it) that holds the queue,
    /// evaluated once: the kernels of a `kernels` construct with several
    /// loop nests use it ([`Queue::Bound`]). Unique in the translation
    /// unit (the front end takes the statement's start).
    pub bind: Option<usize>,
}

impl AsyncSpec {
    /// Whether the directive has neither `async` nor `wait`.
    pub fn is_sync(&self) -> bool {
        self.queue.is_none() && self.waits.is_none()
    }
}

/// How the host passes one kernel parameter.
#[derive(Clone, Debug, PartialEq)]
pub enum HostArg {
    /// The address of a host variable (an [`Lvalue::Var`]) whose value is
    /// passed (firstprivate).
    ///
    /// [`Lvalue::Var`]: super::Lvalue::Var
    Value { var: super::Lvalue },
    /// A byte size (`unsigned long`, the `sizeof` of a variable-length
    /// array), evaluated at the construct.
    Size { bytes: HostBytes },
    /// The device address of the host address `ptr` (a pointer's value,
    /// an array, or `&scalar`), found through the present table; `section`
    /// is an address inside the mapped range when a clause maps it with a
    /// section. `name` is for messages.
    DevicePtr {
        name: String,
        ptr: HostAddr,
        section: Option<Box<HostAddr>>,
        /// `no_create`: the host address itself when not present.
        if_present: bool,
    },
    /// The device scratch memory the runtime lends the launch for the
    /// kernel's reductions across gangs (its [`ParamMode::Scratch`]
    /// parameter, always the last): [`Scratch::SLOTS_AT`] bytes of
    /// counters, then `slots` arrays of one 8-byte slot per gang of the
    /// launch. Added by `schedule` with the parameter.
    ///
    /// [`ParamMode::Scratch`]: super::ParamMode::Scratch
    /// [`Scratch::SLOTS_AT`]: super::Scratch::SLOTS_AT
    Scratch { slots: u32 },
}

/// What a construct is.
#[derive(Clone, Debug, PartialEq)]
pub enum ConstructKind {
    /// A compute construct outlined as kernel number `kernel` of the
    /// module: the host maps the data, passes `args` (one per kernel
    /// parameter, in order), launches the kernel with the sizes `launch`
    /// computes on the queue `asyncs` names, and ends the data region.
    Compute {
        kernel: usize,
        args: Vec<HostArg>,
        asyncs: AsyncSpec,
        /// How the host computes the launch sizes: set by `schedule`
        /// (`schedule::launch`, from the kernel's geometry); `None` before.
        launch: Option<Box<LaunchPlan>>,
    },
    /// A `data` construct (or the data region of a `kernels` construct
    /// with several kernels).
    Data { asyncs: AsyncSpec },
    /// The `wait` directive (`stmt` is its own line): `asyncs.waits` are
    /// the queues (`Some(vec![])`: all).
    Wait { asyncs: AsyncSpec },
    /// An atomic statement's host version (`stmt`: the statement), which
    /// `codegen::host` writes with the host compiler's atomic builtins in
    /// place of the statement; where its `cond` (the `if` clause) is false
    /// the statement runs as written. The front end recognises it
    /// (`frontend::atomic`).
    Atomic(HostAtomic),
    /// A `declare` directive in a function: a data region from the
    /// directive to the end of the enclosing block (`stmt`: from the
    /// directive's line to the block's closing brace, so the constructs
    /// that follow are its body).
    DeclareLocal,
    /// `enter data` (`stmt` is the directive's own line, replaced).
    EnterData { asyncs: AsyncSpec },
    /// `exit data`.
    ExitData { finalize: bool, asyncs: AsyncSpec },
    /// `update`.
    Update {
        items: Vec<UpdateItem>,
        if_present: bool,
        asyncs: AsyncSpec,
    },
    /// `host_data use_device(…)`: in the statement, each named pointer or
    /// array variable stands for its device address (a pointer to its
    /// elements).
    HostData { vars: Vec<String>, if_present: bool },
    /// `init`, `shutdown` or `set` (`stmt` is the directive's own line).
    Device(DeviceDirective),
    /// The host fallback of the compute construct that holds it (the only
    /// construct of its body, with the same `stmt`): what the host runs
    /// in place of the kernel when the construct does not run on a device
    /// (its `if` clause false, the host device, no device). It is the
    /// user's statement itself, re-emitted verbatim (C text the plan never
    /// models) but for the constructs of its body, rewritten in it (the
    /// host versions of atomics).
    Fallback,
}

/// An atomic statement as an operation on location `x` (OpenACC 3.3
/// 2.12): a read (no `update`), a write or an update, capturing the old or
/// the new value into `v` or not. The operands are the user's C
/// expressions as written (the statement's own text), evaluated once, in
/// their own types; the new value follows C's conversions.
#[derive(Clone, Debug, PartialEq)]
pub struct HostAtomic {
    /// The location, an lvalue expression.
    pub x: String,
    /// How `x` changes; `None`: a read (into `capture`).
    pub update: Option<AtomicUpdate>,
    /// `v` and which value of `x` it gets.
    pub capture: Option<(String, Captured)>,
}

/// The new value of an atomic statement's `x`.
#[derive(Clone, Debug, PartialEq)]
pub enum AtomicUpdate {
    /// `x = expr`.
    Set(String),
    /// `x op expr`, or `expr op x` when `expr_first`; `expr` `None` is the
    /// constant 1 (`x++`, `--x`, …).
    Op {
        op: AtomicArith,
        expr: Option<String>,
        expr_first: bool,
    },
}

/// The operators of an atomic update (C's, on `x`'s type).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AtomicArith {
    Add,
    Sub,
    Mul,
    Div,
    And,
    Or,
    Xor,
    Shl,
    Shr,
}

impl AtomicArith {
    /// Every operator.
    pub const ALL: [AtomicArith; 9] = [
        AtomicArith::Add,
        AtomicArith::Sub,
        AtomicArith::Mul,
        AtomicArith::Div,
        AtomicArith::And,
        AtomicArith::Or,
        AtomicArith::Xor,
        AtomicArith::Shl,
        AtomicArith::Shr,
    ];

    /// The C operator.
    pub fn c_op(self) -> &'static str {
        match self {
            AtomicArith::Add => "+",
            AtomicArith::Sub => "-",
            AtomicArith::Mul => "*",
            AtomicArith::Div => "/",
            AtomicArith::And => "&",
            AtomicArith::Or => "|",
            AtomicArith::Xor => "^",
            AtomicArith::Shl => "<<",
            AtomicArith::Shr => ">>",
        }
    }

    /// The text-form name (`add`, `shl`, …).
    pub fn ir_name(self) -> &'static str {
        match self {
            AtomicArith::Add => "add",
            AtomicArith::Sub => "sub",
            AtomicArith::Mul => "mul",
            AtomicArith::Div => "div",
            AtomicArith::And => "and",
            AtomicArith::Or => "or",
            AtomicArith::Xor => "xor",
            AtomicArith::Shl => "shl",
            AtomicArith::Shr => "shr",
        }
    }
}

/// Which value of `x` a capture takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Captured {
    Old,
    New,
}

/// One construct to rewrite.
#[derive(Clone, Debug, PartialEq)]
pub struct Construct {
    pub kind: ConstructKind,
    /// As written: "parallel loop", "data", ...
    pub name: String,
    pub loc: SrcLoc,
    /// Byte range of the statement the directive applies to.
    pub stmt: Range<usize>,
    /// The `if` clause's condition ([`HostType::Bool`]), if any: where it
    /// is false a compute construct runs its [`ConstructKind::Fallback`],
    /// an atomic statement runs as written, other constructs do nothing
    /// (their body still runs).
    ///
    /// [`HostType::Bool`]: super::HostType::Bool
    pub cond: Option<UserExpr>,
    /// Data clause items, in clause order (implicit ones last).
    pub maps: Vec<HostMap>,
    /// The constructs inside `stmt`, by statement start (`hosttree.rs`); a
    /// compute construct's is its [`ConstructKind::Fallback`] alone.
    pub body: Vec<Construct>,
    /// A compute construct's data attributes (or those of the data region
    /// of a `kernels` construct of several kernels) as the front end
    /// records them, until `schedule::data` decides them: while `Some`,
    /// `maps` are only the data clauses' and a compute construct's `args`
    /// are empty. `None` once decided, and for every other construct.
    pub undecided: Option<Box<UndecidedData>>,
}

impl Construct {
    /// The host fallback of compute construct `self`
    /// ([`ConstructKind::Fallback`]): its statement, named and located as
    /// the construct.
    pub fn host_fallback(&self) -> Construct {
        Construct {
            kind: ConstructKind::Fallback,
            name: self.name.clone(),
            loc: self.loc.clone(),
            stmt: self.stmt.clone(),
            cond: None,
            maps: vec![],
            body: vec![],
            undecided: None,
        }
    }
}

/// A global variable in a file-scope `declare` directive, registered with
/// the runtime at program start (ptxrt.h, `struct __ptxrt_declare`).
#[derive(Clone, Debug, PartialEq)]
pub struct GlobalDeclare {
    /// As written.
    pub name: String,
    /// Its address and size.
    pub start: HostAddr,
    pub bytes: HostBytes,
    /// `PTXRT_MAP_CREATE`, `PTXRT_MAP_COPYIN` or `PTXRT_DECLARE_LINK`.
    pub kind: i32,
    pub loc: SrcLoc,
}

/// `PTXRT_DECLARE_LINK`.
pub const DECLARE_LINK: i32 = 100;

/// All constructs of a translation unit: a tree ([`Construct::body`],
/// built by [`HostPlan::insert`], walked by [`HostPlan::walk`]); each list
/// is ordered by statement start.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct HostPlan {
    /// The outermost constructs.
    pub constructs: Vec<Construct>,
    /// The file-scope `declare`d globals.
    pub declares: Vec<GlobalDeclare>,
}

/// Which device management directive (OpenACC 3.3 2.14.1-2.14.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeviceOp {
    Init,
    Shutdown,
    Set,
}

/// A device type named in a `device_type` clause of `init`, `shutdown` or
/// `set`.
#[derive(Clone, Debug, PartialEq)]
pub struct DeviceType {
    /// An `acc_device_t` value of openacc.h, `PTXRT_DEVICE_ANY` (`*`) or
    /// `PTXRT_DEVICE_OTHER` (a type accc drives no devices of).
    pub value: i32,
    /// As written, for runtime messages.
    pub name: String,
}

/// `acc_device_current`: no `device_type` clause.
pub const DEVICE_CURRENT: i32 = -1;
/// `PTXRT_DEVICE_ANY`.
pub const DEVICE_ANY: i32 = -100;
/// `PTXRT_DEVICE_OTHER`.
pub const DEVICE_OTHER: i32 = -101;

impl DeviceType {
    /// The type a `device_type` clause names by `name` (case-insensitive):
    /// `nvidia`, `not_host`, `host`, `multicore` (the host, in the runtime),
    /// `default`, `*`; any other name is a device accc has no devices of.
    pub fn named(name: &str) -> DeviceType {
        let value = match name.to_ascii_lowercase().as_str() {
            "*" => DEVICE_ANY,
            "default" => 1,
            "host" => 2,
            "not_host" => 4,
            "nvidia" => 5,
            "multicore" => 9,
            _ => DEVICE_OTHER,
        };
        DeviceType {
            value,
            name: name.to_string(),
        }
    }
}

/// An `init`, `shutdown` or `set` directive: a runtime call per device type
/// (`__ptxrt_init`, `__ptxrt_shutdown`, `__ptxrt_set` in ptxrt.h).
#[derive(Clone, Debug, PartialEq)]
pub struct DeviceDirective {
    pub op: DeviceOp,
    /// The `device_type` clause's types in order; empty without one (the
    /// current type). `set` has at most one.
    pub types: Vec<DeviceType>,
    /// `device_num(…)`: an `int`.
    pub num: Option<UserExpr>,
    /// `default_async(…)` of `set`: an `int`.
    pub default_async: Option<UserExpr>,
}
