//! The byte encoding of a [`Module`] (what a device image carries) and its
//! decoder.
//!
//! Format: the magic `ACCSIMT\0`, a format version (varint), then the
//! module. Every integer is an unsigned LEB128 varint; a string or byte
//! string is its length then its bytes; a list is its length then its
//! items; an optional register is 0 (none) or the register + 1; a type is
//! [`Ty::code`]. An instruction is its opcode byte (the order of
//! [`OPCODES`]) followed by its fields in declaration order. Function:
//! name, linkage (0 internal, 1 export, 2 import), params (0 reg ty | 1
//! offset size), ret (0 none | 1 ty), nregs, frame, shared, code, tables
//! (cases (value, target)…, default), args, arg types, strings, sites
//! (line, col, text), register names (reg, name). Kernel: name, func,
//! construct, line, params (name, kind 0/1/2, size), max threads (0 none |
//! n + 1). Global: symbol, size. Module: source, functions, kernels,
//! globals.
//!
//! Owns: [`encode`], [`decode`] (which also validates: a decoded module
//! never holds a dangling index). May call: [`crate::code`],
//! [`crate::module`].

use crate::code::{AtomOp, BinOp, CmpOp, Inst, MathFn, Reg, Sreg, Table, Ty, UnOp};
use crate::module::{
    Function, Global, Kernel, KernelParam, Linkage, Module, ParamKind, Site, Slot,
};

/// The first bytes of every encoded module.
pub const MAGIC: &[u8; 8] = b"ACCSIMT\0";
/// Version of this format; a decoder refuses any other.
pub const VERSION: u64 = 1;

/// The instruction names in opcode order (the text form uses them too).
pub const OPCODES: [&str; 31] = [
    "const",
    "mov",
    "bin",
    "cmp",
    "un",
    "cvt",
    "ptradd",
    "sreg",
    "localaddr",
    "sharedaddr",
    "globaladdr",
    "ld",
    "st",
    "copy",
    "jmp",
    "brif",
    "brifnot",
    "switch",
    "call",
    "ret",
    "exit",
    "bar",
    "bar.named",
    "bar.warp",
    "shfl",
    "atom",
    "cas",
    "atom.ld",
    "atom.st",
    "fence",
    "math",
];
const PRINT_OPCODE: u8 = 31;

struct W(Vec<u8>);

impl W {
    fn u(&mut self, mut v: u64) {
        loop {
            let b = (v & 0x7f) as u8;
            v >>= 7;
            if v == 0 {
                self.0.push(b);
                return;
            }
            self.0.push(b | 0x80);
        }
    }
    fn bytes(&mut self, b: &[u8]) {
        self.u(b.len() as u64);
        self.0.extend_from_slice(b);
    }
    fn str(&mut self, s: &str) {
        self.bytes(s.as_bytes());
    }
    fn ty(&mut self, t: Ty) {
        self.0.push(t.code());
    }
    fn opt(&mut self, r: Option<Reg>) {
        self.u(r.map_or(0, |r| u64::from(r) + 1));
    }
}

fn binop_code(op: BinOp) -> u64 {
    use BinOp::*;
    [Add, Sub, Mul, Div, Rem, And, Or, Xor, Shl, Shr, Min, Max]
        .iter()
        .position(|&o| o == op)
        .unwrap_or(0) as u64
}
fn cmpop_code(op: CmpOp) -> u64 {
    use CmpOp::*;
    [Eq, Ne, Lt, Le, Gt, Ge]
        .iter()
        .position(|&o| o == op)
        .unwrap_or(0) as u64
}
fn atomop_code(op: AtomOp) -> u64 {
    use AtomOp::*;
    [Add, Sub, Min, Max, And, Or, Xor, Exch, IncWrap]
        .iter()
        .position(|&o| o == op)
        .unwrap_or(0) as u64
}
fn sreg_code(s: Sreg) -> u64 {
    let (k, d) = match s {
        Sreg::Tid(d) => (0, d),
        Sreg::Ctaid(d) => (1, d),
        Sreg::Ntid(d) => (2, d),
        Sreg::Nctaid(d) => (3, d),
    };
    k * 3 + u64::from(d.min(2))
}

