//! The text form of a module (`accc --emit=simt`): one line per
//! instruction, `pc: op[.type] operands`, with the site of memory and
//! synchronisation instructions as a comment. For reading and snapshot
//! tests; nothing parses it back.
//!
//! Owns: [`module_text`]. May call: [`crate::code`], [`crate::module`],
//! [`crate::encode`] (the opcode names).

use crate::code::{AtomOp, BinOp, CmpOp, Inst, Sreg, UnOp};
use crate::encode::OPCODES;
use crate::module::{Function, Linkage, Module, ParamKind, Slot};
use std::fmt::Write;

fn binop(op: BinOp) -> &'static str {
    match op {
        BinOp::Add => "add",
        BinOp::Sub => "sub",
        BinOp::Mul => "mul",
        BinOp::Div => "div",
        BinOp::Rem => "rem",
        BinOp::And => "and",
        BinOp::Or => "or",
        BinOp::Xor => "xor",
        BinOp::Shl => "shl",
        BinOp::Shr => "shr",
        BinOp::Min => "min",
        BinOp::Max => "max",
    }
}

fn cmpop(op: CmpOp) -> &'static str {
    match op {
        CmpOp::Eq => "eq",
        CmpOp::Ne => "ne",
        CmpOp::Lt => "lt",
        CmpOp::Le => "le",
        CmpOp::Gt => "gt",
        CmpOp::Ge => "ge",
    }
}

fn atomop(op: AtomOp) -> &'static str {
    match op {
        AtomOp::Add => "add",
        AtomOp::Sub => "sub",
        AtomOp::Min => "min",
        AtomOp::Max => "max",
        AtomOp::And => "and",
        AtomOp::Or => "or",
        AtomOp::Xor => "xor",
        AtomOp::Exch => "exch",
        AtomOp::IncWrap => "inc",
    }
}

fn sreg(s: Sreg) -> String {
    let (n, d) = match s {
        Sreg::Tid(d) => ("tid", d),
        Sreg::Ctaid(d) => ("ctaid", d),
        Sreg::Ntid(d) => ("ntid", d),
        Sreg::Nctaid(d) => ("nctaid", d),
    };
    format!(
        "%{n}.{}",
        ["x", "y", "z"].get(usize::from(d)).unwrap_or(&"?")
    )
}

fn opt(r: Option<u32>) -> String {
    r.map_or("_".to_string(), |r| format!("r{r}"))
}

