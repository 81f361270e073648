//! Compute regions: `parallel loop`, `kernels loop`, `serial`, `parallel` with
//! `loop gang` / `loop vector` inside, `kernels` around several loops,
//! `collapse(2)`, and gang rows reducing into a gang-private scalar (`rows.rs`);
//! their data clauses (`copyin`, `copy`, `copyout`, or none: implicit), launch
//! sizes (`shape.rs`), loops (`loops.rs`), and the reductions, atomic counters and
//! privatised scalars they compute besides arrays (`extras.rs`).
//!
//! No races: an iteration writes only its own element of the arrays its loop writes
//! (`o[i]`, `m[r][c]`), and reads other elements only of arrays no loop of the
//! region writes (a `kernels` loop may also read the arrays the loops before it
//! wrote: they run one after the other; a `serial` loop may read anything). An array
//! is `copyout` only when its loop writes every element before anything reads it.
//! Scalars that several iterations update are reduction variables (a clause on every
//! loop level that updates them) or atomic counters; scalars declared outside and
//! assigned inside are assigned before they are read in every iteration.

mod extras;
mod loops;
mod rows;

pub use extras::Output;

use super::ctx::Ctx;
use super::env::{Access, ArrayView, Func, Scalar, Shape};
use super::shape::{self, Gangs, Launch};
use super::span::Span;
use super::stmt::StructDef;
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
    /// `loop gang private(t)` rows: a worker/vector loop reduces into `t`, the
    /// next one reads it (`rows.rs`).
    RowReduce,
}

/// One loop of a region: the arrays it writes, those it writes first.
struct Plan {
    writes: Vec<usize>,
    first: Vec<usize>,
    /// The loop runs over every element (else a written array must be `copy`:
    /// `copyout` would bring back the device's garbage for the others).
    full: bool,
}

/// A compute region's text (with the declarations it needs before it) and what
/// it computes besides arrays.
pub struct RegionOut {
    pub text: String,
    pub outputs: Vec<Output>,
}

