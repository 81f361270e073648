//! Small builders for the expressions and statements the schedule emits.
//!
//! Owns: [`Emit`], a cursor over one function that appends expressions to its
//! arena and statements to an output block. Every value that is used more
//! than once is kept in a fresh local and read afresh at each use, so no
//! expression handle is ever shared (the IR's one-parent rule).

use crate::ir::{
    BinOp, Block, CmpOp, Expr, ExprId, Function, IntKind, LocalId, Special, Stmt, Type, UnOp,
};

/// Appends to one function's arena and collects statements into `out`.
pub(super) struct Emit<'f> {
    /// The function being rewritten.
    pub f: &'f mut Function,
    /// The statements emitted so far, in order.
    pub out: Block,
}

impl<'f> Emit<'f> {
    /// A cursor over `f` with an empty output block.
    pub fn new(f: &'f mut Function) -> Self {
        Emit { f, out: vec![] }
    }

    /// Declares a local named `name`, assigns `value` to it (a statement in
    /// `out`) and returns it.
    pub fn hold(&mut self, name: &str, value: ExprId) -> LocalId {
        let ty = self.f.ty(value).clone();
        let l = self.f.new_local(name, ty);
        self.assign(l, value);
        l
    }

    /// Emits `local = value`.
    pub fn assign(&mut self, local: LocalId, value: ExprId) {
        self.out.push(Stmt::Assign { local, value });
    }

    /// A fresh read of `l`.
    pub fn read(&mut self, l: LocalId) -> ExprId {
        self.f.read(l)
    }

    /// An integer constant of type `ty`.
    pub fn int(&mut self, v: i128, ty: Type) -> ExprId {
        self.f.int(v, ty)
    }

    /// `op(a, b)` in the type of `a`.
    /// `ptradd(base, index)`: the address `index` elements past `base`, of
    /// `base`'s pointer type.
    pub fn ptr_add(&mut self, base: ExprId, index: ExprId) -> ExprId {
        let ty = self.f.ty(base).clone();
        self.f.add(Expr::PtrAdd { base, index }, ty)
    }

    pub fn bin(&mut self, op: BinOp, a: ExprId, b: ExprId) -> ExprId {
        let ty = self.f.ty(a).clone();
        self.f.add(Expr::Binary { op, lhs: a, rhs: b }, ty)
    }

    /// `op(a)` in the type of `a`.
    pub fn un(&mut self, op: UnOp, a: ExprId) -> ExprId {
        let ty = self.f.ty(a).clone();
        self.f.add(Expr::Unary { op, arg: a }, ty)
    }

    /// The comparison `a op b` (a `bool`).
    pub fn cmp(&mut self, op: CmpOp, a: ExprId, b: ExprId) -> ExprId {
        self.f.add(Expr::Cmp { op, lhs: a, rhs: b }, Type::BOOL)
    }

    /// `x` converted to `to` (no node when it already has that type).
    pub fn cast(&mut self, x: ExprId, to: &Type) -> ExprId {
        if self.f.ty(x) == to {
            x
        } else {
            self.f.add(Expr::Cast(x), to.clone())
        }
    }

    /// A launch register (`u32`).
    pub fn reg(&mut self, s: Special) -> ExprId {
        self.f.add(Expr::Special(s), Type::Int(IntKind::U32))
    }

    /// A launch register, widened to `u64`.
    pub fn special(&mut self, s: Special) -> ExprId {
        let r = self.reg(s);
        self.cast(r, &Type::U64)
    }

    /// `i[0] + n[0] * (i[1] + n[1] * i[2])`: a linear index over three
    /// dimensions of sizes `n[0]`, `n[1]` (and any third).
    pub fn linear3(&mut self, i: [ExprId; 3], n: [ExprId; 2]) -> ExprId {
        let zy = self.bin(BinOp::Mul, i[2], n[1]);
        let row = self.bin(BinOp::Add, i[1], zy);
        let rx = self.bin(BinOp::Mul, row, n[0]);
        self.bin(BinOp::Add, i[0], rx)
    }

    /// Emits `while (cond) { body } step { k = k + by }`.
    pub fn while_step(&mut self, cond: ExprId, body: Block, k: LocalId, by: ExprId) {
        let kv = self.read(k);
        let next = self.bin(BinOp::Add, kv, by);
        self.out.push(Stmt::While {
            cond,
            body,
            step: vec![Stmt::Assign {
                local: k,
                value: next,
            }],
        });
    }
}
