//! The loops of a region: a flat loop over `0..N` (or a run-time trip count) or a
//! nest of rows and columns (`loop gang` / `loop vector`, `collapse(2)`), their
//! directives with the reduction and private clauses of `extras.rs`, and bodies
//! from `stmt.rs` followed by the reduction and atomic updates of `accum.rs`.

use super::extras::{Extras, Red};
use super::{Globals, Kind, Plan};
use crate::accum::Site;
use crate::ctx::Ctx;
use crate::env::{Access, ArrayView, Env, Own, Scalar};
use crate::expr::prec;
use crate::shape::{self, Trips};
use crate::span::Span;
use crate::stmt::Body;
use crate::ty::Ty;

/// A loop's text and what its construct needs to know of it.
pub(super) struct LoopOut {
    pub text: String,
    /// For a `Nest` that is not in a block, the level of its outer loop (the
    /// region is then `parallel loop <level>`).
    pub combined: Option<String>,
    /// Clauses of the loop for a combined construct's directive.
    pub directive_clauses: String,
    /// The loop runs over every element.
    pub full: bool,
    /// A `Nest` inside a `parallel` block.
    pub in_block: bool,
}

/// Which updates a body gets.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Part {
    /// The body of a flat loop, or of the collapsed nest.
    Flat,
    /// The inner loop of a nest.
    Inner,
    /// The outer loop of a nest, after its inner loop.
    Outer,
}

fn pad(n: usize) -> String {
    "    ".repeat(n)
}

