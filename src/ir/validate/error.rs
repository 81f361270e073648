//! The validator's typed errors: what broke ([`ValidationErrorKind`], one
//! variant per check, [`ExprProblem`] for the checks of one expression
//! node), in which kernel or function ([`Owner`]) and where in the user's
//! source ([`ValidationError::at`]).
//!
//! Owns: [`ValidationError`], [`ValidationErrorKind`], [`ExprProblem`],
//! [`Owner`]. `Display` gives the message `tests/out/validate*/` expect,
//! `kernel k: …`, without the location (the driver prefixes it).

use std::fmt;

use super::super::expr::ExprId;
use super::super::function::LocalId;
use super::super::module::RoutineLevel;
use super::super::stmt::AtomicOp;
use super::super::types::Type;
use super::super::SrcLoc;

/// Whose body an error is in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Owner {
    /// A kernel, by name.
    Kernel(String),
    /// A device function, by name.
    Function(String),
}

impl fmt::Display for Owner {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Owner::Kernel(n) => write!(f, "kernel {n}"),
            Owner::Function(n) => write!(f, "function {n}"),
        }
    }
}

/// One violated invariant of the IR (an internal compiler error).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValidationError {
    /// What is wrong.
    pub kind: ValidationErrorKind,
    /// The kernel or function it is in.
    pub owner: Owner,
    /// The nearest source location known: the expression's, else the
    /// innermost enclosing loop's, else the kernel's or function's; `None`
    /// where that has none (IR built or read without locations).
    pub at: Option<SrcLoc>,
}

impl fmt::Display for ValidationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.owner, self.kind)
    }
}

impl std::error::Error for ValidationError {}