fn inst(w: &mut W, i: &Inst) {
    match *i {
        Inst::Const { dst, bits } => {
            w.0.push(0);
            w.u(dst.into());
            w.u(bits);
        }
        Inst::Mov { dst, src } => {
            w.0.push(1);
            w.u(dst.into());
            w.u(src.into());
        }
        Inst::Bin { op, ty, dst, a, b } => {
            w.0.push(2);
            w.u(binop_code(op));
            w.ty(ty);
            w.u(dst.into());
            w.u(a.into());
            w.u(b.into());
        }
        Inst::Cmp { op, ty, dst, a, b } => {
            w.0.push(3);
            w.u(cmpop_code(op));
            w.ty(ty);
            w.u(dst.into());
            w.u(a.into());
            w.u(b.into());
        }
        Inst::Un { op, ty, dst, a } => {
            w.0.push(4);
            w.u(u64::from(op == UnOp::Not));
            w.ty(ty);
            w.u(dst.into());
            w.u(a.into());
        }
        Inst::Cvt { from, to, dst, src } => {
            w.0.push(5);
            w.ty(from);
            w.ty(to);
            w.u(dst.into());
            w.u(src.into());
        }
        Inst::PtrAdd {
            dst,
            base,
            index,
            scale,
        } => {
            w.0.push(6);
            w.u(dst.into());
            w.u(base.into());
            w.u(index.into());
            w.u(scale);
        }
        Inst::Sreg { dst, sreg } => {
            w.0.push(7);
            w.u(dst.into());
            w.u(sreg_code(sreg));
        }
        Inst::LocalAddr { dst, offset } => {
            w.0.push(8);
            w.u(dst.into());
            w.u(offset.into());
        }
        Inst::SharedAddr { dst, offset } => {
            w.0.push(9);
            w.u(dst.into());
            w.u(offset.into());
        }
        Inst::GlobalAddr { dst, global } => {
            w.0.push(10);
            w.u(dst.into());
            w.u(global.into());
        }
        Inst::Load {
            ty,
            dst,
            addr,
            site,
        } => {
            w.0.push(11);
            w.ty(ty);
            w.u(dst.into());
            w.u(addr.into());
            w.u(site.into());
        }
        Inst::Store {
            ty,
            addr,
            src,
            site,
        } => {
            w.0.push(12);
            w.ty(ty);
            w.u(addr.into());
            w.u(src.into());
            w.u(site.into());
        }
        Inst::Copy {
            dst,
            src,
            bytes,
            site,
        } => {
            w.0.push(13);
            w.u(dst.into());
            w.u(src.into());
            w.u(bytes);
            w.u(site.into());
        }
        Inst::Jump { to } => {
            w.0.push(14);
            w.u(to.into());
        }
        Inst::BranchIf { cond, to } => {
            w.0.push(15);
            w.u(cond.into());
            w.u(to.into());
        }
        Inst::BranchIfNot { cond, to } => {
            w.0.push(16);
            w.u(cond.into());
            w.u(to.into());
        }
        Inst::Switch { value, ty, table } => {
            w.0.push(17);
            w.u(value.into());
            w.ty(ty);
            w.u(table.into());
        }
        Inst::Call {
            func,
            args,
            nargs,
            ret,
        } => {
            w.0.push(18);
            w.u(func.into());
            w.u(args.into());
            w.u(nargs.into());
            w.opt(ret);
        }
        Inst::Ret { value } => {
            w.0.push(19);
            w.opt(value);
        }
        Inst::Exit => w.0.push(20),
        Inst::Barrier { site } => {
            w.0.push(21);
            w.u(site.into());
        }
        Inst::BarNamed { id, count, site } => {
            w.0.push(22);
            w.u(id.into());
            w.u(count.into());
            w.u(site.into());
        }
        Inst::WarpSync { mask, site } => {
            w.0.push(23);
            w.u(mask.into());
            w.u(site.into());
        }
        Inst::Shfl {
            ty,
            dst,
            value,
            lane_xor,
            members,
            site,
        } => {
            w.0.push(24);
            w.ty(ty);
            w.u(dst.into());
            w.u(value.into());
            w.u(lane_xor.into());
            w.u(members.into());
            w.u(site.into());
        }
        Inst::Atom {
            op,
            ty,
            dst,
            addr,
            value,
            site,
        } => {
            w.0.push(25);
            w.u(atomop_code(op));
            w.ty(ty);
            w.opt(dst);
            w.u(addr.into());
            w.u(value.into());
            w.u(site.into());
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
            w.0.push(26);
            w.ty(ty);
            for r in [old, ok, addr, expected, desired] {
                w.u(r.into());
            }
            w.u(site.into());
        }
        Inst::AtomLoad {
            ty,
            dst,
            addr,
            site,
        } => {
            w.0.push(27);
            w.ty(ty);
            w.u(dst.into());
            w.u(addr.into());
            w.u(site.into());
        }
        Inst::AtomStore {
            ty,
            addr,
            src,
            site,
        } => {
            w.0.push(28);
            w.ty(ty);
            w.u(addr.into());
            w.u(src.into());
            w.u(site.into());
        }
        Inst::Fence => w.0.push(29),
        Inst::Math { f, ty, dst, a, b } => {
            w.0.push(30);
            w.u(MathFn::ALL.iter().position(|&m| m == f).unwrap_or(0) as u64);
            w.ty(ty);
            w.u(dst.into());
            w.u(a.into());
            w.u(b.into());
        }
        Inst::Print {
            format,
            args,
            nargs,
        } => {
            w.0.push(PRINT_OPCODE);
            w.u(format.into());
            w.u(args.into());
            w.u(nargs.into());
        }
    }
}

