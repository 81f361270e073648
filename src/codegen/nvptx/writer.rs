//! IR → LLVM IR translation for NVPTX: the module, its kernels and their
//! statements (expressions are in `expr.rs`). It only translates: every
//! scheduling decision is already explicit in the IR.
//!
//! Owns: [`translate`] and the `Writer` state. Shapes:
//! * each kernel is a `void` function with the PTX kernel calling convention
//!   (`ptx_kernel`, which LLVM ≥ 20 uses instead of `nvvm.annotations`);
//!   parameters in [`Kernel::params`] order, `Value` ones of the local's type,
//!   `DevicePtr` ones as pointers with `align` (the pointee's C alignment)
//!   and `readonly` when nothing writes through them — the host passes each
//!   as a pointer to a value of that size (`cuLaunchKernel`);
//! * every local is an alloca in the entry block (arrays as array allocas;
//!   `mem2reg` in the pipeline makes scalars registers), parameters are
//!   stored into theirs on entry;
//! * structured statements become basic blocks; `While` has `cond`, `body`,
//!   `step` and `exit` blocks (`continue` → `step`, `break` → `exit`);
//! * when a `Math` call is used, libdevice is linked in, `nvvm-reflect-ftz`
//!   is set to 0 and everything but the kernels is internalised.
//!
//! May call: `ir`.

use super::{Error, Options};
use crate::ir::{Block, Function, Kernel, Module, ParamMode, Stmt, Type};
use inkwell::attributes::{Attribute, AttributeLoc};
use inkwell::basic_block::BasicBlock;
use inkwell::builder::Builder;
use inkwell::context::Context;
use inkwell::module::{FlagBehavior, Linkage};
use inkwell::targets::TargetMachine;
use inkwell::types::{BasicMetadataTypeEnum, BasicType, BasicTypeEnum};
use inkwell::values::{FunctionValue, IntValue, PointerValue};
use inkwell::AddressSpace;
use std::cell::Cell;

/// The PTX kernel calling convention (`ptx_kernel`, `CallingConv::PTX_Kernel`).
const PTX_KERNEL_CC: u32 = 71;

/// Maps an inkwell builder failure to [`Error::Llvm`].
pub(super) fn llvm<T>(r: Result<T, inkwell::builder::BuilderError>) -> Result<T, Error> {
    r.map_err(|e| Error::Llvm(e.to_string()))
}

/// An [`Error::Internal`] (a broken IR invariant).
pub(super) fn internal<T>(what: &str) -> Result<T, Error> {
    Err(Error::Internal(what.to_string()))
}

/// Translates the module into a new LLVM module of `ctx`, with triple and
/// data layout from `tm`, libdevice linked when needed. Not yet optimised.
pub fn translate<'c>(
    ctx: &'c Context,
    m: &Module,
    tm: &TargetMachine,
    o: &Options,
) -> Result<inkwell::module::Module<'c>, Error> {
    let module = ctx.create_module(&m.source);
    module.set_triple(&tm.get_triple());
    module.set_data_layout(&tm.get_target_data().get_data_layout());
    let math: Cell<Option<String>> = Cell::new(None);
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
    if let Some(first) = math.take() {
        let Some(path) = &o.libdevice else {
            return Err(Error::NoLibdevice(first));
        };
        link_libdevice(ctx, &module, tm, path)?;
        internalize(&module, m);
    }
    module.verify().map_err(|e| Error::Llvm(e.to_string()))?;
    Ok(module)
}

/// Links the libdevice bitcode at `path` into `module` and sets
/// `nvvm-reflect-ftz` = 0 (no flush-to-zero, like nvcc's default).
fn link_libdevice<'c>(
    ctx: &'c Context,
    module: &inkwell::module::Module<'c>,
    tm: &TargetMachine,
    path: &std::path::Path,
) -> Result<(), Error> {
    let lib = inkwell::module::Module::parse_bitcode_from_path(path, ctx)
        .map_err(|e| Error::Llvm(format!("cannot read libdevice {}: {e}", path.display())))?;
    lib.set_triple(&tm.get_triple());
    lib.set_data_layout(&tm.get_target_data().get_data_layout());
    module
        .link_in_module(lib)
        .map_err(|e| Error::Llvm(format!("cannot link libdevice {}: {e}", path.display())))?;
    module.add_basic_value_flag(
        "nvvm-reflect-ftz",
        FlagBehavior::Override,
        ctx.i32_type().const_int(0, false),
    );
    Ok(())
}

/// Gives internal linkage to every defined function and global that is not
/// a kernel, so the optimiser may inline and drop them.
fn internalize(module: &inkwell::module::Module, m: &Module) {
    let is_kernel = |name: &str| m.kernels.iter().any(|k| k.name == name);
    let mut f = module.get_first_function();
    while let Some(func) = f {
        let name = func.get_name().to_string_lossy();
        if func.count_basic_blocks() > 0 && !is_kernel(&name) {
            func.set_linkage(Linkage::Internal);
        }
        f = func.get_next_function();
    }
    let mut g = module.get_first_global();
    while let Some(global) = g {
        if global.get_initializer().is_some() {
            global.set_linkage(Linkage::Internal);
        }
        g = global.get_next_global();
    }
}