/// One instruction (without its pc and site).
pub fn inst_text(f: &Function, i: &Inst) -> String {
    let pool = |start: u32, n: u32| -> String {
        (start..start + n)
            .map(|k| {
                let k = k as usize;
                match (f.args.get(k), f.arg_types.get(k)) {
                    (Some(r), Some(t)) => format!("r{r}:{}", t.name()),
                    (Some(r), None) => format!("r{r}"),
                    _ => "?".to_string(),
                }
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    match *i {
        Inst::Const { dst, bits } => format!("const r{dst}, {bits:#x}"),
        Inst::Mov { dst, src } => format!("mov r{dst}, r{src}"),
        Inst::Bin { op, ty, dst, a, b } => {
            format!("{}.{} r{dst}, r{a}, r{b}", binop(op), ty.name())
        }
        Inst::Cmp { op, ty, dst, a, b } => {
            format!("set{}.{} r{dst}, r{a}, r{b}", cmpop(op), ty.name())
        }
        Inst::BinImm {
            op,
            ty,
            dst,
            a,
            imm,
        } => format!("{}.{} r{dst}, r{a}, {imm:#x}", binop(op), ty.name()),
        Inst::CmpImm {
            op,
            ty,
            dst,
            a,
            imm,
        } => format!("set{}.{} r{dst}, r{a}, {imm:#x}", cmpop(op), ty.name()),
        Inst::BrCmpNot { op, ty, a, b, to } => {
            format!("brnot.{}.{} r{a}, r{b}, {to}", cmpop(op), ty.name())
        }
        Inst::Un { op, ty, dst, a } => format!(
            "{}.{} r{dst}, r{a}",
            if op == UnOp::Neg { "neg" } else { "not" },
            ty.name()
        ),
        Inst::Cvt { from, to, dst, src } => {
            format!("cvt.{}.{} r{dst}, r{src}", to.name(), from.name())
        }
        Inst::PtrAdd {
            dst,
            base,
            index,
            scale,
        } => format!("ptradd r{dst}, r{base}, r{index} * {scale}"),
        Inst::Sreg { dst, sreg: s } => format!("mov r{dst}, {}", sreg(s)),
        Inst::LocalAddr { dst, offset } => format!("localaddr r{dst}, frame+{offset}"),
        Inst::SharedAddr { dst, offset } => format!("sharedaddr r{dst}, shared+{offset}"),
        Inst::GlobalAddr { dst, global } => format!("globaladdr r{dst}, global{global}"),
        Inst::Load { ty, dst, addr, .. } => format!("ld.{} r{dst}, [r{addr}]", ty.name()),
        Inst::Store { ty, addr, src, .. } => format!("st.{} [r{addr}], r{src}", ty.name()),
        Inst::Copy {
            dst, src, bytes, ..
        } => format!("copy [r{dst}], [r{src}], {bytes}"),
        Inst::Jump { to } => format!("jmp {to}"),
        Inst::BranchIf { cond, to } => format!("brif r{cond}, {to}"),
        Inst::BranchIfNot { cond, to } => format!("brifnot r{cond}, {to}"),
        Inst::Switch { value, ty, table } => {
            let t = f.tables.get(table as usize);
            let cases = t.map_or(String::new(), |t| {
                t.cases
                    .iter()
                    .map(|(v, to)| format!("{v:#x}: {to}"))
                    .chain(std::iter::once(format!("default: {}", t.default)))
                    .collect::<Vec<_>>()
                    .join(", ")
            });
            format!("switch.{} r{value}, [{cases}]", ty.name())
        }
        Inst::Call {
            func,
            args,
            nargs,
            ret,
        } => format!("call {} = f{func}({})", opt(ret), pool(args, nargs)),
        Inst::Ret { value } => format!("ret {}", opt(value)),
        Inst::Exit => "exit".to_string(),
        Inst::Barrier { .. } => "bar.sync 0".to_string(),
        Inst::BarNamed { id, count, .. } => format!("bar.sync r{id}, r{count}"),
        Inst::WarpSync { mask, .. } => format!("bar.warp.sync r{mask}"),
        Inst::Shfl {
            ty,
            dst,
            value,
            lane_xor,
            members,
            ..
        } => format!(
            "shfl.bfly.{} r{dst}, r{value}, r{lane_xor}, r{members}",
            ty.name()
        ),
        Inst::Atom {
            op,
            ty,
            dst,
            addr,
            value,
            ..
        } => format!(
            "atom.{}.{} {}, [r{addr}], r{value}",
            atomop(op),
            ty.name(),
            opt(dst)
        ),
        Inst::Cas {
            ty,
            old,
            ok,
            addr,
            expected,
            desired,
            ..
        } => format!(
            "atom.cas.{} r{old}, r{ok}, [r{addr}], r{expected}, r{desired}",
            ty.name()
        ),
        Inst::AtomLoad { ty, dst, addr, .. } => {
            format!("atom.ld.{} r{dst}, [r{addr}]", ty.name())
        }
        Inst::AtomStore { ty, addr, src, .. } => {
            format!("atom.st.{} [r{addr}], r{src}", ty.name())
        }
        Inst::Fence => OPCODES[29].to_string(),
        Inst::Math {
            f: m,
            ty,
            dst,
            a,
            b,
        } => {
            if m.arity() == 2 {
                format!("{}.{} r{dst}, r{a}, r{b}", m.name(), ty.name())
            } else {
                format!("{}.{} r{dst}, r{a}", m.name(), ty.name())
            }
        }
        Inst::Fma { ty, dst, a, b, c } => {
            format!("fma.{} r{dst}, r{a}, r{b}, r{c}", ty.name())
        }
        Inst::Print {
            format,
            args,
            nargs,
        } => {
            let s = f
                .strings
                .get(format as usize)
                .map(|b| String::from_utf8_lossy(b).escape_debug().to_string())
                .unwrap_or_default();
            format!("printf \"{s}\"({})", pool(args, nargs))
        }
    }
}

fn site_of(i: &Inst) -> Option<u32> {
    match *i {
        Inst::Load { site, .. }
        | Inst::Store { site, .. }
        | Inst::Copy { site, .. }
        | Inst::Barrier { site }
        | Inst::BarNamed { site, .. }
        | Inst::WarpSync { site, .. }
        | Inst::Shfl { site, .. }
        | Inst::Atom { site, .. }
        | Inst::Cas { site, .. }
        | Inst::AtomLoad { site, .. }
        | Inst::AtomStore { site, .. } => Some(site),
        _ => None,
    }
}

fn function_text(out: &mut String, index: usize, f: &Function) {
    let linkage = match f.linkage {
        Linkage::Internal => "internal",
        Linkage::Export => "export",
        Linkage::Import => "import",
    };
    let params: Vec<String> = f
        .params
        .iter()
        .map(|p| match *p {
            Slot::Reg(r, t) => format!("r{r}:{}", t.name()),
            Slot::Frame { offset, size } => format!("frame+{offset}:{size}"),
        })
        .collect();
    let ret = f.ret.map_or("void".to_string(), |t| t.name().to_string());
    let _ = writeln!(
        out,
        "\nfunc f{index} {} {linkage} ({}) -> {ret}  regs={} frame={} shared={}",
        f.name,
        params.join(", "),
        f.nregs,
        f.frame_bytes,
        f.shared_bytes
    );
    if f.linkage == Linkage::Import {
        return;
    }
    if !f.reg_names.is_empty() {
        let names: Vec<String> = f
            .reg_names
            .iter()
            .map(|(r, n)| format!("r{r}={n}"))
            .collect();
        let _ = writeln!(out, "  ; {}", names.join(" "));
    }
    for (pc, i) in f.code.iter().enumerate() {
        let mut line = format!("  {pc:4}: {}", inst_text(f, i));
        if let Some(s) = site_of(i).and_then(|s| f.sites.get(s as usize)) {
            match s.line {
                0 => {
                    let _ = write!(line, "  ; {}", s.text);
                }
                l => {
                    let _ = write!(line, "  ; {l}:{} {}", s.col, s.text);
                }
            }
        }
        let _ = writeln!(out, "{}", line.trim_end());
    }
}

/// The text form of `m`.
pub fn module_text(m: &Module) -> String {
    let mut out = format!("simt module \"{}\"\n", m.source.escape_debug());
    for (i, g) in m.globals.iter().enumerate() {
        let _ = writeln!(out, "global{i} {} {} bytes", g.symbol, g.size);
    }
    for k in &m.kernels {
        let params: Vec<String> = k
            .params
            .iter()
            .map(|p| {
                let kind = match p.kind {
                    ParamKind::Value => "value",
                    ParamKind::DevicePtr => "deviceptr",
                    ParamKind::Scratch => "scratch",
                };
                format!("{} {kind} {}", p.name, p.size)
            })
            .collect();
        let max = k
            .max_threads
            .map_or(String::new(), |n| format!(" maxntid={n}"));
        let _ = writeln!(
            out,
            "kernel {} \"{}\" line {} = f{}{max} ({})",
            k.name,
            k.construct,
            k.line,
            k.func,
            params.join(", ")
        );
    }
    for (i, f) in m.functions.iter().enumerate() {
        function_text(&mut out, i, f);
    }
    out
}
