//! One function body → bytecode: where each local lives, and the
//! statements (structured control flow lowered to jumps).
//!
//! Owns: [`W`] (the writer of one function), [`function`], [`kernel`] and
//! the statement half of the translation; expressions are in `expr.rs`.
//! Shapes: `If` is a conditional jump over the then-block and a jump over
//! the else-block; `While` is `top: cond; brifnot exit; body; step:
//! step; jmp top; exit:` (`continue` → step, `break` → exit); `Switch` is
//! a jump table over its arms laid out in order (falling through); the
//! row barrier expands as the NVPTX writer's does (named barrier
//! `1 + tid.y + tid.z * ntid.y` of `ntid.x` threads when `ntid.x` is a
//! multiple of 32 and there are at most 15 rows; else a warp sync of the
//! row's lanes when `ntid.x` divides 32; else nothing).
//! May call: `ir`, `ptxrt_simt`, [`super::render`].

use super::render::Render;
use super::{internal, Error};
use crate::ir::{
    BarrierScope, Block, DeviceFunction, Expr, Function, IntKind, Kernel, Linkage, Module, Stmt,
    Type,
};
use ptxrt_simt::{self as simt, BinOp, CmpOp, Inst, Reg, Site, Sreg, Table, Ty};
use std::collections::HashMap;

/// Where an IR local lives.
#[derive(Clone, Debug)]
pub(super) enum Slot {
    /// In a register holding a value of this type.
    Reg(Reg, Ty),
    /// At `offset` of the frame (arrays, structs, addressed scalars).
    Mem { offset: u32, ty: Type },
    /// A `void` local (never read).
    Nothing,
}

/// The bytecode type of an IR value type.
pub(super) fn ty(t: &Type) -> Result<Ty, Error> {
    Ok(match t {
        Type::Int(k) => match k {
            IntKind::Bool => Ty::B1,
            IntKind::I8 => Ty::I8,
            IntKind::U8 => Ty::U8,
            IntKind::I16 => Ty::I16,
            IntKind::U16 => Ty::U16,
            IntKind::I32 => Ty::I32,
            IntKind::U32 => Ty::U32,
            IntKind::I64 => Ty::I64,
            IntKind::U64 => Ty::U64,
        },
        Type::Float(crate::ir::FloatKind::F32) => Ty::F32,
        Type::Float(crate::ir::FloatKind::F64) => Ty::F64,
        Type::Ptr(_) => Ty::Ptr,
        t => return internal(format!("a value of type {t}")),
    })
}

fn u32_of(n: u64, what: &str) -> Result<u32, Error> {
    u32::try_from(n).map_err(|_| Error(format!("{what} of {n} bytes (at most 4 GiB)")))
}

/// The writer of one function.
pub(super) struct W<'a> {
    pub m: &'a Module,
    pub f: &'a Function,
    pub out: simt::Function,
    pub slots: Vec<Slot>,
    /// Byte offset of each shared array.
    pub shared_at: Vec<u32>,
    /// First temporary register; `next` is the next free one.
    temp_base: u32,
    pub next: u32,
    breaks: Vec<Vec<usize>>,
    continues: Vec<Vec<usize>>,
    kernel: bool,
    /// Line of the sites (0: the kernel's line is named instead).
    line: u32,
    /// Prefix of site texts ("in f: ").
    prefix: String,
    sites: HashMap<String, u32>,
    /// The compiler temporaries the site texts see through.
    temps: HashMap<u32, crate::ir::ExprId>,
    /// The code length right after the last join of two paths that both
    /// write one register (a `Select` or `Logical` value).
    pub joined: Option<usize>,
    /// Locals that hold one constant all along, with its expression.
    pub consts: HashMap<u32, crate::ir::ExprId>,
    /// Contract floating multiply-adds ([`super::Options::fma`]).
    pub fma: bool,
}

