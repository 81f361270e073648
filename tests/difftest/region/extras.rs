//! What a region computes besides its output arrays: reduction variables (with the
//! loop levels and constructs whose clauses name them), atomic counters and
//! histogram bins, and privatised scalars (declared before the region, assigned
//! before they are read in every iteration). Planned per region here; written
//! into the loops by `loops.rs` and `rows.rs` through `accum.rs`.

use super::Kind;
use crate::accum::{Acc, Op};
use crate::ctx::Ctx;
use crate::env::Scalar;
use crate::span::Span;
use crate::stmt::{invariant, zero};
use crate::ty::Ty;

/// A reduction variable of a region.
pub struct Red {
    pub acc: Acc,
    /// The loop (plan) whose body updates it.
    pub plan: usize,
    /// Nests: the inner loop also names it and its body updates it (else only the
    /// outer loop's body does).
    pub inner: bool,
    /// Nests with `inner`: the outer loop's body updates it too.
    pub outer_updates: bool,
    /// The compute construct names it too (`parallel reduction(...)`).
    pub construct: bool,
}

/// An atomically updated counter, or histogram of `bins` counters.
pub struct Counter {
    pub acc: Acc,
    pub plan: usize,
    pub bins: Option<i128>,
}

/// A scalar declared before the region and assigned first thing in each
/// iteration of plan `plan` (for nests with `outer`, of the outer loop: the inner
/// loop's iterations then only read it).
pub struct Priv {
    pub scalar: Scalar,
    pub plan: usize,
    /// Named in a `private` clause of its loop (else the compiler must see that it
    /// is assigned before it is read).
    pub clause: bool,
    pub outer: bool,
}

/// Something the program prints after the regions: a scalar, or the `bins`
/// elements of an array.
#[derive(Clone, Debug)]
pub struct Output {
    pub name: String,
    pub ty: Ty,
    pub span: Span,
    pub bins: Option<i128>,
}

#[derive(Default)]
pub struct Extras {
    pub reds: Vec<Red>,
    pub counters: Vec<Counter>,
    pub privs: Vec<Priv>,
    /// Lines to write before the region (declarations), each indented and ending
    /// in a newline.
    pub decls: Vec<String>,
}

/// The extras of a region of `kind` with `nloops` loops, as the features allow.
pub fn plan(ctx: &mut Ctx, kind: Kind, nloops: usize) -> Extras {
    let mut x = Extras::default();
    let f = ctx.feat;
    if f.reductions && kind != Kind::RowReduce && ctx.rng.chance(45) {
        ctx.used.reductions = true;
        for _ in 0..ctx.rng.range(1, 3) {
            let ty = ctx.any_ty();
            let op = Op::reduction(ctx, ty);
            let name = ctx.fresh("s");
            let acc = Acc::new(ctx, name, ty, op);
            let plan = ctx.rng.below(nloops as u64) as usize;
            let inner = kind == Kind::Nest && f.nested_reductions && ctx.rng.chance(60);
            if inner {
                ctx.used.nested_reductions = true;
            }
            let outer_updates = inner && ctx.rng.chance(40);
            let construct = f.construct_reductions
                && matches!(kind, Kind::ParallelBlock | Kind::VectorOnly | Kind::Nest)
                && ctx.rng.chance(40);
            x.decls.push(format!("    {}\n", acc.decl()));
            x.reds.push(Red {
                acc,
                plan,
                inner,
                outer_updates,
                construct,
            });
        }
    }
    if f.atomics && ctx.rng.chance(30) {
        ctx.used.atomics = true;
        for _ in 0..ctx.rng.range(1, 2) {
            let ty = ctx.any_ty();
            let op = Op::atomic(ctx, ty);
            let bins = ctx.rng.chance(40).then_some(8);
            let name = ctx.fresh(if bins.is_some() { "h" } else { "c" });
            let acc = Acc::new(ctx, name, ty, op);
            let plan = ctx.rng.below(nloops as u64) as usize;
            x.decls.push(match bins {
                None => format!("    {}\n", acc.decl()),
                Some(b) => format!(
                    "    {} {}[{b}] = {{{}}};\n",
                    ty.name(),
                    acc.name,
                    vec![acc.init_text.as_str(); b as usize].join(", ")
                ),
            });
            x.counters.push(Counter { acc, plan, bins });
        }
    }
    if f.private_scalars && ctx.rng.chance(35) {
        ctx.used.private_scalars = true;
        for _ in 0..ctx.rng.range(1, 2) {
            let ty = ctx.any_ty();
            let z = zero(ty);
            let span = invariant(ctx, ty, z.span);
            let name = ctx.fresh("p");
            x.decls
                .push(format!("    {} {name} = {};\n", ty.name(), z.text));
            let plan = ctx.rng.below(nloops as u64) as usize;
            let clause = ctx.rng.chance(50);
            let outer = kind == Kind::Nest && ctx.rng.chance(40);
            x.privs.push(Priv {
                scalar: Scalar {
                    text: name.clone(),
                    base: name,
                    ty,
                    span,
                    mutable: true,
                },
                plan,
                clause,
                outer,
            });
        }
    }
    x
}

