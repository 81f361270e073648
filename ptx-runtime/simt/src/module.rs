//! A bytecode module: the device code of one translation unit, with what
//! the emulator needs to name things in its messages.
//!
//! Owns: [`Module`], [`Function`], [`Kernel`], [`Global`], [`Site`] and the
//! parameter descriptions; [`Module::validate`] checks every index an
//! instruction holds, so the interpreter never meets a dangling one.
//! May call: [`crate::code`].

use crate::code::{Inst, Reg, Table, Ty};

/// How a function is visible outside its module (as the IR's `Linkage`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Linkage {
    /// Used only in this module.
    Internal,
    /// Defined here, callable from other modules linked with this one.
    Export,
    /// Declared here (no code), defined by another module's `Export`.
    Import,
}

/// Where an incoming argument (of a call, or a kernel parameter) goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slot {
    /// Into register `.0`, a value of type `.1`.
    Reg(Reg, Ty),
    /// Into the frame: `size` bytes at `offset` (an aggregate, or a value
    /// whose address the code takes).
    Frame { offset: u32, size: u32 },
}

/// What a source location and statement were, for messages about one
/// instruction: `line`/`col` in the module's source, and a short C-like
/// text of the access (`store to a[i]`).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Site {
    pub line: u32,
    pub col: u32,
    pub text: String,
}

/// One function: a kernel body or a device function.
#[derive(Clone, Debug, PartialEq)]
pub struct Function {
    pub name: String,
    pub linkage: Linkage,
    /// Where each argument goes, in order.
    pub params: Vec<Slot>,
    /// The result type, if any.
    pub ret: Option<Ty>,
    /// Registers of one call.
    pub nregs: u32,
    /// Bytes of local memory of one call (16-byte aligned).
    pub frame_bytes: u32,
    /// Bytes of the block's shared memory the function's code addresses
    /// (kernels only; 0 otherwise).
    pub shared_bytes: u32,
    pub code: Vec<Inst>,
    /// The tables of its `Switch` instructions.
    pub tables: Vec<Table>,
    /// The argument pool of `Call` and `Print`.
    pub args: Vec<Reg>,
    /// The types of `Print` arguments, parallel to their entries in `args`
    /// (`Call` entries have `Ty::U64` here).
    pub arg_types: Vec<Ty>,
    /// Strings of `Print` formats (their bytes, no NUL).
    pub strings: Vec<Vec<u8>>,
    pub sites: Vec<Site>,
    /// Names of registers that hold source variables, for messages.
    pub reg_names: Vec<(Reg, String)>,
}

impl Function {
    /// An empty function called `name`.
    pub fn new(name: &str, linkage: Linkage) -> Function {
        Function {
            name: name.to_string(),
            linkage,
            params: vec![],
            ret: None,
            nregs: 0,
            frame_bytes: 0,
            shared_bytes: 0,
            code: vec![],
            tables: vec![],
            args: vec![],
            arg_types: vec![],
            strings: vec![],
            sites: vec![],
            reg_names: vec![],
        }
    }
}

/// How the host passes a kernel parameter (for messages: which allocation
/// an address belongs to).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamKind {
    /// A value (firstprivate scalar).
    Value,
    /// A device address of a host variable.
    DevicePtr,
    /// The runtime's reduction scratch memory.
    Scratch,
}

/// A kernel parameter: its name in the source, how it is passed and its
/// size (the launch passes a pointer to `size` bytes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelParam {
    pub name: String,
    pub kind: ParamKind,
    pub size: u32,
}

/// A kernel: an entry point of the module.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kernel {
    /// Its symbol (what `module_get_function` looks up).
    pub name: String,
    /// Index of its body in [`Module::functions`].
    pub func: u32,
    /// The construct ("parallel loop", …) and where it is.
    pub construct: String,
    pub line: u32,
    pub params: Vec<KernelParam>,
    /// `.maxntid`: the most threads a block may have, when the block size
    /// is fixed at compile time (a launch with more fails, as on a GPU).
    pub max_threads: Option<u32>,
}