impl<'a> W<'a> {
    fn new(
        m: &'a Module,
        f: &'a Function,
        name: &str,
        linkage: simt::Linkage,
        fma: bool,
    ) -> Result<Self, Error> {
        let mut w = W {
            m,
            f,
            out: simt::Function::new(name, linkage),
            slots: vec![],
            shared_at: vec![],
            temp_base: 0,
            next: 0,
            breaks: vec![],
            continues: vec![],
            kernel: false,
            line: 0,
            prefix: String::new(),
            sites: HashMap::new(),
            temps: super::render::temps(f),
            joined: None,
            consts: HashMap::new(),
            fma,
        };
        w.layout()?;
        Ok(w)
    }

    /// Places every local (register or frame) and every shared array.
    fn layout(&mut self) -> Result<(), Error> {
        let mut addressed = vec![false; self.f.locals.len()];
        for e in &self.f.exprs {
            if let Expr::LocalAddr(l) = e {
                if let Some(a) = addressed.get_mut(l.0 as usize) {
                    *a = true;
                }
            }
        }
        let mut regs = 0u32;
        let mut frame = 0u64;
        for (i, l) in self.f.locals.iter().enumerate() {
            let slot = match &l.ty {
                Type::Void => Slot::Nothing,
                t @ (Type::Array(..) | Type::Blob { .. }) => {
                    frame = frame.next_multiple_of(t.align().max(1));
                    let offset = u32_of(frame, "a private object")?;
                    frame += t.size();
                    Slot::Mem {
                        offset,
                        ty: t.clone(),
                    }
                }
                t if addressed[i] => {
                    frame = frame.next_multiple_of(t.align().max(1));
                    let offset = u32_of(frame, "a private object")?;
                    frame += t.size();
                    Slot::Mem {
                        offset,
                        ty: t.clone(),
                    }
                }
                t => {
                    regs += 1;
                    self.out.reg_names.push((regs - 1, l.name.clone()));
                    Slot::Reg(regs - 1, ty(t)?)
                }
            };
            self.slots.push(slot);
        }
        self.out.frame_bytes = u32_of(frame.next_multiple_of(16), "the local frame")?;
        let mut shared = 0u64;
        for t in &self.f.shared {
            shared = shared.next_multiple_of(16);
            self.shared_at.push(u32_of(shared, "shared memory")?);
            shared += t.size();
        }
        self.out.shared_bytes = u32_of(shared, "shared memory")?;
        self.temp_base = regs;
        self.next = regs;
        self.out.nregs = regs;
        Ok(())
    }

    /// The slot of parameter local `l`.
    fn param_slot(&self, l: u32) -> Result<simt::Slot, Error> {
        match self.slots.get(l as usize) {
            Some(Slot::Reg(r, t)) => Ok(simt::Slot::Reg(*r, *t)),
            Some(Slot::Mem { offset, ty }) => Ok(simt::Slot::Frame {
                offset: *offset,
                size: u32_of(ty.size(), "a parameter")?,
            }),
            _ => internal("a parameter without a slot"),
        }
    }

    /// A new temporary register.
    pub fn temp(&mut self) -> Reg {
        let r = self.next;
        self.next += 1;
        self.out.nregs = self.out.nregs.max(self.next);
        r
    }

    /// Appends an instruction; its index.
    pub fn emit(&mut self, i: Inst) -> usize {
        self.out.code.push(i);
        self.out.code.len() - 1
    }

    /// The index the next instruction will have.
    pub fn pc(&self) -> u32 {
        self.out.code.len() as u32
    }

    /// Points the jump at `at` to `to`.
    pub fn patch(&mut self, at: usize, to: u32) {
        match &mut self.out.code[at] {
            Inst::Jump { to: t }
            | Inst::BranchIf { to: t, .. }
            | Inst::BranchIfNot { to: t, .. }
            | Inst::BrCmpNot { to: t, .. } => *t = to,
            _ => {}
        }
    }

    /// The site of an instruction described by `text`.
    pub fn site(&mut self, text: &str) -> u32 {
        let text = super::render::cut(format!("{}{text}", self.prefix));
        if let Some(&s) = self.sites.get(&text) {
            return s;
        }
        let s = self.out.sites.len() as u32;
        self.out.sites.push(Site {
            line: self.line,
            col: 0,
            text: text.clone(),
        });
        self.sites.insert(text, s);
        s
    }

