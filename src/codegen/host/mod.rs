//! The host rewrite: splices runtime calls into the preprocessed text in
//! place of each construct, keeping the original statement as the host
//! fallback. Generated code is written without newlines so every original
//! line keeps its number (diagnostics of the host compiler stay right).
//!
//! Owns: [`write`]. May call: `ir` (the module and the host plan) only.

mod atomic;
mod device;
mod expr;

use crate::codegen::c::{CExpr, CWriter, Layout};
use crate::ir::host::{AsyncSpec, Construct, ConstructKind, HostArg, HostMap, Queue};
use crate::ir::Module;
use expr::c_expr;

pub use crate::codegen::c::c_str;

/// Name of the (static) image object every launch refers to; `embed`
/// defines it at the end of the translation unit.
pub const IMAGE: &str = "__accc_image";

/// Rewrites `text` (preprocessed, pragmas blanked) according to the
/// module's host plan. The result is C source to compile with `ptxrt.h`
/// on the include path.
pub fn write(text: &str, module: &Module) -> String {
    let plan = &module.host;
    let mut w = Writer {
        text,
        module,
        next: 0,
    };
    let mut o = CWriter::new(Layout::OneLine);
    o.raw("#include <ptxrt.h>\n");
    if !module.kernels.is_empty() {
        o.raw(&format!("static struct __ptxrt_image {IMAGE};\n"));
    }
    w.range(&mut o, 0..text.len(), &plan.constructs);
    let mut out = o.finish();
    if !plan.declares.is_empty() {
        let items: Vec<String> = plan
            .declares
            .iter()
            .map(|d| {
                format!(
                    "{{{}, {}, {}, {}, {{{}, {}, {}, \"declare\"}}}}",
                    c_str(&d.name),
                    expr::addr(&d.start).to_c_arg(),
                    expr::bytes(&d.bytes).to_c_arg(),
                    d.kind,
                    c_str(&d.loc.file),
                    d.loc.line,
                    d.loc.col
                )
            })
            .collect();
        out.push_str(&format!(
            "\nstatic const struct __ptxrt_declare __accc_declares[] = {{{}}};\n__attribute__((constructor)) static void __accc_register_declares(void) {{ for (unsigned long i = 0; i < {}; i++) __ptxrt_register_declare(&__accc_declares[i]); }}\n",
            items.join(", "),
            plan.declares.len()
        ));
    }
    out
}

struct Writer<'a> {
    text: &'a str,
    module: &'a Module,
    /// Constructs rewritten so far: each one's number names its locals.
    next: usize,
}

