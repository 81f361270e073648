//! Scheduled IR → CUDA C: the module (blob structs, cells, helpers,
//! device functions, kernels) and the statements of each body
//! (expressions are in `expr.rs`, atomics and barriers in `atomic.rs`).
//!
//! Owns: [`write_module`], `FnWriter` and its statement layout. A body
//! declares its locals first (the IR's locals are the function's, so no
//! `goto` or `case` label jumps over an initialisation), then its shared
//! arrays, then the statements. A `While` is `while (cond)` when its step
//! is empty, `for (; cond; step)` when the step is assignments, else a
//! `while` whose body ends with the step after a label that its
//! `continue`s jump to. May call: `ir`, `codegen::c`, `analysis` (its
//! facts: `ModuleInfo`, `own_memory`).

use super::names::{reserved, Helper, HOST_PRELUDE};
use super::types::{align_attr, blob_structs, c_type, collect_blobs, declare};
use super::{Dialect, Error, Options};
use crate::analysis::ModuleInfo;
use crate::codegen::c::{lit, CBinOp, CExpr, CWriter, Layout, Namer};
use crate::ir::{
    BarrierScope, DeviceFunction, ExprId, Function, Kernel, Linkage, LocalId, Module, SrcLoc, Stmt,
    SwitchArm, ThreadBound, Type,
};
use std::collections::BTreeSet;

/// A line that [`number_lines`] turns into a `#line` directive giving
/// the next line its own number in the generated text.
const GENERATED: &str = "#line __accc_generated__\n";

/// The text with each [`GENERATED`] line replaced by `#line N "name"`,
/// `N` the number of the line after it.
fn number_lines(text: &str, name: &str) -> String {
    let mark = GENERATED.trim_end();
    let mut out = String::with_capacity(text.len());
    for (i, l) in text.lines().enumerate() {
        if l == mark {
            out.push_str(&format!("#line {} {}\n", i + 2, lit::c_str(name)));
        } else {
            out.push_str(l);
            out.push('\n');
        }
    }
    out
}

/// An [`Error::Internal`] (a broken IR invariant).
pub(super) fn internal<T>(what: &str) -> Result<T, Error> {
    Err(Error::Internal(what.to_string()))
}

/// What every function's writer of one module shares.
struct Shared<'a> {
    /// The identifier of each device function, by index.
    fns: Vec<String>,
    /// The symbol of each cell, by index.
    cells: Vec<String>,
    /// Identifiers every body must leave alone.
    globals: Vec<String>,
    o: &'a Options,
}