/// Writes one compute region that writes the arrays `writes` (indices into
/// `g.arrays`), at indentation 1.
pub fn region(ctx: &mut Ctx, g: &Globals, writes: &[usize]) -> RegionOut {
    let f = ctx.feat;
    let weights = [
        16,
        10,
        6,
        8,
        8,
        5,
        6,
        if f.collapse { 6 } else { 0 },
        if f.private_reductions { 6 } else { 0 },
    ];
    let kinds = [
        Kind::ParallelLoop,
        Kind::KernelsLoop,
        Kind::Serial,
        Kind::ParallelBlock,
        Kind::Nest,
        Kind::VectorOnly,
        Kind::KernelsBlock,
        Kind::Collapse,
        Kind::RowReduce,
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
            full: true,
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
    let mut x = extras::plan(ctx, kind, nloops);
    if kind == Kind::RowReduce {
        return rows::region(ctx, g, &mut plans[0], x);
    }

    let mut bodies = Vec::new();
    let mut level = None;
    let mut loop_clauses = String::new();
    let mut in_block = false;
    for l in 0..plans.len() {
        let views = views(g, kind, &plans, l);
        let lo = loops::loop_text(ctx, g, kind, &plans[l], views, l, &mut x);
        plans[l].full = lo.full;
        bodies.push(lo.text);
        level = level.or(lo.combined);
        loop_clauses += &lo.directive_clauses;
        in_block |= lo.in_block;
    }
    let all = bodies.concat();
    let mut clauses = data_clauses(ctx, g, &plans, &all);
    // A combined construct's loop reductions imply copy; a loop inside a
    // construct does not (the scalar would be firstprivate).
    let combined = match kind {
        Kind::ParallelLoop | Kind::KernelsLoop | Kind::Serial | Kind::Collapse => true,
        Kind::Nest => !in_block,
        _ => false,
    };
    clauses += &x.construct_clauses(ctx, kind == Kind::KernelsBlock, combined);
    let text = wrap(ctx, g, kind, level, &clauses, &loop_clauses, &bodies);
    let mut out = x.decls.join("");
    out += &text;
    RegionOut {
        text: out,
        outputs: x.outputs(),
    }
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
            Some(p) if p.full && p.first.contains(&k) && ctx.rng.chance(60) => "copyout",
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

/// The size clauses of a construct: with `launch_shapes` from `shape.rs` (the
/// variables they use declared in `decls`), else the older few sizes.
fn sizes(ctx: &mut Ctx, g: &Globals, gangs: Gangs, decls: &mut String) -> String {
    if ctx.feat.launch_shapes {
        let Launch { clauses, decls: d } = shape::launch(ctx, gangs, g.n);
        for d in d {
            *decls += &format!("    {d}\n");
        }
        return clauses;
    }
    let mut s = String::new();
    if gangs == Gangs::One {
        return " num_gangs(1)".to_string();
    }
    if ctx.rng.chance(30) {
        s += &format!(" num_gangs({})", ctx.rng.range(1, 80));
    }
    if ctx.rng.chance(30) {
        s += &format!(" vector_length({})", ctx.rng.pick(&[32, 64, 128, 256]));
    }
    s
}

/// The directive(s) and braces around the loop texts. `loop_clauses` go on a
/// combined construct's directive (the reductions and privates of its loop),
/// `clauses` on every construct.
fn wrap(
    ctx: &mut Ctx,
    g: &Globals,
    kind: Kind,
    level: Option<String>,
    clauses: &str,
    loop_clauses: &str,
    bodies: &[String],
) -> String {
    let body = bodies.concat();
    let mut decls = String::new();
    let text = match kind {
        Kind::ParallelLoop => {
            let mut levels = vec![
                "",
                " gang",
                " gang vector",
                " gang worker vector",
                " independent",
            ];
            if ctx.feat.worker_loops {
                levels.extend([" worker", " worker vector", " vector", " gang worker"]);
            }
            let level = *ctx.rng.pick(&levels);
            // A loop that is not gang-partitioned runs in every gang: one gang.
            let gangs = if level.contains("gang") || level.is_empty() || level == " independent" {
                Gangs::Any
            } else {
                ctx.used.worker_loops = true;
                Gangs::One
            };
            if level == " gang worker" {
                ctx.used.worker_loops = true;
            }
            let sizes = sizes(ctx, g, gangs, &mut decls);
            format!("#pragma acc parallel loop{level}{loop_clauses}{sizes}{clauses}\n{body}")
        }
        Kind::KernelsLoop => {
            let level = *ctx.rng.pick(&["", " independent", " gang vector"]);
            let sizes = kernels_sizes(ctx, g, &mut decls);
            format!("#pragma acc kernels loop{level}{loop_clauses}{sizes}{clauses}\n{body}")
        }
        Kind::Serial => {
            if ctx.rng.chance(50) {
                format!("#pragma acc serial{loop_clauses}{clauses}\n    {{\n{body}    }}\n")
            } else {
                let body = unindent(&body);
                format!("#pragma acc serial loop{loop_clauses}{clauses}\n{body}")
            }
        }
        Kind::ParallelBlock | Kind::KernelsBlock | Kind::VectorOnly => {
            let dir = match kind {
                Kind::ParallelBlock => format!("parallel{}", sizes(ctx, g, Gangs::Any, &mut decls)),
                Kind::KernelsBlock => format!("kernels{}", kernels_sizes(ctx, g, &mut decls)),
                _ if ctx.feat.launch_shapes => {
                    format!("parallel{}", sizes(ctx, g, Gangs::One, &mut decls))
                }
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
                let sizes = if ctx.feat.launch_shapes {
                    sizes(ctx, g, Gangs::Any, &mut decls)
                } else {
                    String::new()
                };
                format!("#pragma acc parallel loop {level}{loop_clauses}{sizes}{clauses}\n{body}")
            } else {
                format!(
                    "#pragma acc parallel{}{clauses}\n    {{\n{body}    }}\n",
                    sizes(ctx, g, Gangs::Any, &mut decls)
                )
            }
        }
        Kind::Collapse => {
            let sizes = if ctx.feat.launch_shapes {
                sizes(ctx, g, Gangs::Any, &mut decls)
            } else {
                String::new()
            };
            format!("#pragma acc parallel loop collapse(2){loop_clauses}{sizes}{clauses}\n{body}")
        }
        Kind::RowReduce => unreachable!("rows.rs writes its own directives"),
    };
    decls + &text
}

/// Size clauses on a `kernels` construct (launch_shapes only, sometimes).
fn kernels_sizes(ctx: &mut Ctx, g: &Globals, decls: &mut String) -> String {
    if ctx.feat.launch_shapes && ctx.rng.chance(30) {
        sizes(ctx, g, Gangs::Any, decls)
    } else {
        String::new()
    }
}

/// The loop of a `serial` block moved out one level (for `serial loop`).
fn unindent(text: &str) -> String {
    text.lines()
        .map(|l| l.strip_prefix("    ").unwrap_or(l))
        .map(|l| format!("{l}\n"))
        .collect()
}
