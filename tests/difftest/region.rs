//! Compute regions: `parallel loop`, `kernels loop`, `serial`, `parallel` with
//! `loop gang` / `loop vector` inside, `kernels` around several loops, and (a
//! feature) `collapse(2)`; their data clauses (`copyin`, `copy`, `copyout`, or none:
//! implicit), and their loop bodies from `stmt.rs`.
//!
//! No races: an iteration writes only its own element of the arrays its loop writes
//! (`o[i]`, `m[r][c]`), and reads other elements only of arrays no loop of the
//! region writes (a `kernels` loop may also read the arrays the loops before it
//! wrote: they run one after the other; a `serial` loop may read anything). An array
//! is `copyout` only when its loop writes its element before anything reads it.

use super::ctx::Ctx;
use super::env::{Access, ArrayView, Env, Func, Own, Scalar, Shape};
use super::span::Span;
use super::stmt::{Body, StructDef};
use super::ty::Ty;

/// Where a global array lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Storage {
    /// `static T a[N];` at file scope.
    Static,
    /// `T a[N];` in `main`.
    Local,
    /// `T *a = malloc(...)`: data clauses must give its bounds.
    Heap,
}

/// An array of the program.
#[derive(Clone, Debug)]
pub struct Array {
    pub name: String,
    pub ty: Ty,
    /// Invariant of every element.
    pub span: Span,
    /// `T m[R][C]` (else `T a[N]`).
    pub grid: bool,
    pub storage: Storage,
    pub output: bool,
}

/// What regions see of the program.
pub struct Globals {
    pub arrays: Vec<Array>,
    pub scalars: Vec<Scalar>,
    pub funcs: Vec<Func>,
    pub structs: Vec<StructDef>,
    pub n: i128,
    pub r: i128,
    pub c: i128,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    ParallelLoop,
    KernelsLoop,
    Serial,
    /// `parallel { loop gang ...; loop gang vector ...; }`
    ParallelBlock,
    /// `loop gang` over rows, `loop vector` over columns.
    Nest,
    /// `parallel num_gangs(1) { loop vector ... }`
    VectorOnly,
    /// `kernels { for ...; for ...; }`
    KernelsBlock,
    Collapse,
}

/// One loop of a region: the arrays it writes, those it writes first.
struct Plan {
    writes: Vec<usize>,
    first: Vec<usize>,
}

/// Writes one compute region that writes the arrays `writes` (indices into
/// `g.arrays`), at indentation 1.
pub fn region(ctx: &mut Ctx, g: &Globals, writes: &[usize]) -> String {
    let weights = [16, 10, 6, 8, 8, 5, 6, if ctx.feat.collapse { 6 } else { 0 }];
    let kinds = [
        Kind::ParallelLoop,
        Kind::KernelsLoop,
        Kind::Serial,
        Kind::ParallelBlock,
        Kind::Nest,
        Kind::VectorOnly,
        Kind::KernelsBlock,
        Kind::Collapse,
    ];
    let kind = kinds[ctx.rng.weighted(&weights)];
    if kind == Kind::Collapse {
        ctx.used.collapse = true;
    }
    let nloops = if matches!(kind, Kind::ParallelBlock | Kind::KernelsBlock) && writes.len() >= 2 {
        2
    } else {
        1
    };
    let mut plans: Vec<Plan> = (0..nloops)
        .map(|_| Plan {
            writes: vec![],
            first: vec![],
        })
        .collect();
    for (k, &a) in writes.iter().enumerate() {
        let l = if k < nloops {
            k
        } else {
            ctx.rng.below(nloops as u64) as usize
        };
        plans[l].writes.push(a);
        if ctx.rng.chance(50) {
            plans[l].first.push(a);
        }
    }

    let mut bodies = Vec::new();
    let mut level = None;
    for (l, plan) in plans.iter().enumerate() {
        let views = views(g, kind, &plans, l);
        let (text, lv) = loop_text(ctx, g, kind, plan, views, l);
        bodies.push(text);
        level = level.or(lv);
    }
    let all = bodies.concat();
    let clauses = data_clauses(ctx, g, &plans, &all);
    wrap(ctx, kind, level, &clauses, &bodies)
}

/// What loop `l` of a region may read and write.
fn views(g: &Globals, kind: Kind, plans: &[Plan], l: usize) -> Vec<ArrayView> {
    g.arrays
        .iter()
        .enumerate()
        .map(|(k, a)| {
            let writer = plans.iter().position(|p| p.writes.contains(&k));
            let (read, write) = match writer {
                None => (Access::Any, false),
                Some(w) if w == l => {
                    let first = plans[l].first.contains(&k);
                    if first {
                        (Access::No, true) // until its first write
                    } else if kind == Kind::Serial {
                        (Access::Any, true)
                    } else {
                        (Access::Own, true)
                    }
                }
                Some(w) if kind == Kind::KernelsBlock && w < l => (Access::Any, false),
                Some(_) => (Access::No, false),
            };
            ArrayView {
                name: a.name.clone(),
                ty: a.ty,
                span: a.span,
                shape: if a.grid { Shape::Grid } else { Shape::Flat },
                read,
                write,
            }
        })
        .collect()
}

