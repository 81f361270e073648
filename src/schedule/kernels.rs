//! The loop nests of a `kernels` construct: the OpenUH mappings
//! (`shared/seeds/openuh-loop-mapping-runtime.txt` §3.1). Which loops are
//! parallel (by clause, `independent`, or the dependence test's verdict,
//! with the reductions it finds), how many levels a nest uses (at most
//! three), the coalescing depth (the loop whose index walks memory
//! contiguously takes vector x), then grid and block dimensions per depth.
//! A loop takes a grid dimension of its own only when tightly nested in the
//! parallel loop around it.
//!
//! The OpenUH mappings have no worker level: a nest in which a loop names
//! the worker level is mapped as the same loops of a `parallel` construct
//! are (`kernels/workers.rs`).
//!
//! The mapping reads facts only ([`NestLoop`]: the directive, the verdict,
//! tightness, the contiguity score), which the plan over the IR gathers
//! (`plan/nest.rs`).
//!
//! Owns: [`NestLoop`], [`Verdict`], [`Mapped`], [`map_nest`]. May call: `ir`,
//! `workers` (which calls `levels`).

mod workers;

use super::levels::NestingError;
use crate::ir::{LoopDirective, Parallelism, RedOp};

/// Whether a loop may run in parallel (the dependence test's answer): `Ok`
/// with the host scalars it only accumulates into (and their operators),
/// or why not.
pub type Verdict = Result<Vec<(RedOp, String)>, String>;

/// The facts of one loop of a nest, which [`map_nest`] takes in pre-order
/// (a loop before the loops inside it).
#[derive(Clone, Debug, PartialEq)]
pub struct NestLoop {
    /// What its directive asks (the default for a loop without one).
    pub directive: LoopDirective,
    /// Its clauses name reductions.
    pub reduces: bool,
    /// The dependence test's verdict (asked only when no clause decides).
    pub verdict: Verdict,
    /// The index of the loop it is nested in (`None`: the nest's root).
    pub parent: Option<usize>,
    /// It is reached from its parent's body through nothing but
    /// declarations and loops (running the parent's body again in another
    /// gang only repeats work private to each thread).
    pub tight: bool,
    /// How many accesses of its body walk memory contiguously with its
    /// index (the most: the loop for consecutive threads).
    pub score: u32,
}

/// What was decided for one loop of a nest.
#[derive(Clone, Debug, PartialEq)]
pub struct Mapped {
    pub par: Parallelism,
    /// Why it is not partitioned (its remark), when it is not.
    pub why: Option<String>,
    /// The reductions the dependence test found (partitioned loops only).
    pub found: Vec<(RedOp, String)>,
}

/// One loop during the mapping.
struct Info {
    depth: usize,
    parallel: bool,
    /// Not tightly nested in the parallel loop around it: code of that
    /// loop's body runs around it, so it may not take a grid dimension of
    /// its own (that code would run once per gang).
    loose: bool,
    why: Option<String>,
    found: Vec<(RedOp, String)>,
}

/// Step 1: whether loop `n`, at parallel depth `depth`, is parallel (and
/// why not, and the reductions found).
fn classify(n: &NestLoop, depth: usize) -> (bool, Option<String>, Vec<(RedOp, String)>) {
    let d = &n.directive;
    if d.seq {
        return (
            false,
            Some("loop run sequentially: seq clause".into()),
            vec![],
        );
    }
    if d.explicit() {
        return (true, None, vec![]);
    }
    if depth > 0 && n.reduces {
        // Inside a parallel loop each thread reduces on its own.
        return (false, Some("loop run sequentially: a reduction inside a parallel loop (each thread reduces its own iterations)".into()), vec![]);
    }
    if d.independent {
        return (true, None, vec![]);
    }
    match &n.verdict {
        // A loop inside a parallel loop is not worth a reduction across
        // its threads: each thread reduces on its own.
        Ok(found) if !found.is_empty() && depth > 0 => {
            let names: Vec<String> = found.iter().map(|(_, n)| format!("'{n}'")).collect();
            (false, Some(format!("loop not parallelized: it reduces into {} inside a parallel loop (each thread reduces its own iterations)", names.join(", "))), vec![])
        }
        Ok(found) => (true, None, found.clone()),
        Err(e) => (false, Some(format!("loop not parallelized: {e}")), vec![]),
    }
}

/// The levels of every loop of one nest (`nest` in pre-order), in order;
/// or, in a nest that names the worker level, a loop of a level nested in
/// a loop of the same or an inner level (its index in `nest`), as in a
/// `parallel` construct.
pub fn map_nest(nest: &[NestLoop]) -> Result<Vec<Mapped>, (usize, NestingError)> {
    if nest.iter().any(|n| n.directive.worker && !n.directive.seq) {
        return workers::map(nest);
    }
    Ok(openuh(nest))
}

/// Step 1 of every mapping: which loops are parallel, by clause or by the
/// dependence test (at the parallel depth the verdicts of the loops around
/// give), and which are loosely nested.
fn classify_all(nest: &[NestLoop]) -> Vec<Info> {
    let mut infos: Vec<Info> = Vec::with_capacity(nest.len());
    for n in nest {
        let (depth, loose) = match n.parent {
            None => (0, false),
            Some(p) => {
                let p = &infos[p];
                // Below a parallel loop, a loop is loose when not tight;
                // below a sequential loop, also when that loop is loose.
                // (A sequential outermost loop runs in every thread of the
                // kernel: code around a loop inside it would run once per
                // gang too.)
                let loose = if p.parallel {
                    !n.tight
                } else {
                    p.loose || !n.tight
                };
                (p.depth + usize::from(p.parallel), loose)
            }
        };
        let (parallel, why, found) = classify(n, depth);
        infos.push(Info {
            depth,
            parallel,
            loose,
            why,
            found,
        });
    }
    infos
}