/// The CUDA C of a flattened, scheduled module.
pub fn write_module(m: &Module, info: &ModuleInfo, o: &Options) -> Result<String, Error> {
    let mut top = Namer::new();
    let mut globals = reserved();
    for k in &m.kernels {
        globals.push(k.name.clone());
    }
    let cells: Vec<String> = m.cells.iter().map(|c| c.symbol.clone()).collect();
    globals.extend(cells.iter().cloned());
    for f in &m.functions {
        if f.linkage != Linkage::Internal {
            globals.push(f.name.clone());
        }
    }
    for g in &globals {
        top.reserve(g);
    }
    let host = o.dialect == Dialect::HostC;
    let fns: Vec<String> = m
        .functions
        .iter()
        .map(|f| match f.linkage {
            // accc's own names are unique in the module and reserved.
            Linkage::Internal if !f.name.starts_with("__accc_") => top.fresh(&f.name),
            Linkage::Internal => f.name.clone(),
            _ if host => format!("__accc_host_{}", f.name),
            _ => f.name.clone(),
        })
        .collect();
    globals.extend(fns.iter().cloned());
    let shared = Shared {
        fns,
        cells,
        globals,
        o,
    };
    let mut helpers = BTreeSet::new();
    let mut blobs = vec![];
    let mut protos = String::new();
    let mut bodies = String::new();
    for (i, f) in m.functions.iter().enumerate() {
        note_blobs(&f.body, &mut blobs);
        collect_blobs(&f.ret, &mut blobs);
        let mut w = FnWriter::new(&shared, &f.body, &mut helpers);
        let head = function_head(&shared, i, f, &w.names)?;
        protos.push_str(&format!("{head};\n"));
        if f.linkage != Linkage::Import {
            let text = w.function(&head, &f.loc, &f.params, &[], &f.ret)?;
            bodies.push('\n');
            bodies.push_str(&text);
        }
    }
    for (i, k) in m.kernels.iter().enumerate() {
        note_blobs(&k.body, &mut blobs);
        let read_only: Vec<bool> = (0..k.params.len()).map(|p| info.read_only(i, p)).collect();
        let own = crate::analysis::own_memory(m, k);
        let mut w = FnWriter::new(&shared, &k.body, &mut helpers);
        let text = w.kernel(k, &read_only, &own)?;
        bodies.push('\n');
        bodies.push_str(&text);
    }
    let mut out = if host {
        format!(
            "/* Host C of {}, written by accc from the loop IR scheduled for the host's cores (-acc=multicore): a kernel's call runs one gang. */\n{HOST_PRELUDE}",
            m.source.replace('\n', " ").replace("*/", "* /")
        )
    } else {
        format!(
            "// CUDA C of {}, written by accc from the scheduled loop IR (the nvcc path).\n",
            m.source.replace('\n', " ")
        )
    };
    if !blobs.is_empty() {
        out.push_str(
            "\n// C structs, unions, long double and complex values, as bytes of their layout.\n",
        );
        out.push_str(&blob_structs(&blobs, host));
    }
    if !m.cells.is_empty() {
        out.push_str("\n// Device addresses of declared globals, filled in by the runtime.\n");
        for c in &shared.cells {
            out.push_str(&if host {
                format!("static void *{c} = 0;\n")
            } else {
                format!("extern \"C\" {{ __device__ void *{c} = 0; }}\n")
            });
        }
    }
    for h in &helpers {
        out.push('\n');
        out.push_str(h.text(host));
    }
    if !protos.is_empty() {
        out.push('\n');
        out.push_str(&protos);
    }
    out.push_str(&bodies);
    if host {
        out.push_str(&host_table(m, &shared.cells));
    }
    let ext = if host { "host.c" } else { "cu" };
    Ok(number_lines(&out, &format!("{}.{ext}", m.source)))
}

/// The host C's symbol table (`super::write_host_c`): each kernel's entry
/// and each cell, by name.
fn host_table(m: &Module, cells: &[String]) -> String {
    let Some(name) = super::host_table(m) else {
        return String::new();
    };
    let mut rows = vec![];
    for k in &m.kernels {
        rows.push(format!(
            "    {{{}, (void *){}}},\n",
            lit::c_str(&k.name),
            host_entry(&k.name)
        ));
    }
    for c in cells {
        rows.push(format!("    {{{}, (void *)&{c}}},\n", lit::c_str(c)));
    }
    format!(
        "\n#line __accc_generated__\n/* The multicore device's symbols (ptxrt.h, PTXRT_CODE_HOST). */\nconst struct {{ const char *name; void *addr; }} {name}[] = {{\n{}    {{0, 0}}\n}};\n",
        rows.concat()
    )
}

/// The name of kernel `k`'s entry in host C.
fn host_entry(k: &str) -> String {
    format!("__accc_entry_{k}")
}

/// Adds the blob shapes a body uses to `out`.
fn note_blobs(f: &Function, out: &mut Vec<(u64, u64)>) {
    for l in &f.locals {
        collect_blobs(&l.ty, out);
    }
    for t in f.expr_types.iter().chain(&f.shared) {
        collect_blobs(t, out);
    }
}

/// `static __device__ double f(double x)` (or `extern "C" …` of its
/// symbol when exported or imported); `names`: the identifiers of the
/// body's locals.
fn function_head(
    s: &Shared,
    i: usize,
    f: &DeviceFunction,
    names: &[String],
) -> Result<String, Error> {
    let mut params = vec![];
    for p in &f.params {
        let (Some(l), Some(name)) = (f.body.locals.get(p.0 as usize), names.get(p.0 as usize))
        else {
            return internal("parameter bound to a missing local");
        };
        params.push(declare(&l.ty, name));
    }
    let params = if params.is_empty() {
        "void".to_string()
    } else {
        params.join(", ")
    };
    let host = s.o.dialect == Dialect::HostC;
    let linkage = match f.linkage {
        Linkage::Internal if host => "static",
        Linkage::Internal => "static __device__",
        Linkage::Export | Linkage::Import if host => "extern",
        Linkage::Export | Linkage::Import => "extern \"C\" __device__",
    };
    Ok(format!(
        "{linkage} {}({params})",
        declare(&f.ret, &s.fns[i])
    ))
}

