//! The loop nests of a `kernels` construct: the OpenUH mappings
//! (`shared/seeds/openuh-loop-mapping-runtime.txt` §3.1). Which loops are
//! parallel (by clause, `independent`, or the dependence test, with the
//! reductions it finds), how many levels a nest uses (at most three), the
//! coalescing depth (the loop whose index walks memory contiguously takes
//! vector x), then grid and block dimensions per depth. A loop takes a grid
//! dimension of its own only when tightly nested in the parallel loop
//! around it (`loopvars::tightly_nested`).
//!
//! Owns: `Walker::plan_kernels_nest`. May call: `levels` (the plan it
//! records into), `loopvars`, `depend` (the verdicts of the dependence
//! test over the IR), `canon`.

use super::canon::canonical;
use super::depend::Verdict;
use super::levels::{describe, shared_warning, Cand, Decision, RegionPlan};
use super::loopvars::{body_of, tightly_nested};
use super::lower::{LoopReduction, Private};
use super::unit::Walker;
use crate::diag::DResult;
use crate::ir::Parallelism;
use lang_c::ast::*;
use lang_c::span::{Node, Span};
use lang_c::visit::{self, Visit};
use std::collections::HashMap;

impl Walker<'_> {
    /// A loop nest of a kernels construct.
    pub(super) fn plan_kernels_nest(
        &self,
        root: &Cand,
        names: &[String],
        deps: &HashMap<usize, Verdict>,
        plan: &mut RegionPlan,
    ) -> DResult<()> {
        // 1. Which loops are parallel: by clause or by the dependence test.
        struct Info<'c, 'a> {
            c: &'c Cand<'a>,
            depth: usize,
            parallel: bool,
            /// Not tightly nested in the parallel loop around it: code of
            /// that loop's body runs around it, so it may not take a grid
            /// dimension of its own (that code would run once per gang).
            loose: bool,
            why: Option<String>,
            score: u32,
            /// Its reductions: by clause, or found by the dependence test.
            reductions: Vec<LoopReduction>,
            /// Scalars private to it beyond its clauses (see `loopvars`).
            privates: Vec<Private>,
        }
        fn flatten<'c, 'a>(
            w: &Walker,
            c: &'c Cand<'a>,
            depth: usize,
            loose: bool,
            shared: &[String],
            deps: &HashMap<usize, Verdict>,
            out: &mut Vec<Info<'c, 'a>>,
        ) {
            let cl = &c.clauses;
            let mut reductions = cl.reductions.clone();
            // Privates the user's word allows (`independent`, a level):
            // a loop proven independent keeps its scalars, which code after
            // it may read (their last values).
            let privates = if cl.independent || cl.explicit() {
                w.auto_privates(c, &reductions, shared)
            } else {
                vec![]
            };
            let (parallel, why) = if cl.seq {
                (false, Some("loop run sequentially: seq clause".to_string()))
            } else if cl.explicit() {
                (true, None)
            } else if depth > 0 && !reductions.is_empty() {
                // Inside a parallel loop each thread reduces on its own.
                (false, Some("loop run sequentially: a reduction inside a parallel loop (each thread reduces its own iterations)".to_string()))
            } else if cl.independent {
                (true, None)
            } else {
                let proven =
                    canonical(&c.f.node)
                        .map_err(str::to_string)
                        .and_then(|k| match k.decl {
                            // Parallel, the loop's variable would be private:
                            // one declared outside may be used after the loop.
                            None if !c.directive => Err(format!(
                                "its variable '{}' is declared outside the loop",
                                k.var
                            )),
                            _ => deps
                                .get(&c.stmt.span.start)
                                .cloned()
                                .unwrap_or_else(|| Err("it could not be analysed".to_string())),
                        });
                match proven {
                    // A loop inside a parallel loop is not worth a reduction
                    // across its threads: each thread reduces on its own.
                    Ok(found) if !found.is_empty() && depth > 0 => {
                        let names: Vec<String> =
                            found.iter().map(|(_, n)| format!("'{n}'")).collect();
                        (false, Some(format!("loop not parallelized: it reduces into {} inside a parallel loop (each thread reduces its own iterations)", names.join(", "))))
                    }
                    Ok(found) => {
                        for (op, var) in found {
                            if !reductions.iter().any(|r| r.var == var) {
                                reductions.push(LoopReduction {
                                    op,
                                    var,
                                    section: None,
                                    index: None,
                                    loc: c.loc.clone(),
                                });
                            }
                        }
                        (true, None)
                    }
                    Err(e) => (false, Some(format!("loop not parallelized: {e}"))),
                }
            };
            let score = canonical(&c.f.node)
                .map(|k| contiguity(&c.f.node.statement, k.var))
                .unwrap_or(0);
            out.push(Info {
                c,
                depth,
                parallel,
                loose,
                why,
                score,
                reductions,
                privates,
            });
            let next = depth + usize::from(parallel);
            for k in &c.children {
                // Below a parallel loop, a loop is tight when only
                // declarations and loops lead to it; below a sequential
                // loop, when that loop is tight in the parallel one, or is
                // the outermost loop.
                let tight = tightly_nested(body_of(c), k.stmt.span.start);
                // (A sequential outermost loop runs in every thread of the
                // kernel: code around a loop inside it would run once per
                // gang too.)
                let k_loose = if parallel { !tight } else { loose || !tight };
                flatten(w, k, next, k_loose, shared, deps, out);
            }
        }
        let mut infos = vec![];
        flatten(self, root, 0, false, &plan.shared, deps, &mut infos);
        // At most three parallel levels per nest.
        for i in infos.iter_mut() {
            if i.parallel && i.depth >= 3 {
                i.parallel = false;
                i.why = Some("loop run sequentially: three enclosing loops already use the grid's dimensions".into());
            }
        }
        let depths = infos
            .iter()
            .filter(|i| i.parallel)
            .map(|i| i.depth + 1)
            .max()
            .unwrap_or(0);
        let explicit = infos.iter().any(|i| i.parallel && i.c.clauses.explicit());

        // 2. Levels per parallel depth: (gang, vector).
        let mut roles: Vec<(bool, bool)> = vec![(false, false); depths];
        let mut score = vec![0u32; depths];
        for i in infos.iter().filter(|i| i.parallel) {
            score[i.depth] += i.score;
            let cl = &i.c.clauses;
            if explicit {
                roles[i.depth].0 |= cl.gang || cl.worker;
                roles[i.depth].1 |= cl.vector;
            }
        }
        // The coalescing depth: the most unit-stride accesses, else the innermost.
        let coalesce = (0..depths).rev().max_by_key(|&d| score[d]).unwrap_or(0);
        if !explicit {
            for (d, r) in roles.iter_mut().enumerate() {
                *r = (true, d == coalesce);
            }
        } else {
            // Loops with only `independent` at a depth no clause gave a level.
            for r in roles.iter_mut() {
                if !r.0 && !r.1 {
                    r.0 = true;
                }
            }
        }
        // 3. Dimensions: vector x for the coalescing vector depth, then y, z
        //    from inner to outer; gang x for the depth that is vector x when
        //    it is a gang too, else the innermost gang depth; then y, z.
        let mut vdim: Vec<Option<u8>> = vec![None; depths];
        let vector_depths: Vec<usize> = (0..depths).filter(|&d| roles[d].1).collect();
        let vx = vector_depths.iter().copied().max_by_key(|&d| (score[d], d));
        let mut next = 0u8;
        if let Some(x) = vx {
            vdim[x] = Some(0);
            next = 1;
        }
        for &d in vector_depths.iter().rev() {
            if vdim[d].is_none() {
                vdim[d] = Some(next);
                next += 1;
            }
        }
        let mut gdim: Vec<Option<u8>> = vec![None; depths];
        let gang_depths: Vec<usize> = (0..depths).filter(|&d| roles[d].0).collect();
        let gx = vx
            .filter(|&d| roles[d].0)
            .or_else(|| gang_depths.last().copied());
        let mut next = 0u8;
        if let Some(x) = gx {
            gdim[x] = Some(0);
            next = 1;
        }
        for &d in gang_depths.iter().rev() {
            if gdim[d].is_none() {
                gdim[d] = Some(next);
                next += 1;
            }
        }
        // 4. Record. A loose loop without a clause asking for gangs keeps
        //    only its vector dimension (the code around it runs once per
        //    thread of the block, which guards its side effects) or stays
        //    sequential.
        //    A worker loop is not a gang loop: its reductions and the
        //    private variables of the gang around it stay within one gang.
        //    Loops inside a loop made sequential here are loose too: they
        //    were nested tightly in a loop that is no longer parallel.
        //    (`infos` lists a loop before the loops inside it.)
        let mut demoted: Vec<(usize, usize)> = vec![];
        for i in infos.iter_mut() {
            let span = (i.c.stmt.span.start, i.c.stmt.span.end);
            if demoted.iter().any(|d| d.0 < span.0 && span.1 <= d.1) {
                i.loose = true;
            }
            let asked = i.c.clauses.gang;
            if i.parallel && i.loose && !asked && vdim[i.depth].is_none() {
                i.parallel = false;
                i.why = Some("loop not parallelized: it is not tightly nested in the parallel loop around it, whose other code would run once per gang".into());
                demoted.push(span);
            }
        }
        for i in &infos {
            let cl = &i.c.clauses;
            let asked = cl.gang;
            let par = if i.parallel {
                Parallelism::Par {
                    gang: if i.loose && !asked {
                        None
                    } else {
                        gdim[i.depth]
                    },
                    worker: false,
                    vector: vdim[i.depth],
                }
            } else {
                Parallelism::Seq
            };
            let why = match (&i.why, par) {
                (Some(w), _) => w.clone().into(),
                (None, p) => {
                    let how = if cl.explicit() {
                        ""
                    } else if cl.independent {
                        " (independent)"
                    } else {
                        " (independent: no dependence found)"
                    };
                    let mut r = describe(p, cl.collapse, cl.collapse_force);
                    r.push_str(how);
                    r
                }
            };
            if i.parallel && (cl.independent || cl.explicit()) {
                for v in self.shared_scalars(i.c, &i.privates, &i.reductions) {
                    plan.remarks
                        .push((i.c.loc.clone(), shared_warning(&v).into()));
                }
            }
            let d = Decision {
                par,
                trip: self.host_trip(i.c.f, names),
                gang_num: cl.gang_num.clone().or_else(|| cl.worker_num.clone()),
                worker_num: None,
                vector_len: cl.vector_len.clone(),
                why,
                reductions: if i.parallel {
                    i.reductions.clone()
                } else {
                    vec![]
                },
                privates: if i.parallel {
                    i.privates.clone()
                } else {
                    vec![]
                },
                const_trip: None,
            };
            self.record(plan, i.c, d);
        }
        Ok(())
    }
}

