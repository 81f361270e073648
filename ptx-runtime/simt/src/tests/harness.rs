//! The test harness: a small assembler for one function ([`B`]), a module
//! of one kernel, a test device that loads it through the encoding round
//! trip ([`Dev`]), and byte helpers.

use crate::code::*;
use crate::launch::{launch, Launch, Limits, RaceMode};
use crate::mem::Memory;
use crate::module::*;
use crate::program::{link, Program};
use crate::race::RaceState;
use std::sync::Mutex;

/// A small assembler for one function.
pub(super) struct B {
    pub(super) f: Function,
}

impl B {
    pub(super) fn new(name: &str) -> B {
        B {
            f: Function::new(name, Linkage::Internal),
        }
    }
    pub(super) fn reg(&mut self) -> Reg {
        self.f.nregs += 1;
        self.f.nregs - 1
    }
    pub(super) fn param(&mut self, ty: Ty) -> Reg {
        let r = self.reg();
        self.f.params.push(Slot::Reg(r, ty));
        r
    }
    pub(super) fn i(&mut self, i: Inst) {
        self.f.code.push(i);
    }
    pub(super) fn pc(&self) -> u32 {
        self.f.code.len() as u32
    }
    pub(super) fn site(&mut self, text: &str) -> u32 {
        self.f.sites.push(Site {
            line: 10 + self.f.sites.len() as u32,
            col: 1,
            text: text.into(),
        });
        self.f.sites.len() as u32 - 1
    }
    pub(super) fn c(&mut self, v: u64) -> Reg {
        let d = self.reg();
        self.i(Inst::Const { dst: d, bits: v });
        d
    }
    pub(super) fn sreg(&mut self, s: Sreg) -> Reg {
        let d = self.reg();
        self.i(Inst::Sreg { dst: d, sreg: s });
        d
    }
    pub(super) fn bin(&mut self, op: BinOp, ty: Ty, a: Reg, b: Reg) -> Reg {
        let d = self.reg();
        self.i(Inst::Bin {
            op,
            ty,
            dst: d,
            a,
            b,
        });
        d
    }
    pub(super) fn cmp(&mut self, op: CmpOp, ty: Ty, a: Reg, b: Reg) -> Reg {
        let d = self.reg();
        self.i(Inst::Cmp {
            op,
            ty,
            dst: d,
            a,
            b,
        });
        d
    }
    pub(super) fn cvt(&mut self, from: Ty, to: Ty, a: Reg) -> Reg {
        let d = self.reg();
        self.i(Inst::Cvt {
            from,
            to,
            dst: d,
            src: a,
        });
        d
    }
    /// `base + idx * scale`, idx a u32.
    pub(super) fn elem(&mut self, base: Reg, idx: Reg, scale: u64) -> Reg {
        let i64r = self.cvt(Ty::U32, Ty::U64, idx);
        let d = self.reg();
        self.i(Inst::PtrAdd {
            dst: d,
            base,
            index: i64r,
            scale,
        });
        d
    }
    pub(super) fn load(&mut self, ty: Ty, addr: Reg, what: &str) -> Reg {
        let site = self.site(what);
        let d = self.reg();
        self.i(Inst::Load {
            ty,
            dst: d,
            addr,
            site,
        });
        d
    }
    pub(super) fn store(&mut self, ty: Ty, addr: Reg, src: Reg, what: &str) {
        let site = self.site(what);
        self.i(Inst::Store {
            ty,
            addr,
            src,
            site,
        });
    }
    pub(super) fn barrier(&mut self) {
        let site = self.site("barrier");
        self.i(Inst::Barrier { site });
    }
    /// Global thread index (x).
    pub(super) fn gid(&mut self) -> Reg {
        let (c, n, t) = (
            self.sreg(Sreg::Ctaid(0)),
            self.sreg(Sreg::Ntid(0)),
            self.sreg(Sreg::Tid(0)),
        );
        let m = self.bin(BinOp::Mul, Ty::U32, c, n);
        self.bin(BinOp::Add, Ty::U32, m, t)
    }
}

