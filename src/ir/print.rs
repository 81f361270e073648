//! The text form of the IR (`accc --emit=ir`), used by snapshot tests and
//! read back by [`read`](super::read).
//!
//! Owns: the printer, and the names and quoting the reader shares with it.
//! Expressions print inline as trees, e.g.
//! `add.i32(load.i32(ptradd(%0 a, %3 i)), 1)`; statements one per line.
//!
//! The text holds everything a [`Module`] holds but the expressions' order
//! in the arena (and unused ones) and the (never set) expression locations,
//! so that reading it back gives the same module up to that order. An
//! expression's type is printed where the node and its context do not fix
//! it: an integer literal is bare where its type is the one its context
//! expects ([`Printer::expr`]'s `expect`, e.g. the other operand's type of a
//! binary operation), else suffixed (`1.u64`); floats always are (`1.0.f64`).
//! Host C text in launch sizes prints in parentheses, `clause((n), else 1)`.
//! A body whose loops' levels are undecided has an `undecided` line (with
//! the facts the decision reads) before its locals, and its loops print
//! `loop ?` (but lowering's loop over the gangs, decided when made).
//! The host plan follows the kernels (`hosttext.rs`).

use super::expr::{Expr, ExprId, Literal, Special};
use super::function::{Function, LocalId};
use super::index::Extent;
use super::module::{DeviceFunction, GridSize, Kernel, Linkage, Module, ParamMode};
use super::reduce::{RedOp, RedPart, RedTarget, Reduction};
use super::stmt::{Block, Loop, LoopCmp, LoopDirective, Parallelism, Stmt};
use super::types::Type;
use std::fmt::Write;

/// Prints a whole module.
pub fn print_module(m: &Module) -> String {
    let mut out = String::new();
    let mark = if m.scheduled { " scheduled" } else { "" };
    let _ = writeln!(out, "module {}{mark}", quote(m.source.as_bytes()));
    for c in &m.cells {
        let _ = writeln!(out, "cell @{} {}", c.symbol, quote(c.host.as_bytes()));
    }
    for f in &m.functions {
        print_function(&mut out, f, m);
    }
    for k in &m.kernels {
        print_kernel(&mut out, k, m);
    }
    super::hosttext::print_plan(&mut out, &m.host);
    out
}

/// A string or byte string in double quotes: printable ASCII as it is but
/// `"` and `\`, which are escaped, as are `\n`, `\t`, `\r`; other bytes as
/// `\xNN`.
pub(super) fn quote(bytes: &[u8]) -> String {
    let mut s = String::from("\"");
    for &b in bytes {
        match b {
            b'"' => s.push_str("\\\""),
            b'\\' => s.push_str("\\\\"),
            b'\n' => s.push_str("\\n"),
            b'\t' => s.push_str("\\t"),
            b'\r' => s.push_str("\\r"),
            0x20..=0x7e => s.push(char::from(b)),
            _ => {
                let _ = write!(s, "\\x{b:02x}");
            }
        }
    }
    s.push('"');
    s
}

/// The name of a device function's linkage.
pub(super) fn linkage_name(l: Linkage) -> &'static str {
    match l {
        Linkage::Internal => "internal",
        Linkage::Export => "export",
        Linkage::Import => "import",
    }
}

/// The name of a launch dimension (`x`, `y`, `z`).
pub(super) fn dim_name(d: u8) -> &'static str {
    ["x", "y", "z"].get(usize::from(d)).unwrap_or(&"?")
}

/// The name of a special register (`tid`, `ctaid`, `ntid`, `nctaid`) and
/// its dimension.
pub(super) fn special_name(s: Special) -> (&'static str, u8) {
    match s {
        Special::ThreadIdx(d) => ("tid", d),
        Special::BlockIdx(d) => ("ctaid", d),
        Special::BlockDim(d) => ("ntid", d),
        Special::GridDim(d) => ("nctaid", d),
        Special::Performs(d) => ("performs", d),
        Special::OnDevice(n) => ("on_device", n),
    }
}

/// How a loop comparison prints.
pub(super) fn cmp_name(c: LoopCmp) -> &'static str {
    match c {
        LoopCmp::Lt => "<",
        LoopCmp::Le => "<=",
        LoopCmp::Gt => ">",
        LoopCmp::Ge => ">=",
    }
}