impl Writer<'_> {
    /// Copies `range` of the text, rewriting `inside`, the constructs in it
    /// (the plan's top level, or a construct's body).
    fn range(&mut self, out: &mut CWriter, range: std::ops::Range<usize>, inside: &[Construct]) {
        let mut pos = range.start;
        for c in inside {
            out.raw(&self.text[pos..c.stmt.start]);
            // A fallback is its compute construct's text: no locals.
            if !matches!(c.kind, ConstructKind::Fallback) {
                self.next += 1;
            }
            let id = self.next;
            self.construct(out, c, id);
            pos = c.stmt.end;
        }
        out.raw(&self.text[pos..range.end]);
    }

    fn prologue(&self, out: &mut CWriter, c: &Construct, id: usize) {
        out.line(&format!(
            "static const struct __ptxrt_loc __accc_loc{id} = {{{}, {}, {}, {}}};",
            c_str(&c.loc.file),
            c.loc.line,
            c.loc.col,
            c_str(&c.name)
        ));
        if !c.maps.is_empty() {
            let items: Vec<String> = c.maps.iter().map(map_init).collect();
            out.line(&format!(
                "struct __ptxrt_map __accc_maps{id}[] = {{{}}};",
                items.join(", ")
            ));
        }
    }

    fn maps_args(c: &Construct, id: usize) -> String {
        if c.maps.is_empty() {
            "(const struct __ptxrt_map *)0, 0".to_string()
        } else {
            format!("__accc_maps{id}, {}", c.maps.len())
        }
    }

    fn construct(&mut self, out: &mut CWriter, c: &Construct, id: usize) {
        // The `if` clause, compared with 0; `1` without one.
        let cond = c
            .cond
            .as_ref()
            .map_or_else(|| CExpr::atom("1"), expr::user)
            .to_c_arg();
        match &c.kind {
            ConstructKind::Data { asyncs } => {
                // The region ends however control leaves the block
                // (return, break, goto): a cleanup, not a call at the end.
                out.open("");
                self.prologue(out, c, id);
                let a = async_struct(out, asyncs, id);
                out.line(&format!(
                    "void *__accc_r{id} __attribute__((cleanup(__ptxrt_data_cleanup))) = __ptxrt_use_device({cond}) ? __ptxrt_data_begin(&__accc_loc{id}, {}, {a}) : (void *)0;",
                    Self::maps_args(c, id)
                ));
                self.range(out, c.stmt.clone(), &c.body);
                out.close();
            }
            ConstructKind::DeclareLocal => {
                // The region is the rest of the enclosing block (its
                // statement), ended by the block's cleanup.
                self.prologue(out, c, id);
                out.line(&format!(
                    "void *__accc_r{id} __attribute__((cleanup(__ptxrt_data_cleanup))) = __ptxrt_use_device(1) ? __ptxrt_data_begin(&__accc_loc{id}, {}, (const struct __ptxrt_async *)0) : (void *)0;",
                    Self::maps_args(c, id)
                ));
                self.range(out, c.stmt.clone(), &c.body);
            }
            ConstructKind::EnterData { asyncs } | ConstructKind::ExitData { asyncs, .. } => {
                open_if(out, &format!("__ptxrt_use_device({cond})"));
                self.prologue(out, c, id);
                let a = async_struct(out, asyncs, id);
                match &c.kind {
                    ConstructKind::ExitData { finalize, .. } => out.line(&format!(
                        "__ptxrt_exit_data(&__accc_loc{id}, {}, {}, {a});",
                        Self::maps_args(c, id),
                        i32::from(*finalize)
                    )),
                    _ => out.line(&format!(
                        "__ptxrt_enter_data(&__accc_loc{id}, {}, {a});",
                        Self::maps_args(c, id)
                    )),
                }
                close_if(out);
            }
            ConstructKind::Atomic(a) => {
                let when = c.cond.as_ref().map(|e| expr::user(e).to_c_arg());
                out.raw(&atomic::write(
                    a,
                    &self.text[c.stmt.clone()],
                    when.as_deref(),
                ));
            }
            // The statement as written, its atomics rewritten.
            ConstructKind::Fallback => self.range(out, c.stmt.clone(), &c.body),
            ConstructKind::Device(d) => {
                // No device is chosen for it: the runtime call decides.
                open_if(out, &cond);
                self.prologue(out, c, id);
                device::calls(out, d, id);
                close_if(out);
            }
            ConstructKind::Wait { asyncs } => {
                open_if(out, &format!("__ptxrt_use_device({cond})"));
                self.prologue(out, c, id);
                let a = async_struct(out, asyncs, id);
                out.line(&format!("__ptxrt_wait(&__accc_loc{id}, {a});"));
                close_if(out);
            }
            ConstructKind::Update {
                items,
                if_present,
                asyncs,
            } => {
                open_if(out, &format!("__ptxrt_use_device({cond})"));
                self.prologue(out, c, id);
                let list: Vec<String> = items
                    .iter()
                    .map(|u| {
                        format!(
                            "{{{}, {}, {}, {}}}",
                            c_str(&u.name),
                            expr::addr(&u.start).to_c_arg(),
                            expr::bytes(&u.bytes).to_c_arg(),
                            i32::from(u.to_device) | (i32::from(u.block) << 1)
                        )
                    })
                    .collect();
                out.line(&format!(
                    "struct __ptxrt_update __accc_u{id}[] = {{{}}};",
                    list.join(", ")
                ));
                let a = async_struct(out, asyncs, id);
                out.line(&format!(
                    "__ptxrt_update(&__accc_loc{id}, __accc_u{id}, {}, {}, {a});",
                    items.len(),
                    i32::from(*if_present)
                ));
                close_if(out);
            }
            ConstructKind::HostData { vars, if_present } => {
                // Each variable is shadowed by its device address.
                out.open("");
                self.prologue(out, c, id);
                out.line(&format!("int __accc_on{id} = __ptxrt_use_device({cond});"));
                // A pointer to the variable's elements.
                let ptr_type = |v: &str| format!("__typeof__(&({v})[0])");
                for (k, v) in vars.iter().enumerate() {
                    let ptr_t = ptr_type(v);
                    out.line(&format!(
                        "{ptr_t} __accc_hd{id}_{k} = __accc_on{id} ? ({ptr_t})__ptxrt_host_data_ptr(&__accc_loc{id}, {}, (const void *)({v}), {}) : ({v});",
                        c_str(v),
                        i32::from(*if_present)
                    ));
                }
                out.open("");
                for (k, v) in vars.iter().enumerate() {
                    out.line(&format!("{} {v} = __accc_hd{id}_{k};", ptr_type(v)));
                }
                self.range(out, c.stmt.clone(), &c.body);
                out.close();
                out.close();
            }
            ConstructKind::Compute {
                kernel,
                args,
                asyncs,
                launch,
            } => {
                open_if(out, &format!("__ptxrt_use_device({cond})"));
                self.prologue(out, c, id);
                let a = async_struct(out, asyncs, id);
                let queue = if asyncs.is_sync() {
                    "PTXRT_ASYNC_NONE".to_string()
                } else {
                    format!("__accc_as{id}.async")
                };
                out.line(&format!(
                    "void *__accc_r{id} = __ptxrt_data_begin(&__accc_loc{id}, {}, {a});",
                    Self::maps_args(c, id)
                ));
                let mut arg_ptrs = vec![];
                let mut scratch = None;
                for (i, a) in args.iter().enumerate() {
                    match a {
                        HostArg::Value { var } => {
                            arg_ptrs.push(format!("(void *)&({})", var.c_spelling()))
                        }
                        HostArg::Size { bytes } => {
                            out.line(&format!(
                                "unsigned long __accc_s{id}_{i} = {};",
                                expr::bytes(bytes).to_c()
                            ));
                            arg_ptrs.push(format!("(void *)&__accc_s{id}_{i}"));
                        }
                        HostArg::DevicePtr {
                            name,
                            ptr,
                            section,
                            if_present,
                        } => {
                            out.line(&format!(
                                "void *__accc_d{id}_{i} = __ptxrt_deviceptr(&__accc_loc{id}, {}, {}, {}, {});",
                                c_str(name),
                                expr::addr(ptr).to_c_arg(),
                                section.as_ref().map_or_else(
                                    || "(const void *)0".to_string(),
                                    |a| expr::addr(a).to_c_arg()
                                ),
                                i32::from(*if_present)
                            ));
                            arg_ptrs.push(format!("(void *)&__accc_d{id}_{i}"));
                        }
                        // Sized by the grid, below (the last parameter).
                        HostArg::Scratch { slots } => scratch = Some(*slots),
                    }
                }
                let name = self.module.kernels.get(*kernel).map(|k| &k.name);
                let wait = launch.as_ref().is_some_and(|p| p.wait);
                let launch = name.zip(launch.as_ref()).map(|(name, plan)| {
                    let mut site = expr::Site {
                        id,
                        image: IMAGE,
                        kernel: name,
                        threads: CExpr::atom("1"),
                    };
                    site.threads = c_expr(&expr::threads(&plan.block), &site);
                    let mut block: [String; 3] =
                        std::array::from_fn(|d| c_expr(&plan.block[d], &site).to_c_arg());
                    if let Some(fixed) = plan.fit {
                        out.line(&format!(
                            "__ptxrt_u32 __accc_b{id}[3] = {{{}, {}, {}}};",
                            block[0], block[1], block[2]
                        ));
                        out.line(&format!(
                            "__ptxrt_fit_block_to(__accc_b{id}, {fixed}u, {});",
                            site.kernel_threads().to_c_arg()
                        ));
                        let fitted = std::array::from_fn(|d| crate::ir::HostExpr::Block(d as u8));
                        block = std::array::from_fn(|d| c_expr(&fitted[d], &site).to_c_arg());
                        site.threads = c_expr(&expr::threads(&fitted), &site);
                    }
                    let mut grid: [String; 3] = std::array::from_fn(|d| c_expr(&plan.grid[d], &site).to_c_arg());
                    // Reductions across gangs: scratch memory sized by the
                    // number of gangs.
                    if let Some(slots) = scratch {
                        out.line(&format!(
                            "unsigned int __accc_g{id}[3] = {{{}, {}, {}}};",
                            grid[0],
                            grid[1],
                            grid[2],
                        ));
                        out.line(&format!(
                            "void *__accc_x{id} = __ptxrt_scratch(&__accc_loc{id}, {}ULL + {}ULL * (unsigned long long)__accc_g{id}[0] * __accc_g{id}[1] * __accc_g{id}[2], {queue});",
                            crate::ir::Scratch::SLOTS_AT,
                            8 * u64::from(slots)
                        ));
                        grid = std::array::from_fn(|d| format!("__accc_g{id}[{d}]"));
                        arg_ptrs.push(format!("(void *)&__accc_x{id}"));
                    }
                    (name, block, grid)
                });
                let args_expr = if arg_ptrs.is_empty() {
                    "(void **)0".to_string()
                } else {
                    out.line(&format!(
                        "void *__accc_a{id}[] = {{{}}};",
                        arg_ptrs.join(", ")
                    ));
                    format!("__accc_a{id}")
                };
                if let Some((name, block, grid)) = launch {
                    out.line(&format!(
                        "__ptxrt_launch(&__accc_loc{id}, &{IMAGE}, {}, {}, {}, {}, {}, {}, {}, 0u, {args_expr}, {queue});",
                        c_str(name),
                        grid[0],
                        grid[1],
                        grid[2],
                        block[0],
                        block[1],
                        block[2]
                    ));
                    // Its output reaches the host without a runtime call:
                    // the construct's end waits for it.
                    if asyncs.is_sync() && wait {
                        out.line("__ptxrt_settle();");
                    }
                }
                out.line(&format!("__ptxrt_data_end(__accc_r{id});"));
                // Else its fallback (the body's one construct).
                out.reopen("else");
                self.range(out, c.stmt.clone(), &c.body);
                close_if(out);
            }
        }
    }
}

