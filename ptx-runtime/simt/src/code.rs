//! The instruction set of the SIMT bytecode: value types, operators and the
//! instructions of one function.
//!
//! Owns: [`Ty`], the operator enums, [`Sreg`] and [`Inst`]. Plain data; the
//! meaning of each operator (PTX arithmetic) is in [`crate::arith`], the
//! byte encoding in [`crate::encode`], the text form in [`crate::text`].
//!
//! The machine: every thread runs one function at a time with its own
//! registers (`r0`, `r1`, …; 64 bits each) and its own local memory (the
//! frame of each call, addressed by [`Inst::LocalAddr`]). A register holds
//! a value of the type the instruction that reads it names: an integer as
//! its bits zero-extended to 64 (a `B1` truth value is 0 or 1), an `F32` as
//! its IEEE bits in the low half, an `F64` or `Ptr` as its 64 bits. Control
//! flow is flat: jumps name instruction indices of the same function.
//! May call: nothing.

/// A register number of the current function's frame.
pub type Reg = u32;

/// The type of a value an instruction computes with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ty {
    /// A truth value (0 or 1); one byte in memory.
    B1,
    I8,
    U8,
    I16,
    U16,
    I32,
    U32,
    I64,
    U64,
    F32,
    F64,
    /// A 64-bit address (see [`crate::mem`] for the address spaces).
    Ptr,
}

impl Ty {
    /// Every type, in encoding order.
    pub const ALL: [Ty; 12] = [
        Ty::B1,
        Ty::I8,
        Ty::U8,
        Ty::I16,
        Ty::U16,
        Ty::I32,
        Ty::U32,
        Ty::I64,
        Ty::U64,
        Ty::F32,
        Ty::F64,
        Ty::Ptr,
    ];

    /// Size in memory, in bytes.
    pub fn bytes(self) -> u32 {
        match self {
            Ty::B1 | Ty::I8 | Ty::U8 => 1,
            Ty::I16 | Ty::U16 => 2,
            Ty::I32 | Ty::U32 | Ty::F32 => 4,
            Ty::I64 | Ty::U64 | Ty::F64 | Ty::Ptr => 8,
        }
    }

    /// Width of the value in bits (1 for `B1`).
    pub fn bits(self) -> u32 {
        match self {
            Ty::B1 => 1,
            t => t.bytes() * 8,
        }
    }

    /// True for the signed integer types.
    pub fn signed(self) -> bool {
        matches!(self, Ty::I8 | Ty::I16 | Ty::I32 | Ty::I64)
    }

    /// True for `F32` and `F64`.
    pub fn is_float(self) -> bool {
        matches!(self, Ty::F32 | Ty::F64)
    }

    /// The name in the text form (`i32`, `f64`, `ptr`, …).
    pub fn name(self) -> &'static str {
        match self {
            Ty::B1 => "b1",
            Ty::I8 => "i8",
            Ty::U8 => "u8",
            Ty::I16 => "i16",
            Ty::U16 => "u16",
            Ty::I32 => "i32",
            Ty::U32 => "u32",
            Ty::I64 => "i64",
            Ty::U64 => "u64",
            Ty::F32 => "f32",
            Ty::F64 => "f64",
            Ty::Ptr => "ptr",
        }
    }

    /// The encoding of the type.
    pub fn code(self) -> u8 {
        Ty::ALL.iter().position(|&t| t == self).unwrap_or(0) as u8
    }

    /// The type of an encoding.
    pub fn from_code(c: u8) -> Option<Ty> {
        Ty::ALL.get(usize::from(c)).copied()
    }
}

/// Arithmetic and bitwise operators; operands and result share the type.
/// Integers wrap; division and remainder by zero, shifts by the width or
/// more and the other PTX corner cases are defined in [`crate::arith`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    And,
    Or,
    Xor,
    Shl,
    /// Arithmetic for signed types, logical for unsigned ones.
    Shr,
    /// By the type's signedness; IEEE minNum for floats.
    Min,
    Max,
}

/// Comparisons (result `B1`); floats: ordered, except `Ne` (unordered).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CmpOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

/// Unary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnOp {
    /// Arithmetic negation (two's complement; floats flip the sign bit).
    Neg,
    /// Bitwise complement (of a `B1`: logical not).
    Not,
}

