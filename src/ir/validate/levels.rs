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
//! * a call of a `gang`, `worker` or `vector` routine inside a loop
//!   partitioned at that level or an inner one (at the call);
//! * (not a source error: lowering promotes them to the construct) a
//!   reduction across gangs into memory inside another loop of a kernel,
//!   which no schedule can combine after its loop.
//!
//! Owns: [`check`]. May call: `ir` types.

use super::super::function::Function;
use super::super::module::{DeviceFunction, RoutineLevel};
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
    /// The levels (gang, worker, vector) the loops around partition (not
    /// the loop over the gangs of a construct).
    levels: [bool; 3],
}

/// What the walk reads beside the body.
struct Ctx<'a> {
    f: &'a Function,
    /// The module's device functions (the callees).
    functions: &'a [DeviceFunction],
    /// A device function's body.
    routine: bool,
}

/// The level errors of body `f` (`routine`: a device function's) calling
/// `functions`, each with the location of its loop (or call).
pub(super) fn check(f: &Function, functions: &[DeviceFunction], routine: bool) -> Vec<(K, SrcLoc)> {
    let mut out = vec![];
    let at = At {
        target: Target::None,
        threads: [false; 3],
        in_loop: false,
        levels: [false; 3],
    };
    let cx = Ctx {
        f,
        functions,
        routine,
    };
    walk(&cx, &f.body, at, &mut out);
    out
}

fn walk(cx: &Ctx, b: &Block, at: At, out: &mut Vec<(K, SrcLoc)>) {
    let (f, routine) = (cx.f, cx.routine);
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
                let over = l.over_gangs(f);
                let levels = match l.par {
                    Parallelism::Par {
                        gang,
                        worker,
                        vector,
                    } if !over => [gang.is_some(), worker, vector.is_some()],
                    _ => [false; 3],
                };
                let inner = At {
                    target,
                    threads: std::array::from_fn(|d| at.threads[d] || mine[d]),
                    in_loop: at.in_loop || !over,
                    levels: std::array::from_fn(|d| at.levels[d] || levels[d]),
                };
                walk(cx, &l.body, inner, out);
            }
            Stmt::While { body, step, .. } => {
                walk(cx, body, plain, out);
                walk(cx, step, plain, out);
            }
            Stmt::Call { func, loc, .. } => {
                if let Some(callee) = cx.functions.get(*func) {
                    // Partitioned at the callee's level or an inner one.
                    let from = match callee.level {
                        RoutineLevel::Gang => 0,
                        RoutineLevel::Worker => 1,
                        RoutineLevel::Vector => 2,
                        RoutineLevel::Seq => 3,
                    };
                    if at.levels.iter().skip(from).any(|l| *l) {
                        let routine = callee.source_name().to_string();
                        let level = callee.level;
                        out.push((K::RoutineCalledInside { routine, level }, loc.clone()));
                    }
                }
            }
            Stmt::Switch { arms, .. } => {
                for a in arms {
                    let inner = At {
                        target: Target::Ok,
                        ..at
                    };
                    walk(cx, &a.body, inner, out);
                }
            }
            Stmt::Break => {
                if let Target::Partitioned(loc) = at.target {
                    out.push((K::BreakLeavesPartitionedLoop, loc.clone()));
                }
            }
            s => {
                for inner in s.blocks() {
                    walk(cx, inner, at, out);
                }
            }
        }
    }
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