/// A loop being written: the label its `continue`s jump to when its step
/// is not in its header, and whether one did.
struct LoopCtx {
    label: Option<String>,
    used: bool,
}

/// Writes one kernel or device function.
pub(super) struct FnWriter<'a> {
    /// The body being written.
    pub f: &'a Function,
    /// The symbols of the cells, by index.
    pub cells: &'a [String],
    /// The identifiers of the shared arrays, by index.
    pub shared: Vec<String>,
    /// The helper functions the module needs.
    pub helpers: &'a mut BTreeSet<Helper>,
    s: &'a Shared<'a>,
    names: Vec<String>,
    used: Vec<bool>,
    w: CWriter,
    loops: Vec<LoopCtx>,
    labels: usize,
    /// Where the last `#line` pointed: the source file, its line, and the
    /// writer's line count after it (`None`: the generated text's own
    /// numbering).
    mapped: Option<(String, u32, usize)>,
    /// The location of the statement being written ([`FnWriter::stmt`]).
    enclosing: Option<SrcLoc>,
}

impl<'a> FnWriter<'a> {
    fn new(s: &'a Shared<'a>, f: &'a Function, helpers: &'a mut BTreeSet<Helper>) -> Self {
        let mut namer = Namer::new();
        for g in &s.globals {
            namer.reserve(g);
        }
        let names = f.locals.iter().map(|l| namer.fresh(&l.name)).collect();
        let shared = (0..f.shared.len())
            .map(|n| format!("__accc_shared{n}"))
            .collect();
        FnWriter {
            f,
            cells: &s.cells,
            shared,
            helpers,
            s,
            names,
            used: vec![false; f.locals.len()],
            w: CWriter::new(Layout::Lines),
            loops: vec![],
            labels: 0,
            mapped: None,
            enclosing: None,
        }
    }

    /// The identifier of local `l` (marked as used).
    pub fn local(&mut self, l: LocalId) -> Result<String, Error> {
        match self.names.get(l.0 as usize) {
            Some(n) => {
                self.used[l.0 as usize] = true;
                Ok(n.clone())
            }
            None => internal("local out of range"),
        }
    }

    /// A `#line` before the next statement: to `loc` unless the lines
    /// already count to it, or back to the generated text's own numbering
    /// ([`GENERATED`]) for a statement of no known location.
    fn mark(&mut self, loc: Option<&SrcLoc>) {
        if !self.s.o.line_directives {
            return;
        }
        let now = self.w.lines();
        match loc.filter(|l| l.line > 0) {
            Some(l) => {
                let counted = match &self.mapped {
                    Some((file, line, at)) if *file == l.file => Some(*line as usize + (now - at)),
                    _ => None,
                };
                if counted != Some(l.line as usize) {
                    self.w
                        .raw(&format!("#line {} {}\n", l.line, lit::c_str(&l.file)));
                    self.mapped = Some((l.file.clone(), l.line, now + 1));
                }
            }
            None => {
                if self.mapped.take().is_some() {
                    self.w.raw(GENERATED);
                }
            }
        }
    }

    /// The text of a function with signature `head`: its locals but the
    /// `params`, its shared arrays, its statements.
    fn function(
        &mut self,
        head: &str,
        loc: &SrcLoc,
        params: &[LocalId],
        launch_note: &[String],
        ret: &Type,
    ) -> Result<String, Error> {
        self.w.open("");
        self.block(&self.f.body)?;
        // What follows (a default return, the closing braces) is the
        // generated text's.
        self.mark(None);
        // Falling off the end of a value-returning function: C leaves the
        // result undefined, C++ the whole call; return anything (as the
        // NVPTX back end does).
        if *ret != Type::Void && !matches!(self.f.body.last(), Some(Stmt::Return(_))) {
            let zero = super::expr::int_literal(0, &Type::I32)?;
            self.w.line(&format!(
                "return {};",
                CExpr::cast(c_type(ret), zero).to_c()
            ));
        }
        self.w.close();
        let body = std::mem::replace(&mut self.w, CWriter::new(Layout::Lines)).finish();
        let mut w = CWriter::new(Layout::Lines);
        for n in launch_note {
            w.line(n);
        }
        if self.s.o.line_directives && loc.line > 0 {
            w.raw(&format!("#line {} {}\n", loc.line, lit::c_str(&loc.file)));
            w.line(head);
            w.raw(GENERATED);
        } else {
            w.line(head);
        }
        let mut text = w.finish();
        // The locals, after the `{` of the body.
        let mut decls = String::new();
        for (i, l) in self.f.locals.iter().enumerate() {
            if self.used[i] && !params.iter().any(|p| p.0 as usize == i) {
                decls.push_str(&format!("    {};\n", declare(&l.ty, &self.names[i])));
            }
        }
        for (t, name) in self.f.shared.iter().zip(&self.shared) {
            // In host C, the block's (one call's) own.
            let space = if self.host() { "" } else { "__shared__ " };
            decls.push_str(&format!(
                "    {space}{} {};\n",
                align_attr(16, self.host()),
                declare(t, name)
            ));
        }
        let (open, rest) = body.split_at(body.find('\n').map_or(0, |i| i + 1));
        text.push_str(open);
        text.push_str(&decls);
        text.push_str(rest);
        Ok(text)
    }

