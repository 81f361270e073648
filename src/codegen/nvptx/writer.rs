//! IR → LLVM IR translation for NVPTX: the module, its kernels and their
//! statements (expressions are in `expr.rs`). It only translates: every
//! scheduling decision is already explicit in the IR.
//!
//! Owns: [`translate`] and the `Writer` state. Shapes:
//! * each kernel is a `void` function with the PTX kernel calling convention
//!   (`ptx_kernel`, which LLVM ≥ 20 uses instead of `nvvm.annotations`);
//!   parameters in [`Kernel::params`] order, `Value` ones of the local's type,
//!   `DevicePtr` ones as pointers with `align` (the pointee's C alignment)
//!   and `readonly` when nothing writes through them (the
//!   `analysis::ModuleInfo`'s answer), `noalias` when no other pointer of
//!   the kernel reaches their memory (`analysis::own_memory`'s answer,
//!   which says why that holds) — the host passes each
//!   as a pointer to a value of that size (`cuLaunchKernel`);
//! * a kernel's loads and stores of rows of one array that
//!   `analysis::disjoint_parts` keeps apart carry scoped `noalias`
//!   metadata (`alias.rs`): one domain per array, one scope per row;
//! * each device function is an LLVM function of the default calling
//!   convention, declared before any body is written (so calls and recursion
//!   resolve), with the linkage its [`Linkage`] says: internal, external
//!   (`.visible .func`), or an external declaration (`.extern .func`);
//! * every local is an alloca in the entry block (arrays as array allocas,
//!   blobs as arrays of integers of their alignment; `mem2reg` in the
//!   pipeline makes scalars registers), parameters are stored into theirs on
//!   entry;
//! * structured statements become basic blocks; `While` has `cond`, `body`,
//!   `step` and `exit` blocks (`continue` → `step`, `break` → `exit`);
//!   `Switch` is an LLVM `switch` over one block per arm, each falling
//!   through to the next; `Copy` is `llvm.memcpy`;
//! * when a `Math` call is used, libdevice is linked in, `nvvm-reflect-ftz`
//!   is set to 0 (1 with fast math's flush-to-zero, which `fastmath.rs`
//!   also sets on every function) and libdevice's functions are internalised
//!   (`libdevice.rs`).
//!
//! May call: `ir`, `libdevice`, `analysis` (its facts: `ModuleInfo`,
//! `own_memory`, `Parts`).