/// How a reduction operator prints (`complex*` for [`RedOp::ComplexMul`]).
pub(super) fn red_name(op: RedOp) -> &'static str {
    match op {
        RedOp::ComplexMul => "complex*",
        op => op.symbol(),
    }
}

/// An operator's name in the text: its variant name in lower case (`add`,
/// `incwrap`).
pub(super) fn op_name(op: impl std::fmt::Debug) -> String {
    format!("{op:?}").to_lowercase()
}

/// The parts a reduction of a scalar private of type `ty` has, which the
/// text leaves out.
pub(super) fn scalar_parts(ty: &Type) -> Vec<RedPart> {
    vec![RedPart {
        offset: 0,
        ty: ty.clone(),
        count: 1,
        stride: ty.size(),
    }]
}

/// The type of a local's address: `ptr<E>` for an array of `E`, else a
/// pointer to the local's type.
pub(super) fn local_addr_type(ty: &Type) -> Type {
    match ty {
        Type::Array(e, _) => e.ptr_to(),
        t => t.ptr_to(),
    }
}

fn print_function(out: &mut String, f: &DeviceFunction, m: &Module) {
    let params: Vec<String> = f
        .params
        .iter()
        .map(|p| {
            let l = f.body.local(*p);
            format!("{p} {}: {}", l.name, l.ty)
        })
        .collect();
    let guards = f
        .guards
        .map_or(String::new(), |[x, y, z]| format!(" guards({x}, {y}, {z})"));
    let _ = writeln!(
        out,
        "\nfunction {} {:?} @{}({}) -> {}{guards} at {}",
        linkage_name(f.linkage),
        f.level,
        f.name,
        params.join(", "),
        f.ret,
        f.loc
    );
    if f.linkage == Linkage::Import {
        return;
    }
    print_locals(out, &f.body, &f.params);
    let p = Printer {
        f: &f.body,
        m,
        ret: &f.ret,
    };
    p.block(out, &f.body.body, 1);
}

/// The locals that are not parameters, then the shared arrays; first,
/// when its loops' levels are undecided, the `undecided` line with the
/// facts the decision reads (`forced(at "f.c":3:5) outside(…) loose(…)`,
/// each list only when not empty).
fn print_locals(out: &mut String, f: &Function, params: &[LocalId]) {
    if let Some(u) = &f.undecided {
        let _ = write!(out, "  undecided");
        for (what, locs) in [
            ("forced", &u.forced),
            ("outside", &u.outside),
            ("loose", &u.loose),
        ] {
            if !locs.is_empty() {
                let at: Vec<String> = locs
                    .iter()
                    .map(|l| format!("at {}:{}:{}", quote(l.file.as_bytes()), l.line, l.col))
                    .collect();
                let _ = write!(out, " {what}({})", at.join(", "));
            }
        }
        let _ = writeln!(out);
    }
    for (i, l) in f.locals.iter().enumerate() {
        if params.iter().any(|p| p.0 as usize == i) {
            continue;
        }
        let _ = writeln!(out, "  local %{} {}: {}", i, l.name, l.ty);
    }
    for (i, t) in f.shared.iter().enumerate() {
        let _ = writeln!(out, "  shared #{i}: {t}");
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
            trip.as_ref().map_or("?".to_string(), |t| t.to_string())
        ),
    }
}

