//! The nests of a `kernels` construct in which a loop names the worker
//! level, which the OpenUH mappings (no worker level) cannot give: each loop
//! with level clauses is mapped as the same loop of a `parallel` construct
//! ([`parallel_loop`]: gang → grid x, or its `gang(dim:)`, worker → block
//! y, vector → block x; a level nested in a loop of the same or an inner
//! level is an error), so the launch geometry sizes its workers as a
//! parallel loop's.
//!
//! The loops without level clauses that step 1 finds parallel
//! (`independent`, the dependence test) take the levels an automatic loop
//! of a `parallel` construct takes; with loops with level clauses inside,
//! the outermost free level, when it is outside all of theirs (else they
//! run sequentially). A loosely nested one takes no gang (the code around
//! it would run once per gang). When no loop of the nest is partitioned
//! across gangs, its root is, when partitioned at all: a `kernels`
//! construct's gangs are the compiler's to choose (as the OpenUH mappings
//! give every nest's root a gang level).
//!
//! Owns: `map`. May call: `ir`, `levels`, the parent's step 1
//! (`classify_all`).

use super::{classify_all, Mapped, NestLoop};
use crate::ir::{LoopDirective, Parallelism};
use crate::schedule::levels::{parallel_loop, Decided, NestingError, Outer, Shape};

/// The levels loops with level clauses ask for: (gang, worker, vector),
/// and the highest grid dimension their gang levels use.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Below {
    gang: bool,
    worker: bool,
    vector: bool,
    gang_dim: Option<u8>,
}

impl Below {
    fn add(&mut self, o: Below) {
        self.gang |= o.gang;
        self.worker |= o.worker;
        self.vector |= o.vector;
        self.gang_dim = self.gang_dim.max(o.gang_dim);
    }
}

/// The levels of every loop of `nest` (in pre-order), or the index of a
/// loop nested in one of the same or an inner level and the error.
pub(super) fn map(nest: &[NestLoop]) -> Result<Vec<Mapped>, (usize, NestingError)> {
    let mut infos = classify_all(nest);
    let n = nest.len();
    let mut children: Vec<Vec<usize>> = vec![vec![]; n];
    for (k, l) in nest.iter().enumerate() {
        if let Some(p) = l.parent {
            children[p].push(k);
        }
    }
    // The levels the loops with level clauses inside each loop ask for
    // (children come after their parents: inner to outer).
    let mut below: Vec<Below> = vec![Below::default(); n];
    for k in (0..n).rev() {
        for &c in &children[k] {
            let d = &nest[c].directive;
            if !d.seq {
                below[k].add(Below {
                    gang: d.gang,
                    worker: d.worker,
                    vector: d.vector,
                    gang_dim: d.gang.then(|| d.gang_dim.unwrap_or(0)),
                });
            }
            let b = below[c];
            below[k].add(b);
        }
    }
    let mut inner: Vec<Outer> = vec![Outer::default(); n];
    let mut loose = vec![false; n];
    let mut par = vec![Parallelism::Seq; n];
    for k in 0..n {
        let (above, lo) = match nest[k].parent {
            None => (Outer::default(), false),
            // Below a sequential loop, also loose when that loop is.
            Some(p) => (
                inner[p],
                !nest[k].tight || (par[p] == Parallelism::Seq && loose[p]),
            ),
        };
        loose[k] = lo;
        inner[k] = above;
        if !infos[k].parallel {
            continue;
        }
        let parallel_kids: Vec<usize> = children[k]
            .iter()
            .copied()
            .filter(|&c| infos[c].parallel)
            .collect();
        let shape = Shape {
            nested: !parallel_kids.is_empty(),
            nested_twice: parallel_kids
                .iter()
                .any(|&c| children[c].iter().any(|&g| infos[g].parallel)),
        };
        let d = nest[k].directive;
        let decided = if d.explicit() {
            parallel_loop(&d, above, shape).map_err(|e| (k, e))?
        } else {
            match automatic(above, shape, below[k], lo) {
                Ok(a) => a,
                Err(why) => {
                    infos[k].parallel = false;
                    infos[k].why = Some(why.into());
                    continue;
                }
            }
        };
        par[k] = decided.par;
        inner[k] = decided.inner;
    }
    let gangs = par
        .iter()
        .any(|p| matches!(p, Parallelism::Par { gang: Some(_), .. }));
    if let (false, Some(Parallelism::Par { gang, .. })) = (gangs, par.first_mut()) {
        *gang = Some(0);
    }
    Ok(infos
        .into_iter()
        .zip(par)
        .map(|(i, par)| Mapped {
            par,
            why: i.why,
            found: if par != Parallelism::Seq {
                i.found
            } else {
                vec![]
            },
        })
        .collect())
}