fn function(w: &mut W, f: &Function) {
    w.str(&f.name);
    w.u(match f.linkage {
        Linkage::Internal => 0,
        Linkage::Export => 1,
        Linkage::Import => 2,
    });
    w.u(f.params.len() as u64);
    for p in &f.params {
        match *p {
            Slot::Reg(r, t) => {
                w.u(0);
                w.u(r.into());
                w.ty(t);
            }
            Slot::Frame { offset, size } => {
                w.u(1);
                w.u(offset.into());
                w.u(size.into());
            }
        }
    }
    match f.ret {
        None => w.u(0),
        Some(t) => {
            w.u(1);
            w.ty(t);
        }
    }
    w.u(f.nregs.into());
    w.u(f.frame_bytes.into());
    w.u(f.shared_bytes.into());
    w.u(f.code.len() as u64);
    for i in &f.code {
        inst(w, i);
    }
    w.u(f.tables.len() as u64);
    for t in &f.tables {
        w.u(t.cases.len() as u64);
        for &(v, to) in &t.cases {
            w.u(v);
            w.u(to.into());
        }
        w.u(t.default.into());
    }
    w.u(f.args.len() as u64);
    for &a in &f.args {
        w.u(a.into());
    }
    w.u(f.arg_types.len() as u64);
    for &t in &f.arg_types {
        w.ty(t);
    }
    w.u(f.strings.len() as u64);
    for s in &f.strings {
        w.bytes(s);
    }
    w.u(f.sites.len() as u64);
    for s in &f.sites {
        w.u(s.line.into());
        w.u(s.col.into());
        w.str(&s.text);
    }
    w.u(f.reg_names.len() as u64);
    for (r, n) in &f.reg_names {
        w.u((*r).into());
        w.str(n);
    }
}