fn print_kernel(out: &mut String, k: &Kernel, m: &Module) {
    let _ = writeln!(
        out,
        "\nkernel @{} {} {} at {}",
        k.name,
        k.kind.name(),
        quote(k.construct.as_bytes()),
        k.loc
    );
    if let Some(l) = &k.launch {
        let _ = writeln!(
            out,
            "  launch grid=({}, {}, {}) block=({}, {}, {})",
            grid(&l.grid[0]),
            grid(&l.grid[1]),
            grid(&l.grid[2]),
            grid(&l.block[0]),
            grid(&l.block[1]),
            grid(&l.block[2])
        );
    }
    if !k.sizes.is_empty() {
        let _ = write!(out, "  sizes");
        if !k.sizes.num_gangs.is_empty() {
            let g: Vec<String> = k.sizes.num_gangs.iter().map(|e| e.to_string()).collect();
            let _ = write!(out, " num_gangs({})", g.join(", "));
        }
        if let Some(e) = &k.sizes.num_workers {
            let _ = write!(out, " num_workers({e})");
        }
        if let Some(e) = &k.sizes.vector_length {
            let _ = write!(out, " vector_length({e})");
        }
        let _ = writeln!(out);
    }
    if let Some(s) = &k.scratch {
        let _ = writeln!(out, "  scratch counters={} slots={}", s.counters, s.slots);
    }
    for p in &k.params {
        let l = k.body.local(p.local);
        let mode = match p.mode {
            ParamMode::Value => "value",
            ParamMode::DevicePtr => "deviceptr",
            ParamMode::Scratch => "scratch",
        };
        let own = if p.own { " own" } else { "" };
        let _ = write!(out, "  param {} {}: {} {mode}{own}", p.local, l.name, l.ty);
        if p.name != l.name {
            let _ = write!(out, " host {}", quote(p.name.as_bytes()));
        }
        let _ = writeln!(out);
    }
    let params: Vec<_> = k.params.iter().map(|p| p.local).collect();
    print_locals(out, &k.body, &params);
    let p = Printer {
        f: &k.body,
        m,
        ret: &Type::Void,
    };
    p.block(out, &k.body.body, 1);
}

/// One expression tree of `f` (a body of `m`) as the module's text shows
/// it, e.g. `index(%2 a; cast.i32.i64(%0 i))` (for analyses' reports).
pub fn print_expr(m: &Module, f: &Function, id: ExprId) -> String {
    let p = Printer {
        f,
        m,
        ret: &Type::Void,
    };
    p.expr(id, None)
}

/// What a loop directive asks as the text form shows it (inside
/// `directive(…)`): `gang` (`gang.y` with `gang(dim:2)`), `worker`,
/// `vector`, `seq`, `auto`, `independent`, in that order.
pub fn print_directive(d: &LoopDirective) -> String {
    let mut v = vec![];
    if d.gang {
        v.push(match d.gang_dim {
            Some(n) => format!("gang.{}", dim_name(n)),
            None => "gang".to_string(),
        });
    }
    for (on, w) in [
        (d.worker, "worker"),
        (d.vector, "vector"),
        (d.seq, "seq"),
        (d.auto, "auto"),
        (d.independent, "independent"),
    ] {
        if on {
            v.push(w.to_string());
        }
    }
    v.join(" ")
}

/// A loop's parallelism as the text form shows it: `seq`, or its levels
/// with their axes (`gang.x worker vector.x`).
pub fn print_parallelism(p: Parallelism) -> String {
    match p {
        Parallelism::Seq => "seq".to_string(),
        Parallelism::Par {
            gang,
            worker,
            vector,
        } => {
            let mut v = vec![];
            if let Some(d) = gang {
                v.push(format!("gang.{}", dim_name(d)));
            }
            if worker {
                v.push("worker".to_string());
            }
            if let Some(d) = vector {
                v.push(format!("vector.{}", dim_name(d)));
            }
            v.join(" ")
        }
    }
}

struct Printer<'a> {
    f: &'a Function,
    m: &'a Module,
    /// The function's result type (what `return` expects).
    ret: &'a Type,
}

