//! The text form of the host plan, printed after the kernels by
//! [`print_module`](super::print_module) and read back by `read/plan.rs`:
//!
//! ```text
//! construct "data" at "t.c":2:9 stmt=100..360
//!   data
//!   map copyin "a[0:n]" of "(a)[(0)]" scaled(ulong ((n)) at "t.c":2:30, "(a)[0]") flags=0
//!   {
//!     construct "parallel loop" at "t.c":3:9 stmt=120..340 if(bool ((n > 1)) at "t.c":3:30)
//!       compute kernel=0 async(i32 ((q)) at "t.c":3:40) wait(i32 ((1)) at "t.c":3:50)
//!       launch block=(128, 1, 1) grid=(default_gangs(u64 ((n)) at "t.c":4:9, 128), 1, 1)
//!       arg deviceptr "a" value "a" section=of "(a)[(0)]"
//!       {
//!         construct "parallel loop" at "t.c":3:9 stmt=120..340
//!           fallback
//!       }
//!   }
//! declare "g" of "g" sizeof "g" kind=1 at "t.c":1:9
//! ```
//!
//! A construct whose data is not decided yet (a lowered module's, before
//! `schedule::decide_data`) has its clauses' maps, then what the front end
//! recorded ([`UndecidedData`]), and no arguments:
//!
//! ```text
//!   undecided kernel at "t.c":3:9
//!   facts "a" kernel=0 param=0 pointer(8)
//!   facts "n" kernel=0 param=1 other clause=of "n"
//! ```
//!
//! The user's objects ([`Lvalue`]) are quoted C text; the user's
//! expressions print as their `Display` (`ty (C text) at loc`); an atomic
//! statement's operands as `(C text)`: `atomic (x) op add (e) first
//! capture old (v)`, `atomic (x) set (e)`, `atomic (x) op sub 1`.
//!
//! Owns: [`print_plan`] and the `Display` impls of the host plan's parts.
//! May call: `print::quote`, the `ir::host`, `ir::hostdata` and `ir::hostrange` types.

use super::host::{
    AsyncSpec, AtomicUpdate, Captured, Construct, ConstructKind, DeviceDirective, DeviceOp,
    GlobalDeclare, HostArg, HostAtomic, HostMap, HostPlan, Queue, UpdateItem,
};
use super::hostdata::{DataScope, DataVar, Shape, UndecidedData};
use super::print::quote;
use super::{HostAddr, HostBytes, Lvalue, Scaled, SrcLoc, Visit};
use std::fmt::{self, Write};

/// `at "file":line:col`.
pub(super) struct At<'a>(pub &'a SrcLoc);

impl fmt::Display for At<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let l = self.0;
        write!(f, "at {}:{}:{}", quote(l.file.as_bytes()), l.line, l.col)
    }
}

impl fmt::Display for Lvalue {
    /// Its C spelling, quoted.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&quote(self.c_spelling().as_bytes()))
    }
}

impl fmt::Display for Scaled {
    /// `scaled(count[, "elem"])`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "scaled({}", self.count)?;
        if let Some(e) = &self.elem {
            write!(f, ", {e}")?;
        }
        f.write_str(")")
    }
}

impl fmt::Display for HostAddr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HostAddr::Of(l) => write!(f, "of {l}"),
            HostAddr::Value(l) => write!(f, "value {l}"),
            HostAddr::Offset { ptr, by } => write!(f, "offset({ptr}, {by})"),
            HostAddr::Bytes(terms) => {
                f.write_str("bytes(")?;
                for (k, t) in terms.iter().enumerate() {
                    if k > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{t}")?;
                }
                f.write_str(")")
            }
        }
    }
}

impl fmt::Display for HostBytes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HostBytes::Zero => f.write_str("zero"),
            HostBytes::SizeOf(l) => write!(f, "sizeof {l}"),
            HostBytes::Scaled(s) => write!(f, "{s}"),
        }
    }
}

impl fmt::Display for AsyncSpec {
    /// ` async[(…)]`, ` wait[(…)]`, ` wait_dev(…)`, ` bind N`: each only
    /// when set.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.queue {
            None => {}
            Some(Queue::NoVal) => f.write_str(" async")?,
            Some(Queue::Expr(e)) => write!(f, " async({e})")?,
            Some(Queue::Bound(v)) => write!(f, " async(bound {v})")?,
        }
        match &self.waits {
            None => {}
            Some(w) if w.is_empty() => f.write_str(" wait")?,
            Some(w) => {
                f.write_str(" wait(")?;
                for (k, e) in w.iter().enumerate() {
                    if k > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{e}")?;
                }
                f.write_str(")")?;
            }
        }
        if let Some(d) = &self.wait_dev {
            write!(f, " wait_dev({d})")?;
        }
        if let Some(b) = &self.bind {
            write!(f, " bind {b}")?;
        }
        Ok(())
    }
}