/// The bytes of `m`.
pub fn encode(m: &Module) -> Vec<u8> {
    let mut w = W(MAGIC.to_vec());
    w.u(VERSION);
    w.str(&m.source);
    w.u(m.functions.len() as u64);
    for f in &m.functions {
        function(&mut w, f);
    }
    w.u(m.kernels.len() as u64);
    for k in &m.kernels {
        w.str(&k.name);
        w.u(k.func.into());
        w.str(&k.construct);
        w.u(k.line.into());
        w.u(k.params.len() as u64);
        for p in &k.params {
            w.str(&p.name);
            w.u(match p.kind {
                ParamKind::Value => 0,
                ParamKind::DevicePtr => 1,
                ParamKind::Scratch => 2,
            });
            w.u(p.size.into());
        }
        w.u(k.max_threads.map_or(0, |n| u64::from(n) + 1));
    }
    w.u(m.globals.len() as u64);
    for g in &m.globals {
        w.str(&g.symbol);
        w.u(g.size.into());
    }
    w.0
}

struct R<'a> {
    b: &'a [u8],
    at: usize,
}

type Res<T> = Result<T, String>;

impl R<'_> {
    fn byte(&mut self) -> Res<u8> {
        let b = *self
            .b
            .get(self.at)
            .ok_or_else(|| format!("truncated at byte {}", self.at))?;
        self.at += 1;
        Ok(b)
    }
    fn u(&mut self) -> Res<u64> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?;
            v |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err(format!("varint too long at byte {}", self.at))
    }
    fn u32(&mut self) -> Res<u32> {
        let v = self.u()?;
        u32::try_from(v).map_err(|_| format!("value {v} too large at byte {}", self.at))
    }
    /// A count of items of at least one byte each (never more than what
    /// is left, so a corrupt count cannot make a huge allocation).
    fn count(&mut self) -> Res<usize> {
        let n = self.u()?;
        let left = (self.b.len() - self.at) as u64;
        if n > left {
            return Err(format!("count {n} exceeds the {left} bytes left"));
        }
        Ok(n as usize)
    }
    fn bytes(&mut self) -> Res<Vec<u8>> {
        let n = self.count()?;
        let v = self.b[self.at..self.at + n].to_vec();
        self.at += n;
        Ok(v)
    }
    fn str(&mut self) -> Res<String> {
        String::from_utf8(self.bytes()?).map_err(|_| "a string is not UTF-8".to_string())
    }
    fn ty(&mut self) -> Res<Ty> {
        let c = self.byte()?;
        Ty::from_code(c).ok_or_else(|| format!("bad type code {c}"))
    }
    fn opt(&mut self) -> Res<Option<Reg>> {
        let v = self.u32()?;
        Ok(v.checked_sub(1))
    }
    fn pick<T: Copy>(&mut self, all: &[T], what: &str) -> Res<T> {
        let c = self.u()?;
        all.get(c as usize)
            .copied()
            .ok_or_else(|| format!("bad {what} code {c}"))
    }

    fn inst(&mut self) -> Res<Inst> {
        let op = self.byte()?;
        use BinOp as B;
        Ok(match op {
            0 => Inst::Const {
                dst: self.u32()?,
                bits: self.u()?,
            },
            1 => Inst::Mov {
                dst: self.u32()?,
                src: self.u32()?,
            },
            2 => Inst::Bin {
                op: self.pick(
                    &[
                        B::Add,
                        B::Sub,
                        B::Mul,
                        B::Div,
                        B::Rem,
                        B::And,
                        B::Or,
                        B::Xor,
                        B::Shl,
                        B::Shr,
                        B::Min,
                        B::Max,
                    ],
                    "operator",
                )?,
                ty: self.ty()?,
                dst: self.u32()?,
                a: self.u32()?,
                b: self.u32()?,
            },
            3 => Inst::Cmp {
                op: self.pick(
                    &[
                        CmpOp::Eq,
                        CmpOp::Ne,
                        CmpOp::Lt,
                        CmpOp::Le,
                        CmpOp::Gt,
                        CmpOp::Ge,
                    ],
                    "comparison",
                )?,
                ty: self.ty()?,
                dst: self.u32()?,
                a: self.u32()?,
                b: self.u32()?,
            },
            4 => Inst::Un {
                op: self.pick(&[UnOp::Neg, UnOp::Not], "unary operator")?,
                ty: self.ty()?,
                dst: self.u32()?,
                a: self.u32()?,
            },
            5 => Inst::Cvt {
                from: self.ty()?,
                to: self.ty()?,
                dst: self.u32()?,
                src: self.u32()?,
            },
            6 => Inst::PtrAdd {
                dst: self.u32()?,
                base: self.u32()?,
                index: self.u32()?,
                scale: self.u()?,
            },
            7 => {
                let dst = self.u32()?;
                let c = self.u()?;
                let d = (c % 3) as u8;
                let sreg = match c / 3 {
                    0 => Sreg::Tid(d),
                    1 => Sreg::Ctaid(d),
                    2 => Sreg::Ntid(d),
                    3 => Sreg::Nctaid(d),
                    _ => return Err(format!("bad launch register code {c}")),
                };
                Inst::Sreg { dst, sreg }
            }
            8 => Inst::LocalAddr {
                dst: self.u32()?,
                offset: self.u32()?,
            },
            9 => Inst::SharedAddr {
                dst: self.u32()?,
                offset: self.u32()?,
            },
            10 => Inst::GlobalAddr {
                dst: self.u32()?,
                global: self.u32()?,
            },
            11 => Inst::Load {
                ty: self.ty()?,
                dst: self.u32()?,
                addr: self.u32()?,
                site: self.u32()?,
            },
            12 => Inst::Store {
                ty: self.ty()?,
                addr: self.u32()?,
                src: self.u32()?,
                site: self.u32()?,
            },
            13 => Inst::Copy {
                dst: self.u32()?,
                src: self.u32()?,
                bytes: self.u()?,
                site: self.u32()?,
            },
            14 => Inst::Jump { to: self.u32()? },
            15 => Inst::BranchIf {
                cond: self.u32()?,
                to: self.u32()?,
            },
            16 => Inst::BranchIfNot {
                cond: self.u32()?,
                to: self.u32()?,
            },
            17 => Inst::Switch {
                value: self.u32()?,
                ty: self.ty()?,
                table: self.u32()?,
            },
            18 => Inst::Call {
                func: self.u32()?,
                args: self.u32()?,
                nargs: self.u32()?,
                ret: self.opt()?,
            },
            19 => Inst::Ret { value: self.opt()? },
            20 => Inst::Exit,
            21 => Inst::Barrier { site: self.u32()? },
            22 => Inst::BarNamed {
                id: self.u32()?,
                count: self.u32()?,
                site: self.u32()?,
            },
            23 => Inst::WarpSync {
                mask: self.u32()?,
                site: self.u32()?,
            },
            24 => Inst::Shfl {
                ty: self.ty()?,
                dst: self.u32()?,
                value: self.u32()?,
                lane_xor: self.u32()?,
                members: self.u32()?,
                site: self.u32()?,
            },
            25 => {
                use AtomOp as A;
                Inst::Atom {
                    op: self.pick(
                        &[
                            A::Add,
                            A::Sub,
                            A::Min,
                            A::Max,
                            A::And,
                            A::Or,
                            A::Xor,
                            A::Exch,
                            A::IncWrap,
                        ],
                        "atomic operation",
                    )?,
                    ty: self.ty()?,
                    dst: self.opt()?,
                    addr: self.u32()?,
                    value: self.u32()?,
                    site: self.u32()?,
                }
            }
            26 => Inst::Cas {
                ty: self.ty()?,
                old: self.u32()?,
                ok: self.u32()?,
                addr: self.u32()?,
                expected: self.u32()?,
                desired: self.u32()?,
                site: self.u32()?,
            },
            27 => Inst::AtomLoad {
                ty: self.ty()?,
                dst: self.u32()?,
                addr: self.u32()?,
                site: self.u32()?,
            },
            28 => Inst::AtomStore {
                ty: self.ty()?,
                addr: self.u32()?,
                src: self.u32()?,
                site: self.u32()?,
            },
            29 => Inst::Fence,
            30 => Inst::Math {
                f: self.pick(&MathFn::ALL, "math function")?,
                ty: self.ty()?,
                dst: self.u32()?,
                a: self.u32()?,
                b: self.u32()?,
            },
            PRINT_OPCODE => Inst::Print {
                format: self.u32()?,
                args: self.u32()?,
                nargs: self.u32()?,
            },
            _ => return Err(format!("bad opcode {op} at byte {}", self.at - 1)),
        })
    }

    fn function(&mut self) -> Res<Function> {
        let name = self.str()?;
        let linkage = self.pick(
            &[Linkage::Internal, Linkage::Export, Linkage::Import],
            "linkage",
        )?;
        let mut f = Function::new(&name, linkage);
        for _ in 0..self.count()? {
            f.params.push(match self.u()? {
                0 => Slot::Reg(self.u32()?, self.ty()?),
                1 => Slot::Frame {
                    offset: self.u32()?,
                    size: self.u32()?,
                },
                k => return Err(format!("bad parameter slot kind {k}")),
            });
        }
        f.ret = match self.u()? {
            0 => None,
            1 => Some(self.ty()?),
            k => return Err(format!("bad result kind {k}")),
        };
        f.nregs = self.u32()?;
        f.frame_bytes = self.u32()?;
        f.shared_bytes = self.u32()?;
        for _ in 0..self.count()? {
            f.code.push(self.inst()?);
        }
        for _ in 0..self.count()? {
            let mut cases = vec![];
            for _ in 0..self.count()? {
                cases.push((self.u()?, self.u32()?));
            }
            let default = self.u32()?;
            f.tables.push(Table { cases, default });
        }
        for _ in 0..self.count()? {
            f.args.push(self.u32()?);
        }
        for _ in 0..self.count()? {
            f.arg_types.push(self.ty()?);
        }
        for _ in 0..self.count()? {
            f.strings.push(self.bytes()?);
        }
        for _ in 0..self.count()? {
            f.sites.push(Site {
                line: self.u32()?,
                col: self.u32()?,
                text: self.str()?,
            });
        }
        for _ in 0..self.count()? {
            f.reg_names.push((self.u32()?, self.str()?));
        }
        Ok(f)
    }
}