impl Printer<'_> {
    fn block(&self, out: &mut String, b: &Block, depth: usize) {
        let _ = writeln!(out, "{{");
        for s in b {
            self.stmt(out, s, depth + 1);
        }
        let _ = writeln!(out, "{}}}", "  ".repeat(depth));
    }

    /// `%3 name`.
    fn local(&self, l: LocalId) -> String {
        format!("{l} {}", self.f.local(l).name)
    }

    /// The pointee of the pointer `ptr` points to (what a store through it
    /// expects).
    fn pointee(&self, ptr: ExprId) -> Option<&Type> {
        self.f.ty(ptr).pointee()
    }

    fn stmt(&self, out: &mut String, s: &Stmt, depth: usize) {
        let ind = "  ".repeat(depth);
        let lty = |l: LocalId| Some(&self.f.local(l).ty);
        match s {
            Stmt::Assign { local, value } => {
                let v = self.expr(*value, lty(*local));
                let _ = writeln!(out, "{ind}{} = {v}", self.local(*local));
            }
            Stmt::Store { ptr, value } => {
                let _ = writeln!(
                    out,
                    "{ind}store {} <- {}",
                    self.expr(*ptr, None),
                    self.expr(*value, self.pointee(*ptr))
                );
            }
            Stmt::If {
                cond,
                then,
                otherwise,
                single,
            } => {
                let mark = if *single { "single " } else { "" };
                let _ = write!(
                    out,
                    "{ind}if {mark}{} ",
                    self.expr(*cond, Some(&Type::BOOL))
                );
                self.block(out, then, depth);
                if !otherwise.is_empty() {
                    let _ = write!(out, "{ind}else ");
                    self.block(out, otherwise, depth);
                }
            }
            Stmt::Loop(l) => {
                let _ = write!(out, "{ind}");
                self.loop_header(out, l);
                self.block(out, &l.body, depth);
            }
            Stmt::While { cond, body, step } => {
                let _ = write!(out, "{ind}while {} ", self.expr(*cond, Some(&Type::BOOL)));
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
                let to = old.map_or(String::new(), |l| format!("{} = ", self.local(l)));
                let _ = writeln!(
                    out,
                    "{ind}{to}atomic.{}({}, {})",
                    op_name(op),
                    self.expr(*ptr, None),
                    self.expr(*value, self.pointee(*ptr))
                );
            }
            Stmt::AtomicCas {
                ptr,
                expected,
                desired,
                old,
                ok,
            } => {
                let elem = self.pointee(*ptr);
                let _ = writeln!(
                    out,
                    "{ind}{}, {} = atomic.cas({}, {}, {})",
                    self.local(*old),
                    self.local(*ok),
                    self.expr(*ptr, None),
                    self.expr(*expected, elem),
                    self.expr(*desired, elem)
                );
            }
            Stmt::AtomicLoad { ptr, dst } => {
                let _ = writeln!(
                    out,
                    "{ind}{} = atomic.load({})",
                    self.local(*dst),
                    self.expr(*ptr, None)
                );
            }
            Stmt::AtomicStore { ptr, value } => {
                let _ = writeln!(
                    out,
                    "{ind}atomic.store({}, {})",
                    self.expr(*ptr, None),
                    self.expr(*value, self.pointee(*ptr))
                );
            }
            Stmt::Continue => {
                let _ = writeln!(out, "{ind}continue");
            }
            Stmt::Return(None) => {
                let _ = writeln!(out, "{ind}return");
            }
            Stmt::Return(Some(v)) => {
                let _ = writeln!(out, "{ind}return {}", self.expr(*v, Some(self.ret)));
            }
            Stmt::Switch { value, arms } => {
                let _ = writeln!(out, "{ind}switch {} {{", self.expr(*value, None));
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
            Stmt::Call {
                func,
                args,
                result,
                loc,
            } => {
                let name = self.m.functions.get(*func).map_or("?", |f| f.name.as_str());
                let to = result.map_or(String::new(), |r| format!("{} = ", self.local(r)));
                let at = if loc.file.is_empty() {
                    String::new()
                } else {
                    let file = quote(loc.file.as_bytes());
                    format!(" at {file}:{}:{}", loc.line, loc.col)
                };
                let _ = writeln!(out, "{ind}{to}call @{name}({}){at}", self.list(args));
            }
            Stmt::Print { format, args } => {
                let _ = writeln!(out, "{ind}print {}({})", quote(format), self.list(args));
            }
            Stmt::Copy { dst, src, bytes } => {
                let _ = writeln!(
                    out,
                    "{ind}copy {bytes} bytes {} <- {}",
                    self.expr(*dst, None),
                    self.expr(*src, None)
                );
            }
            Stmt::Block(b) => {
                let _ = write!(out, "{ind}");
                self.block(out, b, depth);
            }
            Stmt::Single(b) => {
                let _ = write!(out, "{ind}single ");
                self.block(out, b, depth);
            }
            Stmt::Broadcast { value, performed } => {
                let _ = write!(out, "{ind}broadcast {} ", self.local(*value));
                self.block(out, performed, depth);
            }
        }
    }

    /// Expressions with no expected type, separated by commas.
    fn list(&self, args: &[ExprId]) -> String {
        let a: Vec<String> = args.iter().map(|a| self.expr(*a, None)).collect();
        a.join(", ")
    }

    /// `loop gang.x vector.x %0 i = 0; < %1 n; += 1 … at "f.c":3:5 `: the
    /// parallelism (`?` in a body whose levels are undecided), the header, the collapsed headers, tiles, chunk,
    /// reductions, sizes, what its directive asks and the location.
    fn loop_header(&self, out: &mut String, l: &Loop) {
        // Undecided levels: `?` (but on lowering's loop over the gangs).
        let par = if self.f.undecided.is_some() && !l.over_gangs(self.f) {
            "?".to_string()
        } else {
            print_parallelism(l.par)
        };
        let _ = write!(out, "loop {par} ");
        let headers = std::iter::once((l.var, l.init, l.cmp, l.limit, l.step)).chain(
            l.collapsed
                .iter()
                .map(|h| (h.var, h.init, h.cmp, h.limit, h.step)),
        );
        for (i, (var, init, cmp, limit, step)) in headers.enumerate() {
            let ty = Some(&self.f.local(var).ty);
            let _ = write!(
                out,
                "{}{} = {}; {} {}; += {} ",
                if i > 0 { "collapse " } else { "" },
                self.local(var),
                self.expr(init, ty),
                cmp_name(cmp),
                self.expr(limit, ty),
                self.expr(step, ty)
            );
        }
        if !l.tile.is_empty() {
            let t: Vec<String> = l
                .tile
                .iter()
                .map(|s| s.map_or("*".to_string(), |s| s.to_string()))
                .collect();
            let _ = write!(out, "tile({}) ", t.join(", "));
        }
        if let Some(c) = l.chunk {
            let _ = write!(out, "chunk({c}) ");
        }
        for r in &l.reductions {
            self.reduction(out, r);
        }
        if let Some(z) = &l.sizes {
            let mut parts = vec![];
            if let Some(t) = &z.trip {
                parts.push(format!("trip: {t}"));
            }
            if let Some(n) = z.const_trip {
                parts.push(format!("const: {n}"));
            }
            for (what, e) in [
                ("gang", &z.gang),
                ("worker", &z.worker),
                ("vector", &z.vector),
            ] {
                if let Some(e) = e {
                    parts.push(format!("{what}: {e}"));
                }
            }
            let _ = write!(out, "sizes({}) ", parts.join(", "));
        }
        if let Some(d) = &l.directive {
            let _ = write!(out, "directive({}) ", print_directive(d));
        }
        for c in &l.cache {
            self.cache_var(out, c);
        }
        let _ = write!(
            out,
            "at {}:{}:{} ",
            quote(l.loc.file.as_bytes()),
            l.loc.line,
            l.loc.col
        );
    }

    /// `cache(readonly "a[i-1:3]" at "f.c":4:19 first E len(3, _) why "…") `.
    fn cache_var(&self, out: &mut String, c: &super::CacheVar) {
        let ro = if c.readonly { "readonly " } else { "" };
        let (text, file) = (quote(c.text.as_bytes()), quote(c.loc.file.as_bytes()));
        let _ = write!(
            out,
            "cache({ro}{text} at {file}:{}:{}",
            c.loc.line, c.loc.col
        );
        if let Some(first) = c.first {
            let i64t = Type::Int(super::IntKind::I64);
            let lens: Vec<String> = c
                .lengths
                .iter()
                .map(|n| n.map_or("_".into(), |n| self.expr(n, Some(&i64t))))
                .collect();
            let _ = write!(
                out,
                " first {} len({})",
                self.expr(first, None),
                lens.join(", ")
            );
        }
        if let Some(why) = &c.why {
            let _ = write!(out, " why {}", quote(why.as_bytes()));
        }
        out.push_str(") ");
    }

    /// `reduction(+: %3 -> %2 s) `, with `parts(…)` unless the private is
    /// a scalar reduced whole.
    fn reduction(&self, out: &mut String, r: &Reduction) {
        let target = match &r.target {
            RedTarget::Local(t) => self.local(*t),
            RedTarget::Memory(p) => format!("*{}", self.expr(*p, None)),
        };
        let _ = write!(
            out,
            "reduction({}: {} -> {target}",
            red_name(r.op),
            r.private
        );
        if r.parts != scalar_parts(&self.f.local(r.private).ty) {
            let parts: Vec<String> = r
                .parts
                .iter()
                .map(|p| {
                    format!(
                        "{} at {} count {} stride {}",
                        p.ty, p.offset, p.count, p.stride
                    )
                })
                .collect();
            let _ = write!(out, " parts({})", parts.join(", "));
        }
        let _ = write!(out, ") ");
    }

    /// Prints one expression tree; `expect` is the type its context
    /// implies (an integer literal of that type prints bare).
    fn expr(&self, id: ExprId, expect: Option<&Type>) -> String {
        let ty = self.f.ty(id);
        let same = Some(ty);
        match self.f.expr(id) {
            Expr::Literal(Literal::Int(v)) if expect == Some(ty) => format!("{v}"),
            Expr::Literal(Literal::Int(v)) => format!("{v}.{ty}"),
            Expr::Literal(Literal::Float(v)) => format!("{v:?}.{ty}"),
            Expr::Local(l) => self.local(*l),
            Expr::LocalAddr(l) => format!("&{}", self.local(*l)),
            Expr::Load(p) => format!("load.{ty}({})", self.expr(*p, Some(&ty.ptr_to()))),
            Expr::PtrAdd { base, index } => format!(
                "ptradd({}, {})",
                self.expr(*base, None),
                self.expr(*index, Some(&Type::I64))
            ),
            Expr::Index(ix) => {
                let elem = ty.pointee().unwrap_or(&Type::Void);
                let ext: Vec<String> = ix
                    .extents
                    .iter()
                    .map(|e| match e {
                        Extent::Const(n) => n.to_string(),
                        Extent::Dyn(x) => self.expr(*x, None),
                    })
                    .collect();
                let subs: Vec<String> = ix
                    .subs
                    .iter()
                    .map(|s| self.expr(*s, Some(&Type::I64)))
                    .collect();
                format!(
                    "index.{elem}({}, [{}], {})",
                    self.expr(ix.base, None),
                    ext.join(", "),
                    subs.join(", ")
                )
            }
            Expr::Binary { op, lhs, rhs } => format!(
                "{}.{ty}({}, {})",
                op_name(op),
                self.expr(*lhs, same),
                self.expr(*rhs, same)
            ),
            Expr::Cmp { op, lhs, rhs } => {
                let t = self.f.ty(*lhs);
                format!(
                    "{}.{t}({}, {})",
                    op_name(op),
                    self.expr(*lhs, Some(t)),
                    self.expr(*rhs, Some(t))
                )
            }
            Expr::Unary { op, arg } => {
                format!("{}.{ty}({})", op_name(op), self.expr(*arg, same))
            }
            Expr::Cast(a) => {
                let t = self.f.ty(*a);
                format!("cast.{t}.{ty}({})", self.expr(*a, Some(t)))
            }
            Expr::Select {
                cond,
                then,
                otherwise,
            } => format!(
                "select.{ty}({}, {}, {})",
                self.expr(*cond, Some(&Type::BOOL)),
                self.expr(*then, same),
                self.expr(*otherwise, same)
            ),
            Expr::Logical { and, lhs, rhs } => format!(
                "{}({}, {})",
                if *and { "and" } else { "or" },
                self.expr(*lhs, Some(&Type::BOOL)),
                self.expr(*rhs, Some(&Type::BOOL))
            ),
            Expr::Special(Special::OnDevice(t)) => format!("on_device.{t}"),
            Expr::Special(s) => {
                let (n, d) = special_name(*s);
                format!("{n}.{}", dim_name(d))
            }
            Expr::Math { func, args } => {
                let a: Vec<String> = args.iter().map(|a| self.expr(*a, same)).collect();
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
            } => {
                let u32t = Type::Int(super::IntKind::U32);
                format!(
                    "shfl.bfly.{ty}({}, {}, {})",
                    self.expr(*value, same),
                    self.expr(*lane_xor, Some(&u32t)),
                    self.expr(*members, Some(&u32t))
                )
            }
            Expr::SharedAddr(n) => format!("shared.{ty}(#{n})"),
        }
    }
}
