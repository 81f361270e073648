//! The text form of a [`ModuleInfo`] (`accc --emit=info`, the `analyze`
//! pass tests): kernels, then device functions, in module order; for each,
//! its parameters' access, the sections its pointers' subscripts reach (by
//! name), then its loops in pre-order with their indexed accesses (in
//! statement order), the scalars of the code around that they assign
//! before reading (`written first`), assign and read, and their reuse.
//!
//! Owns: [`print_info`]. May call: `ir`.

use super::private::Scalar;
use super::sections::Use as PointerUse;
use super::{FunctionInfo, ModuleInfo, Reuse, Stride, Use};
use crate::ir::{print_expr, print_parallelism, Function, LocalId, Module, ParamMode, Type};
use std::fmt::Write;

/// Prints the facts of `info` about `m` (the module it was computed for).
pub fn print_info(m: &Module, info: &ModuleInfo) -> String {
    let mut out = String::new();
    let none = FunctionInfo::default();
    for (i, k) in m.kernels.iter().enumerate() {
        let fi = info.kernels.get(i).unwrap_or(&none);
        let _ = writeln!(out, "kernel @{}", k.name);
        for (j, p) in k.params.iter().enumerate() {
            let what = match (&p.mode, fi.params.get(j)) {
                (ParamMode::Value, _) => "value".to_string(),
                (ParamMode::DevicePtr, Some(a)) => format!("deviceptr {a}"),
                (ParamMode::Scratch, Some(a)) => format!("scratch {a}"),
                (_, None) => "not analysed".to_string(),
            };
            let _ = writeln!(out, "  param {}: {what}", local(&k.body, p.local));
        }
        for (name, u) in &fi.sections {
            let _ = writeln!(out, "  section {name}: {}", section(u));
        }
        loops(&mut out, m, &k.body, fi);
    }
    for (i, f) in m.functions.iter().enumerate() {
        let fi = info.functions.get(i).unwrap_or(&none);
        let _ = writeln!(out, "function @{}", f.name);
        for (j, p) in f.params.iter().enumerate() {
            let what = match (&f.body.local(*p).ty, fi.params.get(j)) {
                (Type::Ptr(_), Some(a)) => a.to_string(),
                (Type::Ptr(_), None) => "not analysed".to_string(),
                _ => "value".to_string(),
            };
            let _ = writeln!(out, "  param {}: {what}", local(&f.body, *p));
        }
        loops(&mut out, m, &f.body, fi);
    }
    out
}

fn local(f: &Function, l: LocalId) -> String {
    format!("{l} {}", f.local(l).name)
}

fn loops(out: &mut String, m: &Module, f: &Function, fi: &FunctionInfo) {
    for l in &fi.loops {
        let vars: Vec<String> = l.vars.iter().map(|v| local(f, *v)).collect();
        let _ = writeln!(
            out,
            "  loop {} at {} {}",
            vars.join(", "),
            l.loc,
            print_parallelism(l.par)
        );
        for a in &l.accesses {
            let used = match a.used {
                Use::Read => "read",
                Use::Write => "write",
                Use::Update => "update",
                Use::Address => "address",
            };
            let strides: Vec<String> = l
                .vars
                .iter()
                .zip(&a.strides)
                .map(|(v, s)| format!("{} {}", local(f, *v), stride(*s)))
                .collect();
            let _ = writeln!(
                out,
                "    {used} {}: {}",
                print_expr(m, f, a.expr),
                strides.join(", ")
            );
        }
        let lists = [
            ("written first", &l.scalars.written_first),
            ("assigned", &l.scalars.assigned),
            ("read", &l.scalars.read),
        ];
        for (what, list) in lists {
            if !list.is_empty() {
                let names: Vec<String> = list.iter().map(|s| scalar(f, *s)).collect();
                let _ = writeln!(out, "    scalars {what}: {}", names.join(", "));
            }
        }
        for r in &l.reuse {
            match r {
                Reuse::Broadcast(e) => {
                    let _ = writeln!(out, "    reuse broadcast {}", print_expr(m, f, *e));
                }
                Reuse::Neighbours { base, offsets, .. } => {
                    let offs: Vec<String> = offsets.iter().map(|o| format!("{o:?}")).collect();
                    let _ = writeln!(out, "    reuse neighbours of {base} at {}", offs.join(" "));
                }
            }
        }
    }
}

/// A pointer's section: its bounds' candidates (bytes from the pointer),
/// guards, reads and writes, and the ranges one store covers.
fn section(u: &PointerUse) -> String {
    let s = match u {
        PointerUse::Unknown(why) => return format!("unknown ({why})"),
        PointerUse::Known(s) => s,
    };
    let list = |v: &[crate::analysis::Poly]| {
        v.iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut text = format!("[{}] to [{}]", list(&s.lo), list(&s.end));
    if !s.guards.is_empty() {
        let _ = write!(text, " if {} >= 0", list(&s.guards));
    }
    let _ = write!(
        text,
        " {}",
        match (s.read, s.written) {
            (true, true) => "read-write",
            (true, false) => "read",
            (false, true) => "written",
            (false, false) => "unused",
        }
    );
    for (lo, end) in &s.covers {
        let _ = write!(text, ", covers [{lo}, {end})");
    }
    text
}

/// A scalar of the code around a loop: `%2 t`, or `*%4 c` for a cell.
fn scalar(f: &Function, s: Scalar) -> String {
    match s {
        Scalar::Local(l) => local(f, l),
        Scalar::Cell(p) => format!("*{}", local(f, p)),
    }
}

fn stride(s: Stride) -> String {
    match s {
        Stride::Contiguous => "contiguous".into(),
        Stride::Invariant => "invariant".into(),
        Stride::Strided(Some(n)) => format!("stride {n}"),
        Stride::Strided(None) => "strided".into(),
    }
}
