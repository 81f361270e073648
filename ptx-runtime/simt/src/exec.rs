//! The interpreter of one thread: runs its instructions until it reaches a
//! barrier, a warp synchronisation, a shuffle or its end, then hands
//! control back to the block scheduler ([`crate::block`]).
//!
//! Owns: [`Thread`] (pc, call frames, registers in one flat array, local
//! memory), [`State`], [`Ctx`] (what the threads of one block share: the
//! program, global memory, the block's shared memory and launch registers,
//! the race checker, the printf sink); memory accesses are in
//! [`crate::access`].
//! May call: [`crate::access`], [`crate::arith`], [`crate::code`],
//! [`crate::mem`], [`crate::race`], [`crate::printf`], [`crate::program`].

use crate::arith;
use crate::code::{Inst, Reg, Sreg, Ty};
use crate::fault::{Fault, Kind};
use crate::mem::{self, Memory};
use crate::module::Slot;
use crate::program::Program;
use crate::race::{Race, RaceState};

/// Deepest call nesting a thread may reach.
const MAX_DEPTH: usize = 2048;
/// Most local memory one thread may use (bytes).
const MAX_LOCAL: usize = 64 << 20;
/// Stack bytes a call takes besides the callee's local frame: the return
/// address and the registers the callee saves. A model of what ptxas does:
/// it gives a non-leaf device function a frame of at least 16 bytes (the
/// mutually recursive routines of tests/programs/routine_seq.c: "16 bytes
/// stack frame" each at sm_90), whose callee-saved registers the emulator
/// keeps elsewhere.
pub(crate) const CALL_BYTES: usize = 16;

/// Where a thread is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum State {
    Run,
    Exited,
    /// At the block barrier of instruction `pc` of function `func`.
    Bar {
        func: u32,
        pc: u32,
    },
    /// At named barrier `id` of `count` threads.
    Named {
        id: u32,
        count: u32,
        func: u32,
        pc: u32,
    },
    /// At a warp synchronisation of the lanes in `mask`.
    Warp {
        mask: u32,
        func: u32,
        pc: u32,
    },
    /// At a shuffle: its value, lane operand and members; the result goes
    /// to register `dst` of the current frame.
    Shfl {
        dst: Reg,
        value: u64,
        lane_xor: u32,
        mask: u32,
        func: u32,
        pc: u32,
    },
}

struct Frame {
    func: u32,
    pc: u32,
    pub(crate) rbase: usize,
    pub(crate) lbase: usize,
    ret: Option<Reg>,
}

/// One emulated thread.
pub(crate) struct Thread {
    /// Linear index in the block (x fastest).
    pub lin: u32,
    pub tid: [u32; 3],
    pub state: State,
    pub func: u32,
    pub pc: u32,
    rbase: usize,
    lbase: usize,
    /// Registers of every frame, the current one at `rbase`.
    pub regs: Vec<u64>,
    /// Local memory of every frame (8-byte units, so 8-aligned).
    pub(crate) local: Vec<u64>,
    frames: Vec<Frame>,
    /// Block barriers and row barriers passed.
    pub bep: u32,
    pub rep: u32,
    /// Instructions run (for `PTXRT_EMU_STATS`).
    pub steps: u64,
}

impl Thread {
    pub fn new() -> Thread {
        Thread {
            lin: 0,
            tid: [0; 3],
            state: State::Exited,
            func: 0,
            pc: 0,
            rbase: 0,
            lbase: 0,
            regs: vec![],
            local: vec![],
            frames: vec![],
            bep: 0,
            rep: 0,
            steps: 0,
        }
    }

    /// Starts the thread at the beginning of the kernel of `image`.
    pub fn start(&mut self, image: &StartImage, lin: u32, tid: [u32; 3]) {
        self.lin = lin;
        self.tid = tid;
        self.state = State::Run;
        self.func = image.func;
        self.pc = 0;
        self.rbase = 0;
        self.lbase = 0;
        self.regs.clear();
        self.regs.extend_from_slice(&image.regs);
        self.local.clear();
        self.local.extend_from_slice(&image.local);
        self.frames.clear();
        self.bep = 0;
        self.rep = 0;
        self.steps = 0;
    }

    fn local_bytes_mut(&mut self) -> &mut [u8] {
        let n = self.local.len() * 8;
        // SAFETY: u64 storage viewed as its bytes (u8 has no alignment).
        unsafe { std::slice::from_raw_parts_mut(self.local.as_mut_ptr().cast::<u8>(), n) }
    }

