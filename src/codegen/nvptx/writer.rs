//! IR → LLVM IR translation for NVPTX. Locals become allocas (mem2reg in the
//! pipeline makes them registers); structured statements become basic
//! blocks; short-circuit operators and `Select` branch. Kernels use the PTX
//! kernel calling convention.
//!
//! Owns: [`translate`]. May call: `ir`.

use super::{Error, Options};
use crate::ir::{
    BinOp, Block, CmpOp, Expr, ExprId, FloatKind, Function, IntKind, Kernel, Literal, MathFunc,
    Module, ParamMode, Special, Stmt, Type, UnOp,
};
use inkwell::attributes::{Attribute, AttributeLoc};
use inkwell::basic_block::BasicBlock;
use inkwell::builder::Builder;
use inkwell::context::Context;
use inkwell::module::{FlagBehavior, Linkage};
use inkwell::targets::TargetMachine;
use inkwell::types::{BasicMetadataTypeEnum, BasicType, BasicTypeEnum};
use inkwell::values::{BasicValue, BasicValueEnum, FunctionValue, IntValue, PointerValue};
use inkwell::{AddressSpace, FloatPredicate, IntPredicate};

/// The PTX kernel calling convention (`ptx_kernel`).
const PTX_KERNEL_CC: u32 = 71;

fn llvm<T>(r: Result<T, inkwell::builder::BuilderError>) -> Result<T, Error> {
    r.map_err(|e| Error::Llvm(e.to_string()))
}

fn internal<T>(what: &str) -> Result<T, Error> {
    Err(Error::Llvm(what.to_string()))
}

/// Translates the module into a new LLVM module of `ctx`.
pub fn translate<'c>(
    ctx: &'c Context,
    m: &Module,
    tm: &TargetMachine,
    o: &Options,
) -> Result<inkwell::module::Module<'c>, Error> {
    let module = ctx.create_module(&m.source);
    module.set_triple(&tm.get_triple());
    module.set_data_layout(&tm.get_target_data().get_data_layout());
    let math: std::cell::Cell<Option<&'static str>> = std::cell::Cell::new(None);
    for k in &m.kernels {
        let mut w = Writer {
            ctx,
            module: &module,
            b: ctx.create_builder(),
            f: &k.body,
            locals: vec![],
            loops: vec![],
            func: None,
            math: &math,
        };
        w.kernel(k)?;
    }
    if let Some(first) = math.get() {
        let Some(path) = &o.libdevice else {
            return Err(Error::NoLibdevice(first.to_string()));
        };
        let lib = inkwell::module::Module::parse_bitcode_from_path(path, ctx)
            .map_err(|e| Error::Llvm(format!("cannot read libdevice {}: {e}", path.display())))?;
        lib.set_triple(&tm.get_triple());
        lib.set_data_layout(&tm.get_target_data().get_data_layout());
        module
            .link_in_module(lib)
            .map_err(|e| Error::Llvm(format!("cannot link libdevice: {e}")))?;
        module.add_basic_value_flag(
            "nvvm-reflect-ftz",
            FlagBehavior::Override,
            ctx.i32_type().const_int(0, false),
        );
        // Only the kernels are entry points; everything else may be inlined
        // and dropped.
        let kernels: Vec<&str> = m.kernels.iter().map(|k| k.name.as_str()).collect();
        let mut f = module.get_first_function();
        while let Some(func) = f {
            let name = func.get_name().to_string_lossy().to_string();
            if func.count_basic_blocks() > 0 && !kernels.contains(&name.as_str()) {
                func.set_linkage(Linkage::Internal);
            }
            f = func.get_next_function();
        }
    }
    module.verify().map_err(|e| Error::Llvm(e.to_string()))?;
    Ok(module)
}

struct Writer<'a, 'c> {
    ctx: &'c Context,
    module: &'a inkwell::module::Module<'c>,
    b: Builder<'c>,
    f: &'a Function,
    /// The alloca of each local.
    locals: Vec<PointerValue<'c>>,
    /// (continue target, break target) of the enclosing loops.
    loops: Vec<(BasicBlock<'c>, BasicBlock<'c>)>,
    func: Option<FunctionValue<'c>>,
    /// The first math function used (libdevice is linked when set).
    math: &'a std::cell::Cell<Option<&'static str>>,
}