/// The loop (or loop nest) of plan `l` with its body, at indentation 1 or 2.
pub(super) fn loop_text(
    ctx: &mut Ctx,
    g: &Globals,
    kind: Kind,
    plan: &Plan,
    views: Vec<ArrayView>,
    l: usize,
    x: &mut Extras,
) -> LoopOut {
    let nested = matches!(kind, Kind::Nest | Kind::Collapse);
    let inside_block = matches!(
        kind,
        Kind::ParallelBlock | Kind::VectorOnly | Kind::KernelsBlock | Kind::Serial
    ) || (kind == Kind::Nest && ctx.rng.chance(50));
    let base = if inside_block { 2 } else { 1 };
    let mut out = LoopOut {
        text: String::new(),
        combined: None,
        directive_clauses: String::new(),
        full: true,
        in_block: kind == Kind::Nest && inside_block,
    };
    let mut scalars = g.scalars.clone();
    let mut outer_rows = None;
    let (own, body_indent, trips) = if nested {
        let (outer, inner) = match kind {
            Kind::Collapse => (String::new(), String::new()),
            _ => {
                let (outers, inners): (&[&str], &[&str]) = if ctx.feat.worker_loops {
                    (
                        &["gang", "gang", "gang worker", "gang worker"],
                        &["vector", "vector", "worker vector", "worker"],
                    )
                } else {
                    (
                        &["gang", "gang", "gang worker"],
                        &["vector", "vector", "worker vector"],
                    )
                };
                (
                    (*ctx.rng.pick(outers)).to_string(),
                    (*ctx.rng.pick(inners)).to_string(),
                )
            }
        };
        let inner = if outer.contains("worker") {
            "vector".to_string()
        } else {
            inner
        };
        if ctx.feat.worker_loops && (outer == "gang worker" || inner == "worker") {
            ctx.used.worker_loops = true;
        }
        let rows = if kind == Kind::Nest {
            shape::trips(ctx, "R", g.r)
        } else {
            Trips::full("R", g.r)
        };
        out.full = rows.is_full(g.r);
        if let Some(d) = &rows.decl {
            x.decls.push(format!("    {d}\n"));
        }
        let outer_clauses =
            x.reduction_clauses(|r| r.plan == l) + &x.private_clause(|p| p.plan == l && p.outer);
        let inner_clauses = x.reduction_clauses(|r| r.plan == l && r.inner)
            + &x.private_clause(|p| p.plan == l && !p.outer);
        if kind == Kind::Nest {
            if inside_block {
                out.text += &format!("{}#pragma acc loop {outer}{outer_clauses}\n", pad(base - 1));
            } else {
                out.combined = Some(outer);
                out.directive_clauses = outer_clauses;
            }
        } else {
            // Collapse: one combined directive for both loops.
            out.directive_clauses =
                x.reduction_clauses(|r| r.plan == l) + &x.private_clause(|p| p.plan == l);
        }
        out.text += &format!("{}for (int r = 0; r < {}; r++) {{\n", pad(base), rows.text);
        let r_scalar = read_only("r", Ty::Int, Span::int(0, g.r - 1));
        // Scalars the outer body assigns for the inner loop to read.
        let outer_privs: Vec<usize> = (0..x.privs.len())
            .filter(|&k| x.privs[k].plan == l && x.privs[k].outer)
            .collect();
        if !outer_privs.is_empty() {
            let env = outer_env(g, &views, vec![r_scalar.clone()]);
            let mut body = Body::new(ctx, env, g.structs.clone(), base + 1, 0);
            for &k in &outer_privs {
                let s = x.privs[k].scalar.clone();
                body.assign_scalar(&s);
                scalars.push(Scalar {
                    mutable: false,
                    ..s
                });
            }
            out.text += &body.out;
        }
        if kind == Kind::Nest {
            out.text += &format!("#pragma acc loop {inner}{inner_clauses}\n");
        }
        out.text += &format!("{}for (int c = 0; c < C; c++) {{\n", pad(base + 1));
        let konst = if ctx.rng.chance(50) { "const " } else { "" };
        out.text += &format!("{}{konst}int i = r * C + c;\n", pad(base + 2));
        scalars.push(r_scalar);
        for (name, hi) in [("c", g.c), ("i", g.n)] {
            scalars.push(read_only(name, Ty::Int, Span::int(0, hi - 1)));
        }
        outer_rows = Some(rows.value);
        let own = Own {
            flat: "i".into(),
            row: "r".into(),
            col: "c".into(),
        };
        (own, base + 2, rows.value * g.c)
    } else {
        let level = match kind {
            Kind::ParallelBlock if l == 0 => {
                let mut levels = vec!["gang", "gang vector", "gang worker vector", ""];
                if ctx.feat.worker_loops {
                    levels.push("gang worker");
                }
                Some(*ctx.rng.pick(&levels))
            }
            Kind::ParallelBlock => Some("gang vector"),
            Kind::VectorOnly => Some(*ctx.rng.pick(&["vector", "worker", "worker vector"])),
            // No directive: kernels decides.
            Kind::KernelsBlock => {
                *ctx.rng
                    .pick(&[Some("independent"), Some(""), Some("gang vector"), None])
            }
            _ => None,
        };
        if level == Some("gang worker") {
            ctx.used.worker_loops = true;
        }
        // A construct reduction covers a plain gang loop: its clause may be left out.
        let drop_red =
            |ctx: &mut Ctx, r: &Red| r.construct && level == Some("gang") && ctx.rng.chance(50);
        let mut keep = Vec::new();
        for r in &x.reds {
            keep.push(r.plan == l && !drop_red(ctx, r));
        }
        let clauses = x.reduction_clauses_of(&keep) + &x.private_clause(|p| p.plan == l);
        match level {
            Some(lv) => out.text += &format!("{}#pragma acc loop {lv}{clauses}\n", pad(base - 1)),
            None if !clauses.is_empty() && kind == Kind::KernelsBlock => {
                out.text += &format!("{}#pragma acc loop{clauses}\n", pad(base - 1));
            }
            None => out.directive_clauses = clauses,
        }
        let trips = shape::trips(ctx, "N", g.n);
        if let Some(d) = &trips.decl {
            x.decls.push(format!("    {d}\n"));
        }
        out.full = trips.is_full(g.n);
        let (header, ty) = flat_header(ctx, kind == Kind::Serial, &trips);
        out.text += &format!("{}{header} {{\n", pad(base));
        scalars.push(read_only("i", ty, Span::int(0, g.n - 1)));
        let own = Own {
            flat: "i".into(),
            row: "i / C".into(),
            col: "i % C".into(),
        };
        (own, base + 1, trips.value)
    };
    let env = Env {
        scalars,
        arrays: views.clone(),
        own: Some(own),
        funcs: g.funcs.clone(),
        n: g.n,
        r: g.r,
        c: g.c,
    };
    let budget = ctx.rng.range(3, 12) as u32;
    let mut body = Body::new(ctx, env, g.structs.clone(), body_indent, budget);
    for p in x.privs.iter().filter(|p| p.plan == l && !p.outer) {
        body.assign_scalar(&p.scalar);
        body.env.scalars.push(p.scalar.clone());
    }
    for &a in &plan.first {
        let view = body.env.arrays[a].clone();
        body.first_write(&view);
        // Other elements may not be written yet: only this one is readable.
        body.env.arrays[a].read = Access::Own;
    }
    body.block(budget);
    // The inner loop reads what the outer body assigned.
    for p in x.privs.iter().filter(|p| p.plan == l && p.outer) {
        if let Some(&a) = plan.writes.first() {
            let view = body.env.arrays[a].clone();
            let s = Scalar {
                mutable: false,
                ..p.scalar.clone()
            };
            body.mix_in(&s, &view);
        }
    }
    for &a in &plan.writes {
        let view = body.env.arrays[a].clone();
        body.last_write(&view);
    }
    let part = if nested && kind == Kind::Nest {
        Part::Inner
    } else {
        Part::Flat
    };
    updates(&mut body, x, l, part, trips, ("i", g.n));
    out.text += &body.out;
    if let Some(rows) = outer_rows {
        out.text += &format!("{}}}\n", pad(base + 1));
        if kind == Kind::Nest {
            let env = outer_env(
                g,
                &views,
                vec![read_only("r", Ty::Int, Span::int(0, g.r - 1))],
            );
            let mut body = Body::new(ctx, env, g.structs.clone(), base + 1, 0);
            updates(&mut body, x, l, Part::Outer, rows, ("r", g.r));
            out.text += &body.out;
        }
    }
    out.text += &format!("{}}}\n", pad(base));
    out
}