/// The loop (or loop nest) of plan `l` with its body, at indentation 1 or 2; and
/// for a `Nest` that is not in a block, the level of its outer loop (the region is
/// then `parallel loop <level>`).
fn loop_text(
    ctx: &mut Ctx,
    g: &Globals,
    kind: Kind,
    plan: &Plan,
    views: Vec<ArrayView>,
    l: usize,
) -> (String, Option<String>) {
    let nested = matches!(kind, Kind::Nest | Kind::Collapse);
    let inside_block = matches!(
        kind,
        Kind::ParallelBlock | Kind::VectorOnly | Kind::KernelsBlock | Kind::Serial
    ) || (kind == Kind::Nest && ctx.rng.chance(50));
    let base = if inside_block { 2 } else { 1 };
    let mut out = String::new();
    let pad = |n: usize| "    ".repeat(n);
    let mut scalars = g.scalars.clone();
    let mut combined = None;
    let (own, body_indent) = if nested {
        let (outer, inner) = match kind {
            Kind::Collapse => (String::new(), String::new()),
            _ => (
                (*ctx.rng.pick(&["gang", "gang", "gang worker"])).to_string(),
                (*ctx.rng.pick(&["vector", "vector", "worker vector"])).to_string(),
            ),
        };
        let inner = if outer.contains("worker") {
            "vector".to_string()
        } else {
            inner
        };
        if kind == Kind::Nest {
            if inside_block {
                out += &format!("{}#pragma acc loop {outer}\n", pad(base - 1));
            } else {
                combined = Some(outer);
            }
        }
        out += &format!("{}for (int r = 0; r < R; r++) {{\n", pad(base));
        if kind == Kind::Nest {
            out += &format!("#pragma acc loop {inner}\n");
        }
        out += &format!("{}for (int c = 0; c < C; c++) {{\n", pad(base + 1));
        let konst = if ctx.rng.chance(50) { "const " } else { "" };
        out += &format!("{}{konst}int i = r * C + c;\n", pad(base + 2));
        for (name, hi) in [("r", g.r), ("c", g.c), ("i", g.n)] {
            scalars.push(read_only(name, Ty::Int, Span::int(0, hi - 1)));
        }
        let own = Own {
            flat: "i".into(),
            row: "r".into(),
            col: "c".into(),
        };
        (own, base + 2)
    } else {
        let level = match kind {
            Kind::ParallelBlock if l == 0 => {
                Some(
                    *ctx.rng
                        .pick(&["gang", "gang vector", "gang worker vector", ""]),
                )
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
        if let Some(lv) = level {
            out += &format!("{}#pragma acc loop {lv}\n", pad(base - 1));
        }
        let (header, ty) = flat_header(ctx, kind == Kind::Serial);
        out += &format!("{}{header} {{\n", pad(base));
        scalars.push(read_only("i", ty, Span::int(0, g.n - 1)));
        let own = Own {
            flat: "i".into(),
            row: "i / C".into(),
            col: "i % C".into(),
        };
        (own, base + 1)
    };
    let env = Env {
        scalars,
        arrays: views,
        own: Some(own),
        funcs: g.funcs.clone(),
        n: g.n,
        r: g.r,
        c: g.c,
    };
    let budget = ctx.rng.range(3, 12) as u32;
    let mut body = Body::new(ctx, env, g.structs.clone(), body_indent, budget);
    for &a in &plan.first {
        let view = body.env.arrays[a].clone();
        body.first_write(&view);
        // Other elements may not be written yet: only this one is readable.
        body.env.arrays[a].read = Access::Own;
    }
    body.block(budget);
    for &a in &plan.writes {
        let view = body.env.arrays[a].clone();
        body.last_write(&view);
    }
    out += &body.out;
    if nested {
        out += &format!("{}}}\n", pad(base + 1));
    }
    out += &format!("{}}}\n", pad(base));
    (out, combined)
}

fn read_only(name: &str, ty: Ty, span: Span) -> Scalar {
    Scalar {
        text: name.into(),
        base: name.into(),
        ty,
        span,
        mutable: false,
    }
}

/// A `for` header over `0..N` (with `{` left to the caller) and the index type.
fn flat_header(ctx: &mut Ctx, serial: bool) -> (String, Ty) {
    let k = ctx.rng.below(if serial { 4 } else { 6 });
    match k {
        0 => ("for (i = 0; i < N; i++)".into(), Ty::Int),
        1 => ("for (int i = 0; i < n; ++i)".into(), Ty::Int),
        2 => ("for (int i = N - 1; i >= 0; i--)".into(), Ty::Int),
        3 => ("for (long i = 0; i < N; i += 1)".into(), Ty::Long),
        4 => ("for (unsigned i = 0; i <= N - 1; i++)".into(), Ty::UInt),
        _ => ("for (int i = 0; i < N; i++)".into(), Ty::Int),
    }
}

/// Whether `text` uses the identifier `name`.
pub fn uses(text: &str, name: &str) -> bool {
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    text.match_indices(name).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + name.len()..].chars().next();
        !before.is_some_and(ident) && !after.is_some_and(ident)
    })
}