    /// The renderer of this function's expressions.
    pub fn render(&self) -> Render<'_> {
        Render {
            f: self.f,
            m: self.m,
            temps: &self.temps,
        }
    }

    /// A constant in a new temporary.
    pub fn konst(&mut self, bits: u64) -> Reg {
        let d = self.temp();
        self.emit(Inst::Const { dst: d, bits });
        d
    }

    fn block(&mut self, b: &Block) -> Result<(), Error> {
        for s in b {
            self.stmt(s)?;
        }
        Ok(())
    }

    /// Stores register `v` into local `l`.
    pub fn assign(&mut self, l: u32, v: Reg) -> Result<(), Error> {
        match self.slots.get(l as usize).cloned() {
            Some(Slot::Reg(r, _)) => {
                if r != v && !self.retarget(v, r) {
                    self.emit(Inst::Mov { dst: r, src: v });
                }
                Ok(())
            }
            Some(Slot::Mem { offset, ty: t }) => {
                let t = ty(&t)?;
                let a = self.temp();
                self.emit(Inst::LocalAddr { dst: a, offset });
                let name = self.f.locals[l as usize].name.clone();
                let site = self.site(&format!("store to {name}"));
                self.emit(Inst::Store {
                    ty: t,
                    addr: a,
                    src: v,
                    site,
                });
                Ok(())
            }
            _ => internal(format!("assignment to local %{l}")),
        }
    }

    /// Makes the last instruction write `to` instead of the temporary
    /// `from` when it alone computed `from` (a value not made by jumps:
    /// the caller's value was just evaluated, and nothing jumps past the
    /// last instruction, which ends no block). Saves the emulator a move.
    fn retarget(&mut self, from: Reg, to: Reg) -> bool {
        if from < self.temp_base || self.joined == Some(self.out.code.len()) {
            return false;
        }
        let Some(last) = self.out.code.last_mut() else {
            return false;
        };
        let dst = match last {
            Inst::Const { dst, .. }
            | Inst::Bin { dst, .. }
            | Inst::BinImm { dst, .. }
            | Inst::CmpImm { dst, .. }
            | Inst::Cmp { dst, .. }
            | Inst::Un { dst, .. }
            | Inst::Cvt { dst, .. }
            | Inst::PtrAdd { dst, .. }
            | Inst::Sreg { dst, .. }
            | Inst::LocalAddr { dst, .. }
            | Inst::SharedAddr { dst, .. }
            | Inst::GlobalAddr { dst, .. }
            | Inst::Load { dst, .. }
            | Inst::Math { dst, .. }
            | Inst::Fma { dst, .. }
            | Inst::Shfl { dst, .. } => dst,
            _ => return false,
        };
        if *dst != from {
            return false;
        }
        *dst = to;
        true
    }

    /// The register an instruction may write local `l`'s new value to
    /// (its own, or a temporary to [`W::assign`] from afterwards).
    pub fn target(&mut self, l: u32) -> Reg {
        match self.slots.get(l as usize) {
            Some(Slot::Reg(r, _)) => *r,
            _ => self.temp(),
        }
    }

    fn stmt(&mut self, s: &Stmt) -> Result<(), Error> {
        // Temporaries live for one statement.
        self.next = self.temp_base;
        match s {
            // A constant local is read as its constant: nothing to store.
            Stmt::Assign { local, .. } if self.consts.contains_key(&local.0) => {}
            Stmt::Assign { local, value } => {
                let v = self.expr(*value)?;
                self.assign(local.0, v)?;
            }
            Stmt::Store { ptr, value } => {
                let t = ty(self.f.ty(*value))?;
                let text = format!("store to {}", self.render().place(*ptr));
                let p = self.expr(*ptr)?;
                let v = self.expr(*value)?;
                let site = self.site(&text);
                self.emit(Inst::Store {
                    ty: t,
                    addr: p,
                    src: v,
                    site,
                });
            }
            Stmt::If {
                cond,
                then,
                otherwise,
                ..
            } => match self.constant(*cond) {
                // A constant condition: only the branch taken.
                Some(c) => self.block(if c != 0 { then } else { otherwise })?,
                None => {
                    let to_else = self.branch_unless(*cond)?;
                    self.block(then)?;
                    let to_end = (!otherwise.is_empty()).then(|| self.emit(Inst::Jump { to: 0 }));
                    let else_at = self.pc();
                    self.patch(to_else, else_at);
                    self.block(otherwise)?;
                    let end = self.pc();
                    if let Some(j) = to_end {
                        self.patch(j, end);
                    }
                }
            },
            Stmt::While { cond, body, step } => {
                let top = self.pc();
                let exit = self.branch_unless(*cond)?;
                self.breaks.push(vec![exit]);
                self.continues.push(vec![]);
                self.block(body)?;
                let step_at = self.pc();
                for at in self.continues.pop().unwrap_or_default() {
                    self.patch(at, step_at);
                }
                self.block(step)?;
                self.emit(Inst::Jump { to: top });
                let end = self.pc();
                for at in self.breaks.pop().unwrap_or_default() {
                    self.patch(at, end);
                }
            }
            Stmt::Switch { value, arms } => self.switch(*value, arms)?,
            Stmt::Break => {
                let j = self.emit(Inst::Jump { to: 0 });
                match self.breaks.last_mut() {
                    Some(v) => v.push(j),
                    None => return internal("break outside a loop or switch"),
                }
            }
            Stmt::Continue => {
                let j = self.emit(Inst::Jump { to: 0 });
                match self.continues.last_mut() {
                    Some(v) => v.push(j),
                    None => return internal("continue outside a loop"),
                }
            }
            Stmt::Return(v) => {
                let v = match v {
                    Some(v) => Some(self.expr(*v)?),
                    None => None,
                };
                if self.kernel {
                    self.emit(Inst::Exit);
                } else {
                    self.emit(Inst::Ret { value: v });
                }
            }
            Stmt::Call {
                func, args, result, ..
            } => {
                let mut regs = vec![];
                for a in args {
                    regs.push(self.expr(*a)?);
                }
                let start = self.out.args.len() as u32;
                self.out.args.extend(&regs);
                self.out
                    .arg_types
                    .extend(std::iter::repeat_n(Ty::U64, regs.len()));
                let ret = result.map(|l| self.target(l.0));
                self.emit(Inst::Call {
                    func: *func as u32,
                    args: start,
                    nargs: regs.len() as u32,
                    ret,
                });
                if let (Some(l), Some(r)) = (result, ret) {
                    self.assign(l.0, r)?;
                }
            }
            Stmt::Barrier(BarrierScope::Block) => {
                let site = self.site("barrier");
                self.emit(Inst::Barrier { site });
            }
            Stmt::Barrier(BarrierScope::Row) => self.row_barrier()?,
            Stmt::Copy { dst, src, bytes } => {
                let text = format!(
                    "copy of {bytes} bytes from {} to {}",
                    self.render().place(*src),
                    self.render().place(*dst)
                );
                let d = self.expr(*dst)?;
                let s = self.expr(*src)?;
                let site = self.site(&text);
                self.emit(Inst::Copy {
                    dst: d,
                    src: s,
                    bytes: *bytes,
                    site,
                });
            }
            Stmt::Print { format, args } => {
                let mut regs = vec![];
                for a in args {
                    regs.push((self.expr(*a)?, ty(self.f.ty(*a))?));
                }
                let start = self.out.args.len() as u32;
                for (r, t) in &regs {
                    self.out.args.push(*r);
                    self.out.arg_types.push(*t);
                }
                let fmt = self.out.strings.len() as u32;
                self.out.strings.push(format.clone());
                self.emit(Inst::Print {
                    format: fmt,
                    args: start,
                    nargs: regs.len() as u32,
                });
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
            Stmt::Fence => {
                self.emit(Inst::Fence);
            }
            Stmt::Block(b) => self.block(b)?,
            Stmt::Loop(_) => return internal("counted loop reached the back end unscheduled"),
            Stmt::Single(_) | Stmt::Broadcast { .. } => {
                return internal("single-thread code reached the back end unresolved")
            }
        }
        Ok(())
    }

    fn switch(
        &mut self,
        value: crate::ir::ExprId,
        arms: &[crate::ir::SwitchArm],
    ) -> Result<(), Error> {
        let t = ty(self.f.ty(value))?;
        let v = self.expr(value)?;
        let table = self.out.tables.len() as u32;
        self.out.tables.push(Table {
            cases: vec![],
            default: 0,
        });
        self.emit(Inst::Switch {
            value: v,
            ty: t,
            table,
        });
        self.breaks.push(vec![]);
        let mut starts = vec![];
        for a in arms {
            starts.push(self.pc());
            self.block(&a.body)?;
        }
        // (The end is an instruction: a body always ends with one.)
        let end = self.pc();
        let mut cases: Vec<(u64, u32)> = vec![];
        let mut default = end;
        for (a, &start) in arms.iter().zip(&starts) {
            for &c in &a.values {
                let bits = simt::arith::norm(t, c as u64);
                if !cases.iter().any(|x| x.0 == bits) {
                    cases.push((bits, start));
                }
            }
            if a.default {
                default = start;
            }
        }
        self.out.tables[table as usize] = Table { cases, default };
        for at in self.breaks.pop().unwrap_or_default() {
            self.patch(at, end);
        }
        Ok(())
    }

    /// The row barrier, expanded as the NVPTX writer does.
    fn row_barrier(&mut self) -> Result<(), Error> {
        let site = self.site("row barrier");
        let sreg = |w: &mut Self, s: Sreg| {
            let d = w.temp();
            w.emit(Inst::Sreg { dst: d, sreg: s });
            d
        };
        let bin = |w: &mut Self, op: BinOp, ty: Ty, a: Reg, b: Reg| {
            let d = w.temp();
            w.emit(Inst::Bin {
                op,
                ty,
                dst: d,
                a,
                b,
            });
            d
        };
        let cmp = |w: &mut Self, op: CmpOp, a: Reg, b: Reg| {
            let d = w.temp();
            w.emit(Inst::Cmp {
                op,
                ty: Ty::U32,
                dst: d,
                a,
                b,
            });
            d
        };
        let (nx, ny, nz) = (
            sreg(self, Sreg::Ntid(0)),
            sreg(self, Sreg::Ntid(1)),
            sreg(self, Sreg::Ntid(2)),
        );
        let (tx, ty_, tz) = (
            sreg(self, Sreg::Tid(0)),
            sreg(self, Sreg::Tid(1)),
            sreg(self, Sreg::Tid(2)),
        );
        let (c0, c1, c15, c32) = (self.konst(0), self.konst(1), self.konst(15), self.konst(32));
        let rows = bin(self, BinOp::Mul, Ty::U32, ny, nz);
        let rem = bin(self, BinOp::Rem, Ty::U32, nx, c32);
        let whole = cmp(self, CmpOp::Eq, rem, c0);
        let few = cmp(self, CmpOp::Le, rows, c15);
        let named = bin(self, BinOp::And, Ty::B1, whole, few);
        let to_other = self.emit(Inst::BranchIfNot { cond: named, to: 0 });
        let tzny = bin(self, BinOp::Mul, Ty::U32, tz, ny);
        let row = bin(self, BinOp::Add, Ty::U32, ty_, tzny);
        let id = bin(self, BinOp::Add, Ty::U32, row, c1);
        self.emit(Inst::BarNamed {
            id,
            count: nx,
            site,
        });
        let to_end = self.emit(Inst::Jump { to: 0 });
        let other = self.pc();
        self.patch(to_other, other);
        let r32 = bin(self, BinOp::Rem, Ty::U32, c32, nx);
        let divides = cmp(self, CmpOp::Eq, r32, c0);
        let to_end2 = self.emit(Inst::BranchIfNot {
            cond: divides,
            to: 0,
        });
        let a = bin(self, BinOp::Mul, Ty::U32, tz, ny);
        let b = bin(self, BinOp::Add, Ty::U32, ty_, a);
        let c = bin(self, BinOp::Mul, Ty::U32, nx, b);
        let lin = bin(self, BinOp::Add, Ty::U32, tx, c);
        let lane = bin(self, BinOp::Rem, Ty::U32, lin, c32);
        let base = bin(self, BinOp::Sub, Ty::U32, lane, tx);
        let one64 = self.konst(1);
        let nx64 = self.temp();
        self.emit(Inst::Cvt {
            from: Ty::U32,
            to: Ty::U64,
            dst: nx64,
            src: nx,
        });
        let s = bin(self, BinOp::Shl, Ty::U64, one64, nx64);
        let ones = bin(self, BinOp::Sub, Ty::U64, s, one64);
        let base64 = self.temp();
        self.emit(Inst::Cvt {
            from: Ty::U32,
            to: Ty::U64,
            dst: base64,
            src: base,
        });
        let m64 = bin(self, BinOp::Shl, Ty::U64, ones, base64);
        let mask = self.temp();
        self.emit(Inst::Cvt {
            from: Ty::U64,
            to: Ty::U32,
            dst: mask,
            src: m64,
        });
        self.emit(Inst::WarpSync { mask, site });
        let end = self.pc();
        self.patch(to_end, end);
        self.patch(to_end2, end);
        Ok(())
    }

    /// The locals that hold one constant (see [`super::fold`]).
    fn constant_locals(&mut self, params: &[u32]) -> HashMap<u32, crate::ir::ExprId> {
        let candidates = super::fold::const_locals(self.f, params);
        // Keep those whose value is constant, given the others kept.
        let mut kept = candidates.clone();
        loop {
            self.consts = kept.clone();
            let before = kept.len();
            kept.retain(|_, v| self.constant(*v).is_some());
            if kept.len() == before {
                return kept;
            }
        }
    }

    /// Writes the body, then what runs when control falls off its end.
    fn body(&mut self, ret: &Type) -> Result<(), Error> {
        self.block(&self.f.body)?;
        self.next = self.temp_base;
        if self.kernel {
            self.emit(Inst::Exit);
        } else if *ret == Type::Void {
            self.emit(Inst::Ret { value: None });
        } else {
            // Falling off the end of a value-returning function: C makes
            // using the result undefined; return 0, as the NVPTX writer.
            let z = self.konst(0);
            self.emit(Inst::Ret { value: Some(z) });
        }
        if !self.breaks.is_empty() || !self.continues.is_empty() {
            return internal("unbalanced loop nesting");
        }
        Ok(())
    }
}