/// A module global (a device address cell of `acc declare`): `size` bytes,
/// zero until the runtime writes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Global {
    pub symbol: String,
    pub size: u32,
}

/// The device code of one translation unit.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Module {
    /// The source file (messages name it).
    pub source: String,
    pub functions: Vec<Function>,
    pub kernels: Vec<Kernel>,
    pub globals: Vec<Global>,
}

impl Module {
    /// Checks that every register, jump target, table, site, string,
    /// argument-pool range, function and global an instruction names
    /// exists, that code never runs off its end, and that kernels are
    /// functions with code; all problems found, one per line.
    pub fn validate(&self) -> Result<(), String> {
        let mut errs = vec![];
        for (fi, f) in self.functions.iter().enumerate() {
            let mut e = |m: String| errs.push(format!("function {fi} ({}): {m}", f.name));
            if f.linkage == Linkage::Import {
                if !f.code.is_empty() {
                    e("an import has code".into());
                }
                continue;
            }
            match f.code.last() {
                Some(i) if i.ends_block() => {}
                _ => e("code does not end with a jump, return or exit".into()),
            }
            if f.arg_types.len() != f.args.len() {
                e("argument pool and its types differ in length".into());
            }
            for p in &f.params {
                match *p {
                    Slot::Reg(r, _) if r >= f.nregs => e(format!("parameter register r{r}")),
                    Slot::Frame { offset, size }
                        if u64::from(offset) + u64::from(size) > u64::from(f.frame_bytes) =>
                    {
                        e(format!("parameter frame slot {offset}+{size}"))
                    }
                    _ => {}
                }
            }
            for t in &f.tables {
                for &(_, to) in &t.cases {
                    if to as usize >= f.code.len() {
                        e(format!("table target {to}"));
                    }
                }
                if t.default as usize >= f.code.len() {
                    e(format!("table default {}", t.default));
                }
            }
            for &r in &f.args {
                if r >= f.nregs {
                    e(format!("argument register r{r}"));
                }
            }
            for (pc, i) in f.code.iter().enumerate() {
                if let Err(m) = self.check_inst(f, i) {
                    e(format!("instruction {pc}: {m}"));
                }
            }
        }
        for k in &self.kernels {
            match self.functions.get(k.func as usize) {
                Some(f) if f.linkage != Linkage::Import => {
                    if f.params.len() != k.params.len() {
                        errs.push(format!(
                            "kernel {}: {} parameters, its function {}",
                            k.name,
                            k.params.len(),
                            f.params.len()
                        ));
                    }
                }
                _ => errs.push(format!("kernel {}: no function {}", k.name, k.func)),
            }
        }
        if errs.is_empty() {
            Ok(())
        } else {
            Err(errs.join("\n"))
        }
    }

