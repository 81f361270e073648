//! Gang rows reducing into a gang-private scalar (`private_reductions`):
//!
//! ```c
//! #pragma acc parallel loop gang private(t)
//! for (int r = 0; r < R; r++) {
//!     t = 0;
//! #pragma acc loop worker reduction(+:t)
//!     for (int c = 0; c < C; c++) { t += ...; }
//! #pragma acc loop vector
//!     for (int c = 0; c < C; c++) { ... o[r * C + c] = ... t ...; }
//! }
//! ```
//!
//! also as `parallel { loop gang private(t) ... }` and `kernels { ... }`. Every
//! worker and lane of the second loop must see the row's finished reduction.
//! The reduction loop reads only arrays the region does not write; the second loop
//! writes its own elements, like every loop body (`loops.rs`).

use super::extras::{Extras, Red};
use super::loops::{self, read_only, Part};
use super::{data_clauses, kernels_sizes, sizes, views, Globals, Kind, Plan, RegionOut};
use crate::accum::{Acc, Op};
use crate::ctx::Ctx;
use crate::env::{Access, Env, Own, Scalar};
use crate::shape::{self, Gangs};
use crate::span::Span;
use crate::stmt::Body;
use crate::ty::Ty;

/// The region of one row loop for `plan` (its only loop), with `x`'s counters
/// and privatised scalars in the second inner loop.
pub(super) fn region(ctx: &mut Ctx, g: &Globals, plan: &mut Plan, mut x: Extras) -> RegionOut {
    ctx.used.private_reductions = true;
    let form = ctx.rng.below(3);
    let base = if form == 0 { 1 } else { 2 };
    let pad = |n: usize| "    ".repeat(n);
    let rows = shape::trips(ctx, "R", g.r);
    if let Some(d) = &rows.decl {
        x.decls.push(format!("    {d}\n"));
    }
    plan.full = rows.is_full(g.r);

    // The gang-private reduction variables, as reductions of one loop.
    let mut ts = Extras::default();
    for _ in 0..ctx.rng.range(1, 2) {
        let ty = ctx.any_ty();
        let op = Op::reduction(ctx, ty);
        let name = ctx.fresh("t");
        let acc = Acc::new(ctx, name, ty, op);
        x.decls.push(format!("    {}\n", acc.decl()));
        ts.reds.push(Red {
            acc,
            plan: 0,
            inner: true,
            outer_updates: false,
            construct: false,
        });
    }
    let names: Vec<String> = ts.reds.iter().map(|r| r.acc.name.clone()).collect();
    let gang = format!("gang private({})", names.join(", "));
    let levels = ["worker", "vector", "worker vector"];
    let (l1, l2) = (*ctx.rng.pick(&levels), *ctx.rng.pick(&levels));

    let mut text = String::new();
    if form != 0 {
        text += &format!("{}#pragma acc loop {gang}\n", pad(base - 1));
    }
    text += &format!("{}for (int r = 0; r < {}; r++) {{\n", pad(base), rows.text);
    for r in &ts.reds {
        text += &format!("{}{} = {};\n", pad(base + 1), r.acc.name, r.acc.init_text);
    }
    let index = |c: &str| format!("{}const int i = r * C + {c};\n", pad(base + 2));
    let row_scalars = |with_c: bool| {
        let mut s = vec![read_only("r", Ty::Int, Span::int(0, g.r - 1))];
        if with_c {
            s.push(read_only("c", Ty::Int, Span::int(0, g.c - 1)));
            s.push(read_only("i", Ty::Int, Span::int(0, g.n - 1)));
        }
        s
    };

    // The reduction loop: reads only what the region does not write.
    let plans = [Plan {
        writes: plan.writes.clone(),
        first: plan.first.clone(),
        full: plan.full,
    }];
    let views = views(g, Kind::RowReduce, &plans, 0);
    text += &format!("#pragma acc loop {l1}{}\n", ts.reduction_clauses(|_| true));
    text += &format!("{}for (int c = 0; c < C; c++) {{\n", pad(base + 1));
    text += &index("c");
    let env = loops::outer_env(g, &views, row_scalars(true));
    let mut body = Body::new(ctx, env, g.structs.clone(), base + 2, 0);
    loops::updates(&mut body, &mut ts, 0, Part::Flat, g.c, ("c", g.c));
    text += &body.out;
    text += &format!("{}}}\n", pad(base + 1));

    // The loop that reads the reductions: every worker and lane of the gang.
    let mut scalars = g.scalars.clone();
    scalars.extend(row_scalars(true));
    let results: Vec<Scalar> = ts
        .reds
        .iter()
        .map(|r| read_only(&r.acc.name, r.acc.ty, r.acc.span()))
        .collect();
    scalars.extend(results.iter().cloned());
    text += &format!("#pragma acc loop {l2}{}\n", x.private_clause(|_| true));
    text += &format!("{}for (int c = 0; c < C; c++) {{\n", pad(base + 1));
    text += &index("c");
    let env = Env {
        scalars,
        arrays: views,
        own: Some(Own {
            flat: "i".into(),
            row: "r".into(),
            col: "c".into(),
        }),
        funcs: g.funcs.clone(),
        n: g.n,
        r: g.r,
        c: g.c,
    };
    let budget = ctx.rng.range(3, 12) as u32;
    let mut body = Body::new(ctx, env, g.structs.clone(), base + 2, budget);
    for p in &x.privs {
        body.assign_scalar(&p.scalar);
        body.env.scalars.push(p.scalar.clone());
    }
    for &a in &plan.first {
        let view = body.env.arrays[a].clone();
        body.first_write(&view);
        body.env.arrays[a].read = Access::Own;
    }
    body.block(budget);
    let view = body.env.arrays[plan.writes[0]].clone();
    for t in &results {
        body.mix_in(t, &view);
    }
    for &a in &plan.writes {
        let view = body.env.arrays[a].clone();
        body.last_write(&view);
    }
    loops::updates(
        &mut body,
        &mut x,
        0,
        Part::Flat,
        rows.value * g.c,
        ("i", g.n),
    );
    text += &body.out;
    text += &format!("{}}}\n", pad(base + 1));
    text += &format!("{}}}\n", pad(base));

    let mut clauses = data_clauses(ctx, g, &plans, &text);
    clauses += &x.construct_clauses(ctx, form == 2, false);
    let mut decls = String::new();
    let directive = match form {
        0 => format!(
            "#pragma acc parallel loop {gang}{}{clauses}\n",
            sizes(ctx, g, Gangs::Any, &mut decls)
        ),
        1 => format!(
            "#pragma acc parallel{}{clauses}\n    {{\n",
            sizes(ctx, g, Gangs::Any, &mut decls)
        ),
        _ => format!(
            "#pragma acc kernels{}{clauses}\n    {{\n",
            kernels_sizes(ctx, g, &mut decls)
        ),
    };
    let close = if form == 0 { "" } else { "    }\n" };
    RegionOut {
        text: x.decls.join("") + &decls + &directive + &text + close,
        outputs: x.outputs(),
    }
}
