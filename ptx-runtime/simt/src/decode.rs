//! The decoder of the byte encoding ([`crate::encode`] describes the
//! format).
//!
//! Owns: [`decode`], which also validates ([`Module::validate`]): a
//! decoded module never holds a dangling index, and corrupt bytes give an
//! error, never a panic or a huge allocation.
//! May call: [`crate::code`], [`crate::module`], [`crate::encode`].

use crate::code::{AtomOp, BinOp, CmpOp, Inst, MathFn, Reg, Sreg, Table, Ty, UnOp};
use crate::encode::{MAGIC, PRINT_OPCODE, VERSION};
use crate::module::{
    Function, Global, Kernel, KernelParam, Linkage, Module, ParamKind, Site, Slot,
};

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

    fn binop(&mut self) -> Res<BinOp> {
        use BinOp as B;
        self.pick(
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
        )
    }

    fn cmpop(&mut self) -> Res<CmpOp> {
        self.pick(
            &[
                CmpOp::Eq,
                CmpOp::Ne,
                CmpOp::Lt,
                CmpOp::Le,
                CmpOp::Gt,
                CmpOp::Ge,
            ],
            "comparison",
        )
    }

    fn inst(&mut self) -> Res<Inst> {
        let op = self.byte()?;
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
                op: self.binop()?,
                ty: self.ty()?,
                dst: self.u32()?,
                a: self.u32()?,
                b: self.u32()?,
            },
            3 => Inst::Cmp {
                op: self.cmpop()?,
                ty: self.ty()?,
                dst: self.u32()?,
                a: self.u32()?,
                b: self.u32()?,
            },
            31 => Inst::BinImm {
                op: self.binop()?,
                ty: self.ty()?,
                dst: self.u32()?,
                a: self.u32()?,
                imm: self.u()?,
            },
            32 => Inst::CmpImm {
                op: self.cmpop()?,
                ty: self.ty()?,
                dst: self.u32()?,
                a: self.u32()?,
                imm: self.u()?,
            },
            33 => Inst::BrCmpNot {
                op: self.cmpop()?,
                ty: self.ty()?,
                a: self.u32()?,
                b: self.u32()?,
                to: self.u32()?,
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
            35 => Inst::Fma {
                ty: self.ty()?,
                dst: self.u32()?,
                a: self.u32()?,
                b: self.u32()?,
                c: self.u32()?,
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
