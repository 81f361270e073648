//! The facts of a `kernels` region's loops that the IR gives (never C
//! text): the dependence verdicts of `analysis::depend` and the coalescing
//! score of `analysis::contiguity`. The region is lowered once with every
//! candidate loop sequential (a probe), and each loop of the probe is
//! tested.
//!
//! This probe is the bridge while the loop plan is still made before
//! lowering (issue 16 step 2 moves the plan onto the IR, after one
//! lowering, and this file goes away).
//!
//! Owns: `Walker::probe_loops`, `Probed`. May call: `lower`, `analysis`,
//! `levels` (the candidates), `parsed` (what it reads), `compute`
//! (`Walker::host_kind`: what a host variable's memory may alias).

use super::levels::Cand;
use super::lower::{LoopSpec, Lower, Mode};
use super::unit::Walker;
use crate::analysis::body::Target;
use crate::analysis::contiguity;
use crate::analysis::depend::{independent, Facts};
use crate::ir::{walk_stmts, Parallelism, Stmt};
use crate::schedule::kernels::Verdict;
use lang_c::ast::Statement;
use lang_c::span::Node;
use std::collections::{HashMap, HashSet};

/// What the probe found of one loop.
#[derive(Clone, Debug)]
pub(super) struct Probed {
    /// The dependence test's verdict.
    pub(super) verdict: Verdict,
    /// How many accesses of its body are contiguous in its index
    /// (`analysis::contiguity`): the coalescing score.
    pub(super) score: u32,
}

impl Walker<'_> {
    /// The facts of every candidate loop of `cands` (the loop nests of
    /// region statement `s`), by the offset of its `for` statement.
    /// `shared`: the variables of the construct's data clauses.
    pub(super) fn probe_loops(
        &self,
        s: &Node<Statement>,
        cands: &[Cand],
        shared: &[String],
    ) -> HashMap<usize, Probed> {
        let mut order = vec![];
        let mut loops = HashMap::new();
        fn visit(c: &Cand, order: &mut Vec<usize>, loops: &mut HashMap<usize, LoopSpec>) {
            order.push(c.stmt.span.start);
            loops.insert(
                c.stmt.span.start,
                LoopSpec {
                    par: Parallelism::Seq,
                    loc: c.loc.clone(),
                    collapse: 1,
                    collapse_force: false,
                    tile: vec![],
                    chunk: None,
                    reductions: vec![],
                    privates: vec![],
                    sizes: Default::default(),
                    directive: None,
                },
            );
            for k in &c.children {
                visit(k, order, loops);
            }
        }
        for c in cands {
            visit(c, &mut order, &mut loops);
        }
        let verdicts = self.probe(s, &loops, shared);
        match verdicts {
            Ok(v) if v.len() == order.len() => order.into_iter().zip(v).collect(),
            Ok(_) => HashMap::new(),
            Err(why) => order
                .into_iter()
                .map(|o| {
                    let verdict = Err(format!("it could not be analysed ({why})"));
                    (o, Probed { verdict, score: 0 })
                })
                .collect(),
        }
    }

    /// Lowers `s` with the loops `loops` (all sequential) and tests each
    /// loop of the result, in pre-order; and counts its contiguous accesses.
    fn probe(
        &self,
        s: &Node<Statement>,
        loops: &HashMap<usize, LoopSpec>,
        shared: &[String],
    ) -> Result<Vec<Probed>, String> {
        let mut scope = self.scope.clone();
        let mut routines = self.routines.clone();
        // The scalars in device memory: those of the data clauses and the
        // targets of atomics (the region's own reductions have clauses).
        let by_ref: HashSet<String> = shared
            .iter()
            .filter(|v| self.scope.lookup(v).is_some_and(|x| x.ty.is_c_arithmetic()))
            .cloned()
            .chain(self.atomic_targets(s))
            .collect();
        let mut lower = Lower::new(self.unit, &mut scope, &mut routines, loops, Mode::Region)
            .with_by_ref(by_ref, false);
        lower
            .stmt(s)
            .map_err(|d| d.0.first().map(|x| x.message.clone()).unwrap_or_default())?;
        let (f, params, vars) = lower.finish();
        let host: HashMap<_, _> = params
            .iter()
            .zip(&vars)
            .map(|(p, v)| (p.local, self.host_kind(v)))
            .collect();
        let callee = |n: usize| routines.name_of(n);
        let fx = Facts {
            f: &f,
            host: &host,
            callee: &callee,
        };
        // A host scalar by the name the region knows it.
        let host_name = |l| params.iter().find(|p| p.local == l).map(|p| p.name.clone());
        let mut verdicts = vec![];
        walk_stmts(&f.body, &mut |st| {
            let Stmt::Loop(lp) = st else { return };
            verdicts.push(independent(&fx, lp, &[]).and_then(|reds| {
                reds.into_iter()
                    .map(|(op, t)| {
                        let (Target::Local(l) | Target::Cell(l, _)) = t;
                        host_name(l).map(|n| (op, n)).ok_or_else(|| {
                            format!("'{}' is assigned in every iteration", f.local(l).name)
                        })
                    })
                    .collect()
            }));
        });
        // Both walks are in pre-order, over the same loops.
        let module = crate::ir::Module::default();
        let scores = contiguity::loops(&module, &f)
            .into_iter()
            .map(|l| u32::try_from(l.contiguous_count(l.vars[0])).unwrap_or(u32::MAX));
        Ok(verdicts
            .into_iter()
            .zip(scores)
            .map(|(verdict, score)| Probed { verdict, score })
            .collect())
    }
}
