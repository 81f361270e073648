//! IR expressions: typed, side-effect-free trees (loads included) stored in a
//! function's arena.
//!
//! Owns: [`Expr`] and its operator enums. Each expression's result type is
//! stored beside it in the [`Function`](super::Function) arena and is fully
//! determined: operands of a [`Expr::Binary`] have the same type as the
//! result, comparison operands have the same type, and any conversion is an
//! explicit [`Expr::Cast`].

use super::function::LocalId;
use super::index::Index;

/// Handle of an expression in its function's arena.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ExprId(pub u32);

impl std::fmt::Display for ExprId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "e{}", self.0)
    }
}

/// A constant.
#[derive(Clone, Debug, PartialEq)]
pub enum Literal {
    /// An integer; the value is the two's-complement bit pattern truncated to
    /// the expression's type.
    Int(i128),
    /// A floating-point value (rounded to the expression's type).
    Float(f64),
}

/// Arithmetic and bitwise binary operators. Division and remainder follow the
/// signedness of the operand type (C semantics: truncation toward zero).
///
/// `Add`, `Sub` and `Mul` on a signed integer kind of 32 or 64 bits never
/// overflow ([`IntKind::arith_never_overflows`]): C's promise for the user's
/// arithmetic, which back ends pass on (LLVM's `nsw`; C for nvcc) so that
/// index arithmetic can be widened and strength-reduced. A pass that needs
/// wrapping arithmetic computes in the unsigned kind of the same width.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    And,
    Or,
    Xor,
    /// Left shift; the right operand has the same type as the left.
    Shl,
    /// Right shift: arithmetic for signed, logical for unsigned types.
    Shr,
    /// Smaller of two values (signedness of the type; IEEE minNum for floats).
    Min,
    /// Larger of two values.
    Max,
}

/// Comparison operators; the result type is `bool`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CmpOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

/// Unary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnOp {
    /// Arithmetic negation.
    Neg,
    /// Bitwise complement (integers).
    BitNot,
    /// Logical not of a `bool`.
    Not,
}

/// Hardware index registers of the launch (the `dim` is 0 = x, 1 = y, 2 = z),
/// all `u32`, and one `bool` that `schedule` resolves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Special {
    ThreadIdx(u8),
    BlockIdx(u8),
    BlockDim(u8),
    GridDim(u8),
    /// (`bool`) Whether this thread performs the side effects of the code
    /// here as far as block dimension `dim` goes: where the enclosing loops
    /// do not partition `dim`, the threads along it run the code redundantly
    /// and one of them performs. Lowering writes it (the guard arguments of
    /// a call); `schedule`, which knows the loops' mapping, replaces it by
    /// `true`, `tid.dim == 0`, or a routine's guard parameter. Only before
    /// `schedule`.
    Performs(u8),
    /// (`bool`) Whether the code runs on a device of type `n` (an
    /// `acc_device_t`: `acc_on_device(n)`). Lowering writes it; `schedule`,
    /// which knows the [`Target`](super::Target), replaces it by `true` or
    /// `false` ([`Target::on_device`](super::Target::on_device)). Only
    /// before `schedule`.
    OnDevice(u8),
}

/// `<math.h>` functions the device provides (through libdevice on NVPTX).
/// The type of the call's result selects the float or double version.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MathFunc {
    Sqrt,
    Exp,
    Log,
    Pow,
    Fabs,
    Sin,
    Cos,
    Tan,
    Atan2,
    Floor,
    Ceil,
    Fmin,
    Fmax,
    Fmod,
}

impl MathFunc {
    /// Every math function.
    pub const ALL: [MathFunc; 14] = [
        MathFunc::Sqrt,
        MathFunc::Exp,
        MathFunc::Log,
        MathFunc::Pow,
        MathFunc::Fabs,
        MathFunc::Sin,
        MathFunc::Cos,
        MathFunc::Tan,
        MathFunc::Atan2,
        MathFunc::Floor,
        MathFunc::Ceil,
        MathFunc::Fmin,
        MathFunc::Fmax,
        MathFunc::Fmod,
    ];

