//! IR expressions → CUDA C expressions ([`CExpr`] trees the shared writer
//! prints with C's precedence).
//!
//! Owns: the expression half of `FnWriter`. C computes integers narrower
//! than `int` in `int`, so the result of an operation that can leave
//! their range (`+ - * / % <<`, negation, complement) is converted back to
//! the IR type; `Min`/`Max` are CUDA's `min`/`max` on integers and
//! `fmin`/`fmax` (IEEE minNum, as the IR says) on floating point;
//! floating `Rem` is `fmod`; conversions are C casts (which have the IR's
//! meaning, [`Expr::Cast`]); a shuffle is `__shfl_xor_sync` of 32 lanes
//! (narrow integers through `unsigned int`); a load through a `ptradd` is
//! a subscript. No fast-math; contraction is the compiler's: nvcc's
//! `-fmad=true` (its default) fuses `a * b + c` as the NVPTX back end's
//! `contract` flags do, `-fmad=false` with accc's `-gpu=nofma`, `-Mnofma`,
//! `-ffp-contract=off` (`cuda::nvcc`); the multicore target's host C gets
//! the host compiler's default (GCC: `-ffp-contract=fast`), or
//! `-ffp-contract=off` with those switches (`driver::multicore`).
//!
//! May call: `ir`, `codegen::c`.

use super::types::c_type;
use super::writer::{internal, FnWriter};
use super::Error;
use crate::codegen::c::{lit, CBinOp, CExpr, CUnOp};
use crate::ir::{BinOp, CmpOp, Expr, ExprId, FloatKind, IntKind, Literal, Special, Type, UnOp};

/// Whether C computes values of `t` in a wider type (`int`).
fn narrow(t: &Type) -> bool {
    matches!(t, Type::Int(k) if k.bits() < 32)
}

/// The C spelling of launch register `s` (`host`: in host C, where a
/// block is one thread and the entry sets the block's index and the
/// grid's size).
pub fn special(s: Special, host: bool) -> Result<String, Error> {
    if host {
        return Ok(match s {
            Special::ThreadIdx(_) => "0u".into(),
            Special::BlockDim(_) => "1u".into(),
            Special::BlockIdx(d) if d < 3 => format!("__accc_bid[{d}]"),
            Special::GridDim(d) if d < 3 => format!("__accc_gdim[{d}]"),
            _ => return special(s, false),
        });
    }
    let (reg, d) =
        match s {
            Special::ThreadIdx(d) => ("threadIdx", d),
            Special::BlockIdx(d) => ("blockIdx", d),
            Special::BlockDim(d) => ("blockDim", d),
            Special::GridDim(d) => ("gridDim", d),
            Special::Performs(_) | Special::OnDevice(_) => return internal(
                "'performs' or 'on_device' reached the back end unresolved (schedule resolves it)",
            ),
        };
    match ["x", "y", "z"].get(usize::from(d)) {
        Some(dim) => Ok(format!("{reg}.{dim}")),
        None => internal(&format!("launch register {reg} of dimension {d}")),
    }
}

/// An integer literal of type `t` (`v`: two's-complement bits).
pub(super) fn int_literal(v: i128, t: &Type) -> Result<CExpr, Error> {
    let Type::Int(k) = t else {
        return match t {
            Type::Ptr(_) if v == 0 => Ok(CExpr::cast(c_type(t), CExpr::atom("0"))),
            _ => internal(&format!("integer literal of type {t}")),
        };
    };
    let bits = k.bits();
    let u = (v as u128) & ((1u128 << bits) - 1);
    let signed = |x: i64| {
        if x == i64::from(i32::MIN) {
            CExpr::bin(
                CBinOp::Sub,
                CExpr::un(CUnOp::Neg, CExpr::atom("2147483647")),
                CExpr::atom("1"),
            )
        } else if x < 0 {
            CExpr::un(CUnOp::Neg, CExpr::atom(x.unsigned_abs().to_string()))
        } else {
            CExpr::atom(x.to_string())
        }
    };
    Ok(match k {
        IntKind::Bool => CExpr::atom(if u == 0 { "false" } else { "true" }),
        IntKind::I32 => signed(i64::from(u as u32 as i32)),
        IntKind::U32 => lit::uint(u as u32),
        IntKind::I64 => lit::int(u as u64 as i64),
        IntKind::U64 => lit::ull(u as u64),
        IntKind::I8 => CExpr::cast(c_type(t), signed(i64::from(u as u8 as i8))),
        IntKind::I16 => CExpr::cast(c_type(t), signed(i64::from(u as u16 as i16))),
        IntKind::U8 | IntKind::U16 => CExpr::cast(c_type(t), CExpr::atom(u.to_string())),
    })
}