    /// The text of kernel `k`; `read_only[i]`: nothing writes through
    /// parameter `i`; `own[i]`: no other pointer of the kernel reaches its
    /// memory (`__restrict__` for nvcc, as the NVPTX back end's `noalias`).
    fn kernel(&mut self, k: &Kernel, read_only: &[bool], own: &[bool]) -> Result<String, Error> {
        let mut params = vec![];
        for (i, p) in k.params.iter().enumerate() {
            let Some(l) = self.f.locals.get(p.local.0 as usize) else {
                return internal("parameter bound to a missing local");
            };
            self.used[p.local.0 as usize] = true;
            let name = &self.names[p.local.0 as usize];
            let mut d = if own.get(i).copied().unwrap_or(false) && !self.host() {
                declare(&l.ty, &format!("__restrict__ {name}"))
            } else {
                declare(&l.ty, name)
            };
            if read_only.get(i).copied().unwrap_or(false)
                && p.mode == crate::ir::ParamMode::DevicePtr
            {
                d.push_str(" /* read only */");
            }
            params.push(d);
        }
        // `ir::ThreadBound`, as the NVPTX back end writes it.
        let bounds = match k.thread_bound() {
            ThreadBound::Block(b) => format!(
                "__launch_bounds__({})",
                b.iter().map(|n| u64::from(*n)).product::<u64>()
            ),
            ThreadBound::Registers(n) => format!("__maxnreg__({n})"),
        };
        let head = if self.host() {
            format!("static void {}({})", k.name, params.join(", "))
        } else {
            format!(
                "extern \"C\" __global__ void {bounds} {}({})",
                k.name,
                params.join(", ")
            )
        };
        let note = vec![format!("// {} at {}", k.construct, k.loc)];
        let locals: Vec<LocalId> = k.params.iter().map(|p| p.local).collect();
        let mut text = self.function(&head, &k.loc, &locals, &note, &Type::Void)?;
        if self.host() {
            text.push_str(&self.entry(k)?);
        }
        Ok(text)
    }

    /// Host C: kernel `k`'s entry (`super::write_host_c`), which runs
    /// block `b` (linear) of grid `g` with the arguments `args` points to.
    fn entry(&self, k: &Kernel) -> Result<String, Error> {
        let mut args = vec![];
        for (i, p) in k.params.iter().enumerate() {
            let Some(l) = self.f.locals.get(p.local.0 as usize) else {
                return internal("parameter bound to a missing local");
            };
            args.push(format!("*({})__accc_args[{i}]", c_type(&l.ty.ptr_to())));
        }
        Ok(format!(
            "{GENERATED}static void {}(const unsigned int *__accc_g, unsigned long long __accc_b, void **__accc_args)
{{
    (void)__accc_args;
    __accc_gdim[0] = __accc_g[0];
    __accc_gdim[1] = __accc_g[1];
    __accc_gdim[2] = __accc_g[2];
    __accc_bid[0] = (unsigned int)(__accc_b % __accc_g[0]);
    __accc_bid[1] = (unsigned int)(__accc_b / __accc_g[0] % __accc_g[1]);
    __accc_bid[2] = (unsigned int)(__accc_b / __accc_g[0] / __accc_g[1]);
    {}({});
}}
",
            host_entry(&k.name),
            k.name,
            args.join(", ")
        ))
    }

    /// Whether the writer writes host C.
    pub fn host(&self) -> bool {
        self.s.o.dialect == Dialect::HostC
    }