use super::lines::{Lines, Scope};
use super::{Error, Options};
use crate::analysis::{ModuleInfo, Parts};
use crate::ir::{
    Block, DeviceFunction, Function, Kernel, Linkage, Module, ParamMode, SrcLoc, Stmt, ThreadBound,
    Type,
};
use inkwell::attributes::{Attribute, AttributeLoc};
use inkwell::basic_block::BasicBlock;
use inkwell::builder::Builder;
use inkwell::context::Context;
use inkwell::module::Linkage as Linkage_;
use inkwell::targets::TargetMachine;
use inkwell::types::{BasicMetadataTypeEnum, BasicType, BasicTypeEnum};
use inkwell::values::{BasicValue, BasicValueEnum, FunctionValue, IntValue, PointerValue};
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
    info: &ModuleInfo,
    parts: &[Parts],
    tm: &TargetMachine,
    o: &Options,
) -> Result<inkwell::module::Module<'c>, Error> {
    let module = ctx.create_module(&m.source);
    module.set_triple(&tm.get_triple());
    module.set_data_layout(&tm.get_target_data().get_data_layout());
    let math: Cell<Option<String>> = Cell::new(None);
    let lines = o
        .line_info
        .then(|| Lines::new(ctx, &module, &m.source, o.opt_level > 0));
    let mut fns = vec![];
    for f in &m.functions {
        fns.push(declare_function(ctx, &module, f)?);
    }
    // Cells: visible pointer-sized globals the runtime writes (never
    // constant-folded: externally initialised).
    let mut cells = vec![];
    for c in &m.cells {
        let t = ctx.ptr_type(AddressSpace::default());
        let g = module.add_global(t, Some(AddressSpace::from(1u16)), &c.symbol);
        g.set_initializer(&t.const_null());
        g.set_externally_initialized(true);
        g.set_alignment(8);
        cells.push(g);
    }
    let shared = Shared {
        ctx,
        module: &module,
        fns: &fns,
        cells: &cells,
        math: &math,
        contract: o.fma,
        fast: o.fast,
        lines: lines.as_ref(),
    };
    for (f, &func) in m.functions.iter().zip(&fns) {
        if f.linkage != Linkage::Import {
            let params: Vec<u32> = f.params.iter().map(|p| p.0).collect();
            Writer::new(&shared, &f.body, Some(func), f.ret.clone()).body(&params, &f.loc)?;
        }
    }
    for (i, k) in m.kernels.iter().enumerate() {
        let read_only: Vec<bool> = (0..k.params.len()).map(|p| info.read_only(i, p)).collect();
        let own = crate::analysis::own_memory(m, k);
        let mut w = Writer::new(&shared, &k.body, None, Type::Void);
        if let Some(p) = parts.get(i) {
            w.rows = super::alias::Rows::new(ctx, &k.name, p);
        }
        w.kernel(k, &read_only, &own)?;
    }
    if let Some(l) = &lines {
        l.finish();
    }
    if let Some(first) = math.take() {
        let Some(path) = &o.libdevice else {
            return Err(Error::NoLibdevice(first));
        };
        super::libdevice::link_libdevice(ctx, &module, tm, path, o.fast.ftz)?;
        super::libdevice::internalize(&module, m);
    }
    super::fastmath::flush_to_zero(ctx, &module, o.fast.ftz);
    module.verify().map_err(|e| Error::Llvm(e.to_string()))?;
    Ok(module)
}

/// Declares device function `f` with the linkage its IR says.
fn declare_function<'c>(
    ctx: &'c Context,
    module: &inkwell::module::Module<'c>,
    f: &DeviceFunction,
) -> Result<FunctionValue<'c>, Error> {
    let mut params: Vec<BasicMetadataTypeEnum> = vec![];
    for p in &f.params {
        let Some(l) = f.body.locals.get(p.0 as usize) else {
            return internal("parameter bound to a missing local");
        };
        params.push(basic_type(ctx, &l.ty)?.into());
    }
    let fn_ty = match &f.ret {
        Type::Void => ctx.void_type().fn_type(&params, false),
        t => basic_type(ctx, t)?.fn_type(&params, false),
    };
    if module.get_function(&f.name).is_some() {
        return internal(&format!("device function {} declared twice", f.name));
    }
    let linkage = match f.linkage {
        Linkage::Internal => Linkage_::Internal,
        Linkage::Export | Linkage::Import => Linkage_::External,
    };
    Ok(module.add_function(&f.name, fn_ty, Some(linkage)))
}

/// What every [`Writer`] of one module shares.
struct Shared<'a, 'c> {
    ctx: &'c Context,
    module: &'a inkwell::module::Module<'c>,
    fns: &'a [FunctionValue<'c>],
    cells: &'a [inkwell::values::GlobalValue<'c>],
    math: &'a Cell<Option<String>>,
    contract: bool,
    fast: super::FastMath,
    lines: Option<&'a Lines<'c>>,
}

/// Translation state for one kernel or device function.
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
    /// `continue` targets of the enclosing loops.
    pub continues: Vec<BasicBlock<'c>>,
    /// `break` targets of the enclosing loops and switches.
    pub breaks: Vec<BasicBlock<'c>>,
    /// The LLVM function being written, once declared.
    pub func: Option<FunctionValue<'c>>,
    /// Its result type (`Void` for kernels).
    pub ret: Type,
    /// The device functions of the module, by index.
    pub fns: &'a [FunctionValue<'c>],
    /// The device address cells of the module, by index.
    pub cells: &'a [inkwell::values::GlobalValue<'c>],
    /// The C name of the first math function used (libdevice is linked
    /// when set).
    pub math: &'a Cell<Option<String>>,
    /// [`Options::fma`]: floating `+ - *` and negation carry `contract`.
    pub contract: bool,
    /// [`Options::fast`]: which single-precision math is relaxed.
    pub fast: super::FastMath,
    /// The scoped `noalias` metadata of the kernel's row accesses.
    pub rows: super::alias::Rows<'c>,
    /// [`Options::line_info`]: the module's line information, the
    /// function's scope in it, and the location of the statement being
    /// written (`lines.rs`).
    pub lines: Option<&'a Lines<'c>>,
    pub scope: Option<Scope>,
    pub here: Option<inkwell::llvm_sys::prelude::LLVMMetadataRef>,
}