impl FnWriter<'_> {
    /// The C of expression tree `id`.
    pub fn expr(&mut self, id: ExprId) -> Result<CExpr, Error> {
        if id.0 as usize >= self.f.exprs.len() {
            return internal("expression out of range");
        }
        let ty = self.f.ty(id).clone();
        Ok(match self.f.expr(id).clone() {
            Expr::Literal(Literal::Int(v)) => int_literal(v, &ty)?,
            Expr::Literal(Literal::Float(v)) => lit::float(v, ty == Type::Float(FloatKind::F32)),
            Expr::Local(l) => CExpr::atom(self.local(l)?),
            Expr::LocalAddr(l) => {
                let name = CExpr::atom(self.local(l)?);
                match self.f.locals.get(l.0 as usize).map(|x| &x.ty) {
                    // An array's address is that of element 0: it decays.
                    Some(Type::Array(..)) => name,
                    _ => CExpr::addr_of(name),
                }
            }
            Expr::Load(p) => self.deref(p)?,
            Expr::PtrAdd { base, index } => {
                if matches!(ty.pointee(), Some(Type::Void) | None) {
                    return internal(&format!("ptradd of type {ty}"));
                }
                CExpr::bin(CBinOp::Add, self.expr(base)?, self.expr(index)?)
            }
            Expr::Index(_) => return internal("indexed access not flattened"),
            Expr::Binary { op, lhs, rhs } => self.binary(op, lhs, rhs, &ty)?,
            Expr::Cmp { op, lhs, rhs } => {
                let op = match op {
                    CmpOp::Eq => CBinOp::Eq,
                    CmpOp::Ne => CBinOp::Ne,
                    CmpOp::Lt => CBinOp::Lt,
                    CmpOp::Le => CBinOp::Le,
                    CmpOp::Gt => CBinOp::Gt,
                    CmpOp::Ge => CBinOp::Ge,
                };
                CExpr::bin(op, self.expr(lhs)?, self.expr(rhs)?)
            }
            Expr::Unary { op, arg } => {
                let a = self.expr(arg)?;
                match (op, &ty) {
                    (UnOp::Not, _) | (UnOp::BitNot, Type::Int(IntKind::Bool)) => {
                        CExpr::un(CUnOp::Not, a)
                    }
                    (UnOp::Neg, _) => self.wrap(CExpr::un(CUnOp::Neg, a), &ty),
                    (UnOp::BitNot, _) => self.wrap(CExpr::un(CUnOp::BitNot, a), &ty),
                }
            }
            Expr::Cast(a) => self.cast(a, &ty)?,
            Expr::Select {
                cond,
                then,
                otherwise,
            } => CExpr::cond(self.expr(cond)?, self.expr(then)?, self.expr(otherwise)?),
            Expr::Logical { and, lhs, rhs } => {
                let op = if and { CBinOp::LogAnd } else { CBinOp::LogOr };
                CExpr::bin(op, self.expr(lhs)?, self.expr(rhs)?)
            }
            Expr::Special(s) => CExpr::atom(special(s, self.host())?),
            Expr::Math { func, args } => {
                let Some(name) = func.c_name_for(&ty) else {
                    return internal(&format!("{} of type {ty}", func.c_name()));
                };
                if args.len() != func.arity() {
                    return internal(&format!("{} with {} arguments", func.c_name(), args.len()));
                }
                let mut a = vec![];
                for x in args {
                    a.push(self.expr(x)?);
                }
                CExpr::call(name, a)
            }
            Expr::Cell(n) => {
                let Some(sym) = self.cells.get(n as usize) else {
                    return internal("cell out of range");
                };
                CExpr::cast(c_type(&ty), CExpr::atom(sym.clone()))
            }
            Expr::Shuffle {
                value,
                lane_xor,
                members,
            } => self.shuffle(value, lane_xor, members, &ty)?,
            Expr::SharedAddr(n) => match self.shared.get(n as usize) {
                Some(name) => CExpr::atom(name.clone()),
                None => return internal("shared array out of range"),
            },
        })
    }

    /// `*p`, as a subscript `base[index]` when `p` is a `ptradd`.
    pub fn deref(&mut self, p: ExprId) -> Result<CExpr, Error> {
        if let Expr::PtrAdd { base, index } = self.f.expr(p).clone() {
            return Ok(CExpr::index(self.expr(base)?, self.expr(index)?));
        }
        Ok(CExpr::un(CUnOp::Deref, self.expr(p)?))
    }

    /// `e` converted back to `t` where C computed it in `int`.
    fn wrap(&self, e: CExpr, t: &Type) -> CExpr {
        if narrow(t) {
            CExpr::cast(c_type(t), e)
        } else {
            e
        }
    }

    fn binary(&mut self, op: BinOp, lhs: ExprId, rhs: ExprId, ty: &Type) -> Result<CExpr, Error> {
        let (a, b) = (self.expr(lhs)?, self.expr(rhs)?);
        let float = ty.is_float();
        let f = if *ty == Type::F32 { "f" } else { "" };
        let c = |op| CExpr::bin(op, a.clone(), b.clone());
        Ok(match op {
            BinOp::Add => self.wrap(c(CBinOp::Add), ty),
            BinOp::Sub => self.wrap(c(CBinOp::Sub), ty),
            BinOp::Mul => self.wrap(c(CBinOp::Mul), ty),
            BinOp::Div => self.wrap(c(CBinOp::Div), ty),
            BinOp::Rem if float => CExpr::call(format!("fmod{f}"), vec![a, b]),
            BinOp::Rem => self.wrap(c(CBinOp::Rem), ty),
            BinOp::Shl => self.wrap(c(CBinOp::Shl), ty),
            // Bitwise operations and right shifts of values of a type
            // stay in its range.
            BinOp::Shr => c(CBinOp::Shr),
            BinOp::And => c(CBinOp::BitAnd),
            BinOp::Or => c(CBinOp::BitOr),
            BinOp::Xor => c(CBinOp::BitXor),
            BinOp::Min | BinOp::Max if float => {
                let name = if op == BinOp::Min { "fmin" } else { "fmax" };
                CExpr::call(format!("{name}{f}"), vec![a, b])
            }
            // GNU C has no `min`: a statement expression of the type.
            BinOp::Min | BinOp::Max if self.host() => {
                let cmp = if op == BinOp::Min { "<" } else { ">" };
                let t = c_type(ty);
                let e = CExpr::atom(format!(
                    "({{ {t} __accc_a = {}, __accc_b = {}; __accc_a {cmp} __accc_b ? __accc_a : __accc_b; }})",
                    a.to_c(),
                    b.to_c()
                ));
                self.wrap(e, ty)
            }
            BinOp::Min | BinOp::Max => {
                let name = if op == BinOp::Min { "min" } else { "max" };
                let call = CExpr::call(name, vec![a, b]);
                self.wrap(call, ty)
            }
        })
    }

    /// C conversion of `a` to `to`.
    fn cast(&mut self, a: ExprId, to: &Type) -> Result<CExpr, Error> {
        let from = self.f.ty(a).clone();
        let v = self.expr(a)?;
        if from == *to {
            return Ok(v);
        }
        Ok(match (&from, to) {
            // C++ refuses a pointer to a narrower integer in one step.
            (Type::Ptr(_), Type::Int(k)) if k.bits() < 64 && *k != IntKind::Bool => {
                CExpr::cast(c_type(to), CExpr::cast("unsigned long long", v))
            }
            _ => CExpr::cast(c_type(to), v),
        })
    }

    /// `__shfl_xor_sync(members, value, lane_xor)` of 32 lanes.
    fn shuffle(
        &mut self,
        value: ExprId,
        lane_xor: ExprId,
        members: ExprId,
        ty: &Type,
    ) -> Result<CExpr, Error> {
        let v = self.expr(value)?;
        let lane = self.expr(lane_xor)?;
        let mask = self.expr(members)?;
        if self.host() {
            // Rows of one lane: no other lane to read (and the schedule's
            // guards never execute a shuffle there).
            let _ = (lane, mask);
            return Ok(v);
        }
        let (arg, back) = match ty {
            Type::Int(k) if k.bits() < 32 => (CExpr::cast("unsigned int", v), true),
            Type::Int(_) | Type::Float(_) => (v, false),
            _ => return internal(&format!("shuffle of {ty}")),
        };
        let call = CExpr::call("__shfl_xor_sync", vec![mask, arg, lane]);
        Ok(if back {
            CExpr::cast(c_type(ty), call)
        } else {
            call
        })
    }
}