    /// Sets register `r` of the current frame.
    pub fn set_reg(&mut self, r: Reg, v: u64) {
        let i = self.rbase + r as usize;
        self.regs[i] = v;
    }
}

/// What every thread of a launch starts with: the kernel's function, its
/// registers and local frame with the parameters in place (made once per
/// launch, copied into each thread).
pub(crate) struct StartImage {
    pub func: u32,
    pub regs: Vec<u64>,
    pub local: Vec<u64>,
}

impl StartImage {
    /// The start of kernel function `func` of `prog` with parameter bytes
    /// `params`.
    pub fn new(prog: &Program, func: u32, params: &[Vec<u8>]) -> StartImage {
        let f = &prog.funcs[func as usize];
        let mut regs = vec![0u64; f.nregs as usize];
        let mut local = vec![0u64; (f.frame_bytes as usize).div_ceil(8)];
        for (slot, bytes) in f.params.iter().zip(params) {
            match *slot {
                Slot::Reg(r, ty) => {
                    let mut v = [0u8; 8];
                    let n = bytes.len().min(8);
                    v[..n].copy_from_slice(&bytes[..n]);
                    if let Some(x) = regs.get_mut(r as usize) {
                        *x = arith::norm(ty, u64::from_le_bytes(v));
                    }
                }
                Slot::Frame { offset, size } => {
                    let n = (size as usize).min(bytes.len());
                    // SAFETY: u64 storage viewed as its bytes.
                    let dst = unsafe {
                        std::slice::from_raw_parts_mut(
                            local.as_mut_ptr().cast::<u8>(),
                            local.len() * 8,
                        )
                    };
                    if let Some(d) = dst.get_mut(offset as usize..offset as usize + n) {
                        d.copy_from_slice(&bytes[..n]);
                    }
                }
            }
        }
        StartImage { func, regs, local }
    }
}

/// The race checking of one launch.
pub(crate) struct Checker<'a> {
    pub state: &'a mut RaceState,
    /// Go on after a race (report it once per pair of instructions).
    pub warn: bool,
    /// The program's identity (its races are reported once per device).
    pub program: usize,
    pub found: Vec<Race>,
}

/// What the threads of one block share.
pub(crate) struct Ctx<'a, 'c> {
    pub prog: &'a Program,
    pub mem: &'a Memory,
    /// The block's shared memory (8-byte units).
    pub shared: &'a mut [u64],
    pub ctaid: [u32; 3],
    pub ntid: [u32; 3],
    pub nctaid: [u32; 3],
    /// Linear index of the block.
    pub block: u32,
    pub race: Option<&'a mut Checker<'c>>,
    pub out: &'a (dyn Fn(&[u8]) + Sync),
    /// The stack of each thread (bytes): its local frames and
    /// [`CALL_BYTES`] per call; a call beyond it faults as an overflow.
    pub stack: usize,
}

impl Ctx<'_, '_> {
    fn call(
        &mut self,
        t: &mut Thread,
        func: u32,
        args: u32,
        nargs: u32,
        ret: Option<Reg>,
    ) -> Result<(), Fault> {
        if t.frames.len() >= MAX_DEPTH {
            return Err(self.fault(t, Kind::StackOverflow, None));
        }
        let caller = &self.prog.funcs[t.func as usize];
        let callee = &self.prog.funcs[func as usize];
        let rb = t.rbase + caller.nregs as usize;
        let lb = t.lbase + (caller.frame_bytes as usize).div_ceil(16) * 16;
        let lend = lb + callee.frame_bytes as usize;
        if lend > MAX_LOCAL || lend + CALL_BYTES * (t.frames.len() + 1) > self.stack {
            return Err(self.fault(t, Kind::StackOverflow, None));
        }
        if t.regs.len() < rb + callee.nregs as usize {
            t.regs.resize(rb + callee.nregs as usize, 0);
        }
        if t.local.len() * 8 < lend {
            t.local.resize(lend.div_ceil(8), 0);
        }
        t.local_bytes_mut()[lb..lend].fill(0);
        for k in 0..nargs as usize {
            let r = caller.args[args as usize + k];
            let v = t.regs[t.rbase + r as usize];
            match callee.params[k] {
                Slot::Reg(p, _) => t.regs[rb + p as usize] = v,
                Slot::Frame { offset, size } => {
                    let at = lb + offset as usize;
                    let n = (size as usize).min(8);
                    let b = v.to_le_bytes();
                    if let Some(d) = t.local_bytes_mut().get_mut(at..at + n) {
                        d.copy_from_slice(&b[..n]);
                    }
                }
            }
        }
        t.frames.push(Frame {
            func: t.func,
            pc: t.pc,
            rbase: t.rbase,
            lbase: t.lbase,
            ret,
        });
        t.func = func;
        t.pc = 0;
        t.rbase = rb;
        t.lbase = lb;
        Ok(())
    }

