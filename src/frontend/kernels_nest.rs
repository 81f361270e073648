//! The loop nests of a `kernels` construct: the facts of each loop the
//! OpenUH mapping reads (`schedule::kernels::map_nest`, which decides), as
//! the C AST gives them: the clauses, whether a loop is tightly nested in
//! the loop around it (`loopvars::tightly_nested`), and what the probe
//! lowering gives (`depend`): the dependence test's verdict
//! (`analysis::depend`) and the contiguity score of its index
//! (`analysis::contiguity`); then the reductions found and the
//! remarks of what was decided.
//!
//! Owns: `Walker::plan_kernels_nest`. May call: `levels` (the plan it
//! records into), `loopvars`, `depend` (the probe), `canon`,
//! `schedule::kernels`.

use super::canon::canonical;
use super::depend::Probed;
use super::levels::{Cand, Decision, RegionPlan};
use super::loopvars::{body_of, tightly_nested};
use super::lower::LoopReduction;
use super::unit::Walker;
use crate::diag::DResult;
use crate::ir::{Parallelism, Remark};
use crate::schedule::kernels::{map_nest, NestLoop};
use std::collections::HashMap;

impl Walker<'_> {
    /// A loop nest of a kernels construct: the facts of each loop, the
    /// mapping `schedule::kernels::map_nest` decides, and the record.
    pub(super) fn plan_kernels_nest(
        &self,
        root: &Cand,
        names: &[String],
        probed: &HashMap<usize, Probed>,
        plan: &mut RegionPlan,
    ) -> DResult<()> {
        fn flatten<'c, 'a>(
            c: &'c Cand<'a>,
            parent: Option<(usize, &'c Cand<'a>)>,
            probed: &HashMap<usize, Probed>,
            cands: &mut Vec<&'c Cand<'a>>,
            out: &mut Vec<NestLoop>,
        ) {
            let verdict = canonical(&c.f.node)
                .map_err(str::to_string)
                .and_then(|k| match k.decl {
                    // Parallel, the loop's variable would be private: one
                    // declared outside may be used after the loop.
                    None if !c.directive => Err(format!(
                        "its variable '{}' is declared outside the loop",
                        k.var
                    )),
                    _ => probed
                        .get(&c.stmt.span.start)
                        .map(|p| p.verdict.clone())
                        .unwrap_or_else(|| Err("it could not be analysed".to_string())),
                });
            let score = probed.get(&c.stmt.span.start).map_or(0, |p| p.score);
            let me = out.len();
            out.push(NestLoop {
                directive: c.clauses.directive(),
                reduces: !c.clauses.reductions.is_empty(),
                verdict,
                parent: parent.map(|(i, _)| i),
                // Only declarations and loops lead to it from its parent's body.
                tight: parent.is_none_or(|(_, p)| tightly_nested(body_of(p), c.stmt.span.start)),
                score,
            });
            cands.push(c);
            for k in &c.children {
                flatten(k, Some((me, c)), probed, cands, out);
            }
        }
        let (mut cands, mut facts) = (vec![], vec![]);
        flatten(root, None, probed, &mut cands, &mut facts);
        let mapped = map_nest(&facts);
        for (c, m) in cands.into_iter().zip(mapped) {
            let cl = &c.clauses;
            let parallel = m.par != Parallelism::Seq;
            let mut reductions = cl.reductions.clone();
            for (op, var) in m.found {
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
            let why = match m.why {
                Some(w) => w.into(),
                None => {
                    let how = if cl.explicit() {
                        ""
                    } else if cl.independent {
                        " (independent)"
                    } else {
                        " (independent: no dependence found)"
                    };
                    let mut r = Remark::of_loop(m.par, cl.collapse as usize, cl.collapse_force);
                    r.push_str(how);
                    r
                }
            };
            let d = Decision {
                par: m.par,
                trip: self.host_trip(c.f, names),
                gang_num: cl.gang_num.clone().or_else(|| cl.worker_num.clone()),
                worker_num: None,
                vector_len: cl.vector_len.clone(),
                why,
                reductions: if parallel { reductions } else { vec![] },
                const_trip: None,
            };
            self.record(plan, c, d);
        }
        Ok(())
    }
}