/// Translation state for one kernel.
pub(super) struct Writer<'a, 'c> {
    /// The LLVM context everything is created in.
    pub ctx: &'c Context,
    /// The module being written.
    pub module: &'a inkwell::module::Module<'c>,
    /// The instruction builder.
    pub b: Builder<'c>,
    /// The kernel body being translated.
    pub f: &'a Function,
    /// The alloca of each local, by [`crate::ir::LocalId`].
    pub locals: Vec<PointerValue<'c>>,
    /// (continue target, break target) of the enclosing loops.
    pub loops: Vec<(BasicBlock<'c>, BasicBlock<'c>)>,
    /// The kernel function, once declared.
    pub func: Option<FunctionValue<'c>>,
    /// The C name of the first math function used (libdevice is linked
    /// when set).
    pub math: &'a Cell<Option<String>>,
}

impl<'a, 'c> Writer<'a, 'c> {
    /// The LLVM type of an IR type (pointers are generic, address space 0).
    pub fn ty(&self, t: &Type) -> Result<BasicTypeEnum<'c>, Error> {
        use crate::ir::{FloatKind, IntKind};
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
                let Ok(n) = u32::try_from(*n) else {
                    return Err(Error::Unsupported(format!(
                        "a private array of {n} elements (at most {} supported)",
                        u32::MAX
                    )));
                };
                self.ty(e)?.array_type(n).into()
            }
            Type::Void => return internal("a value of type void"),
        })
    }

    /// Declares the kernel function, allocates the locals, stores the
    /// parameters and translates the body.
    fn kernel(&mut self, k: &Kernel) -> Result<(), Error> {
        let mut params: Vec<BasicMetadataTypeEnum> = vec![];
        for p in &k.params {
            let Some(l) = self.f.locals.get(p.local.0 as usize) else {
                return internal("parameter bound to a missing local");
            };
            params.push(self.ty(&l.ty)?.into());
        }
        let fn_ty = self.ctx.void_type().fn_type(&params, false);
        let func = self.module.add_function(&k.name, fn_ty, None);
        func.set_call_conventions(PTX_KERNEL_CC);
        for (i, p) in k.params.iter().enumerate() {
            let ParamMode::DevicePtr { read_only } = p.mode else {
                continue;
            };
            let at = AttributeLoc::Param(i as u32);
            let align = self.f.local(p.local).ty.pointee().map_or(1, c_align);
            func.add_attribute(at, self.attr("align", align));
            if read_only {
                func.add_attribute(at, self.attr("readonly", 0));
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

    /// An enum attribute by name.
    fn attr(&self, name: &str, value: u64) -> Attribute {
        self.ctx
            .create_enum_attribute(Attribute::get_named_enum_kind_id(name), value)
    }

    /// The alloca of local number `i`.
    pub fn local_ptr(&self, i: u32) -> Result<PointerValue<'c>, Error> {
        match self.locals.get(i as usize) {
            Some(p) => Ok(*p),
            None => internal("local out of range"),
        }
    }

    /// True when the current block has no terminator yet.
    pub fn open(&self) -> bool {
        self.b
            .get_insert_block()
            .is_some_and(|bb| bb.get_terminator().is_none())
    }

    /// A new basic block at the end of the current function.
    pub fn new_bb(&self, name: &str) -> Result<BasicBlock<'c>, Error> {
        match self.func {
            Some(f) => Ok(self.ctx.append_basic_block(f, name)),
            None => internal("no function"),
        }
    }

    /// The block the builder is in.
    pub fn current(&self) -> Result<BasicBlock<'c>, Error> {
        match self.b.get_insert_block() {
            Some(bb) => Ok(bb),
            None => internal("builder has no block"),
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

    /// A `bool` condition.
    fn cond(&self, e: crate::ir::ExprId) -> Result<IntValue<'c>, Error> {
        self.int(e)
    }

    fn stmt(&mut self, s: &Stmt) -> Result<(), Error> {
        match s {
            Stmt::Assign { local, value } => {
                let v = self.expr(*value)?;
                llvm(self.b.build_store(self.local_ptr(local.0)?, v))?;
            }
            Stmt::Store { ptr, value } => {
                let p = self.ptr(*ptr)?;
                let v = self.expr(*value)?;
                llvm(self.b.build_store(p, v))?;
            }
            Stmt::If {
                cond,
                then,
                otherwise,
            } => {
                let c = self.cond(*cond)?;
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
                let c = self.cond(*cond)?;
                llvm(self.b.build_conditional_branch(c, bb, bx))?;
                self.b.position_at_end(bb);
                self.loops.push((bs, bx));
                self.block(body)?;
                self.loops.pop();
                self.br(bs)?;
                self.b.position_at_end(bs);
                self.block(step)?;
                self.br(bc)?;
                self.b.position_at_end(bx);
            }
            Stmt::Break | Stmt::Continue => {
                let Some(&(cont, brk)) = self.loops.last() else {
                    return internal("break/continue outside a loop");
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
}

/// The C alignment of a type (its size for scalars, the element's for arrays).
fn c_align(t: &Type) -> u64 {
    match t {
        Type::Array(e, _) => c_align(e),
        t => t.size().clamp(1, 8),
    }
}