/// Atomic read-modify-write operations (every atomic is relaxed, of device
/// scope).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AtomOp {
    Add,
    Sub,
    /// By the type's signedness.
    Min,
    Max,
    And,
    Or,
    Xor,
    /// Store the value, return the old one.
    Exch,
    /// `old >= value ? 0 : old + 1` (unsigned: CUDA's `atomicInc`).
    IncWrap,
}

/// `<math.h>` functions, on `F32` or `F64`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MathFn {
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

impl MathFn {
    /// Every function, in encoding order.
    pub const ALL: [MathFn; 14] = [
        MathFn::Sqrt,
        MathFn::Exp,
        MathFn::Log,
        MathFn::Pow,
        MathFn::Fabs,
        MathFn::Sin,
        MathFn::Cos,
        MathFn::Tan,
        MathFn::Atan2,
        MathFn::Floor,
        MathFn::Ceil,
        MathFn::Fmin,
        MathFn::Fmax,
        MathFn::Fmod,
    ];

    /// Number of arguments.
    pub fn arity(self) -> usize {
        match self {
            MathFn::Pow | MathFn::Atan2 | MathFn::Fmin | MathFn::Fmax | MathFn::Fmod => 2,
            _ => 1,
        }
    }

    /// The C name of the double version.
    pub fn name(self) -> &'static str {
        match self {
            MathFn::Sqrt => "sqrt",
            MathFn::Exp => "exp",
            MathFn::Log => "log",
            MathFn::Pow => "pow",
            MathFn::Fabs => "fabs",
            MathFn::Sin => "sin",
            MathFn::Cos => "cos",
            MathFn::Tan => "tan",
            MathFn::Atan2 => "atan2",
            MathFn::Floor => "floor",
            MathFn::Ceil => "ceil",
            MathFn::Fmin => "fmin",
            MathFn::Fmax => "fmax",
            MathFn::Fmod => "fmod",
        }
    }
}

/// A launch register (`u32`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Sreg {
    /// `%tid.{x,y,z}`: the thread's index in its block.
    Tid(u8),
    /// `%ctaid`: the block's index in the grid.
    Ctaid(u8),
    /// `%ntid`: the block's size.
    Ntid(u8),
    /// `%nctaid`: the grid's size.
    Nctaid(u8),
}

/// One arm table of a [`Inst::Switch`]: the values (the switched type's
/// bits) and their targets; values not listed go to `default`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    pub cases: Vec<(u64, u32)>,
    pub default: u32,
}