/// The LLVM type of an IR type (pointers are generic, address space 0).
fn basic_type<'c>(ctx: &'c Context, t: &Type) -> Result<BasicTypeEnum<'c>, Error> {
    use crate::ir::{FloatKind, IntKind};
    let count = |n: u64| {
        u32::try_from(n).map_err(|_| {
            Error::Unsupported(format!(
                "a private array or struct of {n} elements (at most {} supported)",
                u32::MAX
            ))
        })
    };
    Ok(match t {
        Type::Int(IntKind::Bool) => ctx.bool_type().into(),
        Type::Int(IntKind::I8 | IntKind::U8) => ctx.i8_type().into(),
        Type::Int(IntKind::I16 | IntKind::U16) => ctx.i16_type().into(),
        Type::Int(IntKind::I32 | IntKind::U32) => ctx.i32_type().into(),
        Type::Int(IntKind::I64 | IntKind::U64) => ctx.i64_type().into(),
        Type::Float(FloatKind::F32) => ctx.f32_type().into(),
        Type::Float(FloatKind::F64) => ctx.f64_type().into(),
        Type::Ptr(_) => ctx.ptr_type(AddressSpace::default()).into(),
        Type::Array(e, n) => basic_type(ctx, e)?.array_type(count(*n)?).into(),
        Type::Blob { size, align } => {
            // (Over-aligned structs, GNU `aligned(32)`: 16-byte units.)
            let (unit, bytes) = match align {
                1 => (ctx.i8_type(), 1),
                2 => (ctx.i16_type(), 2),
                4 => (ctx.i32_type(), 4),
                8 => (ctx.i64_type(), 8),
                a if *a >= 16 && a.is_power_of_two() => (ctx.i128_type(), 16),
                _ => return internal(&format!("blob alignment {align}")),
            };
            unit.array_type(count(size / bytes)?).into()
        }
        Type::Void => return internal("a value of type void"),
    })
}

impl<'a, 'c> Writer<'a, 'c> {
    /// A writer for body `f` of LLVM function `func` (a kernel declares its
    /// own) returning `ret`.
    fn new(
        s: &Shared<'a, 'c>,
        f: &'a Function,
        func: Option<FunctionValue<'c>>,
        ret: Type,
    ) -> Self {
        Writer {
            ctx: s.ctx,
            module: s.module,
            b: s.ctx.create_builder(),
            f,
            locals: vec![],
            continues: vec![],
            breaks: vec![],
            func,
            ret,
            fns: s.fns,
            cells: s.cells,
            math: s.math,
            contract: s.contract,
            fast: s.fast,
            rows: super::alias::Rows::default(),
            lines: s.lines,
            scope: None,
            here: None,
        }
    }