impl Extras {
    /// `reduction(op:a, b) reduction(op2:c)` for the reductions `pick` selects.
    pub fn reduction_clauses(&self, pick: impl Fn(&Red) -> bool) -> String {
        let picked: Vec<bool> = self.reds.iter().map(pick).collect();
        self.reduction_clauses_of(&picked)
    }

    /// `reduction(...)` clauses for the reductions `picked[k]` says.
    pub fn reduction_clauses_of(&self, picked: &[bool]) -> String {
        let chosen: Vec<&Red> = self
            .reds
            .iter()
            .zip(picked)
            .filter(|(_, &p)| p)
            .map(|(r, _)| r)
            .collect();
        let mut ops: Vec<&str> = Vec::new();
        for r in &chosen {
            let op = r.acc.op.clause();
            if !ops.contains(&op) {
                ops.push(op);
            }
        }
        let mut out = String::new();
        for op in ops {
            let names: Vec<&str> = chosen
                .iter()
                .filter(|r| r.acc.op.clause() == op)
                .map(|r| r.acc.name.as_str())
                .collect();
            out += &format!(" reduction({op}:{})", names.join(", "));
        }
        out
    }

    /// ` private(a, b)` for the privatised scalars `pick` selects (that ask for a
    /// clause).
    pub fn private_clause(&self, pick: impl Fn(&Priv) -> bool) -> String {
        let names: Vec<&str> = self
            .privs
            .iter()
            .filter(|p| p.clause && pick(p))
            .map(|p| p.scalar.text.as_str())
            .collect();
        if names.is_empty() {
            String::new()
        } else {
            format!(" private({})", names.join(", "))
        }
    }

    /// The compute construct's clauses for the extras: construct reductions
    /// (`combined`: the loop's clause is on the construct already), `copy` for
    /// reduction variables only loops inside name and for counters (in a
    /// `kernels` block, assigned scalars are copy anyway: sometimes left out).
    pub fn construct_clauses(&self, ctx: &mut Ctx, kernels: bool, combined: bool) -> String {
        let mut out = String::new();
        if !combined {
            let on = self.reduction_clauses(|r| r.construct);
            if !on.is_empty() {
                ctx.used.construct_reductions = true;
            }
            out += &on;
        }
        let mut copies: Vec<&str> = Vec::new();
        for r in &self.reds {
            if !(combined || r.construct || (kernels && ctx.rng.chance(30))) {
                copies.push(&r.acc.name);
            }
        }
        for c in &self.counters {
            if !(kernels && ctx.rng.chance(30)) {
                copies.push(&c.acc.name);
            }
        }
        if !copies.is_empty() {
            out += &format!(" copy({})", copies.join(", "));
        }
        out
    }

    /// What the region leaves for the program to print.
    pub fn outputs(&self) -> Vec<Output> {
        let reds = self.reds.iter().map(|r| (&r.acc, None));
        let counters = self.counters.iter().map(|c| (&c.acc, c.bins));
        reds.chain(counters)
            .map(|(acc, bins)| Output {
                name: acc.name.clone(),
                ty: acc.ty,
                span: acc.span(),
                bins,
            })
            .collect()
    }
}