/// The data clauses for the arrays the region's text uses.
fn data_clauses(ctx: &mut Ctx, g: &Globals, plans: &[Plan], text: &str) -> String {
    let mut items: Vec<(&str, String)> = Vec::new();
    for (k, a) in g.arrays.iter().enumerate() {
        if !uses(text, &a.name) {
            continue;
        }
        let written = plans.iter().find(|p| p.writes.contains(&k));
        let clause = match written {
            Some(p) if p.first.contains(&k) && ctx.rng.chance(60) => "copyout",
            Some(_) => "copy",
            None if ctx.rng.chance(80) => "copyin",
            None => "copy",
        };
        if a.storage != Storage::Heap && ctx.rng.chance(15) {
            continue; // implicit copy
        }
        items.push((clause, spell_item(ctx, a)));
    }
    let mut out = String::new();
    let mut k = 0;
    while k < items.len() {
        let clause = items[k].0;
        let mut group = vec![items[k].1.clone()];
        while k + 1 < items.len() && items[k + 1].0 == clause && ctx.rng.chance(60) {
            k += 1;
            group.push(items[k].1.clone());
        }
        out += &format!(" {clause}({})", group.join(", "));
        k += 1;
    }
    out
}

/// An array in a data clause: its name or a sub-array.
fn spell_item(ctx: &mut Ctx, a: &Array) -> String {
    let name = &a.name;
    if a.grid {
        let sub = ctx.feat.multi_dim_subarrays && ctx.rng.chance(40);
        if sub {
            ctx.used.multi_dim_subarrays = true;
            return format!("{name}[0:R][0:C]");
        }
        return if ctx.rng.chance(50) {
            name.clone()
        } else {
            format!("{name}[0:R]")
        };
    }
    let heap = a.storage == Storage::Heap;
    match ctx.rng.below(4) {
        0 if !heap => name.clone(),
        1 => format!("{name}[:N]"),
        2 => format!("{name}[0:n]"),
        _ => format!("{name}[0:N]"),
    }
}

/// The directive(s) and braces around the loop texts.
fn wrap(
    ctx: &mut Ctx,
    kind: Kind,
    level: Option<String>,
    clauses: &str,
    bodies: &[String],
) -> String {
    let body = bodies.concat();
    let gangs = |ctx: &mut Ctx| -> String {
        let mut s = String::new();
        if ctx.rng.chance(30) {
            s += &format!(" num_gangs({})", ctx.rng.range(1, 80));
        }
        if ctx.rng.chance(30) {
            s += &format!(" vector_length({})", ctx.rng.pick(&[32, 64, 128, 256]));
        }
        s
    };
    match kind {
        Kind::ParallelLoop => {
            let level = *ctx.rng.pick(&[
                "",
                " gang",
                " gang vector",
                " gang worker vector",
                " independent",
            ]);
            let sizes = gangs(ctx);
            format!("#pragma acc parallel loop{level}{sizes}{clauses}\n{body}")
        }
        Kind::KernelsLoop => {
            let level = *ctx.rng.pick(&["", " independent", " gang vector"]);
            format!("#pragma acc kernels loop{level}{clauses}\n{body}")
        }
        Kind::Serial => {
            if ctx.rng.chance(50) {
                format!("#pragma acc serial{clauses}\n    {{\n{body}    }}\n")
            } else {
                let body = unindent(&body);
                format!("#pragma acc serial loop{clauses}\n{body}")
            }
        }
        Kind::ParallelBlock | Kind::KernelsBlock | Kind::VectorOnly => {
            let dir = match kind {
                Kind::ParallelBlock => format!("parallel{}", gangs(ctx)),
                Kind::KernelsBlock => "kernels".to_string(),
                _ => format!(
                    "parallel num_gangs(1) num_workers({}) vector_length({})",
                    ctx.rng.pick(&[1, 2, 4]),
                    ctx.rng.pick(&[32, 64, 128])
                ),
            };
            format!("#pragma acc {dir}{clauses}\n    {{\n{body}    }}\n")
        }
        Kind::Nest => {
            if let Some(level) = level {
                format!("#pragma acc parallel loop {level}{clauses}\n{body}")
            } else {
                format!(
                    "#pragma acc parallel{}{clauses}\n    {{\n{body}    }}\n",
                    gangs(ctx)
                )
            }
        }
        Kind::Collapse => format!("#pragma acc parallel loop collapse(2){clauses}\n{body}"),
    }
}

/// The loop of a `serial` block moved out one level (for `serial loop`).
fn unindent(text: &str) -> String {
    text.lines()
        .map(|l| l.strip_prefix("    ").unwrap_or(l))
        .map(|l| format!("{l}\n"))
        .collect()
}