/// One instruction. `site` fields index the function's
/// [`Site`](crate::module::Site)s (what the source was, for errors and race
/// reports); `to` fields are instruction indices of the same function.
#[derive(Clone, Debug, PartialEq)]
pub enum Inst {
    /// `dst = bits`.
    Const { dst: Reg, bits: u64 },
    /// `dst = src`.
    Mov { dst: Reg, src: Reg },
    /// `dst = a op b` at type `ty`.
    Bin {
        op: BinOp,
        ty: Ty,
        dst: Reg,
        a: Reg,
        b: Reg,
    },
    /// `dst = a cmp b` (a `B1`), comparing at type `ty`.
    Cmp {
        op: CmpOp,
        ty: Ty,
        dst: Reg,
        a: Reg,
        b: Reg,
    },
    /// `dst = a op imm` at type `ty` (an immediate right operand).
    BinImm {
        op: BinOp,
        ty: Ty,
        dst: Reg,
        a: Reg,
        imm: u64,
    },
    /// `dst = a cmp imm` (a `B1`), comparing at type `ty`.
    CmpImm {
        op: CmpOp,
        ty: Ty,
        dst: Reg,
        a: Reg,
        imm: u64,
    },
    /// Go to `to` unless `a cmp b` (at type `ty`) holds: a comparison and
    /// the conditional jump of an `if` or loop test in one instruction.
    BrCmpNot {
        op: CmpOp,
        ty: Ty,
        a: Reg,
        b: Reg,
        to: u32,
    },
    /// `dst = op a` at type `ty`.
    Un { op: UnOp, ty: Ty, dst: Reg, a: Reg },
    /// `dst = (to) src`, C's conversion from `from` (see [`crate::arith::cvt`]).
    Cvt {
        from: Ty,
        to: Ty,
        dst: Reg,
        src: Reg,
    },
    /// `dst = base + index * scale` (64-bit, wrapping).
    PtrAdd {
        dst: Reg,
        base: Reg,
        index: Reg,
        scale: u64,
    },
    /// `dst = ` a launch register.
    Sreg { dst: Reg, sreg: Sreg },
    /// `dst = ` the address of byte `offset` of this call's local frame.
    LocalAddr { dst: Reg, offset: u32 },
    /// `dst = ` the address of byte `offset` of the block's shared memory.
    SharedAddr { dst: Reg, offset: u32 },
    /// `dst = ` the device address of module global `global`.
    GlobalAddr { dst: Reg, global: u32 },
    /// `dst = *(ty *)addr`.
    Load {
        ty: Ty,
        dst: Reg,
        addr: Reg,
        site: u32,
    },
    /// `*(ty *)addr = src`.
    Store {
        ty: Ty,
        addr: Reg,
        src: Reg,
        site: u32,
    },
    /// Copy `bytes` bytes from `src` to `dst` (equal or disjoint ranges).
    Copy {
        dst: Reg,
        src: Reg,
        bytes: u64,
        site: u32,
    },
    /// Go to `to`.
    Jump { to: u32 },
    /// Go to `to` when `cond` (a `B1`) is 1.
    BranchIf { cond: Reg, to: u32 },
    /// Go to `to` when `cond` is 0.
    BranchIfNot { cond: Reg, to: u32 },
    /// Go to the target of `value` (of type `ty`) in table `table`.
    Switch { value: Reg, ty: Ty, table: u32 },
    /// Call function `func` (an index into the module's functions) with
    /// the `nargs` registers listed at `args` in the function's argument
    /// pool; its result (if any) into `ret`.
    Call {
        func: u32,
        args: u32,
        nargs: u32,
        ret: Option<Reg>,
    },
    /// Return from a device function, with `value` when it has a result.
    Ret { value: Option<Reg> },
    /// The thread ends (a kernel's `return`).
    Exit,
    /// Wait for every thread of the block (`barrier.sync.aligned 0`).
    Barrier { site: u32 },
    /// Named barrier `id` of `count` threads (`barrier.sync id, count`).
    BarNamed { id: Reg, count: Reg, site: u32 },
    /// Wait for the lanes of this warp in `mask` (`bar.warp.sync`).
    WarpSync { mask: Reg, site: u32 },
    /// `dst` = `value` of the lane `laneid ^ lane_xor`, among the lanes of
    /// `members` (`shfl.sync.bfly`); `ty` names the width (32 or 64 bits).
    Shfl {
        ty: Ty,
        dst: Reg,
        value: Reg,
        lane_xor: Reg,
        members: Reg,
        site: u32,
    },
    /// `old = *addr; *addr = old op value`, atomically; `old` into `dst`.
    Atom {
        op: AtomOp,
        ty: Ty,
        dst: Option<Reg>,
        addr: Reg,
        value: Reg,
        site: u32,
    },
    /// Atomically: if `*addr` holds `expected` (bit for bit) store
    /// `desired`; `old` = the value found, `ok` = whether it stored.
    Cas {
        ty: Ty,
        old: Reg,
        ok: Reg,
        addr: Reg,
        expected: Reg,
        desired: Reg,
        site: u32,
    },
    /// `dst = *addr`, in one piece.
    AtomLoad {
        ty: Ty,
        dst: Reg,
        addr: Reg,
        site: u32,
    },
    /// `*addr = src`, in one piece.
    AtomStore {
        ty: Ty,
        addr: Reg,
        src: Reg,
        site: u32,
    },
    /// `__threadfence()`: earlier writes are seen before later ones.
    Fence,
    /// `dst = f(a[, b])` at `ty` (`F32` or `F64`).
    Math {
        f: MathFn,
        ty: Ty,
        dst: Reg,
        a: Reg,
        b: Reg,
    },
    /// `dst = a * b + c` at `ty` (`F32` or `F64`), rounded once: PTX's
    /// `fma.rn`, what a contracted multiply-add compiles to.
    Fma {
        ty: Ty,
        dst: Reg,
        a: Reg,
        b: Reg,
        c: Reg,
    },
    /// Device `printf` of string `format` with the `nargs` registers listed
    /// at `args` in the argument pool, each of the type at the same place
    /// of the function's type pool.
    Print { format: u32, args: u32, nargs: u32 },
}

impl Inst {
    /// Whether control never goes on to the next instruction.
    pub fn ends_block(&self) -> bool {
        matches!(
            self,
            Inst::Jump { .. } | Inst::Switch { .. } | Inst::Ret { .. } | Inst::Exit
        )
    }
}
