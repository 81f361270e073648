//! The text form of the IR (`accc --emit=ir`), used by snapshot tests.
//!
//! Owns: the printer. Expressions print inline as trees, e.g.
//! `add.i32(load.i32(ptradd(%0 a, %3 i)), 1)`; statements one per line.

use super::expr::{Expr, ExprId, Literal, Special};
use super::function::Function;
use super::module::{DeviceFunction, GridSize, Kernel, Linkage, Module, ParamMode};
use super::stmt::{Block, LoopCmp, Parallelism, Stmt};
use std::fmt::Write;

/// Prints a whole module.
pub fn print_module(m: &Module) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "module \"{}\"", m.source);
    for f in &m.functions {
        print_function(&mut out, f, m);
    }
    for k in &m.kernels {
        print_kernel(&mut out, k, m);
    }
    out
}

fn print_function(out: &mut String, f: &DeviceFunction, m: &Module) {
    let linkage = match f.linkage {
        Linkage::Internal => "internal",
        Linkage::Export => "export",
        Linkage::Import => "import",
    };
    let params: Vec<String> = f
        .params
        .iter()
        .map(|p| {
            let l = f.body.local(*p);
            format!("{p} {}: {}", l.name, l.ty)
        })
        .collect();
    let _ = write!(
        out,
        "\nfunction {linkage} {:?} @{}({}) -> {} at {}",
        f.level,
        f.name,
        params.join(", "),
        f.ret,
        f.loc
    );
    if f.linkage == Linkage::Import {
        let _ = writeln!(out);
        return;
    }
    let _ = writeln!(out);
    print_locals(out, &f.body, &f.params);
    let p = Printer { f: &f.body, m };
    p.block(out, &f.body.body, 1);
}

fn print_locals(out: &mut String, f: &Function, params: &[super::LocalId]) {
    for (i, l) in f.locals.iter().enumerate() {
        if params.iter().any(|p| p.0 as usize == i) {
            continue;
        }
        let _ = writeln!(out, "  local %{} {}: {}", i, l.name, l.ty);
    }
}

fn grid(g: &GridSize) -> String {
    match g {
        GridSize::Const(n) => n.to_string(),
        GridSize::Clause {
            expr,
            default,
            warp,
        } => format!(
            "{}clause({expr}, else {})",
            if *warp { "warp " } else { "" },
            grid(default)
        ),
        GridSize::FromTrip { trip, threads } => format!(
            "auto(trip={}, threads={threads:?})",
            trip.as_deref().unwrap_or("?")
        ),
    }
}

fn print_kernel(out: &mut String, k: &Kernel, m: &Module) {
    let _ = writeln!(
        out,
        "\nkernel @{} \"{}\" at {}\n  launch grid=({}, {}, {}) block=({}, {}, {})",
        k.name,
        k.construct,
        k.loc,
        grid(&k.launch.grid[0]),
        grid(&k.launch.grid[1]),
        grid(&k.launch.grid[2]),
        grid(&k.launch.block[0]),
        grid(&k.launch.block[1]),
        grid(&k.launch.block[2])
    );
    for p in &k.params {
        let l = k.body.local(p.local);
        let mode = match p.mode {
            ParamMode::Value => "value".to_string(),
            ParamMode::DevicePtr { read_only } => {
                if read_only {
                    "deviceptr readonly".to_string()
                } else {
                    "deviceptr".to_string()
                }
            }
            ParamMode::Scratch => "scratch".to_string(),
        };
        let _ = writeln!(out, "  param {} {}: {} {}", p.local, p.name, l.ty, mode);
    }
    let params: Vec<_> = k.params.iter().map(|p| p.local).collect();
    print_locals(out, &k.body, &params);
    let p = Printer { f: &k.body, m };
    p.block(out, &k.body.body, 1);
}

struct Printer<'a> {
    f: &'a Function,
    m: &'a Module,
}

