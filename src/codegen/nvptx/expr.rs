//! IR expressions → LLVM values, for the NVPTX writer.
//!
//! Owns: the expression half of `Writer`: C arithmetic by the operand type's
//! signedness (`sdiv`/`udiv`, `ashr`/`lshr`, `smin`/`umin`, `minnum`), C
//! conversions (see [`Expr::Cast`]), short-circuit `Select`/`Logical` as
//! branches with a phi, launch registers as `llvm.nvvm.read.ptx.sreg.*`, and
//! `Math` as calls of libdevice's `__nv_*` functions. Floating point uses
//! LLVM's defaults except for contraction: with [`Options::fma`] (the
//! default) `fadd`, `fsub`, `fmul` and `fneg` carry the `contract` flag, so
//! the NVPTX back end fuses a multiply and an add into `fma.rn` (one
//! rounding), as nvcc does, and writes the arithmetic it leaves unfused
//! without a rounding modifier (`add.f64`, not `add.rn.f64`), which ptxas
//! may fuse in turn (as it may nvcc's); no other fast-math flag (division
//! and `sqrt` stay IEEE, correctly rounded) unless fast math is asked for
//! (`fastmath.rs`). Without it every operation is `.rn` and nothing is
//! fused.
//!
//! [`Options::fma`]: super::Options::fma
//!
//! May call: `ir`.

use super::writer::{internal, llvm, Writer};
use super::Error;
use crate::ir::{
    BinOp, CmpOp, Expr, ExprId, FloatKind, IntKind, Literal, MathFunc, Special, Type, UnOp,
};
use inkwell::intrinsics::Intrinsic;
use inkwell::types::{BasicMetadataTypeEnum, BasicType, BasicTypeEnum};
use inkwell::values::{
    BasicValue, BasicValueEnum, FastMathFlags, FloatValue, IntValue, PointerValue,
};
use inkwell::{AddressSpace, FloatPredicate, IntPredicate};