    fn block(&mut self, b: &[Stmt]) -> Result<(), Error> {
        for s in b {
            self.stmt(s)?;
        }
        Ok(())
    }

    /// `head {` `b` `}`.
    fn braced(&mut self, head: &str, b: &[Stmt]) -> Result<(), Error> {
        self.w.open(head);
        self.block(b)?;
        self.w.close();
        Ok(())
    }

    /// `head {`.
    pub fn w_open(&mut self, head: &str) {
        self.w.open(head);
    }

    /// One line of a statement written over several lines (`;`
    /// included), located at that statement: each line of it stands for
    /// the statement's source line.
    pub fn w_line(&mut self, text: &str) {
        let at = self.enclosing.clone();
        self.mark(at.as_ref());
        self.w.line(text);
    }

    /// `}`.
    pub fn w_close(&mut self) {
        self.w.close();
    }

    /// `e;`.
    fn line(&mut self, e: CExpr) {
        self.w.line(&format!("{};", e.to_c()));
    }

    /// `local = e` as an expression.
    pub fn assign(&mut self, local: LocalId, e: CExpr) -> Result<CExpr, Error> {
        Ok(CExpr::bin(
            CBinOp::Assign,
            CExpr::atom(self.local(local)?),
            e,
        ))
    }

    /// One statement, after a `#line` to its location: the first in its
    /// expressions (the front end locates each statement's, the schedule a
    /// loop's control code), else that of the statement it is in (code the
    /// compiler wrote inside a located statement), else the generated text.
    fn stmt(&mut self, s: &Stmt) -> Result<(), Error> {
        let loc = self
            .f
            .stmt_loc(s)
            .cloned()
            .or_else(|| self.enclosing.clone());
        self.mark(loc.as_ref());
        let outer = std::mem::replace(&mut self.enclosing, loc);
        let r = self.stmt_at(s);
        self.enclosing = outer;
        r
    }

    fn stmt_at(&mut self, s: &Stmt) -> Result<(), Error> {
        match s {
            Stmt::Assign { local, value } => {
                let v = self.expr(*value)?;
                let a = self.assign(*local, v)?;
                self.line(a);
            }
            Stmt::Store { ptr, value } => {
                let p = self.deref(*ptr)?;
                let v = self.expr(*value)?;
                self.line(CExpr::bin(CBinOp::Assign, p, v));
            }
            Stmt::If {
                cond,
                then,
                otherwise,
                ..
            } => {
                let c = self.expr(*cond)?;
                self.w.open(&format!("if ({})", c.to_c()));
                self.block(then)?;
                if !otherwise.is_empty() {
                    self.w.reopen("else");
                    self.block(otherwise)?;
                }
                self.w.close();
            }
            Stmt::While { cond, body, step } => self.while_(*cond, body, step)?,
            Stmt::Switch { value, arms } => self.switch(*value, arms)?,
            Stmt::Break => self.w.line("break;"),
            Stmt::Continue => {
                let Some(l) = self.loops.last_mut() else {
                    return internal("continue outside a loop");
                };
                match &l.label {
                    Some(label) => {
                        l.used = true;
                        let text = format!("goto {label};");
                        self.w.line(&text);
                    }
                    None => self.w.line("continue;"),
                }
            }
            Stmt::Return(v) => match v {
                Some(v) => {
                    let e = self.expr(*v)?;
                    self.w.line(&format!("return {};", e.to_c()));
                }
                None => self.w.line("return;"),
            },
            Stmt::Call {
                func, args, result, ..
            } => {
                let Some(name) = self.s.fns.get(*func).cloned() else {
                    return internal("call of a missing function");
                };
                let mut a = vec![];
                for x in args {
                    a.push(self.expr(*x)?);
                }
                let call = CExpr::call(name, a);
                let e = match result {
                    Some(r) => self.assign(*r, call)?,
                    None => call,
                };
                self.line(e);
            }
            Stmt::Copy { dst, src, bytes } => {
                let (d, s) = (self.expr(*dst)?, self.expr(*src)?);
                self.line(CExpr::call("memcpy", vec![d, s, lit::ull(*bytes)]));
            }
            Stmt::Print { format, args } => {
                let mut a = vec![CExpr::atom(lit::c_bytes(format))];
                for x in args {
                    a.push(self.expr(*x)?);
                }
                self.line(CExpr::call("printf", a));
            }
            // Host C: a block is one thread.
            Stmt::Barrier(_) if self.host() => self.w.line("(void)0;"),
            Stmt::Barrier(BarrierScope::Block) => self.w.line("__syncthreads();"),
            Stmt::Barrier(BarrierScope::Row) => {
                self.helpers.insert(Helper::RowBarrier);
                self.w.line("__accc_row_barrier();");
            }
            Stmt::Fence if self.host() => self.w.line("__atomic_thread_fence(__ATOMIC_SEQ_CST);"),
            Stmt::Fence => self.w.line("__threadfence();"),
            Stmt::AtomicRmw {
                op,
                ptr,
                value,
                old,
            } => {
                let e = self.atomic_rmw(*op, *ptr, *value)?;
                let e = match old {
                    Some(l) => {
                        let t = self.f.local(*l).ty.clone();
                        self.assign(*l, CExpr::cast(c_type(&t), e))?
                    }
                    None => e,
                };
                self.line(e);
            }
            Stmt::AtomicCas {
                ptr,
                expected,
                desired,
                old,
                ok,
            } => self.atomic_cas(*ptr, *expected, *desired, *old, *ok)?,
            Stmt::AtomicLoad { ptr, dst } => {
                let e = self.atomic_load(*ptr)?;
                let a = self.assign(*dst, e)?;
                self.line(a);
            }
            Stmt::AtomicStore { ptr, value } => {
                let e = self.atomic_store(*ptr, *value)?;
                self.line(e);
            }
            Stmt::Block(b) => self.braced("", b)?,
            Stmt::Loop(_) => return internal("counted loop reached the back end unscheduled"),
            Stmt::Single(_) | Stmt::Broadcast { .. } => {
                return internal("single-thread code reached the back end unresolved")
            }
        }
        Ok(())
    }

