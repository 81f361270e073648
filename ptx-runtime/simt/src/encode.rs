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
//! Owns: [`encode`] and the format's constants; the decoder is
//! [`crate::decode`]. May call: [`crate::code`], [`crate::module`].

use crate::code::{AtomOp, BinOp, CmpOp, Inst, MathFn, Reg, Sreg, Ty, UnOp};
use crate::module::{Function, Linkage, Module, ParamKind, Slot};

/// The first bytes of every encoded module.
pub const MAGIC: &[u8; 8] = b"ACCSIMT\0";
/// Version of this format; a decoder refuses any other.
pub const VERSION: u64 = 3;

/// The instruction names in opcode order (the text form uses them too).
pub const OPCODES: [&str; 36] = [
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
    "bin.imm",
    "cmp.imm",
    "brcmpnot",
    "printf",
    "fma",
];
/// The opcode of `Inst::Print`.
pub(crate) const PRINT_OPCODE: u8 = 34;

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

pub(crate) fn binop_code(op: BinOp) -> u64 {
    use BinOp::*;
    [Add, Sub, Mul, Div, Rem, And, Or, Xor, Shl, Shr, Min, Max]
        .iter()
        .position(|&o| o == op)
        .unwrap_or(0) as u64
}
pub(crate) fn cmpop_code(op: CmpOp) -> u64 {
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
        Inst::BinImm {
            op,
            ty,
            dst,
            a,
            imm,
        } => {
            w.0.push(31);
            w.u(binop_code(op));
            w.ty(ty);
            w.u(dst.into());
            w.u(a.into());
            w.u(imm);
        }
        Inst::CmpImm {
            op,
            ty,
            dst,
            a,
            imm,
        } => {
            w.0.push(32);
            w.u(cmpop_code(op));
            w.ty(ty);
            w.u(dst.into());
            w.u(a.into());
            w.u(imm);
        }
        Inst::BrCmpNot { op, ty, a, b, to } => {
            w.0.push(33);
            w.u(cmpop_code(op));
            w.ty(ty);
            w.u(a.into());
            w.u(b.into());
            w.u(to.into());
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
        Inst::Fma { ty, dst, a, b, c } => {
            w.0.push(35);
            w.ty(ty);
            w.u(dst.into());
            w.u(a.into());
            w.u(b.into());
            w.u(c.into());
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
