//! IR expressions and atomic statements → bytecode, for the SIMT writer.
//!
//! Owns: the expression half of [`W`]: each tree is evaluated into
//! registers (a local in a register is read where it is, without a copy;
//! everything else gets a temporary), `Select` and `Logical` evaluate only
//! the side they need (jumps, as the NVPTX writer's branches and phis),
//! loads and atomics get sites naming the access, `Cell` reads the address
//! cell's global, `Shuffle` is one exchange of the whole value (the NVPTX
//! writer's two 32-bit halves of a 64-bit value exchange the same bits),
//! a floating multiply-add is one `fma` where the GPU's is (`fma.rs`).
//! May call: `ir`, `ptxrt_simt`, [`super::func`], [`super::fma`].

use super::func::{ty, Slot, W};
use super::{internal, Error};
use crate::ir::{
    AtomicOp, BinOp, CmpOp, Expr, ExprId, FloatKind, Literal, LocalId, MathFunc, Special, Type,
    UnOp,
};
use ptxrt_simt::{self as simt, Inst, Reg, Ty};

pub(super) fn binop(op: BinOp) -> simt::BinOp {
    match op {
        BinOp::Add => simt::BinOp::Add,
        BinOp::Sub => simt::BinOp::Sub,
        BinOp::Mul => simt::BinOp::Mul,
        BinOp::Div => simt::BinOp::Div,
        BinOp::Rem => simt::BinOp::Rem,
        BinOp::And => simt::BinOp::And,
        BinOp::Or => simt::BinOp::Or,
        BinOp::Xor => simt::BinOp::Xor,
        BinOp::Shl => simt::BinOp::Shl,
        BinOp::Shr => simt::BinOp::Shr,
        BinOp::Min => simt::BinOp::Min,
        BinOp::Max => simt::BinOp::Max,
    }
}

pub(super) fn cmpop(op: CmpOp) -> simt::CmpOp {
    match op {
        CmpOp::Eq => simt::CmpOp::Eq,
        CmpOp::Ne => simt::CmpOp::Ne,
        CmpOp::Lt => simt::CmpOp::Lt,
        CmpOp::Le => simt::CmpOp::Le,
        CmpOp::Gt => simt::CmpOp::Gt,
        CmpOp::Ge => simt::CmpOp::Ge,
    }
}

fn mathfn(f: MathFunc) -> simt::MathFn {
    match f {
        MathFunc::Sqrt => simt::MathFn::Sqrt,
        MathFunc::Exp => simt::MathFn::Exp,
        MathFunc::Log => simt::MathFn::Log,
        MathFunc::Pow => simt::MathFn::Pow,
        MathFunc::Fabs => simt::MathFn::Fabs,
        MathFunc::Sin => simt::MathFn::Sin,
        MathFunc::Cos => simt::MathFn::Cos,
        MathFunc::Tan => simt::MathFn::Tan,
        MathFunc::Atan2 => simt::MathFn::Atan2,
        MathFunc::Floor => simt::MathFn::Floor,
        MathFunc::Ceil => simt::MathFn::Ceil,
        MathFunc::Fmin => simt::MathFn::Fmin,
        MathFunc::Fmax => simt::MathFn::Fmax,
        MathFunc::Fmod => simt::MathFn::Fmod,
    }
}

/// The register bits of literal `v` of type `t`.
pub(super) fn literal_bits(v: &Literal, t: &Type) -> Result<u64, Error> {
    Ok(match (v, t) {
        (Literal::Int(i), Type::Int(_) | Type::Ptr(_)) => simt::arith::norm(ty(t)?, *i as u64),
        (Literal::Float(x), Type::Float(FloatKind::F32)) => u64::from((*x as f32).to_bits()),
        (Literal::Float(x), Type::Float(FloatKind::F64)) => x.to_bits(),
        (Literal::Int(i), Type::Float(FloatKind::F32)) => u64::from((*i as f32).to_bits()),
        (Literal::Int(i), Type::Float(FloatKind::F64)) => (*i as f64).to_bits(),
        _ => return internal(format!("literal {v:?} of type {t}")),
    })
}