    /// The C name of the double version (`sqrt`).
    pub fn c_name(self) -> &'static str {
        match self {
            MathFunc::Sqrt => "sqrt",
            MathFunc::Exp => "exp",
            MathFunc::Log => "log",
            MathFunc::Pow => "pow",
            MathFunc::Fabs => "fabs",
            MathFunc::Sin => "sin",
            MathFunc::Cos => "cos",
            MathFunc::Tan => "tan",
            MathFunc::Atan2 => "atan2",
            MathFunc::Floor => "floor",
            MathFunc::Ceil => "ceil",
            MathFunc::Fmin => "fmin",
            MathFunc::Fmax => "fmax",
            MathFunc::Fmod => "fmod",
        }
    }

    /// The C name of the version for `ty` (`sqrtf` for `f32`, `sqrt` for
    /// `f64`); `None` for any other type (a malformed IR).
    pub fn c_name_for(self, ty: &super::Type) -> Option<String> {
        use super::{FloatKind, Type};
        match ty {
            Type::Float(FloatKind::F32) => Some(format!("{}f", self.c_name())),
            Type::Float(FloatKind::F64) => Some(self.c_name().to_string()),
            _ => None,
        }
    }

    /// Number of arguments.
    pub fn arity(self) -> usize {
        match self {
            MathFunc::Pow | MathFunc::Atan2 | MathFunc::Fmin | MathFunc::Fmax | MathFunc::Fmod => 2,
            _ => 1,
        }
    }

    /// Looks up a C function name: `sqrt` → (Sqrt, double), `sqrtf` → (Sqrt, float).
    pub fn from_c_name(name: &str) -> Option<(MathFunc, bool)> {
        MathFunc::ALL.iter().find_map(|&f| {
            if name == f.c_name() {
                Some((f, false))
            } else if name.strip_suffix('f') == Some(f.c_name()) {
                Some((f, true))
            } else {
                None
            }
        })
    }
}

/// An expression node. Children are [`ExprId`]s of the same function.
#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    /// A constant of the node's type.
    Literal(Literal),
    /// The current value of a local variable (kernel parameters are locals).
    Local(LocalId),
    /// The address of a local's storage: `ptr<T>` for a local of type `T`,
    /// except for an array local, whose address is that of element 0
    /// (`ptr<E>` for `[E; n]`).
    LocalAddr(LocalId),
    /// Load the node's type from the address `ptr` (of type `ptr<T>`).
    Load(ExprId),
    /// `base + index` elements: pointer arithmetic on `ptr<T>` scaled by
    /// `size(T)`; `index` is a signed or unsigned 64-bit integer.
    PtrAdd { base: ExprId, index: ExprId },
    /// The address (`ptr<E>`) of an element of an array reached by
    /// subscripts (`a[i][j]`): see [`Index`]. Lowering emits it for C
    /// subscripts; [`flatten_indices`](super::flatten_indices) turns it into
    /// `ptradd`s before code generation.
    Index(Index),
    /// Arithmetic or bitwise operation; operands and result share one type.
    Binary { op: BinOp, lhs: ExprId, rhs: ExprId },
    /// Comparison of two values of one type; result `bool`.
    Cmp { op: CmpOp, lhs: ExprId, rhs: ExprId },
    /// Unary operation.
    Unary { op: UnOp, arg: ExprId },
    /// Conversion of `arg` to the node's type, with C semantics (integer
    /// truncation/extension by the source's signedness, float↔int truncating
    /// toward zero, `bool` from anything is `!= 0`).
    Cast(ExprId),
    /// `cond ? then : otherwise`, evaluating only the chosen side.
    Select {
        cond: ExprId,
        then: ExprId,
        otherwise: ExprId,
    },
    /// `lhs && rhs` / `lhs || rhs` on `bool`s, short-circuit.
    Logical { and: bool, lhs: ExprId, rhs: ExprId },
    /// A launch index register (result `u32`).
    Special(Special),
    /// A `<math.h>` function.
    Math { func: MathFunc, args: Vec<ExprId> },
    /// The device address held in cell number `n` of the module (a
    /// pointer: the device copy of a declared global).
    Cell(u32),
    /// Warp shuffle, butterfly: the value of `value` in the lane whose index
    /// is this lane's XOR `lane_xor` (`u32`), exchanged among the lanes of
    /// the `u32` mask `members` (every one of which executes it together).
    /// The node's type is `value`'s: an integer or float of at most 64 bits.
    Shuffle {
        value: ExprId,
        lane_xor: ExprId,
        members: ExprId,
    },
    /// The address of element 0 of the function's shared array number `n`
    /// ([`Function::shared`](super::Function::shared)): `ptr<E>`.
    SharedAddr(u32),
}