/// `{ if (cond) {`: a construct's block and its condition.
fn open_if(out: &mut CWriter, cond: &str) {
    out.open("");
    out.open(&format!("if ({cond})"));
}

/// The two `}` of [`open_if`].
fn close_if(out: &mut CWriter) {
    out.close();
    out.close();
}

fn map_init(m: &HostMap) -> String {
    let flags = CExpr::atom(m.flags.to_string());
    let flags = match &m.extent_guard {
        Some(g) => CExpr::bin(
            crate::codegen::c::CBinOp::BitOr,
            flags,
            CExpr::cond(
                expr::user(g),
                CExpr::atom("0"),
                CExpr::atom(crate::ir::host::MAP_NO_EXTENT.to_string()),
            ),
        ),
        None => flags,
    };
    format!(
        "{{{}, {}, {}, {}, {}}}",
        c_str(&m.name),
        expr::addr(&m.start).to_c_arg(),
        expr::bytes(&m.bytes).to_c_arg(),
        m.kind as i32,
        flags.to_c_arg(),
    )
}

/// The `struct __ptxrt_async *` argument of a directive with `async` or
/// The C name of queue variable number `n` ([`AsyncSpec::bind`]).
fn queue_var(n: usize) -> String {
    format!("__accc_kq{n}")
}