/// The bytecode of device function `f` (`fma`: contract multiply-adds).
pub(super) fn function(m: &Module, f: &DeviceFunction, fma: bool) -> Result<simt::Function, Error> {
    let linkage = match f.linkage {
        Linkage::Internal => simt::Linkage::Internal,
        Linkage::Export => simt::Linkage::Export,
        Linkage::Import => simt::Linkage::Import,
    };
    let mut w = W::new(m, &f.body, &f.name, linkage, fma)?;
    let params: Vec<u32> = f.params.iter().map(|p| p.0).collect();
    w.consts = w.constant_locals(&params);
    w.line = f.loc.line;
    w.prefix = format!("in {}: ", f.name);
    for p in &f.params {
        let s = w.param_slot(p.0)?;
        w.out.params.push(s);
    }
    w.out.ret = match &f.ret {
        Type::Void => None,
        t => Some(ty(t)?),
    };
    if f.linkage == Linkage::Import {
        // A declaration: no code, no frame.
        let mut out = w.out;
        out.nregs = 0;
        out.frame_bytes = 0;
        out.reg_names.clear();
        for (i, p) in f.params.iter().enumerate() {
            out.params[i] = match f.body.locals.get(p.0 as usize) {
                Some(l) => simt::Slot::Reg(i as u32, ty(&l.ty)?),
                None => return internal("parameter bound to a missing local"),
            };
        }
        out.nregs = f.params.len() as u32;
        return Ok(out);
    }
    w.body(&f.ret)?;
    Ok(w.out)
}

/// The bytecode of kernel `k` (`fma`: contract multiply-adds).
pub(super) fn kernel(m: &Module, k: &Kernel, fma: bool) -> Result<simt::Function, Error> {
    let mut w = W::new(m, &k.body, &k.name, simt::Linkage::Internal, fma)?;
    let params: Vec<u32> = k.params.iter().map(|p| p.local.0).collect();
    w.consts = w.constant_locals(&params);
    w.kernel = true;
    for p in &k.params {
        let s = w.param_slot(p.local.0)?;
        w.out.params.push(s);
    }
    w.body(&Type::Void)?;
    Ok(w.out)
}