    /// A `While` (see the module's comment for its three forms).
    fn while_(&mut self, cond: ExprId, body: &[Stmt], step: &[Stmt]) -> Result<(), Error> {
        let c = self.expr(cond)?.to_c();
        let mut header = vec![];
        for s in step {
            match s {
                Stmt::Assign { local, value } => {
                    let v = self.expr(*value)?;
                    header.push(self.assign(*local, v)?);
                }
                _ => {
                    header.clear();
                    break;
                }
            }
        }
        if step.is_empty() || header.len() == step.len() {
            let head = match header
                .into_iter()
                .reduce(|a, b| CExpr::bin(CBinOp::Comma, a, b))
            {
                Some(st) => format!("for (; {c}; {})", st.to_c()),
                None => format!("while ({c})"),
            };
            self.loops.push(LoopCtx {
                label: None,
                used: false,
            });
            self.braced(&head, body)?;
            self.loops.pop();
            return Ok(());
        }
        let label = format!("__accc_step{}", self.labels);
        self.labels += 1;
        self.loops.push(LoopCtx {
            label: Some(label.clone()),
            used: false,
        });
        self.w.open(&format!("while ({c})"));
        self.block(body)?;
        let ctx = self.loops.pop();
        if ctx.is_some_and(|l| l.used) {
            self.w.line(&format!("{label}:;"));
        }
        // The step is in no loop of its own: a `continue` there would be
        // the enclosing loop's, which the IR rules out.
        self.loops.push(LoopCtx {
            label: None,
            used: false,
        });
        self.block(step)?;
        self.loops.pop();
        self.w.close();
        Ok(())
    }

    /// `switch`: each arm's labels, then its statements, falling through.
    fn switch(&mut self, value: ExprId, arms: &[SwitchArm]) -> Result<(), Error> {
        let t = self.f.ty(value).clone();
        let v = self.expr(value)?;
        self.w.open(&format!("switch ({})", v.to_c()));
        let mut seen = BTreeSet::new();
        let bits = match &t {
            Type::Int(k) => k.bits(),
            _ => return internal(&format!("switch on {t}")),
        };
        for (i, a) in arms.iter().enumerate() {
            for &c in &a.values {
                let key = (c as u128) & ((1u128 << bits) - 1);
                if seen.insert(key) {
                    let l = super::expr::int_literal(c, &t)?;
                    self.w.line(&format!("case {}:", l.to_c()));
                }
            }
            if a.default {
                self.w.line("default:");
            }
            self.block(&a.body)?;
            // (A label must label a statement.)
            if a.body.is_empty() && i + 1 == arms.len() {
                self.w.line("break;");
            }
        }
        self.w.close();
        Ok(())
    }
}