/// `wait` clauses (declaring the struct, its wait list, and the variable
/// the queue is bound to first); a null pointer without them.
fn async_struct(out: &mut CWriter, a: &AsyncSpec, id: usize) -> String {
    if a.is_sync() {
        return "(const struct __ptxrt_async *)0".to_string();
    }
    let mut queue = match &a.queue {
        None => "PTXRT_ASYNC_NONE".to_string(),
        Some(Queue::NoVal) => "-1 /* acc_async_noval */".to_string(),
        Some(Queue::Expr(e)) => expr::user(e).to_c_arg(),
        Some(Queue::Bound(n)) => queue_var(*n),
    };
    if let Some(n) = a.bind {
        let v = queue_var(n);
        out.line(&format!("int {v} = {queue};"));
        queue = v;
    }
    let waits = match &a.waits {
        None => "0, (const int *)0".to_string(),
        Some(w) if w.is_empty() => "-1, (const int *)0".to_string(),
        Some(w) => {
            let list: Vec<String> = w.iter().map(|e| expr::user(e).to_c_arg()).collect();
            out.line(&format!("int __accc_w{id}[] = {{{}}};", list.join(", ")));
            format!("{}, __accc_w{id}", w.len())
        }
    };
    let dev = match &a.wait_dev {
        Some(e) => expr::user(e).to_c_arg(),
        None => "-1".to_string(),
    };
    out.line(&format!(
        "struct __ptxrt_async __accc_as{id} = {{{queue}, {dev}, {waits}}};"
    ));
    format!("&__accc_as{id}")
}