/// What the outer body of a nest may read: the program's scalars, `extra`, and
/// the arrays no loop of the region writes.
pub(super) fn outer_env(g: &Globals, views: &[ArrayView], extra: Vec<Scalar>) -> Env {
    let mut scalars = g.scalars.clone();
    scalars.extend(extra);
    let arrays = views
        .iter()
        .map(|v| {
            let mut v = v.clone();
            if v.read != Access::Any {
                v.read = Access::No;
            }
            v.write = false;
            v
        })
        .collect();
    Env {
        scalars,
        arrays,
        own: None,
        funcs: g.funcs.clone(),
        n: g.n,
        r: g.r,
        c: g.c,
    }
}

/// The reduction and atomic updates of plan `l` for one body, which runs at
/// most `count` times with the loop index `index`.
pub(super) fn updates(
    body: &mut Body,
    x: &mut Extras,
    l: usize,
    part: Part,
    count: i128,
    index: (&str, i128),
) {
    let site = Site { count, index };
    for r in x.reds.iter_mut().filter(|r| r.plan == l) {
        let here = match part {
            Part::Flat => true,
            Part::Inner => r.inner,
            Part::Outer => !r.inner || r.outer_updates,
        };
        if !here {
            continue;
        }
        let times = if body.ctx.rng.chance(20) { 2 } else { 1 };
        for _ in 0..times {
            guarded(body, |body| {
                let name = r.acc.name.clone();
                body.accumulate(&mut r.acc, &name, site, false);
            });
        }
    }
    if part == Part::Outer {
        return;
    }
    for c in x.counters.iter_mut().filter(|c| c.plan == l) {
        guarded(body, |body| {
            let target = match c.bins {
                None => c.acc.name.clone(),
                Some(b) => {
                    let e = body.ctx.expr(&body.env, Ty::UInt, 1);
                    let k = body.ctx.fresh("k");
                    body.line(&format!("const unsigned {k} = {} % {b}u;", e.at(prec::MUL)));
                    format!("{}[{k}]", c.acc.name)
                }
            };
            body.accumulate(&mut c.acc, &target, site, true);
        });
    }
}

/// Runs `f` writing its statements directly, or (sometimes) inside
/// `if (cond) { ... }`.
fn guarded(body: &mut Body, f: impl FnOnce(&mut Body)) {
    if body.ctx.rng.chance(25) {
        let c = body.ctx.any_expr(&body.env, 1);
        body.line(&format!("if ({}) {{", c.text));
        body.indent += 1;
        f(body);
        body.indent -= 1;
        body.line("}");
    } else {
        f(body);
    }
}

pub(super) fn read_only(name: &str, ty: Ty, span: Span) -> Scalar {
    Scalar {
        text: name.into(),
        base: name.into(),
        ty,
        span,
        mutable: false,
    }
}

/// A `for` header over `0..trips` (with `{` left to the caller) and the index
/// type. A full loop over `N` keeps the spellings of older programs.
pub(super) fn flat_header(ctx: &mut Ctx, serial: bool, trips: &Trips) -> (String, Ty) {
    let k = ctx.rng.below(if serial { 4 } else { 6 });
    if trips.decl.is_some() {
        let m = &trips.text;
        return match k {
            0 => (format!("for (i = 0; i < {m}; i++)"), Ty::Int),
            1 => (format!("for (int i = 0; i < {m}; ++i)"), Ty::Int),
            2 => (format!("for (int i = {m} - 1; i >= 0; i--)"), Ty::Int),
            3 => (format!("for (long i = 0; i < {m}; i += 1)"), Ty::Long),
            // `i <= m - 1` would never end for m = 0.
            4 => (format!("for (unsigned i = 0; i < {m}; i++)"), Ty::UInt),
            _ => (format!("for (int i = 0; i < {m}; i++)"), Ty::Int),
        };
    }
    match k {
        0 => ("for (i = 0; i < N; i++)".into(), Ty::Int),
        1 => ("for (int i = 0; i < n; ++i)".into(), Ty::Int),
        2 => ("for (int i = N - 1; i >= 0; i--)".into(), Ty::Int),
        3 => ("for (long i = 0; i < N; i += 1)".into(), Ty::Long),
        4 => ("for (unsigned i = 0; i <= N - 1; i++)".into(), Ty::UInt),
        _ => ("for (int i = 0; i < N; i++)".into(), Ty::Int),
    }
}