    /// The LLVM type of an IR type (pointers are generic, address space 0).
    pub fn ty(&self, t: &Type) -> Result<BasicTypeEnum<'c>, Error> {
        basic_type(self.ctx, t)
    }

    /// Allocates the locals of the function being written, stores the
    /// parameters (the locals numbered `params`, in order) and translates
    /// the body; `loc`: where the function is.
    fn body(&mut self, params: &[u32], loc: &SrcLoc) -> Result<(), Error> {
        let Some(func) = self.func else {
            return internal("no function to write");
        };
        let entry = self.ctx.append_basic_block(func, "entry");
        self.b.position_at_end(entry);
        self.begin_lines(func, loc);
        for (i, l) in self.f.locals.iter().enumerate() {
            let t = self.ty(&l.ty)?;
            let a = llvm(self.b.build_alloca(t, &format!("l{i}.{}", l.name)))?;
            self.locals.push(a);
        }
        for (i, p) in params.iter().enumerate() {
            let Some(v) = func.get_nth_param(i as u32) else {
                return internal("missing parameter");
            };
            llvm(self.b.build_store(self.local_ptr(*p)?, v))?;
        }
        self.block(&self.f.body)?;
        if self.open() {
            if self.ret == Type::Void {
                llvm(self.b.build_return(None))?;
            } else {
                // Falling off the end of a value-returning function: C makes
                // using the result undefined; return anything.
                let t = self.ty(&self.ret)?;
                llvm(self.b.build_return(Some(&t.const_zero())))?;
            }
        }
        Ok(())
    }

    /// Declares the kernel function, then writes it as [`Self::body`];
    /// `read_only[i]`: nothing writes through parameter `i`; `own[i]`: no
    /// other pointer of the kernel reaches its memory (`noalias`).
    fn kernel(&mut self, k: &Kernel, read_only: &[bool], own: &[bool]) -> Result<(), Error> {
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
        // `ir::ThreadBound`: no launch the runtime makes lacks registers.
        let (name, value) = match k.thread_bound() {
            ThreadBound::Block([x, y, z]) => ("nvvm.maxntid", format!("{x},{y},{z}")),
            ThreadBound::Registers(n) => ("nvvm.maxnreg", n.to_string()),
        };
        func.add_attribute(
            AttributeLoc::Function,
            self.ctx.create_string_attribute(name, &value),
        );
        for (i, p) in k.params.iter().enumerate() {
            if p.mode != ParamMode::DevicePtr {
                continue;
            }
            let at = AttributeLoc::Param(i as u32);
            let align = self.f.local(p.local).ty.pointee().map_or(1, Type::align);
            func.add_attribute(at, self.attr("align", align));
            if read_only.get(i).copied().unwrap_or(false) {
                func.add_attribute(at, self.attr("readonly", 0));
            }
            if own.get(i).copied().unwrap_or(false) {
                func.add_attribute(at, self.attr("noalias", 0));
            }
        }
        self.func = Some(func);
        let params: Vec<u32> = k.params.iter().map(|p| p.local.0).collect();
        self.body(&params, &k.loc)
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

    /// One statement, at its source line when there is line information.
    fn stmt(&mut self, s: &Stmt) -> Result<(), Error> {
        let outer = self.enter(s);
        let r = self.stmt_at(s);
        self.leave(outer);
        r
    }

    fn stmt_at(&mut self, s: &Stmt) -> Result<(), Error> {
        match s {
            Stmt::Assign { local, value } => {
                let v = self.expr(*value)?;
                llvm(self.b.build_store(self.local_ptr(local.0)?, v))?;
            }
            Stmt::Store { ptr, value } => {
                let p = self.ptr(*ptr)?;
                let v = self.expr(*value)?;
                let st = llvm(self.b.build_store(p, v))?;
                self.rows.mark(self.ctx, *ptr, st)?;
            }
            Stmt::If {
                cond,
                then,
                otherwise,
                ..
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
                self.continues.push(bs);
                self.breaks.push(bx);
                self.block(body)?;
                self.continues.pop();
                self.br(bs)?;
                self.b.position_at_end(bs);
                self.block(step)?;
                self.breaks.pop();
                self.br(bc)?;
                self.b.position_at_end(bx);
            }
            Stmt::Switch { value, arms } => self.switch(*value, arms)?,
            Stmt::Break => {
                let Some(&to) = self.breaks.last() else {
                    return internal("break outside a loop or switch");
                };
                self.br(to)?;
            }
            Stmt::Continue => {
                let Some(&to) = self.continues.last() else {
                    return internal("continue outside a loop");
                };
                self.br(to)?;
            }
            Stmt::Return(v) => {
                let v = match v {
                    Some(v) => Some(self.expr(*v)?),
                    None => None,
                };
                if self.open() {
                    llvm(
                        self.b
                            .build_return(v.as_ref().map(|v| v as &dyn BasicValue)),
                    )?;
                }
            }
            Stmt::Call {
                func, args, result, ..
            } => {
                let Some(&callee) = self.fns.get(*func) else {
                    return internal("call of a missing function");
                };
                let mut vals = vec![];
                for a in args {
                    vals.push(self.expr(*a)?.into());
                }
                let call = llvm(self.b.build_call(callee, &vals, "call"))?;
                if let Some(r) = result {
                    let Some(v) = call.try_as_basic_value().basic() else {
                        return internal("result of a void call used");
                    };
                    llvm(self.b.build_store(self.local_ptr(r.0)?, v))?;
                }
            }
            Stmt::Copy { dst, src, bytes } => {
                let (d, s) = (self.ptr(*dst)?, self.ptr(*src)?);
                let n = self.ctx.i64_type().const_int(*bytes, false);
                llvm(self.b.build_memcpy(d, 1, s, 1, n).map(|_| ()))?;
            }
            Stmt::Print { format, args } => self.print(format, args)?,
            Stmt::Barrier(scope) => self.barrier(*scope)?,
            Stmt::Fence => {
                let f = self.intrinsic_fn("llvm.nvvm.membar.gl")?;
                llvm(self.b.build_call(f, &[], ""))?;
            }
            Stmt::AtomicRmw {
                op,
                ptr,
                value,
                old,
            } => self.atomic_rmw(*op, *ptr, *value, *old)?,
            Stmt::AtomicCas {
                ptr,
                expected,
                desired,
                old,
                ok,
            } => self.atomic_cas(*ptr, *expected, *desired, *old, *ok)?,
            Stmt::AtomicLoad { ptr, dst } => self.atomic_load(*ptr, *dst)?,
            Stmt::AtomicStore { ptr, value } => self.atomic_store(*ptr, *value)?,
            Stmt::Block(b) => self.block(b)?,
            Stmt::Loop(_) => return internal("counted loop reached the back end unscheduled"),
            Stmt::Single(_) | Stmt::Broadcast { .. } => {
                return internal("single-thread code reached the back end unresolved")
            }
        }
        Ok(())
    }
}