/// The module encoded in `bytes`, validated ([`Module::validate`]).
pub fn decode(bytes: &[u8]) -> Result<Module, String> {
    let body = bytes
        .strip_prefix(&MAGIC[..])
        .ok_or("not SIMT bytecode (no ACCSIMT magic)")?;
    let mut r = R { b: body, at: 0 };
    let v = r.u()?;
    if v != VERSION {
        return Err(format!(
            "SIMT bytecode version {v}, this emulator reads version {VERSION} (recompile with this accc)"
        ));
    }
    let mut m = Module {
        source: r.str()?,
        ..Module::default()
    };
    for _ in 0..r.count()? {
        m.functions.push(r.function()?);
    }
    for _ in 0..r.count()? {
        let name = r.str()?;
        let func = r.u32()?;
        let construct = r.str()?;
        let line = r.u32()?;
        let mut params = vec![];
        for _ in 0..r.count()? {
            params.push(KernelParam {
                name: r.str()?,
                kind: r.pick(
                    &[ParamKind::Value, ParamKind::DevicePtr, ParamKind::Scratch],
                    "parameter kind",
                )?,
                size: r.u32()?,
            });
        }
        let max_threads = r.u32()?.checked_sub(1);
        m.kernels.push(Kernel {
            name,
            func,
            construct,
            line,
            params,
            max_threads,
        });
    }
    for _ in 0..r.count()? {
        m.globals.push(Global {
            symbol: r.str()?,
            size: r.u32()?,
        });
    }
    if r.at != body.len() {
        return Err(format!("{} bytes after the module", body.len() - r.at));
    }
    m.validate()?;
    Ok(m)
}