impl W<'_> {
    /// Evaluates expression `e`; the register holding its value.
    pub fn expr(&mut self, e: ExprId) -> Result<Reg, Error> {
        let Some(x) = self.f.exprs.get(e.0 as usize) else {
            return internal("expression out of range");
        };
        let t = self.f.ty(e).clone();
        if !matches!(x, Expr::Literal(_)) {
            if let Some(bits) = self.constant(e) {
                return Ok(self.konst(bits));
            }
        }
        Ok(match x {
            Expr::Literal(v) => {
                let bits = literal_bits(v, &t)?;
                self.konst(bits)
            }
            Expr::Local(l) => match self.slots.get(l.0 as usize).cloned() {
                Some(Slot::Reg(r, _)) => r,
                Some(Slot::Mem { offset, ty: lt }) => {
                    let a = self.temp();
                    self.emit(Inst::LocalAddr { dst: a, offset });
                    let name = self.f.locals[l.0 as usize].name.clone();
                    let site = self.site(&format!("load of {name}"));
                    let d = self.temp();
                    self.emit(Inst::Load {
                        ty: ty(&lt)?,
                        dst: d,
                        addr: a,
                        site,
                    });
                    d
                }
                _ => return internal(format!("read of void local {}", l)),
            },
            Expr::LocalAddr(l) => match self.slots.get(l.0 as usize).cloned() {
                Some(Slot::Mem { offset, .. }) => {
                    let d = self.temp();
                    self.emit(Inst::LocalAddr { dst: d, offset });
                    d
                }
                _ => return internal(format!("address of {l}, which is not in the frame")),
            },
            Expr::Load(p) => {
                let text = format!("load of {}", self.render().place(*p));
                let a = self.expr(*p)?;
                let site = self.site(&text);
                let d = self.temp();
                self.emit(Inst::Load {
                    ty: ty(&t)?,
                    dst: d,
                    addr: a,
                    site,
                });
                d
            }
            Expr::Index(_) => return internal("indexed access not flattened"),
            Expr::PtrAdd { base, index } => {
                let Some(pointee) = t.pointee() else {
                    return internal("ptradd of a non-pointer");
                };
                let scale = pointee.size();
                if let Some(i) = self.constant(*index) {
                    let b = self.expr(*base)?;
                    let off = i.wrapping_mul(scale);
                    if off == 0 {
                        return Ok(b);
                    }
                    let d = self.temp();
                    self.emit(Inst::BinImm {
                        op: simt::BinOp::Add,
                        ty: Ty::U64,
                        dst: d,
                        a: b,
                        imm: off,
                    });
                    return Ok(d);
                }
                let (b, i) = (self.expr(*base)?, self.expr(*index)?);
                let d = self.temp();
                self.emit(Inst::PtrAdd {
                    dst: d,
                    base: b,
                    index: i,
                    scale,
                });
                d
            }
            Expr::Binary { op, lhs, rhs } => {
                if let Some(d) = self.fused(*op, *lhs, *rhs, &t)? {
                    return Ok(d);
                }
                let commutes = matches!(
                    op,
                    BinOp::Add
                        | BinOp::Mul
                        | BinOp::And
                        | BinOp::Or
                        | BinOp::Xor
                        | BinOp::Min
                        | BinOp::Max
                );
                let (lhs, rhs) = match self.constant(*lhs) {
                    Some(_) if commutes && !t.is_float() => (rhs, lhs),
                    _ => (lhs, rhs),
                };
                if let Some(imm) = self.constant(*rhs) {
                    if !t.is_float() && imm == 0 && matches!(op, BinOp::Mul | BinOp::And) {
                        return Ok(self.konst(0));
                    }
                    let a = self.expr(*lhs)?;
                    if !t.is_float() && super::fold::identity(*op, imm) {
                        return Ok(a);
                    }
                    let d = self.temp();
                    self.emit(Inst::BinImm {
                        op: binop(*op),
                        ty: ty(&t)?,
                        dst: d,
                        a,
                        imm,
                    });
                    return Ok(d);
                }
                let (a, b) = (self.expr(*lhs)?, self.expr(*rhs)?);
                let d = self.temp();
                self.emit(Inst::Bin {
                    op: binop(*op),
                    ty: ty(&t)?,
                    dst: d,
                    a,
                    b,
                });
                d
            }
            Expr::Cmp { op, lhs, rhs } => {
                let ct = ty(self.f.ty(*lhs))?;
                if let Some(imm) = self.constant(*rhs) {
                    let a = self.expr(*lhs)?;
                    let d = self.temp();
                    self.emit(Inst::CmpImm {
                        op: cmpop(*op),
                        ty: ct,
                        dst: d,
                        a,
                        imm,
                    });
                    return Ok(d);
                }
                let (a, b) = (self.expr(*lhs)?, self.expr(*rhs)?);
                let d = self.temp();
                self.emit(Inst::Cmp {
                    op: cmpop(*op),
                    ty: ct,
                    dst: d,
                    a,
                    b,
                });
                d
            }
            Expr::Unary { op, arg } => {
                let a = self.expr(*arg)?;
                let d = self.temp();
                self.emit(Inst::Un {
                    op: if *op == UnOp::Neg {
                        simt::UnOp::Neg
                    } else {
                        simt::UnOp::Not
                    },
                    ty: ty(&t)?,
                    dst: d,
                    a,
                });
                d
            }
            Expr::Cast(a) => {
                let from = self.f.ty(*a).clone();
                let v = self.expr(*a)?;
                let (fty, tty) = (ty(&from)?, ty(&t)?);
                if fty == tty {
                    return Ok(v);
                }
                let d = self.temp();
                self.emit(Inst::Cvt {
                    from: fty,
                    to: tty,
                    dst: d,
                    src: v,
                });
                d
            }
            Expr::Select {
                cond,
                then,
                otherwise,
            } => {
                let d = self.temp();
                let c = self.expr(*cond)?;
                let to_else = self.emit(Inst::BranchIfNot { cond: c, to: 0 });
                let a = self.expr(*then)?;
                self.emit(Inst::Mov { dst: d, src: a });
                let to_end = self.emit(Inst::Jump { to: 0 });
                let at = self.pc();
                self.patch(to_else, at);
                let b = self.expr(*otherwise)?;
                self.emit(Inst::Mov { dst: d, src: b });
                let end = self.pc();
                self.patch(to_end, end);
                self.joined = Some(end as usize);
                d
            }
            Expr::Logical { and, lhs, rhs } => {
                if let Some(side) = self.logical_operand(*and, *lhs, *rhs) {
                    return self.expr(side);
                }
                let d = self.temp();
                let l = self.expr(*lhs)?;
                self.emit(Inst::Mov { dst: d, src: l });
                let skip = if *and {
                    self.emit(Inst::BranchIfNot { cond: d, to: 0 })
                } else {
                    self.emit(Inst::BranchIf { cond: d, to: 0 })
                };
                let r = self.expr(*rhs)?;
                self.emit(Inst::Mov { dst: d, src: r });
                let end = self.pc();
                self.patch(skip, end);
                self.joined = Some(end as usize);
                d
            }
            Expr::Special(s) => {
                let sreg = match *s {
                    Special::ThreadIdx(k) => simt::Sreg::Tid(k),
                    Special::BlockIdx(k) => simt::Sreg::Ctaid(k),
                    Special::BlockDim(k) => simt::Sreg::Ntid(k),
                    Special::GridDim(k) => simt::Sreg::Nctaid(k),
                    Special::Performs(_) | Special::OnDevice(_) => {
                        return internal(
                            "'performs' or 'on_device' reached the back end unresolved",
                        )
                    }
                };
                let d = self.temp();
                self.emit(Inst::Sreg { dst: d, sreg });
                d
            }
            Expr::Math { func, args } => {
                if args.len() != func.arity() || !t.is_float() {
                    return internal(format!("{} with {} arguments", func.c_name(), args.len()));
                }
                let a = self.expr(args[0])?;
                let b = match args.get(1) {
                    Some(x) => self.expr(*x)?,
                    None => a,
                };
                let d = self.temp();
                self.emit(Inst::Math {
                    f: mathfn(*func),
                    ty: ty(&t)?,
                    dst: d,
                    a,
                    b,
                });
                d
            }
            Expr::Cell(n) => {
                let Some(c) = self.m.cells.get(*n as usize) else {
                    return internal("cell out of range");
                };
                let text = format!("load of the device address of {}", c.host);
                let g = self.temp();
                self.emit(Inst::GlobalAddr { dst: g, global: *n });
                let site = self.site(&text);
                let d = self.temp();
                self.emit(Inst::Load {
                    ty: Ty::Ptr,
                    dst: d,
                    addr: g,
                    site,
                });
                d
            }
            Expr::Shuffle {
                value,
                lane_xor,
                members,
            } => {
                let st = ty(&t)?;
                if st.bits() > 64 || matches!(t, Type::Ptr(_)) {
                    return internal(format!("shuffle of {t}"));
                }
                let text = format!("shuffle of {}", self.render().expr(*value));
                let v = self.expr(*value)?;
                let x = self.expr(*lane_xor)?;
                let mbr = self.expr(*members)?;
                let site = self.site(&text);
                let d = self.temp();
                self.emit(Inst::Shfl {
                    ty: st,
                    dst: d,
                    value: v,
                    lane_xor: x,
                    members: mbr,
                    site,
                });
                d
            }
            Expr::SharedAddr(n) => {
                let Some(&offset) = self.shared_at.get(*n as usize) else {
                    return internal("shared array out of range");
                };
                let d = self.temp();
                self.emit(Inst::SharedAddr { dst: d, offset });
                d
            }
        })
    }

    /// A jump to be patched that is taken when `cond` is false: a fused
    /// compare-and-branch when `cond` is a comparison; its index.
    pub fn branch_unless(&mut self, cond: ExprId) -> Result<usize, Error> {
        if self.constant(cond).is_none() {
            if let Some(Expr::Cmp { op, lhs, rhs }) = self.f.exprs.get(cond.0 as usize) {
                let (op, lhs, rhs) = (*op, *lhs, *rhs);
                let ct = ty(self.f.ty(lhs))?;
                let (a, b) = (self.expr(lhs)?, self.expr(rhs)?);
                return Ok(self.emit(Inst::BrCmpNot {
                    op: cmpop(op),
                    ty: ct,
                    a,
                    b,
                    to: 0,
                }));
            }
        }
        let c = self.expr(cond)?;
        Ok(self.emit(Inst::BranchIfNot { cond: c, to: 0 }))
    }

    /// `old = atomic op(*ptr, value)`.
    pub fn atomic_rmw(
        &mut self,
        op: AtomicOp,
        ptr: ExprId,
        value: ExprId,
        old: Option<LocalId>,
    ) -> Result<(), Error> {
        let t = ty(self.f.ty(value))?;
        if t.is_float() && !matches!(op, AtomicOp::Add | AtomicOp::Sub | AtomicOp::Exchange) {
            return internal(format!("atomic {op:?} on a float"));
        }
        let text = format!("atomic update of {}", self.render().place(ptr));
        let p = self.expr(ptr)?;
        let v = self.expr(value)?;
        let site = self.site(&text);
        let dst = old.map(|l| self.target(l.0));
        self.emit(Inst::Atom {
            op: match op {
                AtomicOp::Add => simt::AtomOp::Add,
                AtomicOp::Sub => simt::AtomOp::Sub,
                AtomicOp::Min => simt::AtomOp::Min,
                AtomicOp::Max => simt::AtomOp::Max,
                AtomicOp::And => simt::AtomOp::And,
                AtomicOp::Or => simt::AtomOp::Or,
                AtomicOp::Xor => simt::AtomOp::Xor,
                AtomicOp::Exchange => simt::AtomOp::Exch,
                AtomicOp::IncWrap => simt::AtomOp::IncWrap,
            },
            ty: t,
            dst,
            addr: p,
            value: v,
            site,
        });
        if let (Some(l), Some(d)) = (old, dst) {
            self.assign(l.0, d)?;
        }
        Ok(())
    }

    /// `old, ok = cmpxchg(*ptr, expected, desired)` on the values' bits.
    pub fn atomic_cas(
        &mut self,
        ptr: ExprId,
        expected: ExprId,
        desired: ExprId,
        old: LocalId,
        ok: LocalId,
    ) -> Result<(), Error> {
        let t = ty(self.f.ty(expected))?;
        let text = format!("compare-and-swap of {}", self.render().place(ptr));
        let p = self.expr(ptr)?;
        let e = self.expr(expected)?;
        let d = self.expr(desired)?;
        let site = self.site(&text);
        let (o, k) = (self.target(old.0), self.target(ok.0));
        self.emit(Inst::Cas {
            ty: t,
            old: o,
            ok: k,
            addr: p,
            expected: e,
            desired: d,
            site,
        });
        self.assign(old.0, o)?;
        self.assign(ok.0, k)
    }

    /// `dst = *ptr` in one piece.
    pub fn atomic_load(&mut self, ptr: ExprId, dst: LocalId) -> Result<(), Error> {
        let Some(pt) = self.f.ty(ptr).pointee().cloned() else {
            return internal("atomic load through a non-pointer");
        };
        let text = format!("atomic read of {}", self.render().place(ptr));
        let p = self.expr(ptr)?;
        let site = self.site(&text);
        let d = self.target(dst.0);
        self.emit(Inst::AtomLoad {
            ty: ty(&pt)?,
            dst: d,
            addr: p,
            site,
        });
        self.assign(dst.0, d)
    }

    /// `*ptr = value` in one piece.
    pub fn atomic_store(&mut self, ptr: ExprId, value: ExprId) -> Result<(), Error> {
        let t = ty(self.f.ty(value))?;
        let text = format!("atomic write of {}", self.render().place(ptr));
        let p = self.expr(ptr)?;
        let v = self.expr(value)?;
        let site = self.site(&text);
        self.emit(Inst::AtomStore {
            ty: t,
            addr: p,
            src: v,
            site,
        });
        Ok(())
    }
}
