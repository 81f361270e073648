//! Host expressions: values the host code of a construct computes before
//! it runs a kernel (launch sizes today), as typed trees rather than C
//! text, so that a pass can rewrite them (split a launch into chunks and
//! queues, PACC-style) without re-parsing C. Only the expressions of the
//! user's program ([`UserExpr`]) are C text, kept with where they are and
//! the C type the host evaluates them as.
//!
//! Owns: [`HostExpr`], [`UserExpr`], [`HostType`], [`LaunchPlan`] and
//! their text form (the `Display` impls `print` uses; `read/host.rs`
//! reads it back). May call: nothing outside `ir`. `schedule::launch`
//! builds launch plans; `codegen::host` renders them as C.

use super::SrcLoc;
use std::fmt;

/// The C type the host converts a user's expression to before using it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HostType {
    /// `long long` (text form `i64`): a size clause, where values that are
    /// not positive mean the default.
    LongLong,
    /// `unsigned long long` (text form `u64`): a trip count.
    ULongLong,
    /// `int` (text form `i32`): an async queue, a device number.
    Int,
    /// `long` (text form `ilong`): a byte offset that may be negative.
    Long,
    /// `unsigned long` (text form `ulong`): a length.
    ULong,
    /// A truth value (text form `bool`): C's `e != 0`, an `if` clause.
    Bool,
}

impl HostType {
    /// The C spelling (of [`HostType::Bool`]: `int`, the type of `!=`).
    pub fn c_name(self) -> &'static str {
        match self {
            HostType::LongLong => "long long",
            HostType::ULongLong => "unsigned long long",
            HostType::Int | HostType::Bool => "int",
            HostType::Long => "long",
            HostType::ULong => "unsigned long",
        }
    }

    /// The text-form spelling.
    pub fn ir_name(self) -> &'static str {
        match self {
            HostType::LongLong => "i64",
            HostType::ULongLong => "u64",
            HostType::Int => "i32",
            HostType::Bool => "bool",
            HostType::Long => "ilong",
            HostType::ULong => "ulong",
        }
    }

    /// The type of text-form spelling `name`.
    pub fn from_ir_name(name: &str) -> Option<HostType> {
        [
            HostType::LongLong,
            HostType::ULongLong,
            HostType::Int,
            HostType::Bool,
            HostType::Long,
            HostType::ULong,
        ]
        .into_iter()
        .find(|t| t.ir_name() == name)
    }
}

/// An expression of the user's program, evaluated by the host in the scope
/// of the construct at `loc` and converted to `ty`.
#[derive(Clone, Debug, PartialEq)]
pub struct UserExpr {
    /// C source, self-contained (parenthesised where it needs to be).
    pub text: String,
    /// Where it is written (a clause's argument), for errors and remarks;
    /// the host evaluates it in the scope of the construct that holds it.
    pub loc: SrcLoc,
    pub ty: HostType,
}

/// A value the host computes (unsigned, 32 bits unless a node says
/// otherwise). Trees: every node owns its operands.
#[derive(Clone, Debug, PartialEq)]
pub enum HostExpr {
    /// A constant known at compile time.
    Const(u32),
    /// An expression of the user's program.
    User(UserExpr),
    /// The block size along a dimension (0..3) as fitted to the device
    /// before the launch (valid where a [`LaunchPlan`] has `fit`).
    Block(u8),
    /// The product of two values.
    Mul(Box<HostExpr>, Box<HostExpr>),
    /// `value` where it is positive, else `default` (`__ptxrt_size_or`: a
    /// launch size is never 0).
    SizeOr(Box<HostExpr>, Box<HostExpr>),
    /// Rounded to a power of two up to 32, or to whole warps
    /// (`__ptxrt_warp_friendly`).
    WarpFriendly(Box<HostExpr>),
    /// The gangs along grid x for a loop of `trip` iterations (unknown:
    /// `None`) of which a gang takes `per` (`__ptxrt_kernel_gangs`: at
    /// most a wave of the kernel's resident blocks; the loop strides).
    DefaultGangs {
        trip: Option<Box<HostExpr>>,
        per: Box<HostExpr>,
    },
    /// Enough gangs along grid y or z to cover a loop of `trip` iterations
    /// of which a gang takes `per`, at most 65535.
    Cover {
        trip: Box<HostExpr>,
        per: Box<HostExpr>,
    },
}

impl HostExpr {
    /// The constant, when it is one.
    pub fn as_const(&self) -> Option<u32> {
        match self {
            HostExpr::Const(n) => Some(*n),
            _ => None,
        }
    }
}

/// How the host computes a kernel's launch, in order: the block, fitted
/// to the device when `fit` says so, then the grid (which may read the
/// fitted block through [`HostExpr::Block`]).
#[derive(Clone, Debug, PartialEq)]
pub struct LaunchPlan {
    /// Threads per block along x, y, z.
    pub block: [HostExpr; 3],
    /// `Some(fixed)`: the block is fitted to the device's limits at run
    /// time (`__ptxrt_fit_block_to` the kernel's `__ptxrt_kernel_threads`),
    /// keeping the dimensions whose bits are set in `fixed` (those the
    /// compiler fitted already).
    pub fit: Option<u8>,
    /// Gangs along x, y, z.
    pub grid: [HostExpr; 3],
    /// The host waits for the kernel at its construct's end even when
    /// synchronous constructs otherwise leave it running (the runtime's
    /// deferred waits): it prints, and the host sees that output without a
    /// runtime call ([`crate::ir::Module::kernel_prints`]).
    pub wait: bool,
}

impl fmt::Display for UserExpr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} ({}) at {}:{}:{}",
            self.ty.ir_name(),
            self.text,
            super::print::quote(self.loc.file.as_bytes()),
            self.loc.line,
            self.loc.col
        )
    }
}

/// The dimension names of the text form.
pub(super) const DIMS: [&str; 3] = ["x", "y", "z"];

impl fmt::Display for HostExpr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HostExpr::Const(n) => write!(f, "{n}"),
            HostExpr::User(u) => write!(f, "{u}"),
            HostExpr::Block(d) => write!(f, "block.{}", DIMS[usize::from(*d).min(2)]),
            HostExpr::Mul(a, b) => write!(f, "mul({a}, {b})"),
            HostExpr::SizeOr(a, b) => write!(f, "size_or({a}, {b})"),
            HostExpr::WarpFriendly(a) => write!(f, "warp_friendly({a})"),
            HostExpr::DefaultGangs { trip: Some(t), per } => {
                write!(f, "default_gangs({t}, {per})")
            }
            HostExpr::DefaultGangs { trip: None, per } => write!(f, "default_gangs(?, {per})"),
            HostExpr::Cover { trip, per } => write!(f, "cover({trip}, {per})"),
        }
    }
}

impl fmt::Display for LaunchPlan {
    /// `block=(…) [fit(fixed=N)] grid=(…) [wait]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [b0, b1, b2] = &self.block;
        write!(f, "block=({b0}, {b1}, {b2})")?;
        if let Some(fixed) = self.fit {
            write!(f, " fit(fixed={fixed})")?;
        }
        let [g0, g1, g2] = &self.grid;
        write!(f, " grid=({g0}, {g1}, {g2})")?;
        if self.wait {
            write!(f, " wait")?;
        }
        Ok(())
    }
}
