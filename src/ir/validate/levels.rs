//! The checks of a body that read its loops' levels ([`Loop::par`]): not
//! broken IR but programs the schedule cannot carry out as written, so
//! errors in the user's source ([`ValidationErrorKind::in_source`]), at
//! the loop's location. They run on the lowered IR, whose loops have their
//! levels (as the loop plan decided them):
//! * `break` leaving a partitioned (or collapsed) loop, whose other
//!   iterations run in other threads;
//! * a reduction across workers (or across vector lanes on block y or z)
//!   inside a loop partitioned over threads;
//! * a reduction across gangs into memory in a routine.
//!
//! Owns: [`check`]. May call: `ir` types.

use super::super::function::Function;
use super::super::stmt::{Block, Loop, Parallelism, Stmt};
use super::super::{RedTarget, SrcLoc};
use super::ValidationErrorKind as K;

/// Where a `break` goes.
#[derive(Clone, Copy)]
enum Target<'a> {
    /// Nowhere (the validator's structural check reports that).
    None,
    /// Out of a loop or switch of one thread.
    Ok,
    /// Out of a partitioned or collapsed loop (at its location).
    Partitioned(&'a SrcLoc),
}

/// The level errors of body `f` (`routine`: a device function's), each
/// with the location of its loop.
pub(super) fn check(f: &Function, routine: bool) -> Vec<(K, SrcLoc)> {
    let mut out = vec![];
    walk(f, &f.body, routine, Target::None, [false; 3], &mut out);
    out
}

fn walk(
    f: &Function,
    b: &Block,
    routine: bool,
    target: Target,
    threads: [bool; 3],
    out: &mut Vec<(K, SrcLoc)>,
) {
    for s in b {
        match s {
            Stmt::Loop(l) => {
                reductions(f, l, routine, threads, out);
                let partitioned = l.par != Parallelism::Seq || !l.collapsed.is_empty();
                let inner = if partitioned {
                    Target::Partitioned(&l.loc)
                } else {
                    Target::Ok
                };
                let mine = l.par.thread_dims();
                let threads = std::array::from_fn(|d| threads[d] || mine[d]);
                walk(f, &l.body, routine, inner, threads, out);
            }
            Stmt::While { body, step, .. } => {
                walk(f, body, routine, Target::Ok, threads, out);
                walk(f, step, routine, Target::Ok, threads, out);
            }
            Stmt::Switch { arms, .. } => {
                for a in arms {
                    walk(f, &a.body, routine, Target::Ok, threads, out);
                }
            }
            Stmt::Break => {
                if let Target::Partitioned(loc) = target {
                    out.push((K::BreakLeavesPartitionedLoop, loc.clone()));
                }
            }
            s => {
                for inner in s.blocks() {
                    walk(f, inner, routine, target, threads, out);
                }
            }
        }
    }
}

/// The level errors of loop `l`'s reductions, inside loops partitioning
/// the block dimensions `threads`.
fn reductions(
    f: &Function,
    l: &Loop,
    routine: bool,
    threads: [bool; 3],
    out: &mut Vec<(K, SrcLoc)>,
) {
    let Parallelism::Par {
        gang,
        worker,
        vector,
    } = l.par
    else {
        return;
    };
    for r in &l.reductions {
        let var = f.local(r.private).name.clone();
        if threads.iter().any(|d| *d) && (worker || vector.is_some_and(|d| d > 0)) {
            out.push((K::ReductionAcrossThreadsInside { var }, l.loc.clone()));
        } else if routine && gang.is_some() && matches!(r.target, RedTarget::Memory(_)) {
            out.push((K::GangReductionInRoutine { var }, l.loc.clone()));
        }
    }
}