impl fmt::Display for HostMap {
    /// `map KIND "name" ADDR BYTES flags=N [guard(EXPR)] [implicit]
    /// [const]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "map {} {} {} {} flags={}",
            self.kind.clause(),
            quote(self.name.as_bytes()),
            self.start,
            self.bytes,
            self.flags
        )?;
        if let Some(g) = &self.extent_guard {
            write!(f, " guard({g})")?;
        }
        if self.implicit {
            write!(f, " implicit")?;
        }
        if self.in_const {
            write!(f, " const")?;
        }
        Ok(())
    }
}

impl fmt::Display for UpdateItem {
    /// `item device|self [block] "name" ADDR BYTES`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "item {}{} {} {} {}",
            if self.to_device { "device" } else { "self" },
            if self.block { " block" } else { "" },
            quote(self.name.as_bytes()),
            self.start,
            self.bytes
        )
    }
}

impl fmt::Display for HostArg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HostArg::Value { var } => write!(f, "arg value {var}"),
            HostArg::Size { bytes } => write!(f, "arg size {bytes}"),
            HostArg::Scratch { slots } => write!(f, "arg scratch slots={slots}"),
            HostArg::DevicePtr {
                name,
                ptr,
                section,
                if_present,
            } => {
                write!(f, "arg deviceptr {} {ptr}", quote(name.as_bytes()))?;
                if let Some(s) = section {
                    write!(f, " section={s}")?;
                }
                if *if_present {
                    f.write_str(" if_present")?;
                }
                Ok(())
            }
        }
    }
}

/// The names of [`DeviceOp`]s in the text.
pub(super) const DEVICE_OPS: [(DeviceOp, &str); 3] = [
    (DeviceOp::Init, "init"),
    (DeviceOp::Shutdown, "shutdown"),
    (DeviceOp::Set, "set"),
];

impl fmt::Display for DeviceDirective {
    /// `init|shutdown|set ["name"=value …] [num(…)] [default_async(…)]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let op = DEVICE_OPS
            .iter()
            .find(|(o, _)| *o == self.op)
            .map_or("set", |(_, n)| n);
        f.write_str(op)?;
        for t in &self.types {
            write!(f, " {}={}", quote(t.name.as_bytes()), t.value)?;
        }
        if let Some(n) = &self.num {
            write!(f, " num({n})")?;
        }
        if let Some(d) = &self.default_async {
            write!(f, " default_async({d})")?;
        }
        Ok(())
    }
}

/// Prints the plan: its constructs in order, each construct's body after
/// its maps in `{ … }` and indented by four columns a level; then the
/// file-scope declares.
pub(super) fn print_plan(out: &mut String, plan: &HostPlan) {
    plan.walk(&mut |v| match v {
        Visit::Enter(c, depth) => {
            let pad = "    ".repeat(depth);
            let mut own = String::new();
            print_construct(&mut own, c);
            for line in own.lines() {
                let _ = writeln!(out, "{pad}{line}");
            }
            if !c.body.is_empty() {
                let _ = writeln!(out, "{pad}  {{");
            }
        }
        Visit::Leave(c, depth) => {
            if !c.body.is_empty() {
                let _ = writeln!(out, "{}  }}", "    ".repeat(depth));
            }
        }
    });
    for d in &plan.declares {
        print_declare(out, d);
    }
}