impl Printer<'_> {
    fn block(&self, out: &mut String, b: &Block, depth: usize) {
        let _ = writeln!(out, "{{");
        for s in b {
            self.stmt(out, s, depth + 1);
        }
        let _ = writeln!(out, "{}}}", "  ".repeat(depth));
    }

    fn stmt(&self, out: &mut String, s: &Stmt, depth: usize) {
        let ind = "  ".repeat(depth);
        match s {
            Stmt::Assign { local, value } => {
                let name = &self.f.local(*local).name;
                let _ = writeln!(out, "{ind}{local} {name} = {}", self.expr(*value));
            }
            Stmt::Store { ptr, value } => {
                let _ = writeln!(
                    out,
                    "{ind}store {} <- {}",
                    self.expr(*ptr),
                    self.expr(*value)
                );
            }
            Stmt::If {
                cond,
                then,
                otherwise,
            } => {
                let _ = write!(out, "{ind}if {} ", self.expr(*cond));
                self.block(out, then, depth);
                if !otherwise.is_empty() {
                    let _ = write!(out, "{ind}else ");
                    self.block(out, otherwise, depth);
                }
            }
            Stmt::Loop(l) => {
                let par = match l.par {
                    Parallelism::Seq => "seq".to_string(),
                    Parallelism::Par {
                        gang,
                        worker,
                        vector,
                    } => {
                        const DIM: [&str; 3] = ["x", "y", "z"];
                        let mut v = vec![];
                        if let Some(d) = gang {
                            v.push(format!("gang.{}", DIM.get(usize::from(d)).unwrap_or(&"?")));
                        }
                        if worker {
                            v.push("worker".to_string());
                        }
                        if let Some(d) = vector {
                            v.push(format!(
                                "vector.{}",
                                DIM.get(usize::from(d)).unwrap_or(&"?")
                            ));
                        }
                        v.join(" ")
                    }
                };
                let cmp = match l.cmp {
                    LoopCmp::Lt => "<",
                    LoopCmp::Le => "<=",
                    LoopCmp::Gt => ">",
                    LoopCmp::Ge => ">=",
                };
                let name = &self.f.local(l.var).name;
                let _ = write!(
                    out,
                    "{ind}loop {par} {} {name} = {}; {cmp} {}; += {} ",
                    l.var,
                    self.expr(l.init),
                    self.expr(l.limit),
                    self.expr(l.step)
                );
                for h in &l.collapsed {
                    let _ = write!(
                        out,
                        "collapse {} {} = {}; {:?} {}; += {} ",
                        h.var,
                        self.f.local(h.var).name,
                        self.expr(h.init),
                        h.cmp,
                        self.expr(h.limit),
                        self.expr(h.step)
                    );
                }
                for r in &l.reductions {
                    let target = match &r.target {
                        crate::ir::RedTarget::Local(t) => {
                            format!("{t} {}", self.f.local(*t).name)
                        }
                        crate::ir::RedTarget::Memory(p) => format!("*{}", self.expr(*p)),
                    };
                    let _ = write!(
                        out,
                        "reduction({}: {} -> {target}) ",
                        r.op.symbol(),
                        r.private
                    );
                }
                self.block(out, &l.body, depth);
            }
            Stmt::While { cond, body, step } => {
                let _ = write!(out, "{ind}while {} ", self.expr(*cond));
                self.block(out, body, depth);
                if !step.is_empty() {
                    let _ = write!(out, "{ind}step ");
                    self.block(out, step, depth);
                }
            }
            Stmt::Break => {
                let _ = writeln!(out, "{ind}break");
            }
            Stmt::Barrier(scope) => {
                let _ = writeln!(out, "{ind}barrier {scope:?}");
            }
            Stmt::Fence => {
                let _ = writeln!(out, "{ind}fence");
            }
            Stmt::AtomicRmw {
                op,
                ptr,
                value,
                old,
            } => {
                let to = old.map_or(String::new(), |l| {
                    format!("{l} {} = ", self.f.local(l).name)
                });
                let _ = writeln!(
                    out,
                    "{ind}{to}atomic.{}({}, {})",
                    format!("{op:?}").to_lowercase(),
                    self.expr(*ptr),
                    self.expr(*value)
                );
            }
            Stmt::AtomicCas {
                ptr,
                expected,
                desired,
                old,
                ok,
            } => {
                let _ = writeln!(
                    out,
                    "{ind}{old} {}, {ok} {} = atomic.cas({}, {}, {})",
                    self.f.local(*old).name,
                    self.f.local(*ok).name,
                    self.expr(*ptr),
                    self.expr(*expected),
                    self.expr(*desired)
                );
            }
            Stmt::AtomicLoad { ptr, dst } => {
                let _ = writeln!(
                    out,
                    "{ind}{dst} {} = atomic.load({})",
                    self.f.local(*dst).name,
                    self.expr(*ptr)
                );
            }
            Stmt::AtomicStore { ptr, value } => {
                let _ = writeln!(
                    out,
                    "{ind}atomic.store({}, {})",
                    self.expr(*ptr),
                    self.expr(*value)
                );
            }
            Stmt::Continue => {
                let _ = writeln!(out, "{ind}continue");
            }
            Stmt::Return(None) => {
                let _ = writeln!(out, "{ind}return");
            }
            Stmt::Return(Some(v)) => {
                let _ = writeln!(out, "{ind}return {}", self.expr(*v));
            }
            Stmt::Switch { value, arms } => {
                let _ = writeln!(out, "{ind}switch {} {{", self.expr(*value));
                for a in arms {
                    let mut labels: Vec<String> =
                        a.values.iter().map(|v| format!("case {v}")).collect();
                    if a.default {
                        labels.push("default".into());
                    }
                    let _ = write!(out, "{ind}  {}: ", labels.join(", "));
                    self.block(out, &a.body, depth + 1);
                }
                let _ = writeln!(out, "{ind}}}");
            }
            Stmt::Call { func, args, result } => {
                let name = self.m.functions.get(*func).map_or("?", |f| f.name.as_str());
                let a: Vec<String> = args.iter().map(|a| self.expr(*a)).collect();
                let _ = match result {
                    Some(r) => writeln!(
                        out,
                        "{ind}{r} {} = call @{name}({})",
                        self.f.local(*r).name,
                        a.join(", ")
                    ),
                    None => writeln!(out, "{ind}call @{name}({})", a.join(", ")),
                };
            }
            Stmt::Print { format, args } => {
                let a: Vec<String> = args.iter().map(|a| self.expr(*a)).collect();
                let _ = writeln!(
                    out,
                    "{ind}print {:?}({})",
                    String::from_utf8_lossy(format),
                    a.join(", ")
                );
            }
            Stmt::Copy { dst, src, bytes } => {
                let _ = writeln!(
                    out,
                    "{ind}copy {bytes} bytes {} <- {}",
                    self.expr(*dst),
                    self.expr(*src)
                );
            }
            Stmt::Block(b) => {
                let _ = write!(out, "{ind}");
                self.block(out, b, depth);
            }
        }
    }

    /// Prints one expression tree.
    pub fn expr(&self, id: ExprId) -> String {
        let ty = self.f.ty(id);
        match self.f.expr(id) {
            Expr::Literal(Literal::Int(v)) => format!("{v}"),
            Expr::Literal(Literal::Float(v)) => format!("{v:?}.{ty}"),
            Expr::Local(l) => format!("{l} {}", self.f.local(*l).name),
            Expr::LocalAddr(l) => format!("&{l} {}", self.f.local(*l).name),
            Expr::Load(p) => format!("load.{ty}({})", self.expr(*p)),
            Expr::PtrAdd { base, index } => {
                format!("ptradd({}, {})", self.expr(*base), self.expr(*index))
            }
            Expr::Binary { op, lhs, rhs } => format!(
                "{}.{ty}({}, {})",
                format!("{op:?}").to_lowercase(),
                self.expr(*lhs),
                self.expr(*rhs)
            ),
            Expr::Cmp { op, lhs, rhs } => format!(
                "{}.{}({}, {})",
                format!("{op:?}").to_lowercase(),
                self.f.ty(*lhs),
                self.expr(*lhs),
                self.expr(*rhs)
            ),
            Expr::Unary { op, arg } => {
                format!(
                    "{}.{ty}({})",
                    format!("{op:?}").to_lowercase(),
                    self.expr(*arg)
                )
            }
            Expr::Cast(a) => format!("cast.{}.{ty}({})", self.f.ty(*a), self.expr(*a)),
            Expr::Select {
                cond,
                then,
                otherwise,
            } => format!(
                "select.{ty}({}, {}, {})",
                self.expr(*cond),
                self.expr(*then),
                self.expr(*otherwise)
            ),
            Expr::Logical { and, lhs, rhs } => format!(
                "{}({}, {})",
                if *and { "and" } else { "or" },
                self.expr(*lhs),
                self.expr(*rhs)
            ),
            Expr::Special(s) => {
                let (n, d) = match s {
                    Special::ThreadIdx(d) => ("tid", d),
                    Special::BlockIdx(d) => ("ctaid", d),
                    Special::BlockDim(d) => ("ntid", d),
                    Special::GridDim(d) => ("nctaid", d),
                };
                format!("{n}.{}", ["x", "y", "z"].get(*d as usize).unwrap_or(&"?"))
            }
            Expr::Math { func, args } => {
                let a: Vec<String> = args.iter().map(|a| self.expr(*a)).collect();
                format!("{}.{ty}({})", func.c_name(), a.join(", "))
            }
            Expr::Cell(n) => {
                let sym = self
                    .m
                    .cells
                    .get(*n as usize)
                    .map_or("?", |c| c.symbol.as_str());
                format!("cell.{ty}(@{sym})")
            }
            Expr::Shuffle {
                value,
                lane_xor,
                members,
            } => format!(
                "shfl.bfly.{ty}({}, {}, {})",
                self.expr(*value),
                self.expr(*lane_xor),
                self.expr(*members)
            ),
            Expr::SharedAddr(n) => format!("shared.{ty}(#{n})"),
        }
    }
}