impl<'a, 'c> Writer<'a, 'c> {
    fn ty(&self, t: &Type) -> Result<BasicTypeEnum<'c>, Error> {
        Ok(match t {
            Type::Int(IntKind::Bool) => self.ctx.bool_type().into(),
            Type::Int(IntKind::I8 | IntKind::U8) => self.ctx.i8_type().into(),
            Type::Int(IntKind::I16 | IntKind::U16) => self.ctx.i16_type().into(),
            Type::Int(IntKind::I32 | IntKind::U32) => self.ctx.i32_type().into(),
            Type::Int(IntKind::I64 | IntKind::U64) => self.ctx.i64_type().into(),
            Type::Float(FloatKind::F32) => self.ctx.f32_type().into(),
            Type::Float(FloatKind::F64) => self.ctx.f64_type().into(),
            Type::Ptr(_) => self.ctx.ptr_type(AddressSpace::default()).into(),
            Type::Array(e, n) => {
                let n = u32::try_from(*n).map_err(|_| Error::Llvm("array too large".into()))?;
                self.ty(e)?.array_type(n).into()
            }
            Type::Void => return internal("void value"),
        })
    }

    fn kernel(&mut self, k: &Kernel) -> Result<(), Error> {
        let mut params: Vec<BasicMetadataTypeEnum> = vec![];
        for p in &k.params {
            params.push(self.ty(&self.f.local(p.local).ty)?.into());
        }
        let fn_ty = self.ctx.void_type().fn_type(&params, false);
        let func = self.module.add_function(&k.name, fn_ty, None);
        func.set_call_conventions(PTX_KERNEL_CC);
        for (i, p) in k.params.iter().enumerate() {
            if let ParamMode::DevicePtr { read_only: true } = p.mode {
                let ro = self
                    .ctx
                    .create_enum_attribute(Attribute::get_named_enum_kind_id("readonly"), 0);
                func.add_attribute(AttributeLoc::Param(i as u32), ro);
            }
        }
        self.func = Some(func);
        let entry = self.ctx.append_basic_block(func, "entry");
        self.b.position_at_end(entry);
        for (i, l) in self.f.locals.iter().enumerate() {
            let t = self.ty(&l.ty)?;
            let a = llvm(self.b.build_alloca(t, &format!("l{i}.{}", l.name)))?;
            self.locals.push(a);
        }
        for (i, p) in k.params.iter().enumerate() {
            let Some(v) = func.get_nth_param(i as u32) else {
                return internal("missing parameter");
            };
            llvm(self.b.build_store(self.local_ptr(p.local.0)?, v))?;
        }
        self.block(&self.f.body)?;
        if self.open() {
            llvm(self.b.build_return(None))?;
        }
        Ok(())
    }

    fn local_ptr(&self, i: u32) -> Result<PointerValue<'c>, Error> {
        match self.locals.get(i as usize) {
            Some(p) => Ok(*p),
            None => internal("local out of range"),
        }
    }

    /// True when the current block has no terminator yet.
    fn open(&self) -> bool {
        self.b
            .get_insert_block()
            .is_some_and(|bb| bb.get_terminator().is_none())
    }

    fn new_bb(&self, name: &str) -> Result<BasicBlock<'c>, Error> {
        match self.func {
            Some(f) => Ok(self.ctx.append_basic_block(f, name)),
            None => internal("no function"),
        }
    }

    /// Branches to `to` unless the block already ended.
    fn br(&self, to: BasicBlock<'c>) -> Result<(), Error> {
        if self.open() {
            llvm(self.b.build_unconditional_branch(to))?;
        }
        Ok(())
    }

    fn block(&mut self, b: &Block) -> Result<(), Error> {
        for s in b {
            if !self.open() {
                // Code after break/continue/return: unreachable, but keep it well formed.
                let dead = self.new_bb("dead")?;
                self.b.position_at_end(dead);
            }
            self.stmt(s)?;
        }
        Ok(())
    }

    fn stmt(&mut self, s: &Stmt) -> Result<(), Error> {
        match s {
            Stmt::Assign { local, value } => {
                let v = self.expr(*value)?;
                llvm(self.b.build_store(self.local_ptr(local.0)?, v))?;
            }
            Stmt::Store { ptr, value } => {
                let p = self.expr(*ptr)?.into_pointer_value();
                let v = self.expr(*value)?;
                llvm(self.b.build_store(p, v))?;
            }
            Stmt::If {
                cond,
                then,
                otherwise,
            } => {
                let c = self.expr(*cond)?.into_int_value();
                let (bt, be, bm) = (
                    self.new_bb("then")?,
                    self.new_bb("else")?,
                    self.new_bb("endif")?,
                );
                llvm(self.b.build_conditional_branch(c, bt, be))?;
                self.b.position_at_end(bt);
                self.block(then)?;
                self.br(bm)?;
                self.b.position_at_end(be);
                self.block(otherwise)?;
                self.br(bm)?;
                self.b.position_at_end(bm);
            }
            Stmt::While { cond, body, step } => {
                let (bc, bb, bs, bx) = (
                    self.new_bb("cond")?,
                    self.new_bb("body")?,
                    self.new_bb("step")?,
                    self.new_bb("exit")?,
                );
                self.br(bc)?;
                self.b.position_at_end(bc);
                let c = self.expr(*cond)?.into_int_value();
                llvm(self.b.build_conditional_branch(c, bb, bx))?;
                self.b.position_at_end(bb);
                self.loops.push((bs, bx));
                self.block(body)?;
                self.br(bs)?;
                self.b.position_at_end(bs);
                self.block(step)?;
                self.loops.pop();
                self.br(bc)?;
                self.b.position_at_end(bx);
            }
            Stmt::Break | Stmt::Continue => {
                let Some(&(cont, brk)) = self.loops.last() else {
                    return internal("break outside a loop");
                };
                self.br(if matches!(s, Stmt::Break) { brk } else { cont })?;
            }
            Stmt::Return => {
                if self.open() {
                    llvm(self.b.build_return(None))?;
                }
            }
            Stmt::Block(b) => self.block(b)?,
            Stmt::Loop(_) => return internal("counted loop reached the back end unscheduled"),
        }
        Ok(())
    }

    fn int(&self, e: ExprId) -> Result<IntValue<'c>, Error> {
        match self.expr(e)? {
            BasicValueEnum::IntValue(v) => Ok(v),
            _ => internal("expected an integer"),
        }
    }

    fn int_kind(&self, e: ExprId) -> Option<IntKind> {
        match self.f.ty(e) {
            Type::Int(k) => Some(*k),
            _ => None,
        }
    }

    fn expr(&self, id: ExprId) -> Result<BasicValueEnum<'c>, Error> {
        let ty = self.f.ty(id);
        Ok(match self.f.expr(id) {
            Expr::Literal(Literal::Int(v)) => match self.ty(ty)? {
                BasicTypeEnum::IntType(t) => t.const_int(*v as u64, false).into(),
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
                let ptr = self.expr(*p)?.into_pointer_value();
                let t = self.ty(ty)?;
                llvm(self.b.build_load(t, ptr, "ld"))?
            }
            Expr::PtrAdd { base, index } => {
                let Some(pointee) = ty.pointee() else {
                    return internal("ptradd of a non-pointer");
                };
                let et = self.ty(pointee)?;
                let p = self.expr(*base)?.into_pointer_value();
                let i = self.int(*index)?;
                // SAFETY of the GEP: it only computes an address (C pointer arithmetic).
                let g = unsafe { self.b.build_gep(et, p, &[i], "gep") };
                llvm(g)?.into()
            }
            Expr::Binary { op, lhs, rhs } => self.binary(*op, *lhs, *rhs, ty)?,
            Expr::Cmp { op, lhs, rhs } => self.compare(*op, *lhs, *rhs)?.into(),
            Expr::Unary { op, arg } => {
                let a = self.expr(*arg)?;
                match (op, a) {
                    (UnOp::Neg, BasicValueEnum::IntValue(v)) => {
                        llvm(self.b.build_int_neg(v, "neg"))?.into()
                    }
                    (UnOp::Neg, BasicValueEnum::FloatValue(v)) => {
                        llvm(self.b.build_float_neg(v, "fneg"))?.into()
                    }
                    (UnOp::BitNot | UnOp::Not, BasicValueEnum::IntValue(v)) => {
                        llvm(self.b.build_not(v, "not"))?.into()
                    }
                    _ => return internal("bad unary operand"),
                }
            }
            Expr::Cast(a) => self.cast(*a, ty)?,
            Expr::Select {
                cond,
                then,
                otherwise,
            } => {
                let c = self.int(*cond)?;
                self.branchy(c, *then, *otherwise, ty)?
            }
            Expr::Logical { and, lhs, rhs } => {
                let l = self.int(*lhs)?;
                let Some(start) = self.b.get_insert_block() else {
                    return internal("no block");
                };
                let (brhs, bm) = (self.new_bb("rhs")?, self.new_bb("logic")?);
                if *and {
                    llvm(self.b.build_conditional_branch(l, brhs, bm))?;
                } else {
                    llvm(self.b.build_conditional_branch(l, bm, brhs))?;
                }
                self.b.position_at_end(brhs);
                let r = self.int(*rhs)?;
                let Some(rend) = self.b.get_insert_block() else {
                    return internal("no block");
                };
                llvm(self.b.build_unconditional_branch(bm))?;
                self.b.position_at_end(bm);
                let phi = llvm(self.b.build_phi(self.ctx.bool_type(), "sc"))?;
                let short = self.ctx.bool_type().const_int(u64::from(!*and), false);
                phi.add_incoming(&[
                    (&short as &dyn BasicValue, start),
                    (&r as &dyn BasicValue, rend),
                ]);
                phi.as_basic_value()
            }
            Expr::Special(s) => self.special(*s)?,
            Expr::Math { func, args } => self.math_call(*func, args, ty)?,
        })
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
        let Some(ea) = self.b.get_insert_block() else {
            return internal("no block");
        };
        llvm(self.b.build_unconditional_branch(bm))?;
        self.b.position_at_end(bb);
        let vb = self.expr(b)?;
        let Some(eb) = self.b.get_insert_block() else {
            return internal("no block");
        };
        llvm(self.b.build_unconditional_branch(bm))?;
        self.b.position_at_end(bm);
        let phi = llvm(self.b.build_phi(self.ty(ty)?, "sel"))?;
        phi.add_incoming(&[(&va as &dyn BasicValue, ea), (&vb as &dyn BasicValue, eb)]);
        Ok(phi.as_basic_value())
    }

    fn binary(
        &self,
        op: BinOp,
        lhs: ExprId,
        rhs: ExprId,
        ty: &Type,
    ) -> Result<BasicValueEnum<'c>, Error> {
        let (a, b) = (self.expr(lhs)?, self.expr(rhs)?);
        let b_ = &self.b;
        match (a, b) {
            (BasicValueEnum::IntValue(x), BasicValueEnum::IntValue(y)) => {
                let signed = matches!(ty, Type::Int(k) if k.is_signed());
                let v = match op {
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
                        let pred = match (op == BinOp::Min, signed) {
                            (true, true) => IntPredicate::SLT,
                            (true, false) => IntPredicate::ULT,
                            (false, true) => IntPredicate::SGT,
                            (false, false) => IntPredicate::UGT,
                        };
                        let c = llvm(b_.build_int_compare(pred, x, y, "mm"))?;
                        return llvm(b_.build_select(c, x, y, "minmax"));
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
                        let pred = if op == BinOp::Min {
                            FloatPredicate::OLT
                        } else {
                            FloatPredicate::OGT
                        };
                        let c = llvm(b_.build_float_compare(pred, x, y, "fmm"))?;
                        return llvm(b_.build_select(c, x, y, "fminmax"));
                    }
                    _ => return internal("bitwise operator on floating point"),
                };
                Ok(llvm(v)?.into())
            }
            _ => internal("binary operands of different kinds"),
        }
    }

    fn compare(&self, op: CmpOp, lhs: ExprId, rhs: ExprId) -> Result<IntValue<'c>, Error> {
        let signed = self.int_kind(lhs).is_some_and(|k| k.is_signed());
        let (a, b) = (self.expr(lhs)?, self.expr(rhs)?);
        match (a, b) {
            (BasicValueEnum::FloatValue(x), BasicValueEnum::FloatValue(y)) => {
                let p = match op {
                    CmpOp::Eq => FloatPredicate::OEQ,
                    CmpOp::Ne => FloatPredicate::UNE,
                    CmpOp::Lt => FloatPredicate::OLT,
                    CmpOp::Le => FloatPredicate::OLE,
                    CmpOp::Gt => FloatPredicate::OGT,
                    CmpOp::Ge => FloatPredicate::OGE,
                };
                llvm(self.b.build_float_compare(p, x, y, "fcmp"))
            }
            (x, y) => {
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
                match (x, y) {
                    (BasicValueEnum::IntValue(x), BasicValueEnum::IntValue(y)) => {
                        llvm(self.b.build_int_compare(p, x, y, "icmp"))
                    }
                    (BasicValueEnum::PointerValue(x), BasicValueEnum::PointerValue(y)) => {
                        llvm(self.b.build_int_compare(p, x, y, "pcmp"))
                    }
                    _ => internal("comparison of different kinds"),
                }
            }
        }
    }

    /// C conversions (see `Expr::Cast`).
    fn cast(&self, a: ExprId, to: &Type) -> Result<BasicValueEnum<'c>, Error> {
        let from = self.f.ty(a).clone();
        let v = self.expr(a)?;
        let b = &self.b;
        let target = self.ty(to)?;
        Ok(match (&from, to, v) {
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
                let t = target.into_float_type();
                match (fk, tk) {
                    (FloatKind::F32, FloatKind::F64) => {
                        llvm(b.build_float_ext(x, t, "fpext"))?.into()
                    }
                    (FloatKind::F64, FloatKind::F32) => {
                        llvm(b.build_float_trunc(x, t, "fptrunc"))?.into()
                    }
                    _ => x.into(),
                }
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

    fn special(&self, s: Special) -> Result<BasicValueEnum<'c>, Error> {
        let (reg, d) = match s {
            Special::ThreadIdx(d) => ("tid", d),
            Special::BlockIdx(d) => ("ctaid", d),
            Special::BlockDim(d) => ("ntid", d),
            Special::GridDim(d) => ("nctaid", d),
        };
        let dim = ["x", "y", "z"].get(d as usize).copied().unwrap_or("x");
        let name = format!("llvm.nvvm.read.ptx.sreg.{reg}.{dim}");
        let i32t = self.ctx.i32_type();
        let f = self.module.get_function(&name).unwrap_or_else(|| {
            self.module
                .add_function(&name, i32t.fn_type(&[], false), None)
        });
        let call = llvm(self.b.build_call(f, &[], reg))?;
        match call.try_as_basic_value().basic() {
            Some(v) => Ok(v),
            None => internal("special register read returned nothing"),
        }
    }

    fn math_call(
        &self,
        func: MathFunc,
        args: &[ExprId],
        ty: &Type,
    ) -> Result<BasicValueEnum<'c>, Error> {
        let single = matches!(ty, Type::Float(FloatKind::F32));
        let name = format!("__nv_{}{}", func.c_name(), if single { "f" } else { "" });
        if self.math.get().is_none() {
            self.math.set(Some(func.c_name()));
        }
        let t = self.ty(ty)?;
        let params: Vec<BasicMetadataTypeEnum> = args.iter().map(|_| t.into()).collect();
        let f = self.module.get_function(&name).unwrap_or_else(|| {
            self.module
                .add_function(&name, t.fn_type(&params, false), None)
        });
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