fn print_construct(out: &mut String, c: &Construct) {
    let _ = write!(
        out,
        "construct {} {} stmt={}..{}",
        quote(c.name.as_bytes()),
        At(&c.loc),
        c.stmt.start,
        c.stmt.end
    );
    if let Some(e) = &c.cond {
        let _ = write!(out, " if({e})");
    }
    let _ = write!(out, "\n  ");
    match &c.kind {
        ConstructKind::Compute {
            kernel,
            args,
            asyncs,
            launch,
        } => {
            let _ = writeln!(out, "compute kernel={kernel}{asyncs}");
            if let Some(l) = launch {
                let _ = writeln!(out, "  launch {l}");
            }
            for a in args {
                let _ = writeln!(out, "  {a}");
            }
        }
        ConstructKind::Data { asyncs } => {
            let _ = writeln!(out, "data{asyncs}");
        }
        ConstructKind::Wait { asyncs } => {
            let _ = writeln!(out, "wait_directive{asyncs}");
        }
        ConstructKind::Atomic(a) => {
            let _ = writeln!(out, "{a}");
        }
        ConstructKind::DeclareLocal => {
            let _ = writeln!(out, "declare_local");
        }
        ConstructKind::EnterData { asyncs } => {
            let _ = writeln!(out, "enter_data{asyncs}");
        }
        ConstructKind::ExitData { finalize, asyncs } => {
            let fin = if *finalize { " finalize" } else { "" };
            let _ = writeln!(out, "exit_data{fin}{asyncs}");
        }
        ConstructKind::Update {
            items,
            if_present,
            asyncs,
        } => {
            let ip = if *if_present { " if_present" } else { "" };
            let _ = writeln!(out, "update{ip}{asyncs}");
            for i in items {
                let _ = writeln!(out, "  {i}");
            }
        }
        ConstructKind::HostData { vars, if_present } => {
            let ip = if *if_present { " if_present" } else { "" };
            let _ = writeln!(out, "host_data{ip}");
            for v in vars {
                let _ = writeln!(out, "  use_device {}", quote(v.as_bytes()));
            }
        }
        ConstructKind::Device(d) => {
            let _ = writeln!(out, "{d}");
        }
        ConstructKind::Fallback => {
            let _ = writeln!(out, "fallback");
        }
    }
    for m in &c.maps {
        let _ = writeln!(out, "  {m}");
    }
    if let Some(u) = &c.undecided {
        let _ = write!(out, "{u}");
    }
}

impl fmt::Display for UndecidedData {
    /// `  undecided kernel|region(K, …)|in_region [default_present]
    /// [default_none] at LOC`,
    /// then a `  facts …` line per variable ([`DataVar`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("  undecided ")?;
        match &self.scope {
            DataScope::Kernel => f.write_str("kernel")?,
            DataScope::InRegion => f.write_str("in_region")?,
            DataScope::Region { kernels } => {
                let ks: Vec<String> = kernels.iter().map(ToString::to_string).collect();
                write!(f, "region({})", ks.join(", "))?;
            }
        }
        if self.default_present {
            f.write_str(" default_present")?;
        }
        if self.default_none {
            f.write_str(" default_none")?;
        }
        writeln!(f, " {}", At(&self.loc))?;
        for v in &self.vars {
            writeln!(f, "  {v}")?;
        }
        Ok(())
    }
}

impl fmt::Display for DataVar {
    /// `facts "name" kernel=K param=P array|pointer[(ELEM)]|other
    /// [size_of LVALUE] [by_ref] [demotable] [const] [member] [clause=ADDR [deviceptr]
    /// [no_create]]` (a clause is the variable's own: its `var` is the name).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let h = &self.facts;
        write!(
            f,
            "facts {} kernel={} param={} ",
            quote(h.name.as_bytes()),
            self.kernel,
            self.param
        )?;
        match h.shape {
            Shape::Array => f.write_str("array")?,
            Shape::Pointer { elem: None } => f.write_str("pointer")?,
            Shape::Pointer { elem: Some(n) } => write!(f, "pointer({n})")?,
            Shape::Other => f.write_str("other")?,
        }
        if let Some(l) = &h.size_of {
            write!(f, " size_of {l}")?;
        }
        for (on, w) in [
            (h.by_ref, "by_ref"),
            (h.demotable, "demotable"),
            (h.const_object, "const"),
            (h.member_in_clause, "member"),
        ] {
            if on {
                write!(f, " {w}")?;
            }
        }
        if let Some(v) = &h.clause {
            write!(f, " clause={}", v.start)?;
            if v.deviceptr {
                f.write_str(" deviceptr")?;
            }
            if v.no_create {
                f.write_str(" no_create")?;
            }
        }
        Ok(())
    }
}

impl fmt::Display for HostAtomic {
    /// `atomic (x)`, then `set (e)` or `op NAME (e)|1 [first]`, then
    /// `capture old|new (v)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "atomic ({})", self.x)?;
        match &self.update {
            None => {}
            Some(AtomicUpdate::Set(e)) => write!(f, " set ({e})")?,
            Some(AtomicUpdate::Op {
                op,
                expr,
                expr_first,
            }) => {
                write!(f, " op {}", op.ir_name())?;
                match expr {
                    Some(e) => write!(f, " ({e})")?,
                    None => write!(f, " 1")?,
                }
                if *expr_first {
                    write!(f, " first")?;
                }
            }
        }
        if let Some((v, when)) = &self.capture {
            let w = match when {
                Captured::Old => "old",
                Captured::New => "new",
            };
            write!(f, " capture {w} ({v})")?;
        }
        Ok(())
    }
}

fn print_declare(out: &mut String, d: &GlobalDeclare) {
    let _ = writeln!(
        out,
        "declare {} {} {} kind={} {}",
        quote(d.name.as_bytes()),
        d.start,
        d.bytes,
        d.kind,
        At(&d.loc)
    );
}