pub(super) fn ptr_param(name: &str) -> KernelParam {
    KernelParam {
        name: name.into(),
        kind: ParamKind::DevicePtr,
        size: 8,
    }
}

pub(super) fn value_param(name: &str) -> KernelParam {
    KernelParam {
        name: name.into(),
        kind: ParamKind::Value,
        size: 4,
    }
}

/// A module of one kernel `k` (line 5) with body `f`.
pub(super) fn module(mut f: Function, params: Vec<KernelParam>) -> Module {
    if !f.code.last().is_some_and(Inst::ends_block) {
        f.code.push(Inst::Exit);
    }
    Module {
        source: "t.c".into(),
        functions: vec![f],
        kernels: vec![Kernel {
            name: "k".into(),
            func: 0,
            construct: "parallel loop".into(),
            line: 5,
            params,
            max_threads: None,
        }],
        globals: vec![],
    }
}

pub(super) struct Dev {
    pub(super) mem: Memory,
    pub(super) race: RaceState,
    pub(super) prog: Program,
}

pub(super) fn dev(m: &Module) -> Dev {
    m.validate().unwrap();
    // Through the encoding: what a device image carries.
    let bytes = crate::encode::encode(m);
    let back = crate::decode::decode(&bytes).unwrap();
    assert_eq!(&back, m);
    let mut mem = Memory::new(1 << 30);
    let prog = link(&[back], &mut mem).unwrap();
    Dev {
        mem,
        race: RaceState::new(),
        prog,
    }
}

impl Dev {
    pub(super) fn alloc(&mut self, bytes: &[u8]) -> u64 {
        let a = self.mem.alloc(bytes.len() as u64, "allocation").unwrap();
        let p = self.mem.host_range("test", a, bytes.len()).unwrap();
        // SAFETY: a fresh allocation of that size.
        unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), p, bytes.len()) };
        a
    }
    pub(super) fn read(&self, a: u64, n: usize) -> Vec<u8> {
        let p = self.mem.host_range("test", a, n).unwrap();
        // SAFETY: a checked range.
        unsafe { std::slice::from_raw_parts(p, n) }.to_vec()
    }
    pub(super) fn run(
        &mut self,
        mode: RaceMode,
        grid: u32,
        block: [u32; 3],
        params: &[Vec<u8>],
    ) -> (Result<Vec<String>, String>, String) {
        let out = Mutex::new(Vec::new());
        let sink = |b: &[u8]| out.lock().unwrap().extend_from_slice(b);
        let l = Launch {
            kernel: 0,
            grid: [grid, 1, 1],
            block,
            dyn_shared: 0,
            params,
        };
        let r = launch(
            &self.prog,
            &self.mem,
            &mut self.race,
            mode,
            &Limits::default(),
            &l,
            &sink,
            3,
        )
        .map(|r| r.warnings);
        (r, String::from_utf8(out.into_inner().unwrap()).unwrap())
    }
}

pub(super) fn i32s(v: &[i32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

pub(super) fn as_i32s(b: &[u8]) -> Vec<i32> {
    b.chunks(4)
        .map(|c| i32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

/// `if (i < n) a[i] += i` over a grid.
pub(super) fn vector_kernel() -> Module {
    let mut b = B::new("k");
    let a = b.param(Ty::Ptr);
    let n = b.param(Ty::I32);
    let i = b.gid();
    let lt = b.cmp(CmpOp::Lt, Ty::I32, i, n);
    let skip = b.pc() + 1;
    b.i(Inst::BranchIfNot { cond: lt, to: 0 });
    let p = b.elem(a, i, 4);
    let v = b.load(Ty::I32, p, "load of a[i]");
    let s = b.bin(BinOp::Add, Ty::I32, v, i);
    b.store(Ty::I32, p, s, "store to a[i]");
    b.i(Inst::Exit);
    let end = b.pc();
    b.f.code[skip as usize - 1] = Inst::BranchIfNot { cond: lt, to: end };
    b.i(Inst::Exit);
    module(b.f, vec![ptr_param("a"), value_param("n")])
}