/// The checks of the validator, one variant each.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ValidationErrorKind {
    /// An expression has more than one parent.
    ExprReused { expr: ExprId, uses: u32 },
    /// An expression handle past the arena.
    ExprOutOfRange { expr: ExprId },
    /// A local handle past the locals.
    LocalOutOfRange { local: LocalId },
    /// A function parameter names no local.
    ParamOutOfRange { param: LocalId },
    /// A function parameter is an array, blob or void.
    ParamNotScalar { param: LocalId },
    /// An `if`, `while`, `select` or logical operand that is not `bool`.
    CondNotBool { cond: ExprId, ty: Type },
    /// `local = value` of another type.
    AssignType {
        local: LocalId,
        value: Type,
        local_ty: Type,
    },
    /// `store` of a value that is not the pointee type.
    StoreType { value: Type, ptr: Type },
    /// A counted loop in IR that claims to be scheduled.
    LoopLeftAfterSchedule { loc: SrcLoc },
    /// A `single`, `broadcast` or `performs` in IR that claims to be
    /// scheduled (schedule resolves them into guards).
    LeftAfterSchedule { what: &'static str },
    /// A kernel of scheduled IR without a launch (`schedule` gives every
    /// kernel one).
    NoLaunch,
    /// A kernel of scheduled IR whose construct's data (or its region's)
    /// the host plan leaves undecided (`schedule::decide_data` decides it
    /// before anything is scheduled).
    DataUndecided,
    /// A loop's init, limit or step not of its index's type.
    LoopBoundType { bound: ExprId },
    /// A loop directive that asks for contradictory things: more than one
    /// of `seq`, `auto` and `independent`, `seq` with a level, or a grid
    /// dimension without `gang`.
    LoopDirectiveClauses { loc: SrcLoc },
    /// A loop whose directive says `seq`, partitioned.
    LoopSeqPartitioned { loc: SrcLoc },
    /// `break` out of a partitioned or collapsed loop (a source error).
    BreakLeavesPartitionedLoop,
    /// A reduction across workers, or across vector lanes on block y or z,
    /// inside a loop partitioned over threads (a source error).
    ReductionAcrossThreadsInside { var: String },
    /// A reduction across gangs into memory in a routine (a source error).
    GangReductionInRoutine { var: String },
    /// A reduction across gangs into memory inside another loop of a
    /// kernel (lowering promotes those to the construct).
    GangReductionInsideLoop { var: String },
    /// A call of a routine of level `level` inside a loop partitioned at
    /// that level or an inner one (a source error).
    RoutineCalledInside {
        routine: String,
        level: RoutineLevel,
    },
    /// A reduction whose parts do not fit its private or operator.
    ReductionParts { op: &'static str, private: LocalId },
    /// A reduction whose target is of neither the private's type nor its
    /// element type.
    ReductionTarget { private: LocalId },
    /// A `switch` on a value that is not an integer.
    SwitchNotInt { value: ExprId },
    /// A `switch` with more than one default arm.
    SwitchTwoDefaults,
    /// `break` with no enclosing loop or switch.
    BreakOutside,
    /// `continue` with no enclosing loop body.
    ContinueOutside,
    /// `return` of another type than the function's result.
    ReturnType { value: Type, ret: Type },
    /// A call of a function index past the module's functions.
    CallOutOfRange { func: usize },
    /// A call with another number of arguments than the callee's.
    CallArity {
        callee: String,
        args: usize,
        params: usize,
    },
    /// A call argument of another type than the parameter.
    CallArgType { arg: ExprId, callee: String },
    /// A call's result local of another type than the callee's result.
    CallResultType { callee: String, result: LocalId },
    /// `copy` whose source or destination is not a pointer.
    CopyNotPointers,
    /// `copy` of zero bytes.
    CopyZeroBytes,
    /// A `print` argument not promoted (integers under 32 bits, `f32`).
    PrintNotPromoted { arg: ExprId, ty: Type },
    /// `atomic.cas` operands not of the pointee (scalar) type.
    CasOperands,
    /// `atomic.cas` success flag not a `bool` local.
    CasFlag,
    /// `atomic.load` of a non-scalar or into a local of another type.
    AtomicLoadType,
    /// `atomic.store` of a non-scalar or of another type.
    AtomicStoreType,
    /// An atomic read-modify-write operand not of the pointee type.
    AtomicOperand,
    /// An atomic operation on a type it does not apply to.
    AtomicOpType { op: AtomicOp },
    /// An atomic operation's old-value local of another type.
    AtomicResultType { local: LocalId },
    /// A problem with one expression node.
    Expr { expr: ExprId, problem: ExprProblem },
}

impl ValidationErrorKind {
    /// An error in the user's program (the levels its loops were given
    /// cannot be carried out), not in accc: reported as a diagnostic at
    /// its location.
    pub fn in_source(&self) -> bool {
        use ValidationErrorKind as K;
        matches!(
            self,
            K::BreakLeavesPartitionedLoop
                | K::ReductionAcrossThreadsInside { .. }
                | K::GangReductionInRoutine { .. }
                | K::RoutineCalledInside { .. }
        )
    }
}

impl fmt::Display for ValidationErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use ValidationErrorKind as K;
        match self {
            K::ExprReused { expr, uses } => write!(f, "{expr} is used {uses} times"),
            K::ExprOutOfRange { expr } => write!(f, "{expr} out of range"),
            K::LocalOutOfRange { local } => write!(f, "local {local} out of range"),
            K::ParamOutOfRange { param } => write!(f, "parameter {param} out of range"),
            K::ParamNotScalar { param } => {
                write!(f, "parameter {param} is not a scalar or pointer")
            }
            K::CondNotBool { cond, ty } => write!(f, "condition {cond} has type {ty}, not bool"),
            K::AssignType {
                local,
                value,
                local_ty,
            } => write!(f, "assign of {value} to {local} of type {local_ty}"),
            K::StoreType { value, ptr } => write!(f, "store of {value} through {ptr}"),
            K::NoLaunch => write!(f, "no launch after schedule"),
            K::DataUndecided => write!(f, "data attributes left undecided after schedule"),
            K::LoopLeftAfterSchedule { loc } => {
                write!(f, "counted loop at {loc} left after schedule")
            }
            K::LeftAfterSchedule { what } => write!(f, "'{what}' left after schedule"),
            K::LoopBoundType { bound } => {
                write!(f, "loop bound {bound} does not have the index type")
            }
            K::LoopDirectiveClauses { loc } => {
                write!(
                    f,
                    "the directive of the loop at {loc} asks for contradictory things"
                )
            }
            K::BreakLeavesPartitionedLoop => write!(
                f,
                "'break' would leave a partitioned loop (or a collapsed nest), whose other iterations run in other threads"
            ),
            K::ReductionAcrossThreadsInside { var } => write!(
                f,
                "reduction of '{var}' across workers (or across vector lanes on block y or z) inside a loop partitioned over threads is not supported"
            ),
            K::GangReductionInRoutine { var } => write!(
                f,
                "reduction of '{var}' across gangs in a routine is not supported"
            ),
            K::RoutineCalledInside { routine, level } => write!(
                f,
                "'{routine}' is a '{}' routine and cannot be called inside a loop partitioned at that level or an inner one",
                format!("{level:?}").to_lowercase()
            ),
            K::GangReductionInsideLoop { var } => write!(
                f,
                "reduction of '{var}' across gangs into memory inside another loop, not promoted to the construct"
            ),
            K::LoopSeqPartitioned { loc } => {
                write!(
                    f,
                    "the loop at {loc} is partitioned although its directive says seq"
                )
            }
            K::ReductionParts { op, private } => write!(
                f,
                "reduction '{op}' on private {private} with parts it cannot have"
            ),
            K::ReductionTarget { private } => {
                write!(f, "reduction target of {private} has another type")
            }
            K::SwitchNotInt { value } => write!(f, "switch value {value} is not an integer"),
            K::SwitchTwoDefaults => write!(f, "switch with two default arms"),
            K::BreakOutside => write!(f, "break outside a loop or switch"),
            K::ContinueOutside => write!(f, "continue outside a loop body"),
            K::ReturnType { value, ret } => {
                write!(f, "return of {value} from a function returning {ret}")
            }
            K::CallOutOfRange { func } => write!(f, "call of function #{func}, out of range"),
            K::CallArity {
                callee,
                args,
                params,
            } => write!(f, "call of {callee} with {args} arguments, not {params}"),
            K::CallArgType { arg, callee } => {
                write!(f, "argument {arg} of a call of {callee} has the wrong type")
            }
            K::CallResultType { callee, result } => {
                write!(f, "result of {callee} assigned to {result} of another type")
            }
            K::CopyNotPointers => write!(f, "copy between non-pointers"),
            K::CopyZeroBytes => write!(f, "copy of zero bytes"),
            K::PrintNotPromoted { arg, ty } => {
                write!(f, "print argument {arg} of type {ty} is not promoted")
            }
            K::CasOperands => write!(
                f,
                "atomic compare-and-swap operands are not the pointee type"
            ),
            K::CasFlag => write!(f, "atomic compare-and-swap flag is not a bool"),
            K::AtomicLoadType => write!(f, "atomic load of another type"),
            K::AtomicStoreType => write!(f, "atomic store of another type"),
            K::AtomicOperand => write!(f, "atomic operand is not the pointee type"),
            K::AtomicOpType { op } => write!(f, "atomic {op:?} on a type it does not apply to"),
            K::AtomicResultType { local } => {
                write!(f, "atomic result local {local} has another type")
            }
            K::Expr { expr, problem } => write!(f, "{expr}: {problem}"),
        }
    }
}