    fn check_inst(&self, f: &Function, i: &Inst) -> Result<(), String> {
        let reg = |r: Reg| {
            if r < f.nregs {
                Ok(())
            } else {
                Err(format!("register r{r} of {}", f.nregs))
            }
        };
        let to = |t: u32| {
            if (t as usize) < f.code.len() {
                Ok(())
            } else {
                Err(format!("jump target {t}"))
            }
        };
        let site = |s: u32| {
            if (s as usize) < f.sites.len() {
                Ok(())
            } else {
                Err(format!("site {s}"))
            }
        };
        let pool = |start: u32, n: u32| {
            if u64::from(start) + u64::from(n) <= f.args.len() as u64 {
                Ok(())
            } else {
                Err(format!("argument pool range {start}+{n}"))
            }
        };
        match *i {
            Inst::Const { dst, .. } | Inst::Sreg { dst, .. } | Inst::GlobalAddr { dst, .. } => {
                reg(dst)?;
                if let Inst::GlobalAddr { global, .. } = *i {
                    if global as usize >= self.globals.len() {
                        return Err(format!("global {global}"));
                    }
                }
                Ok(())
            }
            Inst::LocalAddr { dst, offset } => {
                reg(dst)?;
                if offset > f.frame_bytes {
                    return Err(format!("frame offset {offset}"));
                }
                Ok(())
            }
            Inst::SharedAddr { dst, offset } => {
                reg(dst)?;
                if offset > f.shared_bytes {
                    return Err(format!("shared offset {offset}"));
                }
                Ok(())
            }
            Inst::Mov { dst, src } => reg(dst).and(reg(src)),
            Inst::Bin { dst, a, b, .. } | Inst::Cmp { dst, a, b, .. } => {
                reg(dst).and(reg(a)).and(reg(b))
            }
            Inst::Math { dst, a, b, .. } => reg(dst).and(reg(a)).and(reg(b)),
            Inst::Fma { dst, a, b, c, .. } => reg(dst).and(reg(a)).and(reg(b)).and(reg(c)),
            Inst::Un { dst, a, .. } | Inst::BinImm { dst, a, .. } | Inst::CmpImm { dst, a, .. } => {
                reg(dst).and(reg(a))
            }
            Inst::BrCmpNot { a, b, to: t, .. } => reg(a).and(reg(b)).and(to(t)),
            Inst::Cvt { dst, src, .. } => reg(dst).and(reg(src)),
            Inst::PtrAdd {
                dst, base, index, ..
            } => reg(dst).and(reg(base)).and(reg(index)),
            Inst::Load {
                dst, addr, site: s, ..
            }
            | Inst::AtomLoad {
                dst, addr, site: s, ..
            } => reg(dst).and(reg(addr)).and(site(s)),
            Inst::Store {
                addr, src, site: s, ..
            }
            | Inst::AtomStore {
                addr, src, site: s, ..
            } => reg(addr).and(reg(src)).and(site(s)),
            Inst::Copy {
                dst, src, site: s, ..
            } => reg(dst).and(reg(src)).and(site(s)),
            Inst::Jump { to: t } => to(t),
            Inst::BranchIf { cond, to: t } | Inst::BranchIfNot { cond, to: t } => {
                reg(cond).and(to(t))
            }
            Inst::Switch { value, table, .. } => {
                reg(value)?;
                if table as usize >= f.tables.len() {
                    return Err(format!("table {table}"));
                }
                Ok(())
            }
            Inst::Call {
                func,
                args,
                nargs,
                ret,
            } => {
                pool(args, nargs)?;
                if let Some(r) = ret {
                    reg(r)?;
                }
                let Some(callee) = self.functions.get(func as usize) else {
                    return Err(format!("call of function {func}"));
                };
                if callee.params.len() != nargs as usize {
                    return Err(format!(
                        "call of {} with {nargs} arguments (it has {})",
                        callee.name,
                        callee.params.len()
                    ));
                }
                if ret.is_some() && callee.ret.is_none() {
                    return Err(format!("result of {}, which returns nothing", callee.name));
                }
                Ok(())
            }
            Inst::Ret { value } => match value {
                Some(v) if f.ret.is_some() => reg(v),
                None => Ok(()),
                Some(_) => Err("a value returned from a function without result".into()),
            },
            Inst::Exit | Inst::Fence => Ok(()),
            Inst::Barrier { site: s } => site(s),
            Inst::BarNamed { id, count, site: s } => reg(id).and(reg(count)).and(site(s)),
            Inst::WarpSync { mask, site: s } => reg(mask).and(site(s)),
            Inst::Shfl {
                dst,
                value,
                lane_xor,
                members,
                site: s,
                ..
            } => reg(dst)
                .and(reg(value))
                .and(reg(lane_xor))
                .and(reg(members))
                .and(site(s)),
            Inst::Atom {
                dst,
                addr,
                value,
                site: s,
                ..
            } => {
                if let Some(d) = dst {
                    reg(d)?;
                }
                reg(addr).and(reg(value)).and(site(s))
            }
            Inst::Cas {
                old,
                ok,
                addr,
                expected,
                desired,
                site: s,
                ..
            } => reg(old)
                .and(reg(ok))
                .and(reg(addr))
                .and(reg(expected))
                .and(reg(desired))
                .and(site(s)),
            Inst::Print {
                format,
                args,
                nargs,
            } => {
                pool(args, nargs)?;
                if format as usize >= f.strings.len() {
                    return Err(format!("string {format}"));
                }
                Ok(())
            }
        }
    }
}