impl<'c> Writer<'_, 'c> {
    /// An intrinsic by name (declared on first use).
    fn intrinsic_fn(&self, name: &str) -> Result<FunctionValue<'c>, Error> {
        let Some(i) = inkwell::intrinsics::Intrinsic::find(name) else {
            return internal(&format!("LLVM has no intrinsic {name}"));
        };
        match i.get_declaration(self.module, &[]) {
            Some(f) => Ok(f),
            None => internal(&format!("cannot declare {name}")),
        }
    }

    /// A launch register (`u32`) as an LLVM value.
    fn sreg(&self, s: crate::ir::Special) -> Result<IntValue<'c>, Error> {
        let (reg, d) = match s {
            crate::ir::Special::ThreadIdx(d) => ("tid", d),
            crate::ir::Special::BlockIdx(d) => ("ctaid", d),
            crate::ir::Special::BlockDim(d) => ("ntid", d),
            crate::ir::Special::GridDim(d) => ("nctaid", d),
            crate::ir::Special::Performs(_) | crate::ir::Special::OnDevice(_) => return internal(
                "'performs' or 'on_device' reached the back end unresolved (schedule resolves it)",
            ),
        };
        let dim = ["x", "y", "z"].get(usize::from(d)).copied().unwrap_or("x");
        let f = self.intrinsic_fn(&format!("llvm.nvvm.read.ptx.sreg.{reg}.{dim}"))?;
        match llvm(self.b.build_call(f, &[], reg))?
            .try_as_basic_value()
            .basic()
        {
            Some(BasicValueEnum::IntValue(v)) => Ok(v),
            _ => internal("special register read returned no integer"),
        }
    }

    /// A barrier: block-wide `barrier.sync.aligned 0`; for a row (threads
    /// sharing tid.y and tid.z) a named barrier `1 + tid.y + tid.z * ntid.y`
    /// of `ntid.x` threads when ntid.x is a multiple of 32 (and there are at
    /// most 15 rows), a `bar.warp.sync` of the row's lanes when ntid.x divides
    /// 32, else nothing.
    fn barrier(&mut self, scope: crate::ir::BarrierScope) -> Result<(), Error> {
        use crate::ir::Special::{BlockDim, ThreadIdx};
        let i32t = self.ctx.i32_type();
        if scope == crate::ir::BarrierScope::Block {
            let f = self.intrinsic_fn("llvm.nvvm.barrier.cta.sync.aligned.all")?;
            llvm(self.b.build_call(f, &[i32t.const_zero().into()], ""))?;
            return Ok(());
        }
        let (nx, ny, nz) = (
            self.sreg(BlockDim(0))?,
            self.sreg(BlockDim(1))?,
            self.sreg(BlockDim(2))?,
        );
        let (tx, ty, tz) = (
            self.sreg(ThreadIdx(0))?,
            self.sreg(ThreadIdx(1))?,
            self.sreg(ThreadIdx(2))?,
        );
        let c = |v: u64| i32t.const_int(v, false);
        let b = &self.b;
        let rows = llvm(b.build_int_mul(ny, nz, "rows"))?;
        let rem = llvm(b.build_int_unsigned_rem(nx, c(32), "rem"))?;
        let whole_warps = llvm(b.build_int_compare(inkwell::IntPredicate::EQ, rem, c(0), "ww"))?;
        let few_rows = llvm(b.build_int_compare(inkwell::IntPredicate::ULE, rows, c(15), "fr"))?;
        let named = llvm(b.build_and(whole_warps, few_rows, "named"))?;
        let (b_named, b_other, b_warp, b_end) = (
            self.new_bb("bar.named")?,
            self.new_bb("bar.other")?,
            self.new_bb("bar.warp")?,
            self.new_bb("bar.end")?,
        );
        llvm(self.b.build_conditional_branch(named, b_named, b_other))?;
        // Named barrier 1 + row of ntid.x threads.
        self.b.position_at_end(b_named);
        let row = llvm(self.b.build_int_add(
            ty,
            llvm(self.b.build_int_mul(tz, ny, "tzny"))?,
            "row",
        ))?;
        let id = llvm(self.b.build_int_add(row, c(1), "id"))?;
        let f = self.intrinsic_fn("llvm.nvvm.barrier.cta.sync.count")?;
        llvm(self.b.build_call(f, &[id.into(), nx.into()], ""))?;
        llvm(self.b.build_unconditional_branch(b_end))?;
        // A row inside one warp: sync its lanes.
        self.b.position_at_end(b_other);
        let r32 = llvm(self.b.build_int_unsigned_rem(c(32), nx, "r32"))?;
        let divides = llvm(
            self.b
                .build_int_compare(inkwell::IntPredicate::EQ, r32, c(0), "div"),
        )?;
        llvm(self.b.build_conditional_branch(divides, b_warp, b_end))?;
        self.b.position_at_end(b_warp);
        let linear =
            llvm(self.b.build_int_add(
                tx,
                llvm(
                    self.b.build_int_mul(
                        nx,
                        llvm(self.b.build_int_add(
                            ty,
                            llvm(self.b.build_int_mul(tz, ny, "a"))?,
                            "b",
                        ))?,
                        "c",
                    ),
                )?,
                "lin",
            ))?;
        let lane = llvm(self.b.build_int_unsigned_rem(linear, c(32), "lane"))?;
        let base = llvm(self.b.build_int_sub(lane, tx, "base"))?;
        // ((1 << nx) - 1) << base, in 64 bits so nx = 32 does not overflow.
        let i64t = self.ctx.i64_type();
        let one = i64t.const_int(1, false);
        let nx64 = llvm(self.b.build_int_z_extend(nx, i64t, "nx64"))?;
        let ones = llvm(self.b.build_int_sub(
            llvm(self.b.build_left_shift(one, nx64, "s"))?,
            one,
            "ones",
        ))?;
        let base64 = llvm(self.b.build_int_z_extend(base, i64t, "b64"))?;
        let mask64 = llvm(self.b.build_left_shift(ones, base64, "m64"))?;
        let mask = llvm(self.b.build_int_truncate(mask64, i32t, "mask"))?;
        let f = self.intrinsic_fn("llvm.nvvm.bar.warp.sync")?;
        llvm(self.b.build_call(f, &[mask.into()], ""))?;
        llvm(self.b.build_unconditional_branch(b_end))?;
        self.b.position_at_end(b_end);
        Ok(())
    }

    /// A device `printf`: CUDA's `vprintf(format, buffer)`, the format a
    /// private constant string, the arguments stored in a struct of their
    /// types (natural alignment, as the driver reads them) allocated in the
    /// entry block.
    fn print(&mut self, format: &[u8], args: &[crate::ir::ExprId]) -> Result<(), Error> {
        let bytes = self.ctx.const_string(format, true);
        let g = self.module.add_global(bytes.get_type(), None, "fmt");
        g.set_initializer(&bytes);
        g.set_constant(true);
        g.set_linkage(Linkage_::Private);
        g.set_unnamed_addr(true);
        let mut vals = vec![];
        for a in args {
            vals.push(self.expr(*a)?);
        }
        let ptr_t = self.ctx.ptr_type(AddressSpace::default());
        let buf = if vals.is_empty() {
            ptr_t.const_null()
        } else {
            let types: Vec<BasicTypeEnum> = vals.iter().map(|v| v.get_type()).collect();
            let st = self.ctx.struct_type(&types, false);
            let Some(entry) = self.func.and_then(|f| f.get_first_basic_block()) else {
                return internal("print outside a function");
            };
            let at = self.ctx.create_builder();
            match entry.get_first_instruction() {
                Some(i) => at.position_before(&i),
                None => at.position_at_end(entry),
            }
            let buf = llvm(at.build_alloca(st, "printf.args"))?;
            for (k, v) in vals.iter().enumerate() {
                let slot = llvm(self.b.build_struct_gep(st, buf, k as u32, "printf.arg"))?;
                llvm(self.b.build_store(slot, *v))?;
            }
            buf
        };
        let vprintf = match self.module.get_function("vprintf") {
            Some(f) => f,
            None => {
                let t = self
                    .ctx
                    .i32_type()
                    .fn_type(&[ptr_t.into(), ptr_t.into()], false);
                self.module.add_function("vprintf", t, None)
            }
        };
        llvm(self.b.build_call(
            vprintf,
            &[g.as_pointer_value().into(), buf.into()],
            "printf",
        ))?;
        Ok(())
    }

    /// A `switch`: one block per arm, in order, each falling through into
    /// the next; unmatched values go to the `default` arm or past the end.
    fn switch(
        &mut self,
        value: crate::ir::ExprId,
        arms: &[crate::ir::SwitchArm],
    ) -> Result<(), Error> {
        let v = self.int(value)?;
        let t = v.get_type();
        let exit = self.new_bb("sw.end")?;
        let mut blocks = vec![];
        for _ in arms {
            blocks.push(self.new_bb("sw.arm")?);
        }
        let default = arms
            .iter()
            .position(|a| a.default)
            .map_or(exit, |i| blocks[i]);
        let mut cases = vec![];
        let mut seen = std::collections::HashSet::new();
        for (a, bb) in arms.iter().zip(&blocks) {
            for &c in &a.values {
                // Two's-complement bits of the value, truncated to the type.
                let bits = t.get_bit_width();
                let mask = if bits >= 64 {
                    u64::MAX
                } else {
                    (1u64 << bits) - 1
                };
                let c = (c as u64) & mask;
                if seen.insert(c) {
                    cases.push((t.const_int(c, false), *bb));
                }
            }
        }
        llvm(self.b.build_switch(v, default, &cases))?;
        self.breaks.push(exit);
        for (i, a) in arms.iter().enumerate() {
            self.b.position_at_end(blocks[i]);
            self.block(&a.body)?;
            self.br(blocks.get(i + 1).copied().unwrap_or(exit))?;
        }
        self.breaks.pop();
        self.b.position_at_end(exit);
        Ok(())
    }
}
