//! A runnable program: one module, or several relocatable ones linked
//! together (a call of an imported function goes to the module that
//! exports it), with its globals placed in device memory.
//!
//! Owns: [`Program`], [`link`] (function indices of `Call` and global
//! indices of `GlobalAddr` are rewritten to the program's), kernel lookup.
//! May call: [`crate::code`], [`crate::module`], [`crate::mem`],
//! [`crate::exec`] (the stack a call takes).

use crate::code::Inst;
use crate::mem::Memory;
use crate::module::{Function, Kernel, Linkage, Module};
use std::collections::HashMap;

/// A global of the program and where it lives.
#[derive(Clone, Debug)]
pub struct ProgramGlobal {
    pub symbol: String,
    pub size: u32,
    pub addr: u64,
}

/// Linked, runnable device code.
#[derive(Debug)]
pub struct Program {
    /// Every function with code.
    pub funcs: Vec<Function>,
    /// The source file of each function's module.
    pub func_source: Vec<String>,
    /// Every kernel (`func` indexes [`Program::funcs`]).
    pub kernels: Vec<Kernel>,
    /// The source file of each kernel.
    pub kernel_source: Vec<String>,
    pub globals: Vec<ProgramGlobal>,
    /// Program-wide number of each function's first site (sites are
    /// numbered across the program, so one number names an instruction).
    pub site_base: Vec<u32>,
}

impl Program {
    /// (function, site of the function) of a program-wide site number.
    pub fn site_of(&self, site: u32) -> Option<(u32, u32)> {
        let f = self
            .site_base
            .partition_point(|&b| b <= site)
            .checked_sub(1)?;
        let local = site - self.site_base[f];
        (local < self.funcs[f].sites.len() as u32).then_some((f as u32, local))
    }

    /// The stack a thread of a kernel whose body is function `func` needs
    /// when no call recurses (what ptxas sizes; the driver gives a kernel at
    /// least that): the deepest chain of calls, each taking its callee's
    /// local frame and [`crate::exec::CALL_BYTES`], leaving out a call to a
    /// function already on the chain.
    pub fn static_stack(&self, func: u32) -> usize {
        fn need(
            p: &Program,
            f: usize,
            path: &mut Vec<usize>,
            memo: &mut HashMap<usize, usize>,
        ) -> usize {
            if let Some(&n) = memo.get(&f) {
                return n;
            }
            path.push(f);
            let mut deepest = 0;
            for i in &p.funcs[f].code {
                if let Inst::Call { func, .. } = *i {
                    let g = func as usize;
                    if !path.contains(&g) {
                        deepest = deepest.max(crate::exec::CALL_BYTES + need(p, g, path, memo));
                    }
                }
            }
            path.pop();
            let n = (p.funcs[f].frame_bytes as usize).next_multiple_of(16) + deepest;
            memo.insert(f, n);
            n
        }
        need(self, func as usize, &mut vec![], &mut HashMap::new())
    }

    /// The index of kernel `name`.
    pub fn kernel(&self, name: &str) -> Option<usize> {
        self.kernels.iter().position(|k| k.name == name)
    }

    /// The device address and size of global `symbol`.
    pub fn global(&self, symbol: &str) -> Option<(u64, u32)> {
        self.globals
            .iter()
            .find(|g| g.symbol == symbol)
            .map(|g| (g.addr, g.size))
    }

    /// Frees the program's globals.
    pub fn free_globals(&self, mem: &mut Memory) {
        for g in &self.globals {
            let _ = mem.free(g.addr);
        }
    }
}

/// Links `mods` into one program, allocating its globals (zeroed) in
/// `mem`. Errors name an undefined or twice-defined function or kernel.
pub fn link(mods: &[Module], mem: &mut Memory) -> Result<Program, String> {
    // Program index of every exported function, by name.
    let mut exports: HashMap<&str, (usize, usize)> = HashMap::new();
    let mut next = 0usize;
    let mut index: Vec<Vec<Option<usize>>> = vec![];
    for (mi, m) in mods.iter().enumerate() {
        let mut v = vec![];
        for f in &m.functions {
            if f.linkage == Linkage::Import {
                v.push(None);
                continue;
            }
            if f.linkage == Linkage::Export {
                if let Some(&(other, _)) = exports.get(f.name.as_str()) {
                    return Err(format!(
                        "device function '{}' is defined by both {} and {}",
                        f.name, mods[other].source, m.source
                    ));
                }
                exports.insert(&f.name, (mi, next));
            }
            v.push(Some(next));
            next += 1;
        }
        index.push(v);
    }
    for (mi, m) in mods.iter().enumerate() {
        for (fi, f) in m.functions.iter().enumerate() {
            if f.linkage == Linkage::Import {
                let Some(&(_, p)) = exports.get(f.name.as_str()) else {
                    return Err(format!(
                        "undefined device function '{}' (used by {})",
                        f.name, m.source
                    ));
                };
                index[mi][fi] = Some(p);
            }
        }
    }
    // Globals: one per symbol (images that name the same cell share it).
    let mut globals: Vec<ProgramGlobal> = vec![];
    let mut gindex: Vec<Vec<usize>> = vec![];
    for m in mods {
        let mut v = vec![];
        for g in &m.globals {
            let at = match globals.iter().position(|p| p.symbol == g.symbol) {
                Some(i) => i,
                None => {
                    let size = g.size.max(8);
                    let addr = mem.alloc(u64::from(size), &format!("global {}", g.symbol))?;
                    if let Ok(p) = mem.resolve(addr, u64::from(size)) {
                        // SAFETY: a fresh allocation of `size` bytes.
                        unsafe { std::ptr::write_bytes(p, 0, size as usize) };
                    }
                    globals.push(ProgramGlobal {
                        symbol: g.symbol.clone(),
                        size: g.size,
                        addr,
                    });
                    globals.len() - 1
                }
            };
            v.push(at);
        }
        gindex.push(v);
    }
    let mut p = Program {
        funcs: vec![],
        func_source: vec![],
        kernels: vec![],
        kernel_source: vec![],
        globals,
        site_base: vec![],
    };
    for (mi, m) in mods.iter().enumerate() {
        for f in &m.functions {
            if f.linkage == Linkage::Import {
                continue;
            }
            let mut f = f.clone();
            for i in &mut f.code {
                match i {
                    Inst::Call { func, .. } => {
                        let to = index[mi].get(*func as usize).copied().flatten();
                        *func = to.ok_or("a call of a missing function")? as u32;
                    }
                    Inst::GlobalAddr { global, .. } => {
                        let to = gindex[mi].get(*global as usize).copied();
                        *global = to.ok_or("a missing global")? as u32;
                    }
                    _ => {}
                }
            }
            p.funcs.push(f);
            p.func_source.push(m.source.clone());
        }
        for k in &m.kernels {
            if p.kernel(&k.name).is_some() {
                return Err(format!("kernel '{}' is defined twice", k.name));
            }
            let mut k = k.clone();
            k.func = index[mi]
                .get(k.func as usize)
                .copied()
                .flatten()
                .ok_or("a kernel without code")? as u32;
            p.kernels.push(k);
            p.kernel_source.push(m.source.clone());
        }
    }
    let mut base = 0u32;
    for f in &p.funcs {
        p.site_base.push(base);
        base = base.saturating_add(f.sites.len() as u32);
    }
    Ok(p)
}