/// The OpenUH mappings of a nest that does not name the worker level.
fn openuh(nest: &[NestLoop]) -> Vec<Mapped> {
    // 1. Which loops are parallel: by clause or by the dependence test.
    let mut infos = classify_all(nest);
    // At most three parallel levels per nest.
    for i in infos.iter_mut() {
        if i.parallel && i.depth >= 3 {
            i.parallel = false;
            i.why = Some(
                "loop run sequentially: three enclosing loops already use the grid's dimensions"
                    .into(),
            );
        }
    }
    let depths = infos
        .iter()
        .filter(|i| i.parallel)
        .map(|i| i.depth + 1)
        .max()
        .unwrap_or(0);
    let explicit = nest
        .iter()
        .zip(&infos)
        .any(|(n, i)| i.parallel && n.directive.explicit());

    // 2. Levels per parallel depth: (gang, vector).
    let mut roles: Vec<(bool, bool)> = vec![(false, false); depths];
    let mut score = vec![0u32; depths];
    for (n, i) in nest.iter().zip(&infos).filter(|(_, i)| i.parallel) {
        score[i.depth] += n.score;
        let d = &n.directive;
        if explicit {
            roles[i.depth].0 |= d.gang;
            roles[i.depth].1 |= d.vector;
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
    // 4. A loose loop without a clause asking for gangs keeps only its
    //    vector dimension (the code around it runs once per thread of the
    //    block, which guards its side effects) or stays sequential.
    //    A worker loop is not a gang loop: its reductions and the private
    //    variables of the gang around it stay within one gang.
    //    Loops inside a loop made sequential here are loose too: they were
    //    nested tightly in a loop that is no longer parallel.
    let mut demoted = vec![false; nest.len()];
    for (k, n) in nest.iter().enumerate() {
        let mut up = n.parent;
        while let Some(p) = up {
            if demoted[p] {
                infos[k].loose = true;
                break;
            }
            up = nest[p].parent;
        }
        let i = &mut infos[k];
        if i.parallel && i.loose && !n.directive.gang && vdim[i.depth].is_none() {
            i.parallel = false;
            i.why = Some("loop not parallelized: it is not tightly nested in the parallel loop around it, whose other code would run once per gang".into());
            demoted[k] = true;
        }
    }
    nest.iter()
        .zip(infos)
        .map(|(n, i)| {
            let par = if i.parallel {
                Parallelism::Par {
                    gang: if i.loose && !n.directive.gang {
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
            Mapped {
                par,
                why: i.why,
                found: if i.parallel { i.found } else { vec![] },
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(parent: Option<usize>, score: u32) -> NestLoop {
        NestLoop {
            directive: LoopDirective::default(),
            reduces: false,
            verdict: Ok(vec![]),
            parent,
            tight: true,
            score,
        }
    }

    fn dims(m: &[Mapped]) -> Vec<Parallelism> {
        m.iter().map(|x| x.par).collect()
    }

    const GX: Option<u8> = Some(0);

    #[test]
    fn the_contiguous_loop_takes_vector_x() {
        // for i { for j { a[i][j] } }: j is contiguous: g-gv (gang y, gang x vector x).
        let m = openuh(&[plain(None, 0), plain(Some(0), 1)]);
        assert_eq!(
            dims(&m),
            [
                Parallelism::Par {
                    gang: Some(1),
                    worker: false,
                    vector: None
                },
                Parallelism::Par {
                    gang: GX,
                    worker: false,
                    vector: GX
                }
            ]
        );
        // With the outer loop contiguous, it takes vector x and gang x.
        let m = openuh(&[plain(None, 2), plain(Some(0), 0)]);
        assert_eq!(
            m[0].par,
            Parallelism::Par {
                gang: GX,
                worker: false,
                vector: GX
            }
        );
    }

    #[test]
    fn verdicts_and_nesting_decide_parallel() {
        let mut inner = plain(Some(0), 1);
        inner.verdict = Ok(vec![(RedOp::Add, "s".into())]);
        let m = openuh(&[plain(None, 0), inner]);
        assert_eq!(m[1].par, Parallelism::Seq);
        assert!(m[1].why.as_deref().unwrap().contains("reduces into 's'"));
        // At the root, the reduction found is the loop's.
        let mut root = plain(None, 1);
        root.verdict = Ok(vec![(RedOp::Add, "s".into())]);
        assert_eq!(openuh(&[root])[0].found, [(RedOp::Add, "s".to_string())]);
        // A loose loop with no vector dimension stays sequential, and so
        // do the loops inside it.
        let mut loose = plain(Some(0), 0);
        loose.tight = false;
        let m = openuh(&[plain(None, 0), loose, plain(Some(1), 5)]);
        assert_eq!(m[2].par.flags(), (false, false, true));
        let mut seq = plain(None, 0);
        seq.directive.seq = true;
        assert_eq!(
            openuh(&[seq])[0].why.as_deref(),
            Some("loop run sequentially: seq clause")
        );
        // Four deep: the fourth runs sequentially.
        let m = openuh(&[
            plain(None, 0),
            plain(Some(0), 0),
            plain(Some(1), 0),
            plain(Some(2), 1),
        ]);
        assert_eq!(m[3].par, Parallelism::Seq);
        assert!(m[3]
            .why
            .as_deref()
            .unwrap()
            .contains("three enclosing loops"));
    }
}