/// The levels of a loop without level clauses, inside loops using
/// `above`, with the nest `shape` below it and loops with level clauses
/// inside it asking for `below`; `loose`: not tightly nested in the
/// parallel loop around it. Or why it runs sequentially.
fn automatic(
    above: Outer,
    shape: Shape,
    below: Below,
    loose: bool,
) -> Result<Decided, &'static str> {
    const FREE: &str = "loop run sequentially: no level is free outside the levels of the loops with level clauses inside it";
    let mut ask = LoopDirective::default();
    if below == Below::default() {
        // As an automatic loop of a parallel construct.
        let auto = parallel_loop(&ask, above, shape)
            .map_err(|_| "loop run sequentially: every level is used by enclosing loops")?;
        if let Some(why) = auto.seq_why {
            return Err(why);
        }
        (ask.gang, ask.worker, ask.vector) = auto.par.flags();
    } else if below.gang {
        // A grid dimension above theirs.
        ask.gang = true;
        ask.gang_dim = Some(below.gang_dim.unwrap_or(0) + 1);
        if ask.gang_dim > Some(2) {
            return Err(FREE);
        }
    } else {
        // The outermost free level, outside the levels of the loops inside.
        let inside = [below.gang, below.worker, below.vector]
            .iter()
            .position(|b| *b);
        let free = [!above.gang, !above.worker, !above.vector]
            .iter()
            .position(|f| *f);
        match (free, inside) {
            (Some(f), Some(i)) if f < i => {
                (ask.gang, ask.worker, ask.vector) = (f == 0, f == 1, f == 2)
            }
            _ => return Err(FREE),
        }
    }
    if loose {
        ask.gang = false;
    }
    if !ask.explicit() {
        return Err("loop not parallelized: it is not tightly nested in the parallel loop around it, whose other code would run once per gang");
    }
    parallel_loop(&ask, above, shape).map_err(|_| FREE)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lp(parent: Option<usize>, f: impl FnOnce(&mut LoopDirective)) -> NestLoop {
        let mut directive = LoopDirective::default();
        f(&mut directive);
        NestLoop {
            directive,
            reduces: false,
            verdict: Ok(vec![]),
            parent,
            tight: true,
            score: 0,
        }
    }

    fn pars(nest: &[NestLoop]) -> Vec<Parallelism> {
        map(nest).unwrap().into_iter().map(|m| m.par).collect()
    }

    const GW: Parallelism = Parallelism::Par {
        gang: Some(0),
        worker: true,
        vector: None,
    };

    #[test]
    fn clauses_as_in_a_parallel_construct() {
        // gang worker, and the loop without clauses inside: vector.
        let m = pars(&[
            lp(None, |d| (d.gang, d.worker) = (true, true)),
            lp(Some(0), |_| {}),
        ]);
        assert_eq!(m, [GW, Parallelism::levels(false, false, true)]);
        // A worker loop alone takes the nest's gangs too.
        assert_eq!(pars(&[lp(None, |d| d.worker = true)]), [GW]);
        // A gang loop inside a worker loop is an error at it.
        let e = map(&[
            lp(None, |d| d.worker = true),
            lp(Some(0), |d| d.gang = true),
        ]);
        assert_eq!(e, Err((1, NestingError { level: "gang" })));
    }

    #[test]
    fn loops_without_clauses_take_levels_outside_the_clauses_inside() {
        // Around a worker loop: gang; around a gang worker loop: the grid
        // dimension above it.
        let m = pars(&[lp(None, |_| {}), lp(Some(0), |d| d.worker = true)]);
        assert_eq!(
            m,
            [
                Parallelism::levels(true, false, false),
                Parallelism::levels(false, true, false)
            ]
        );
        let m = pars(&[
            lp(None, |_| {}),
            lp(Some(0), |d| (d.gang, d.worker) = (true, true)),
        ]);
        assert_eq!(
            m[0],
            Parallelism::Par {
                gang: Some(1),
                worker: false,
                vector: None
            }
        );
        assert_eq!(m[1], GW);
        // Between a gang loop and a worker loop nothing is free: sequential,
        // and loosely nested around a worker loop, no gang either.
        let m = map(&[
            lp(None, |d| d.gang = true),
            lp(Some(0), |_| {}),
            lp(Some(1), |d| d.worker = true),
        ])
        .unwrap();
        assert_eq!(m[1].par, Parallelism::Seq);
        assert!(m[1].why.as_deref().unwrap().contains("no level is free"));
        let mut loose = lp(Some(0), |_| {});
        loose.tight = false;
        let m = map(&[
            lp(None, |d| d.seq = true),
            loose,
            lp(Some(1), |d| d.worker = true),
        ])
        .unwrap();
        assert_eq!(m[1].par, Parallelism::Seq);
        assert!(m[1].why.as_deref().unwrap().contains("not tightly nested"));
    }
}