/// How many array accesses in `body` walk memory contiguously with `var`:
/// their last subscript (the fastest-varying one; for a flattened array the
/// whole index) has `var` as a term of its own (`a[…][j]`, `a[i * n + j]`,
/// `a[j - 1]`). The loop with the most is the one to put on consecutive
/// threads (coalescing).
fn contiguity(body: &Node<Statement>, var: &str) -> u32 {
    struct C<'v> {
        var: &'v str,
        n: u32,
    }
    /// `e` is `var`, `var ± c`, or a sum with `var` as one term.
    fn unit_term(e: &Expression, var: &str) -> bool {
        match e {
            Expression::Identifier(id) => id.node.name == var,
            Expression::BinaryOperator(b)
                if matches!(
                    b.node.operator.node,
                    BinaryOperator::Plus | BinaryOperator::Minus
                ) =>
            {
                unit_term(&b.node.lhs.node, var)
                    || (b.node.operator.node == BinaryOperator::Plus
                        && unit_term(&b.node.rhs.node, var))
            }
            Expression::Cast(c) => unit_term(&c.node.expression.node, var),
            _ => false,
        }
    }
    impl<'ast> Visit<'ast> for C<'_> {
        fn visit_expression(&mut self, e: &'ast Expression, span: &'ast Span) {
            let b = match e {
                Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => b,
                _ => return visit::visit_expression(self, e, span),
            };
            // The outermost subscript of an access `a[…]…[e]` is the
            // fastest-varying one; the others only contain accesses.
            if unit_term(&b.node.rhs.node, self.var) {
                self.n += 1;
            }
            self.visit_expression(&b.node.rhs.node, &b.node.rhs.span);
            let mut base = &b.node.lhs;
            while let Expression::BinaryOperator(inner) = &base.node {
                if inner.node.operator.node != BinaryOperator::Index {
                    break;
                }
                self.visit_expression(&inner.node.rhs.node, &inner.node.rhs.span);
                base = &inner.node.lhs;
            }
            self.visit_expression(&base.node, &base.span);
        }
    }
    let mut c = C { var, n: 0 };
    c.visit_statement(&body.node, &body.span);
    c.n
}
