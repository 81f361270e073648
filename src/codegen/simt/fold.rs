//! Constants of a function body, folded at translation time: literals,
//! operators and conversions of constants (computed with the emulator's
//! own arithmetic, `ptxrt_simt::arith`, so a folded value is the value the
//! emulator would compute), and locals assigned exactly once, with a
//! constant, and never written otherwise (the scheduler's `red.nx = 128`,
//! `stride = 1`): their reads become that constant. A branch on a constant
//! keeps only the side taken; `x + 0`, `x * 1` and the like are `x`.
//!
//! Owns: [`W::constant`], [`const_locals`], [`identity`].
//! May call: `ir`, `ptxrt_simt` (arith), [`super::expr`] (operator maps).

use super::expr::{binop, cmpop, literal_bits};
use super::func::{ty, W};
use crate::ir::{walk_stmts, BinOp, Expr, ExprId, Function, Stmt, UnOp};
use ptxrt_simt as simt;
use std::collections::HashMap;

/// Whether `x op imm` is `x` for every integer `x`.
pub fn identity(op: BinOp, imm: u64) -> bool {
    match op {
        BinOp::Add | BinOp::Sub | BinOp::Or | BinOp::Xor | BinOp::Shl | BinOp::Shr => imm == 0,
        BinOp::Mul | BinOp::Div => imm == 1,
        _ => false,
    }
}

/// The locals of `f` that hold one constant expression all along: assigned
/// by exactly one `Assign` (whose value is constant, given the others),
/// never otherwise written and never addressed; `params` are not.
pub fn const_locals(f: &Function, params: &[u32]) -> HashMap<u32, ExprId> {
    let mut assigns: HashMap<u32, (u32, ExprId)> = HashMap::new();
    let mut other: Vec<u32> = params.to_vec();
    walk_stmts(&f.body, &mut |s| match s {
        Stmt::Assign { local, value } => {
            let e = assigns.entry(local.0).or_insert((0, *value));
            e.0 += 1;
        }
        Stmt::Call {
            result: Some(l), ..
        }
        | Stmt::AtomicRmw { old: Some(l), .. }
        | Stmt::AtomicLoad { dst: l, .. } => other.push(l.0),
        Stmt::AtomicCas { old, ok, .. } => other.extend([old.0, ok.0]),
        _ => {}
    });
    for e in &f.exprs {
        if let Expr::LocalAddr(l) = e {
            other.push(l.0);
        }
    }
    assigns
        .into_iter()
        .filter(|(l, (n, _))| *n == 1 && !other.contains(l))
        .map(|(l, (_, v))| (l, v))
        .collect()
}

impl W<'_> {
    /// The value of `e` when it is a constant.
    pub fn constant(&self, e: ExprId) -> Option<u64> {
        self.constant_in(e, 0)
    }

    fn constant_in(&self, e: ExprId, depth: u32) -> Option<u64> {
        if depth > 64 {
            return None;
        }
        let d = depth + 1;
        let x = self.f.exprs.get(e.0 as usize)?;
        let t = self.f.ty(e);
        let st = ty(t).ok();
        match x {
            Expr::Literal(v) => literal_bits(v, t).ok(),
            Expr::Local(l) => {
                let v = *self.consts.get(&l.0)?;
                // The local's type is the value's (IR validation).
                self.constant_in(v, d)
            }
            Expr::Cast(a) => {
                let from = ty(self.f.ty(*a)).ok()?;
                Some(simt::arith::cvt(from, st?, self.constant_in(*a, d)?))
            }
            Expr::Binary { op, lhs, rhs } => Some(simt::arith::bin(
                binop(*op),
                st?,
                self.constant_in(*lhs, d)?,
                self.constant_in(*rhs, d)?,
            )),
            Expr::Cmp { op, lhs, rhs } => {
                let ct = ty(self.f.ty(*lhs)).ok()?;
                let (a, b) = (self.constant_in(*lhs, d)?, self.constant_in(*rhs, d)?);
                Some(u64::from(simt::arith::cmp(cmpop(*op), ct, a, b)))
            }
            Expr::Unary { op, arg } => {
                let u = if *op == UnOp::Neg {
                    simt::UnOp::Neg
                } else {
                    simt::UnOp::Not
                };
                Some(simt::arith::un(u, st?, self.constant_in(*arg, d)?))
            }
            Expr::Select {
                cond,
                then,
                otherwise,
            } => match self.constant_in(*cond, d)? {
                0 => self.constant_in(*otherwise, d),
                _ => self.constant_in(*then, d),
            },
            Expr::Logical { and, lhs, rhs } => {
                // A constant side decides, or leaves the other: `a && 1`
                // is `a` (not constant unless `a` is).
                let (l, r) = (self.constant_in(*lhs, d), self.constant_in(*rhs, d));
                match (*and, l, r) {
                    (true, Some(0), _) | (true, _, Some(0)) => Some(0),
                    (false, Some(v), _) | (false, _, Some(v)) if v != 0 => Some(1),
                    (_, Some(_), Some(b)) => Some(b),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// The side of `Logical { and, lhs, rhs }` that decides it when the
    /// other is the operator's identity (`a && 1` → `a`), if any.
    pub fn logical_operand(&self, and: bool, lhs: ExprId, rhs: ExprId) -> Option<ExprId> {
        let neutral = |e: ExprId| match self.constant(e) {
            Some(v) => (v != 0) == and,
            None => false,
        };
        if neutral(rhs) {
            Some(lhs)
        } else if neutral(lhs) {
            Some(rhs)
        } else {
            None
        }
    }
}