    fn sreg(&self, t: &Thread, s: Sreg) -> u64 {
        let pick = |v: &[u32; 3], d: u8| u64::from(v.get(usize::from(d)).copied().unwrap_or(0));
        match s {
            Sreg::Tid(d) => pick(&t.tid, d),
            Sreg::Ctaid(d) => pick(&self.ctaid, d),
            Sreg::Ntid(d) => pick(&self.ntid, d),
            Sreg::Nctaid(d) => pick(&self.nctaid, d),
        }
    }

    /// Runs `t` until it waits, exits or faults.
    pub fn run(&mut self, t: &mut Thread) -> Result<(), Fault> {
        let prog = self.prog;
        let mut f = &prog.funcs[t.func as usize];
        loop {
            let pc = t.pc;
            let Some(inst) = f.code.get(pc as usize) else {
                return Err(self.fault(
                    t,
                    Kind::Internal("ran past the end of the code".into()),
                    None,
                ));
            };
            t.pc += 1;
            t.steps += 1;
            let rb = t.rbase;
            macro_rules! r {
                ($x:expr) => {
                    t.regs[rb + $x as usize]
                };
            }
            match *inst {
                Inst::Const { dst, bits } => r!(dst) = bits,
                Inst::Mov { dst, src } => r!(dst) = r!(src),
                Inst::Bin { op, ty, dst, a, b } => r!(dst) = arith::bin(op, ty, r!(a), r!(b)),
                Inst::Cmp { op, ty, dst, a, b } => {
                    r!(dst) = u64::from(arith::cmp(op, ty, r!(a), r!(b)))
                }
                Inst::BinImm {
                    op,
                    ty,
                    dst,
                    a,
                    imm,
                } => r!(dst) = arith::bin(op, ty, r!(a), imm),
                Inst::CmpImm {
                    op,
                    ty,
                    dst,
                    a,
                    imm,
                } => r!(dst) = u64::from(arith::cmp(op, ty, r!(a), imm)),
                Inst::BrCmpNot { op, ty, a, b, to } => {
                    if !arith::cmp(op, ty, r!(a), r!(b)) {
                        t.pc = to;
                    }
                }
                Inst::Un { op, ty, dst, a } => r!(dst) = arith::un(op, ty, r!(a)),
                Inst::Cvt { from, to, dst, src } => r!(dst) = arith::cvt(from, to, r!(src)),
                Inst::PtrAdd {
                    dst,
                    base,
                    index,
                    scale,
                } => r!(dst) = r!(base).wrapping_add(r!(index).wrapping_mul(scale)),
                Inst::Sreg { dst, sreg } => r!(dst) = self.sreg(t, sreg),
                Inst::LocalAddr { dst, offset } => {
                    r!(dst) = mem::LOCAL | (t.lbase as u64 + u64::from(offset))
                }
                Inst::SharedAddr { dst, offset } => r!(dst) = mem::SHARED | u64::from(offset),
                Inst::GlobalAddr { dst, global } => {
                    r!(dst) = prog.globals.get(global as usize).map_or(0, |g| g.addr)
                }
                Inst::Load {
                    ty,
                    dst,
                    addr,
                    site,
                } => {
                    let a = r!(addr);
                    let v = self.load(t, a, ty, site, false)?;
                    t.regs[rb + dst as usize] = v;
                }
                Inst::Store {
                    ty,
                    addr,
                    src,
                    site,
                } => {
                    let (a, v) = (r!(addr), r!(src));
                    self.store(t, a, ty, v, site, false)?;
                }
                Inst::Copy {
                    dst,
                    src,
                    bytes,
                    site,
                } => {
                    let (d, s) = (r!(dst), r!(src));
                    self.copy(t, d, s, bytes, site)?;
                }
                Inst::Jump { to } => t.pc = to,
                Inst::BranchIf { cond, to } => {
                    if r!(cond) & 1 != 0 {
                        t.pc = to;
                    }
                }
                Inst::BranchIfNot { cond, to } => {
                    if r!(cond) & 1 == 0 {
                        t.pc = to;
                    }
                }
                Inst::Switch { value, ty, table } => {
                    let v = arith::norm(ty, r!(value));
                    let tb = &f.tables[table as usize];
                    t.pc = tb
                        .cases
                        .iter()
                        .find(|c| c.0 == v)
                        .map_or(tb.default, |c| c.1);
                }
                Inst::Call {
                    func,
                    args,
                    nargs,
                    ret,
                } => {
                    self.call(t, func, args, nargs, ret)?;
                    f = &prog.funcs[t.func as usize];
                }
                Inst::Ret { value } => {
                    let v = value.map(|x| r!(x));
                    let Some(fr) = t.frames.pop() else {
                        t.state = State::Exited;
                        return Ok(());
                    };
                    t.func = fr.func;
                    t.pc = fr.pc;
                    t.rbase = fr.rbase;
                    t.lbase = fr.lbase;
                    if let Some(d) = fr.ret {
                        t.regs[fr.rbase + d as usize] = v.unwrap_or(0);
                    }
                    f = &prog.funcs[t.func as usize];
                }
                Inst::Exit => {
                    t.state = State::Exited;
                    return Ok(());
                }
                Inst::Barrier { .. } => {
                    t.state = State::Bar { func: t.func, pc };
                    return Ok(());
                }
                Inst::BarNamed { id, count, .. } => {
                    t.state = State::Named {
                        id: r!(id) as u32,
                        count: r!(count) as u32,
                        func: t.func,
                        pc,
                    };
                    return Ok(());
                }
                Inst::WarpSync { mask, .. } => {
                    t.state = State::Warp {
                        mask: r!(mask) as u32,
                        func: t.func,
                        pc,
                    };
                    return Ok(());
                }
                Inst::Shfl {
                    dst,
                    value,
                    lane_xor,
                    members,
                    ..
                } => {
                    t.state = State::Shfl {
                        dst,
                        value: r!(value),
                        lane_xor: r!(lane_xor) as u32,
                        mask: r!(members) as u32,
                        func: t.func,
                        pc,
                    };
                    return Ok(());
                }
                Inst::Atom {
                    op,
                    ty,
                    dst,
                    addr,
                    value,
                    site,
                } => {
                    let (a, v) = (r!(addr), r!(value));
                    let old = self.atomic(t, a, ty, site, |o| arith::atom(op, ty, o, v))?;
                    if let Some(d) = dst {
                        t.regs[rb + d as usize] = old;
                    }
                }
                Inst::Cas {
                    ty,
                    old,
                    ok,
                    addr,
                    expected,
                    desired,
                    site,
                } => {
                    let (a, e, d) = (r!(addr), arith::norm(ty, r!(expected)), r!(desired));
                    let found = self.atomic(t, a, ty, site, |o| if o == e { d } else { o })?;
                    t.regs[rb + old as usize] = found;
                    t.regs[rb + ok as usize] = u64::from(found == e);
                }
                Inst::AtomLoad {
                    ty,
                    dst,
                    addr,
                    site,
                } => {
                    let a = r!(addr);
                    let v = self.load(t, a, ty, site, true)?;
                    if let Some(c) = self.race.as_deref_mut() {
                        c.state.atomic_sync(a);
                    }
                    t.regs[rb + dst as usize] = v;
                }
                Inst::AtomStore {
                    ty,
                    addr,
                    src,
                    site,
                } => {
                    let (a, v) = (r!(addr), r!(src));
                    self.store(t, a, ty, v, site, true)?;
                    if let Some(c) = self.race.as_deref_mut() {
                        c.state.atomic_sync(a);
                    }
                }
                Inst::Fence => {
                    if let Some(c) = self.race.as_deref_mut() {
                        c.state.fence();
                    }
                }
                Inst::Math {
                    f: m,
                    ty,
                    dst,
                    a,
                    b,
                } => r!(dst) = arith::math(m, ty, r!(a), r!(b)),
                Inst::Fma { ty, dst, a, b, c } => r!(dst) = arith::fma(ty, r!(a), r!(b), r!(c)),
                Inst::Print {
                    format,
                    args,
                    nargs,
                } => {
                    let vals: Vec<(u64, Ty)> = (args..args + nargs)
                        .map(|k| (r!(f.args[k as usize]), f.arg_types[k as usize]))
                        .collect();
                    let fmt = &f.strings[format as usize];
                    let text = crate::printf::format(fmt, &vals, |a| self.string_at(t, a));
                    (self.out)(&text);
                }
            }
        }
    }
}