/// The checks of one expression node (see [`super::super::Expr`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExprProblem {
    /// A cell past the module's cells, or read as a non-pointer.
    CellOutOfRange,
    /// A `performs` not typed `bool`.
    PerformsNotBool,
    /// A local read typed otherwise than the local.
    LocalReadType,
    /// A local's address typed otherwise than a pointer to it (or to its
    /// element).
    LocalAddrType,
    /// A load typed otherwise than the pointee.
    LoadType,
    /// A `ptradd` base that is not a pointer of the result type.
    PtrAddBase,
    /// A `ptradd` index that is not a 64-bit integer.
    PtrAddIndex,
    /// An index extent that is not `i64`.
    IndexExtent,
    /// An index subscript that is not a 64-bit integer.
    IndexSubscript,
    /// An index without exactly one subscript more than extents.
    IndexArity { subs: usize, extents: usize },
    /// An index typed as a non-pointer.
    IndexNotPointer,
    /// An index base that is neither `ptr<elem>` nor a pointer to its
    /// outermost row.
    IndexBase { elem: Type },
    /// Binary operands typed otherwise than the result.
    BinaryOperands,
    /// A comparison of different types, or with a non-bool result.
    Comparison,
    /// A unary operand typed otherwise than the result.
    UnaryOperand,
    /// `select` arms typed otherwise than the result.
    SelectArms,
    /// A logical operator whose result is not `bool`.
    LogicalResult,
    /// A shuffle of a non-scalar, or typed otherwise than its value.
    ShuffleValue,
    /// A shuffle lane mask or member mask that is not `u32`.
    ShuffleLane,
    /// A shared array past the function's, or addressed as another type.
    SharedArray,
    /// A math call with another number of arguments than its function.
    MathArity,
    /// A math argument typed otherwise than the result.
    MathArgument,
}

impl fmt::Display for ExprProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use ExprProblem as P;
        let s = match self {
            P::CellOutOfRange => "cell out of range or not a pointer",
            P::PerformsNotBool => "'performs' or 'on_device' not typed bool",
            P::LocalReadType => "local read with the wrong type",
            P::LocalAddrType => "address of a local with the wrong type",
            P::LoadType => "load type differs from pointee",
            P::PtrAddBase => "ptradd base is not a pointer of the result type",
            P::PtrAddIndex => "ptradd index is not a 64-bit integer",
            P::IndexExtent => "index extent is not i64",
            P::IndexSubscript => "index subscript is not a 64-bit integer",
            P::IndexArity { subs, extents } => {
                return write!(
                    f,
                    "index has {subs} subscripts for {extents} inner extents (one more needed)"
                )
            }
            P::IndexNotPointer => "index of a non-pointer type",
            P::IndexBase { elem } => {
                return write!(
                    f,
                    "index base is neither ptr<{elem}> nor a pointer to its outermost row"
                )
            }
            P::BinaryOperands => "binary operand types differ from the result",
            P::Comparison => "comparison of different types or non-bool result",
            P::UnaryOperand => "unary operand type differs from the result",
            P::SelectArms => "select arms differ from the result type",
            P::LogicalResult => "logical operator result is not bool",
            P::ShuffleValue => "shuffle of a non-scalar or of another type",
            P::ShuffleLane => "shuffle lane or mask is not u32",
            P::SharedArray => "shared array out of range or of another type",
            P::MathArity => "math call with the wrong number of arguments",
            P::MathArgument => "math argument type differs from the result",
        };
        f.write_str(s)
    }
}