impl<'c> Writer<'_, 'c> {
    /// An integer (or `bool`) value.
    pub fn int(&self, e: ExprId) -> Result<IntValue<'c>, Error> {
        match self.expr(e)? {
            BasicValueEnum::IntValue(v) => Ok(v),
            _ => internal("expected an integer"),
        }
    }

    /// A pointer value.
    pub fn ptr(&self, e: ExprId) -> Result<PointerValue<'c>, Error> {
        match self.expr(e)? {
            BasicValueEnum::PointerValue(v) => Ok(v),
            _ => internal("expected a pointer"),
        }
    }

    /// Translates one expression tree, emitting code at the builder.
    pub fn expr(&self, id: ExprId) -> Result<BasicValueEnum<'c>, Error> {
        if id.0 as usize >= self.f.exprs.len() {
            return internal("expression out of range");
        }
        let ty = self.f.ty(id);
        Ok(match self.f.expr(id) {
            Expr::Literal(Literal::Int(v)) => match self.ty(ty)? {
                BasicTypeEnum::IntType(t) => {
                    let bits = t.get_bit_width();
                    let mask = if bits >= 64 {
                        u64::MAX
                    } else {
                        (1u64 << bits) - 1
                    };
                    // Two's-complement bits of the value, truncated to the type.
                    t.const_int((*v as u64) & mask, false).into()
                }
                BasicTypeEnum::PointerType(t) if *v == 0 => t.const_null().into(),
                _ => return internal("integer literal of a non-integer type"),
            },
            Expr::Literal(Literal::Float(v)) => match self.ty(ty)? {
                BasicTypeEnum::FloatType(t) => t.const_float(*v).into(),
                _ => return internal("float literal of a non-float type"),
            },
            Expr::Local(l) => {
                let t = self.ty(ty)?;
                llvm(self.b.build_load(t, self.local_ptr(l.0)?, "v"))?
            }
            Expr::LocalAddr(l) => self.local_ptr(l.0)?.into(),
            Expr::Load(p) => {
                let ptr = self.ptr(*p)?;
                let t = self.ty(ty)?;
                let v = llvm(self.b.build_load(t, ptr, "ld"))?;
                if let Some(ld) = v.as_instruction_value() {
                    self.rows.mark(self.ctx, *p, ld)?;
                }
                v
            }
            Expr::PtrAdd { base, index } => {
                let Some(pointee) = ty.pointee() else {
                    return internal("ptradd of a non-pointer");
                };
                let et = self.ty(pointee)?;
                let p = self.ptr(*base)?;
                let i = self.int(*index)?;
                // SAFETY: an ordinary (not inbounds) GEP only computes an
                // address, like C pointer arithmetic; nothing is accessed.
                let g = unsafe { self.b.build_gep(et, p, &[i], "gep") };
                llvm(g)?.into()
            }
            Expr::Index(_) => return internal("indexed access not flattened"),
            Expr::Binary { op, lhs, rhs } => self.binary(*op, *lhs, *rhs, ty)?,
            Expr::Cmp { op, lhs, rhs } => self.compare(*op, *lhs, *rhs)?.into(),
            Expr::Unary { op, arg } => match (op, self.expr(*arg)?) {
                (UnOp::Neg, BasicValueEnum::IntValue(v)) => {
                    llvm(self.b.build_int_neg(v, "neg"))?.into()
                }
                (UnOp::Neg, BasicValueEnum::FloatValue(v)) => self
                    .contracted(llvm(self.b.build_float_neg(v, "fneg"))?)
                    .into(),
                (UnOp::BitNot | UnOp::Not, BasicValueEnum::IntValue(v)) => {
                    llvm(self.b.build_not(v, "not"))?.into()
                }
                _ => return internal("bad unary operand"),
            },
            Expr::Cast(a) => self.cast(*a, ty)?,
            Expr::Select {
                cond,
                then,
                otherwise,
            } => {
                let c = self.int(*cond)?;
                self.branchy(c, *then, *otherwise, ty)?
            }
            Expr::Logical { and, lhs, rhs } => self.logical(*and, *lhs, *rhs)?,
            Expr::Special(s) => self.special(*s)?,
            Expr::Math { func, args } => self.math_call(*func, args, ty)?,
            Expr::Cell(n) => {
                let Some(g) = self.cells.get(*n as usize) else {
                    return internal("cell out of range");
                };
                let t = self.ctx.ptr_type(inkwell::AddressSpace::default());
                llvm(self.b.build_load(t, g.as_pointer_value(), "cell"))?
            }
            Expr::Shuffle {
                value,
                lane_xor,
                members,
            } => self.shuffle(*value, *lane_xor, *members, ty)?,
            Expr::SharedAddr(n) => self.shared_addr(*n)?,
        })
    }

    /// `lhs && rhs` / `lhs || rhs`, evaluating `rhs` only when needed.
    fn logical(&self, and: bool, lhs: ExprId, rhs: ExprId) -> Result<BasicValueEnum<'c>, Error> {
        let l = self.int(lhs)?;
        let start = self.current()?;
        let (brhs, bm) = (self.new_bb("rhs")?, self.new_bb("logic")?);
        if and {
            llvm(self.b.build_conditional_branch(l, brhs, bm))?;
        } else {
            llvm(self.b.build_conditional_branch(l, bm, brhs))?;
        }
        self.b.position_at_end(brhs);
        let r = self.int(rhs)?;
        let rend = self.current()?;
        llvm(self.b.build_unconditional_branch(bm))?;
        self.b.position_at_end(bm);
        let phi = llvm(self.b.build_phi(self.ctx.bool_type(), "sc"))?;
        let short = self.ctx.bool_type().const_int(u64::from(!and), false);
        phi.add_incoming(&[
            (&short as &dyn BasicValue, start),
            (&r as &dyn BasicValue, rend),
        ]);
        Ok(phi.as_basic_value())
    }

    /// `cond ? a : b` evaluating only the chosen side.
    fn branchy(
        &self,
        c: IntValue<'c>,
        a: ExprId,
        b: ExprId,
        ty: &Type,
    ) -> Result<BasicValueEnum<'c>, Error> {
        let (ba, bb, bm) = (
            self.new_bb("sel.a")?,
            self.new_bb("sel.b")?,
            self.new_bb("sel")?,
        );
        llvm(self.b.build_conditional_branch(c, ba, bb))?;
        self.b.position_at_end(ba);
        let va = self.expr(a)?;
        let ea = self.current()?;
        llvm(self.b.build_unconditional_branch(bm))?;
        self.b.position_at_end(bb);
        let vb = self.expr(b)?;
        let eb = self.current()?;
        llvm(self.b.build_unconditional_branch(bm))?;
        self.b.position_at_end(bm);
        let phi = llvm(self.b.build_phi(self.ty(ty)?, "sel"))?;
        phi.add_incoming(&[(&va as &dyn BasicValue, ea), (&vb as &dyn BasicValue, eb)]);
        Ok(phi.as_basic_value())
    }

    /// Calls the overloaded intrinsic `name` at type `t`.
    fn intrinsic(
        &self,
        name: &str,
        t: BasicTypeEnum<'c>,
        args: &[BasicValueEnum<'c>],
    ) -> Result<BasicValueEnum<'c>, Error> {
        let Some(f) = Intrinsic::find(name).and_then(|i| i.get_declaration(self.module, &[t]))
        else {
            return internal(&format!("LLVM has no intrinsic {name}"));
        };
        let args: Vec<_> = args.iter().map(|a| (*a).into()).collect();
        let call = llvm(self.b.build_call(f, &args, "intr"))?;
        match call.try_as_basic_value().basic() {
            Some(v) => Ok(v),
            None => internal("intrinsic returned nothing"),
        }
    }

    fn binary(
        &self,
        op: BinOp,
        lhs: ExprId,
        rhs: ExprId,
        ty: &Type,
    ) -> Result<BasicValueEnum<'c>, Error> {
        let a = self.expr(lhs)?;
        let b = match op {
            BinOp::Div => self.rsqrt_divisor(lhs, rhs, ty)?,
            _ => None,
        };
        let b = match b {
            Some(b) => b,
            None => self.expr(rhs)?,
        };
        let b_ = &self.b;
        match (a, b) {
            (BasicValueEnum::IntValue(x), BasicValueEnum::IntValue(y)) => {
                let signed = matches!(ty, Type::Int(k) if k.is_signed());
                // C's promise, kept by the IR (see `BinOp`): `nsw` lets LLVM
                // widen 32-bit indices and strength-reduce addresses.
                let nsw = matches!(ty, Type::Int(k) if k.arith_never_overflows());
                let v = match op {
                    BinOp::Add if nsw => b_.build_int_nsw_add(x, y, "add"),
                    BinOp::Sub if nsw => b_.build_int_nsw_sub(x, y, "sub"),
                    BinOp::Mul if nsw => b_.build_int_nsw_mul(x, y, "mul"),
                    BinOp::Add => b_.build_int_add(x, y, "add"),
                    BinOp::Sub => b_.build_int_sub(x, y, "sub"),
                    BinOp::Mul => b_.build_int_mul(x, y, "mul"),
                    BinOp::Div if signed => b_.build_int_signed_div(x, y, "div"),
                    BinOp::Div => b_.build_int_unsigned_div(x, y, "div"),
                    BinOp::Rem if signed => b_.build_int_signed_rem(x, y, "rem"),
                    BinOp::Rem => b_.build_int_unsigned_rem(x, y, "rem"),
                    BinOp::And => b_.build_and(x, y, "and"),
                    BinOp::Or => b_.build_or(x, y, "or"),
                    BinOp::Xor => b_.build_xor(x, y, "xor"),
                    BinOp::Shl => b_.build_left_shift(x, y, "shl"),
                    BinOp::Shr => b_.build_right_shift(x, y, signed, "shr"),
                    BinOp::Min | BinOp::Max => {
                        let name = match (op == BinOp::Min, signed) {
                            (true, true) => "llvm.smin",
                            (true, false) => "llvm.umin",
                            (false, true) => "llvm.smax",
                            (false, false) => "llvm.umax",
                        };
                        return self.intrinsic(name, x.get_type().into(), &[a, b]);
                    }
                };
                Ok(llvm(v)?.into())
            }
            (BasicValueEnum::FloatValue(x), BasicValueEnum::FloatValue(y)) => {
                let v = match op {
                    BinOp::Add => b_.build_float_add(x, y, "fadd"),
                    BinOp::Sub => b_.build_float_sub(x, y, "fsub"),
                    BinOp::Mul => b_.build_float_mul(x, y, "fmul"),
                    BinOp::Div => b_.build_float_div(x, y, "fdiv"),
                    BinOp::Rem => b_.build_float_rem(x, y, "frem"),
                    BinOp::Min | BinOp::Max => {
                        let name = if op == BinOp::Min {
                            "llvm.minnum"
                        } else {
                            "llvm.maxnum"
                        };
                        return self.intrinsic(name, x.get_type().into(), &[a, b]);
                    }
                    _ => return internal("bitwise operator on floating point"),
                };
                let v = llvm(v)?;
                Ok(match op {
                    BinOp::Add | BinOp::Sub | BinOp::Mul => self.contracted(v),
                    BinOp::Div => Self::with_flags(v, self.div_flags(lhs, ty)),
                    _ => v,
                }
                .into())
            }
            _ => internal("binary operands of different kinds"),
        }
    }

    /// `v` with LLVM's `contract` flag when contraction is on (a value the
    /// builder folded to a constant is no instruction and stays as it is).
    fn contracted(&self, v: FloatValue<'c>) -> FloatValue<'c> {
        if let Some(i) = v.as_instruction().filter(|_| self.contract) {
            // Only fails on an instruction that takes no fast-math flags.
            let _ = i.set_fast_math_flags(FastMathFlags::AllowContract);
        }
        v
    }

    fn compare(&self, op: CmpOp, lhs: ExprId, rhs: ExprId) -> Result<IntValue<'c>, Error> {
        let signed = matches!(self.f.ty(lhs), Type::Int(k) if k.is_signed());
        let (a, b) = (self.expr(lhs)?, self.expr(rhs)?);
        if let (BasicValueEnum::FloatValue(x), BasicValueEnum::FloatValue(y)) = (a, b) {
            // C: every comparison with a NaN is false, except `!=`.
            let p = match op {
                CmpOp::Eq => FloatPredicate::OEQ,
                CmpOp::Ne => FloatPredicate::UNE,
                CmpOp::Lt => FloatPredicate::OLT,
                CmpOp::Le => FloatPredicate::OLE,
                CmpOp::Gt => FloatPredicate::OGT,
                CmpOp::Ge => FloatPredicate::OGE,
            };
            return llvm(self.b.build_float_compare(p, x, y, "fcmp"));
        }
        let p = match (op, signed) {
            (CmpOp::Eq, _) => IntPredicate::EQ,
            (CmpOp::Ne, _) => IntPredicate::NE,
            (CmpOp::Lt, true) => IntPredicate::SLT,
            (CmpOp::Lt, false) => IntPredicate::ULT,
            (CmpOp::Le, true) => IntPredicate::SLE,
            (CmpOp::Le, false) => IntPredicate::ULE,
            (CmpOp::Gt, true) => IntPredicate::SGT,
            (CmpOp::Gt, false) => IntPredicate::UGT,
            (CmpOp::Ge, true) => IntPredicate::SGE,
            (CmpOp::Ge, false) => IntPredicate::UGE,
        };
        match (a, b) {
            (BasicValueEnum::IntValue(x), BasicValueEnum::IntValue(y)) => {
                llvm(self.b.build_int_compare(p, x, y, "icmp"))
            }
            (BasicValueEnum::PointerValue(x), BasicValueEnum::PointerValue(y)) => {
                llvm(self.b.build_int_compare(p, x, y, "pcmp"))
            }
            _ => internal("comparison of different kinds"),
        }
    }

    /// C conversions (see [`Expr::Cast`]).
    fn cast(&self, a: ExprId, to: &Type) -> Result<BasicValueEnum<'c>, Error> {
        let from = self.f.ty(a);
        let v = self.expr(a)?;
        let b = &self.b;
        let target = self.ty(to)?;
        Ok(match (from, to, v) {
            (_, Type::Int(IntKind::Bool), BasicValueEnum::IntValue(x)) => {
                let zero = x.get_type().const_zero();
                llvm(b.build_int_compare(IntPredicate::NE, x, zero, "tobool"))?.into()
            }
            (_, Type::Int(IntKind::Bool), BasicValueEnum::FloatValue(x)) => {
                let zero = x.get_type().const_zero();
                llvm(b.build_float_compare(FloatPredicate::UNE, x, zero, "tobool"))?.into()
            }
            (_, Type::Int(IntKind::Bool), BasicValueEnum::PointerValue(x)) => {
                llvm(b.build_is_not_null(x, "tobool"))?.into()
            }
            (Type::Int(fk), Type::Int(tk), BasicValueEnum::IntValue(x)) => {
                let t = target.into_int_type();
                if tk.bits() < fk.bits() {
                    llvm(b.build_int_truncate(x, t, "trunc"))?.into()
                } else if tk.bits() == fk.bits() {
                    x.into()
                } else if fk.is_signed() {
                    llvm(b.build_int_s_extend(x, t, "sext"))?.into()
                } else {
                    llvm(b.build_int_z_extend(x, t, "zext"))?.into()
                }
            }
            (Type::Int(fk), Type::Float(_), BasicValueEnum::IntValue(x)) => {
                let t = target.into_float_type();
                if fk.is_signed() {
                    llvm(b.build_signed_int_to_float(x, t, "sitofp"))?.into()
                } else {
                    llvm(b.build_unsigned_int_to_float(x, t, "uitofp"))?.into()
                }
            }
            (Type::Float(_), Type::Int(tk), BasicValueEnum::FloatValue(x)) => {
                let t = target.into_int_type();
                if tk.is_signed() {
                    llvm(b.build_float_to_signed_int(x, t, "fptosi"))?.into()
                } else {
                    llvm(b.build_float_to_unsigned_int(x, t, "fptoui"))?.into()
                }
            }
            (Type::Float(fk), Type::Float(tk), BasicValueEnum::FloatValue(x)) => {
                self.float_resize(x, *fk, *tk, target)?
            }
            (Type::Ptr(_), Type::Ptr(_), v) => v,
            (Type::Ptr(_), Type::Int(_), BasicValueEnum::PointerValue(x)) => {
                llvm(b.build_ptr_to_int(x, target.into_int_type(), "ptoi"))?.into()
            }
            (Type::Int(_), Type::Ptr(_), BasicValueEnum::IntValue(x)) => {
                llvm(b.build_int_to_ptr(x, target.into_pointer_type(), "itop"))?.into()
            }
            _ => return internal(&format!("unsupported cast from {from} to {to}")),
        })
    }

    /// `fpext` / `fptrunc` between float kinds.
    fn float_resize(
        &self,
        x: FloatValue<'c>,
        from: FloatKind,
        to: FloatKind,
        target: BasicTypeEnum<'c>,
    ) -> Result<BasicValueEnum<'c>, Error> {
        let t = target.into_float_type();
        Ok(match (from, to) {
            (FloatKind::F32, FloatKind::F64) => llvm(self.b.build_float_ext(x, t, "fpext"))?.into(),
            (FloatKind::F64, FloatKind::F32) => {
                llvm(self.b.build_float_trunc(x, t, "fptrunc"))?.into()
            }
            _ => x.into(),
        })
    }

    /// `shfl.sync.bfly.b32` of `value` (any scalar of at most 64 bits: as
    /// one or two 32-bit halves) with lane `lane_xor` among `members`.
    fn shuffle(
        &self,
        value: ExprId,
        lane_xor: ExprId,
        members: ExprId,
        ty: &Type,
    ) -> Result<BasicValueEnum<'c>, Error> {
        let i32t = self.ctx.i32_type();
        let name = "llvm.nvvm.shfl.sync.bfly.i32";
        let f = match self.module.get_function(name) {
            Some(f) => f,
            None => {
                let t = i32t.fn_type(&[i32t.into(), i32t.into(), i32t.into(), i32t.into()], false);
                self.module.add_function(name, t, None)
            }
        };
        let v = self.expr(value)?;
        let lane = self.int(lane_xor)?;
        let mask = self.int(members)?;
        let clamp = i32t.const_int(0x1f, false);
        let b = &self.b;
        let shfl = |x: IntValue<'c>| -> Result<IntValue<'c>, Error> {
            let call = llvm(b.build_call(
                f,
                &[mask.into(), x.into(), lane.into(), clamp.into()],
                "shfl",
            ))?;
            match call.try_as_basic_value().basic() {
                Some(BasicValueEnum::IntValue(r)) => Ok(r),
                _ => internal("shuffle returned no integer"),
            }
        };
        let bits = match ty {
            Type::Int(k) => k.bits(),
            Type::Float(FloatKind::F32) => 32,
            Type::Float(FloatKind::F64) => 64,
            _ => return internal(&format!("shuffle of {ty}")),
        };
        let t = self.ty(ty)?;
        if bits == 64 {
            let i64t = self.ctx.i64_type();
            let x = llvm(b.build_bit_cast(v, i64t, "x64"))?.into_int_value();
            let lo = llvm(b.build_int_truncate(x, i32t, "lo"))?;
            let hi = llvm(b.build_right_shift(x, i64t.const_int(32, false), false, "hi64"))?;
            let hi = llvm(b.build_int_truncate(hi, i32t, "hi"))?;
            let (lo, hi) = (shfl(lo)?, shfl(hi)?);
            let lo = llvm(b.build_int_z_extend(lo, i64t, "lo64"))?;
            let hi = llvm(b.build_int_z_extend(hi, i64t, "hi64"))?;
            let hi = llvm(b.build_left_shift(hi, i64t.const_int(32, false), "his"))?;
            let r = llvm(b.build_or(lo, hi, "r64"))?;
            return llvm(b.build_bit_cast(r, t, "r"));
        }
        let x = if bits == 32 {
            llvm(b.build_bit_cast(v, i32t, "x32"))?.into_int_value()
        } else {
            llvm(b.build_int_z_extend(v.into_int_value(), i32t, "x32"))?
        };
        let r = shfl(x)?;
        Ok(if bits == 32 {
            llvm(b.build_bit_cast(r, t, "r"))?
        } else {
            llvm(b.build_int_truncate(r, t.into_int_type(), "r"))?.into()
        })
    }

    /// The address (generic) of shared array `n` of the current kernel: a
    /// `.shared` global named after the kernel, made on first use.
    fn shared_addr(&self, n: u32) -> Result<BasicValueEnum<'c>, Error> {
        let Some(arr) = self.f.shared.get(n as usize) else {
            return internal("shared array out of range");
        };
        let Some(func) = self.b.get_insert_block().and_then(|bb| bb.get_parent()) else {
            return internal("shared array outside a function");
        };
        let name = format!("{}.shared{n}", func.get_name().to_string_lossy());
        let g = match self.module.get_global(&name) {
            Some(g) => g,
            None => {
                let BasicTypeEnum::ArrayType(t) = self.ty(arr)? else {
                    return internal("shared memory that is not an array");
                };
                let g = self
                    .module
                    .add_global(t, Some(AddressSpace::from(3u16)), &name);
                g.set_initializer(&t.get_undef());
                g.set_linkage(inkwell::module::Linkage::Internal);
                g.set_alignment(16);
                g
            }
        };
        let generic = self.ctx.ptr_type(AddressSpace::default());
        Ok(llvm(
            self.b
                .build_address_space_cast(g.as_pointer_value(), generic, "shared"),
        )?
        .into())
    }

    /// Reads a launch register (`u32`).
    fn special(&self, s: Special) -> Result<BasicValueEnum<'c>, Error> {
        let (reg, d) = match s {
            Special::ThreadIdx(d) => ("tid", d),
            Special::BlockIdx(d) => ("ctaid", d),
            Special::BlockDim(d) => ("ntid", d),
            Special::GridDim(d) => ("nctaid", d),
            Special::Performs(_) | Special::OnDevice(_) => return internal(
                "'performs' or 'on_device' reached the back end unresolved (schedule resolves it)",
            ),
        };
        let Some(dim) = ["x", "y", "z"].get(d as usize) else {
            return internal(&format!("launch register {reg} of dimension {d}"));
        };
        let name = format!("llvm.nvvm.read.ptx.sreg.{reg}.{dim}");
        let f = match self.module.get_function(&name) {
            Some(f) => f,
            None => {
                let t = self.ctx.i32_type().fn_type(&[], false);
                self.module.add_function(&name, t, None)
            }
        };
        let call = llvm(self.b.build_call(f, &[], reg))?;
        match call.try_as_basic_value().basic() {
            Some(v) => Ok(v),
            None => internal("special register read returned nothing"),
        }
    }

    /// A call of libdevice's `__nv_<name>[f]`.
    fn math_call(
        &self,
        func: MathFunc,
        args: &[ExprId],
        ty: &Type,
    ) -> Result<BasicValueEnum<'c>, Error> {
        let Some(c_name) = func.c_name_for(ty) else {
            return internal(&format!("{} of type {ty}", func.c_name()));
        };
        if args.len() != func.arity() {
            return internal(&format!("{} with {} arguments", func.c_name(), args.len()));
        }
        if self.sqrt_is_approx(func, ty) {
            return self.approx_sqrt(args[0]);
        }
        let name = self.libdevice_name(func, &c_name, ty);
        let first = self.math.take();
        self.math.set(first.or(Some(c_name)));
        let t = self.ty(ty)?;
        let f = match self.module.get_function(&name) {
            Some(f) => f,
            None => {
                let params: Vec<BasicMetadataTypeEnum> = args.iter().map(|_| t.into()).collect();
                self.module
                    .add_function(&name, t.fn_type(&params, false), None)
            }
        };
        let mut vals = vec![];
        for a in args {
            vals.push(self.expr(*a)?.into());
        }
        let call = llvm(self.b.build_call(f, &vals, "math"))?;
        match call.try_as_basic_value().basic() {
            Some(v) => Ok(v),
            None => internal("math call returned nothing"),
        }
    }
}
