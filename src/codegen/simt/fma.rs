//! Floating-point contraction for the SIMT writer: where the NVPTX back end
//! gives LLVM `fadd`/`fsub`/`fmul`/`fneg` with the `contract` flag
//! (`nvptx::Options::fma`, on by default) and LLVM's instruction selection
//! fuses a product into the addition that uses it (`fma.rn`, one
//! rounding), this writer emits [`Inst::Fma`] for the same expression, so
//! that the emulated device rounds as the GPU does.
//!
//! The rule, LLVM's DAG combiner's on one expression tree: in `x + y` or
//! `x - y` of `f32`/`f64`, a side that is a product `a * b` (or its
//! negation `-(a * b)`) that is not a constant (LLVM's builder folds a
//! product of constants before anything is fused) becomes `fma(±a, b, ±other)`.
//! When both sides are products, the one that enters the sum with a plus
//! sign is fused, else the left one; the other is computed (rounded) first.
//!
//! Where it can differ from the GPU: LLVM also fuses across statements
//! once locals are promoted to registers (`t = a * b; s = t + c;` at
//! `-O2`), and does not fuse a product computed in another basic block
//! (one hoisted out of a loop); ptxas may fuse the `mul` and `add` LLVM
//! left apart (they carry no `.rn` once contraction is on). The emulator
//! rounds such a multiply-add twice, or once, where the GPU does the
//! opposite: one rounding of the product differs, which the program
//! tests' tolerances cover (tests/README.md).
//!
//! Owns: [`W::fused`]. May call: `ir`, `ptxrt_simt`, [`super::func`].

use super::func::{ty, W};
use super::Error;
use crate::ir::{BinOp, Expr, ExprId, Type, UnOp};
use ptxrt_simt::{self as simt, Inst, Reg, Ty};

impl W<'_> {
    /// `lhs + rhs` or `lhs - rhs` (of type `t`) as one `fma` when
    /// contraction is on and a side is a product (see the module's rule);
    /// `None` (nothing emitted) otherwise.
    pub fn fused(
        &mut self,
        op: BinOp,
        lhs: ExprId,
        rhs: ExprId,
        t: &Type,
    ) -> Result<Option<Reg>, Error> {
        if !self.fma || !t.is_float() || !matches!(op, BinOp::Add | BinOp::Sub) {
            return Ok(None);
        }
        let sub = op == BinOp::Sub;
        let left = self.product(lhs);
        // The sign the right product enters the sum with.
        let right = self.product(rhs).map(|(a, b, neg)| (a, b, neg != sub));
        let (on_left, (fa, fb, neg)) = match (left, right) {
            (None, None) => return Ok(None),
            (Some(p), None) => (true, p),
            (None, Some(p)) => (false, p),
            (Some(p), Some(q)) if !p.2 || q.2 => (true, p),
            (Some(_), Some(q)) => (false, q),
        };
        let ty = ty(t)?;
        // Operands are evaluated in the tree's order (loads fault in it).
        let (a, b, c) = if on_left {
            let (a, b) = (self.expr(fa)?, self.expr(fb)?);
            let c = self.expr(rhs)?;
            let c = if sub { self.negated(ty, c) } else { c };
            (a, b, c)
        } else {
            let c = self.expr(lhs)?;
            (self.expr(fa)?, self.expr(fb)?, c)
        };
        // fma(-a, b, c) is c - a * b rounded once (negation is exact).
        let a = if neg { self.negated(ty, a) } else { a };
        let d = self.temp();
        self.emit(Inst::Fma {
            ty,
            dst: d,
            a,
            b,
            c,
        });
        Ok(Some(d))
    }

    /// The factors of `e` when it is a non-constant floating product, or
    /// the negation of one (`true`).
    fn product(&self, e: ExprId) -> Option<(ExprId, ExprId, bool)> {
        let (inner, neg) = match self.f.exprs.get(e.0 as usize)? {
            Expr::Unary { op: UnOp::Neg, arg } => (*arg, true),
            _ => (e, false),
        };
        match self.f.exprs.get(inner.0 as usize)? {
            Expr::Binary {
                op: BinOp::Mul,
                lhs,
                rhs,
            } if self.f.ty(inner).is_float() && self.constant(inner).is_none() => {
                Some((*lhs, *rhs, neg))
            }
            _ => None,
        }
    }

    /// `-a` in a new register.
    fn negated(&mut self, ty: Ty, a: Reg) -> Reg {
        let d = self.temp();
        self.emit(Inst::Un {
            op: simt::UnOp::Neg,
            ty,
            dst: d,
            a,
        });
        d
    }
}
