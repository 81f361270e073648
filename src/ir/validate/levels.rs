//! The checks of a body that read its loops' levels ([`Loop::par`]): not
//! broken IR but programs the schedule cannot carry out as written, so
//! errors in the user's source ([`ValidationErrorKind::in_source`]), at
//! the loop's location. They run on the lowered IR, whose loops have their
//! levels (as the loop plan decided them):
//! * `break` leaving a partitioned (or collapsed) loop, whose other
//!   iterations run in other threads;
//! * a reduction across workers (or across vector lanes on block y or z)
//!   inside a loop partitioned over threads;
//! * a reduction across gangs into memory in a routine;
//! * (not a source error: lowering promotes them to the construct) a
//!   reduction across gangs into memory inside another loop of a kernel,
//!   which no schedule can combine after its loop.
//!
//! Owns: [`check`]. May call: `ir` types.

use super::super::expr::{Expr, Special};
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

/// Where the walk is.
#[derive(Clone, Copy)]
struct At<'a> {
    /// Where a `break` goes.
    target: Target<'a>,
    /// The block dimensions the loops around partition.
    threads: [bool; 3],
    /// Inside a loop of the code (not the loop over the gangs lowering
    /// makes of a construct with reductions).
    in_loop: bool,
}

/// The level errors of body `f` (`routine`: a device function's), each
/// with the location of its loop.
pub(super) fn check(f: &Function, routine: bool) -> Vec<(K, SrcLoc)> {
    let mut out = vec![];
    let at = At {
        target: Target::None,
        threads: [false; 3],
        in_loop: false,
    };
    walk(f, &f.body, routine, at, &mut out);
    out
}

fn walk(f: &Function, b: &Block, routine: bool, at: At, out: &mut Vec<(K, SrcLoc)>) {
    let plain = At {
        target: Target::Ok,
        in_loop: true,
        ..at
    };
    for s in b {
        match s {
            Stmt::Loop(l) => {
                reductions(f, l, routine, at, out);
                let partitioned = l.par != Parallelism::Seq || !l.collapsed.is_empty();
                let target = if partitioned {
                    Target::Partitioned(&l.loc)
                } else {
                    Target::Ok
                };
                let mine = l.par.thread_dims();
                let inner = At {
                    target,
                    threads: std::array::from_fn(|d| at.threads[d] || mine[d]),
                    in_loop: at.in_loop || !over_gangs(f, l),
                };
                walk(f, &l.body, routine, inner, out);
            }
            Stmt::While { body, step, .. } => {
                walk(f, body, routine, plain, out);
                walk(f, step, routine, plain, out);
            }
            Stmt::Switch { arms, .. } => {
                for a in arms {
                    let inner = At {
                        target: Target::Ok,
                        ..at
                    };
                    walk(f, &a.body, routine, inner, out);
                }
            }
            Stmt::Break => {
                if let Target::Partitioned(loc) = at.target {
                    out.push((K::BreakLeavesPartitionedLoop, loc.clone()));
                }
            }
            s => {
                for inner in s.blocks() {
                    walk(f, inner, routine, at, out);
                }
            }
        }
    }
}

/// Whether `l` is the loop over the gangs lowering makes of a construct
/// with reductions (its limit is the grid size).
fn over_gangs(f: &Function, l: &Loop) -> bool {
    matches!(f.expr(l.limit), Expr::Special(Special::GridDim(_)))
}

/// The level errors of loop `l`'s reductions, where `at` says.
fn reductions(f: &Function, l: &Loop, routine: bool, at: At, out: &mut Vec<(K, SrcLoc)>) {
    let threads = at.threads;
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
        } else if at.in_loop && gang.is_some() && matches!(r.target, RedTarget::Memory(_)) {
            out.push((K::GangReductionInsideLoop { var }, l.loc.clone()));
        }
    }
}
