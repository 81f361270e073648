//! Scheduling: maps parallel loops onto the GPU's thread hierarchy (or the
//! host's threads: one thread a gang) and turns
//! every counted loop into an explicit loop, so back ends only translate.
//!
//! Owns: [`decide_data`] and [`prepare`] (before analysis), [`schedule`] and [`specialize`],
//! for a [`Target`] (`ir::target`: the machine's limits). May call: `ir`; `analysis` for its side table
//! ([`ModuleInfo`]), which it only reads. Files:
//! * `mod.rs` — the walk over every kernel's statements;
//! * `par.rs` — parallel loops: trip count, 64-bit thread-strided counter,
//!   each thread's start and stride per level;
//! * `single.rs` — single-thread code: which thread performs a side effect
//!   where several run the code (guards, broadcasts of captured values);
//! * `seq.rs` — sequential loops (C semantics);
//! * `build.rs` — the expression/statement builder both use;
//! * `cache.rs` — the `cache` directive: the sections it turns into
//!   shared-memory tiles of a vector loop, and the remark on each variable;
//! * `tile.rs` — tiled and `gang(static:)` loops, and the sizes `tile(*)`
//!   leaves to the schedule;
//! * `levels.rs` — the `parallel` construct's loop levels (from each
//!   loop's directive and the nest's shape) and the nesting errors;
//! * `kernels.rs` — the `kernels` construct's OpenUH mappings (from each
//!   loop's directive, dependence verdict, tightness and contiguity), and
//!   (`kernels/workers.rs`) its nests that name the worker level, mapped
//!   with `levels.rs` as parallel loops; both decide for [`plan_levels`];
//! * `plan.rs` (+ `plan/nest.rs`, `plan/promote.rs`) — [`plan_levels`]:
//!   the loop-level decision on the IR, for the bodies lowering leaves
//!   undecided ([`crate::ir::Function::undecided`]: every one), with the
//!   kernels' facts from `analysis`, the reductions found, the nested gang
//!   reductions promoted, the C form of the sequential loops without
//!   directive, and the decision's remarks;
//! * `geometry.rs` — each kernel's launch geometry ([`crate::ir::Launch`])
//!   from its loops and size clauses, and the remarks on sizes it changed;
//! * `multicore.rs` — the geometry for the host's cores (blocks of one
//!   thread, gangs on the runtime's host threads);
//! * `launch.rs` — how the host computes each kernel's launch sizes
//!   ([`crate::ir::LaunchPlan`]): defaults, clamps, fitting to the device;
//! * `reduce.rs` (+ `reduce/gangs.rs`) — reductions: private copies set to
//!   the identity, combined after the loop within blocks and across gangs;
//! * `localize.rs` — a loop's own copy of a scalar of the code around it;
//! * `inherit.rs` — the implicit reductions a partitioned loop takes from
//!   the loops around it ([`implicit_reductions`], run before
//!   [`auto_privates`]: both are [`prepare`], the driver's step before
//!   analysis);
//! * `privatize.rs` — the automatic privatisation pass over the lowered
//!   module (each partitioned loop's written-first scalars), which the
//!   driver runs before analysis ([`auto_privates`]);
//! * `prune.rs` — the kernel parameters privatisation left unused, with
//!   their host arguments and implicit maps;
//! * `data.rs` — [`decide_data`]: the data attributes the front end left
//!   undecided in the host plan (`ir::hostdata`), from the sections of the
//!   lowered kernels (`analysis::data_attrs`), and the `copyin` an explicit
//!   `copy` of a const object needs;
//! * `demote.rs` — the host scalars of a `kernels` region that no kernel
//!   writes, made value parameters again (first in [`decide_data`], over
//!   each region's kernels together, from the facts lowering records).
//!
//! Mapping (OpenUH, `shared/seeds/openuh-*.txt`): gang → blockIdx.x, worker →
//! threadIdx.y, vector → threadIdx.x. Every level strides (`k += blockDim.x *
//! gridDim.x`), so correctness never depends on the launch size. Nested
//! parallel loops each use their own levels (gang outer, vector inner).
//!
//! After [`schedule`], no [`Stmt::Loop`] is left and `ir::validate(m, true)`
//! holds for any module that validated before.

mod build;
mod cache;
mod data;
pub mod demote;
mod fences;
pub mod geometry;
mod inherit;
mod interchange;
pub mod kernels;
mod launch;
pub mod levels;
pub mod localize;
mod multicore;
mod par;
mod plan;
mod privatize;
mod prune;
mod reduce;
mod seq;
mod single;
mod tile;

pub use crate::ir::{Gpu, HostCpu, Target};
pub use data::decide_data;
pub use inherit::{implicit_reductions, Implicit};
pub use plan::plan_levels;
pub use privatize::{auto_privates, privatize, Named};

use crate::analysis::ModuleInfo;
use crate::ir::host::{ConstructKind, HostArg};
use crate::ir::{
    BarrierScope, Block, Expr, Function, IntKind, Module, Parallelism, Param, ParamMode, Stmt, Type,
};
use build::Emit;
use fences::{Here, Pending};
use par::Levels;
use reduce::RedState;
use std::collections::HashSet;

/// What [`prepare`] did, for the remarks: the implicit reductions made,
/// the scalars privatised and the races left ([`auto_privates`]).
pub struct Prepared {
    pub implicit: Vec<Implicit>,
    pub privates: Vec<Named>,
    pub races: Vec<Named>,
}

/// The passes the pipeline runs on a lowered module before analysis: the
/// implicit reductions ([`implicit_reductions`]), then the automatic
/// privatisation ([`auto_privates`]), which does not privatise what a
/// reduction now combines.
pub fn prepare(m: &mut Module) -> Prepared {
    let implicit = implicit_reductions(m);
    let (privates, races) = auto_privates(m);
    Prepared {
        implicit,
        privates,
        races,
    }
}

/// Schedules every kernel and device function of the module: each counted
/// loop becomes a [`Stmt::Block`] holding its setup and a [`Stmt::While`].
/// A loop partitioned over threads gets a [`Stmt::Barrier`] before and
/// after it when code beside it touches memory (that code's stores are one
/// thread's: see `single.rs`, which resolves single-thread code first): a block barrier in code every thread of
/// the block runs, a row barrier inside worker (block y) loops; none at the
/// very start and end of a kernel. Each kernel's launch is computed first
/// (`geometry`; kept where the module gives one), consuming its size
/// clauses. `target`'s limits bound what it makes; `_info` is the lowered
/// module's side table (`analysis`), for the decisions of later steps that
/// read it. Returns, by kernel, what it changed in the sizes the clauses
/// give (the text of [`crate::ir::Remark::Launch`]).
pub fn schedule(m: &mut Module, _info: &ModuleInfo, target: &Target) -> crate::ir::Notes {
    let mut notes = vec![];
    let mut cache_notes = vec![];
    m.scheduled = true;
    let prints: Vec<bool> = (0..m.kernels.len()).map(|k| m.kernel_prints(k)).collect();
    for f in m.kernels.iter_mut().map(|k| &mut k.body) {
        answer_on_device(f, target);
    }
    for f in m.functions.iter_mut().map(|d| &mut d.body) {
        answer_on_device(f, target);
    }
    for (ki, k) in m.kernels.iter_mut().enumerate() {
        if let Target::Host(_) = target {
            multicore::chunk_gang_loops(&mut k.body.body);
        }
        let (launch, said) = match k.launch.take() {
            Some(l) => (l, vec![]),
            None => match target {
                Target::Gpu(gpu) => {
                    let (l, notes) = geometry::launch(k, &m.functions, gpu);
                    (l, notes.into_iter().map(|n| n.text).collect())
                }
                Target::Host(host) => multicore::launch(k, &m.functions, host),
            },
        };
        notes.push(said);
        k.sizes = Default::default();
        let compute = m.host.compute_mut(ki);
        let mut host = compute.and_then(|c| match &mut c.kind {
            ConstructKind::Compute { args, launch, .. } => Some((args, launch)),
            _ => None,
        });
        if let Some((_, plan)) = &mut host {
            **plan = Some(Box::new(launch::plan(&launch, prints[ki])));
        }
        let one_thread = k.one_thread();
        single::resolve(&mut k.body, single::Performer::Kernel { one_thread });
        let own = fences::own_locals(&k.body);
        let body = std::mem::take(&mut k.body.body);
        let mut st = RedState::new(target);
        st.block_x = match launch.block[0] {
            crate::ir::GridSize::Const(n) => Some(n),
            _ => None,
        };
        let one = crate::ir::GridSize::Const(1);
        // A block of one thread has no redundant threads to fence.
        let alone = launch.block.iter().all(|g| *g == one);
        let here = Here {
            outer: [false; 3],
            fence_stores: !alone,
            redundant: (!alone).then_some(BarrierScope::Block),
            own: &own,
            workers: launch.block[1] != one || launch.block[2] != one,
        };
        k.launch = Some(launch);
        let mut b = block(&mut k.body, body, here, &mut st, &mut Pending::default());
        if let Some(local) = st.scratch {
            k.params.push(Param {
                name: "(reduction scratch)".into(),
                local,
                mode: ParamMode::Scratch,
                own: false,
            });
            k.scratch = st.layout();
            if let (Some((args, _)), Some(s)) = (host, k.scratch) {
                args.push(HostArg::Scratch { slots: s.slots });
            }
        }
        cache_notes.append(&mut st.cache_notes);
        while matches!(b.first(), Some(Stmt::Barrier(_))) {
            b.remove(0);
        }
        while matches!(b.last(), Some(Stmt::Barrier(_))) {
            b.pop();
        }
        k.body.body = b;
    }
    for f in &mut m.functions {
        single::resolve(&mut f.body, single::Performer::Routine(f.guards));
        let body = std::mem::take(&mut f.body.body);
        // The front end allows no reduction across gangs in a routine.
        let own = HashSet::new();
        let here = Here {
            outer: [false; 3],
            fence_stores: false,
            redundant: None,
            own: &own,
            workers: true,
        };
        let mut st = RedState::new(target);
        st.in_routine = true;
        f.body.body = block(&mut f.body, body, here, &mut st, &mut Pending::default());
        cache_notes.append(&mut st.cache_notes);
    }
    crate::ir::Notes {
        launch: notes,
        cache: cache_notes,
    }
}

/// Replaces each [`Special::OnDevice`] of `f` (`acc_on_device`) by the
/// target's answer, a `bool` literal.
///
/// [`Special::OnDevice`]: crate::ir::Special::OnDevice
fn answer_on_device(f: &mut Function, target: &Target) {
    for e in &mut f.exprs {
        if let Expr::Special(crate::ir::Special::OnDevice(t)) = *e {
            *e = Expr::Literal(crate::ir::Literal::Int(i128::from(target.on_device(t))));
        }
    }
}

/// Folds the launch sizes each kernel's launch fixes at compile time into
/// its code: `ntid`/`nctaid` of a constant size become that constant, `tid`
/// (`ctaid`) along a dimension of one thread (block) becomes 0 — so the
/// guards of single-thread code on unused dimensions vanish. Run after
/// [`schedule`], before the back ends.
///
/// Deliberate, and only where it is exact: a size is folded only where the
/// kernel's [`crate::ir::LaunchPlan`] (`launch::plan` of its geometry, as
/// its compute construct in the host plan holds it) launches it as that
/// constant (a
/// default, a clause written as an integer literal, or 1 along an unused
/// dimension), so the kernel and the launch cannot disagree; every other
/// size is read from `ntid`/`nctaid`. It is worth it for speed: the
/// strides and starts of partitioned loops multiply by the block size
/// (`mul(ctaid.x, 128)` becomes a shift), and dead guards disappear.
pub fn specialize(m: &mut Module) {
    for k in &mut m.kernels {
        specialize_kernel(k);
    }
}

fn specialize_kernel(k: &mut crate::ir::Kernel) {
    use crate::ir::{Literal, Special};
    // The sizes the host launches it with: what `schedule` gave its
    // compute construct, from the same geometry.
    // (Only the sizes are read: whether the host waits does not matter.)
    let Some(plan) = k.launch.as_ref().map(|l| launch::plan(l, false)) else {
        return;
    };
    let block: Vec<Option<u32>> = plan.block.iter().map(|e| e.as_const()).collect();
    let grid: Vec<Option<u32>> = plan.grid.iter().map(|e| e.as_const()).collect();
    for e in &mut k.body.exprs {
        let v = match *e {
            Expr::Special(Special::ThreadIdx(d)) if block.get(usize::from(d)) == Some(&Some(1)) => {
                0
            }
            Expr::Special(Special::BlockIdx(d)) if grid.get(usize::from(d)) == Some(&Some(1)) => 0,
            Expr::Special(Special::BlockDim(d)) => match block.get(usize::from(d)) {
                Some(Some(n)) => *n,
                _ => continue,
            },
            Expr::Special(Special::GridDim(d)) => match grid.get(usize::from(d)) {
                Some(Some(n)) => *n,
                _ => continue,
            },
            _ => continue,
        };
        *e = Expr::Literal(Literal::Int(i128::from(v)));
    }
}

/// The barrier around a loop partitioning `dims` inside loops partitioning
/// `outer`: block-wide outside every thread loop; per row inside loops
/// that partition only y and z, for a loop on x; else none (no barrier
/// covers exactly the threads that meet there).
fn fence(outer: [bool; 3], dims: [bool; 3]) -> Option<BarrierScope> {
    if !dims.iter().any(|d| *d) {
        return None;
    }
    if !outer.iter().any(|d| *d) {
        return Some(BarrierScope::Block);
    }
    (!outer[0] && dims[0] && !dims[1] && !dims[2]).then_some(BarrierScope::Row)
}

/// True when statement `s` reads or writes memory (or calls, or prints).
fn touches_memory(f: &Function, s: &Stmt) -> bool {
    let mut hit = false;
    let mut exprs = vec![];
    crate::ir::walk_stmts(std::slice::from_ref(s), &mut |s| match s {
        Stmt::Store { .. } | Stmt::Copy { .. } | Stmt::Call { .. } | Stmt::Print { .. } => {
            hit = true
        }
        Stmt::Assign { value, .. } => exprs.push(*value),
        Stmt::If { cond, .. } | Stmt::While { cond, .. } => exprs.push(*cond),
        Stmt::Switch { value, .. } => exprs.push(*value),
        Stmt::Return(Some(v)) => exprs.push(*v),
        Stmt::Loop(l) => {
            exprs.extend([l.init, l.limit, l.step]);
            for h in &l.collapsed {
                exprs.extend([h.init, h.limit, h.step]);
            }
        }
        _ => {}
    });
    while let Some(e) = exprs.pop() {
        if hit {
            break;
        }
        if matches!(f.expr(e), Expr::Load(_) | Expr::Cell(_)) {
            hit = true;
        }
        exprs.extend(f.children(e));
    }
    hit
}

/// Schedules a block inside loops that partition `here.outer`; `pending`
/// is, on entry and exit, what the code every thread runs redundantly has
/// done since the last barrier (see `fences`).
fn block(
    f: &mut Function,
    b: Block,
    here: Here,
    st: &mut RedState,
    pending: &mut Pending,
) -> Block {
    let outer = here.outer;
    // Fences only where something beside the loop touches memory.
    let busy: Vec<bool> = b.iter().map(|s| touches_memory(f, s)).collect();
    let mut out = vec![];
    for (i, s) in b.into_iter().enumerate() {
        let scope = match &s {
            Stmt::Loop(l) => fence(outer, l.par.thread_dims()),
            _ => None,
        };
        let others = busy.iter().enumerate().any(|(j, t)| j != i && *t);
        let scope = scope.filter(|_| others);
        if let Some(sc) = scope {
            if out.last() != Some(&Stmt::Barrier(sc)) {
                out.push(Stmt::Barrier(sc));
            }
            *pending = Pending::default();
        }
        let access = fences::Access::of(f, here.own, &s);
        if let Some(sc) = here.redundant.filter(|_| pending.hazard(&access)) {
            if out.last() != Some(&Stmt::Barrier(sc)) {
                out.push(Stmt::Barrier(sc));
            }
            *pending = Pending::default();
        }
        let leaf = fences::is_leaf(&s) || access.single;
        out.push(stmt(f, s, here, st, pending));
        if leaf {
            pending.add(&access);
        }
        if let Some(sc) = scope {
            out.push(Stmt::Barrier(sc));
            *pending = Pending::default();
        }
    }
    out
}

fn stmt(f: &mut Function, s: Stmt, here: Here, st: &mut RedState, pending: &mut Pending) -> Stmt {
    let outer = here.outer;
    match s {
        Stmt::Loop(mut l) => {
            let mine = l.par.thread_dims();
            let inner = Here {
                outer: std::array::from_fn(|d| outer[d] || mine[d]),
                ..here
            };
            let inner = Here {
                redundant: if here.fence_stores {
                    fence(inner.outer, [true, false, false])
                } else {
                    None
                },
                ..inner
            };
            // A loop's body runs again after itself: what it does is
            // pending at its start. A partitioned loop's body is code of
            // other threads; a sequential one's leaves its accesses pending.
            let again = fences::Access::of_block(f, here.own, &l.body);
            let mut inner_yz = false;
            crate::ir::walk_stmts(&l.body, &mut |x| {
                if let Stmt::Loop(il) = x {
                    let d = il.par.thread_dims();
                    inner_yz |= d[1] || d[2];
                }
            });
            let partitioned = mine.iter().any(|d| *d);
            // A partitioned loop (over gangs or threads) runs independent
            // iterations (its clauses or the dependence test say so; its
            // privates are each thread's own): nothing of one iteration is
            // pending in the next. A sequential loop's accesses are.
            let independent = matches!(l.par, Parallelism::Par { .. });
            let mut body_pending = if partitioned {
                Pending::default()
            } else {
                *pending
            };
            if !independent {
                body_pending.add(&again);
            }
            let body = block(f, std::mem::take(&mut l.body), inner, st, &mut body_pending);
            if !partitioned {
                pending.add(&again);
                pending.merge(&body_pending);
            }
            let reductions = std::mem::take(&mut l.reductions);
            let par = l.par;
            let reduces = !reductions.is_empty();
            // A vector loop in worker-single code (outside worker loops):
            // the first worker runs it; the others would only repeat its
            // loads, racing with its stores. Its reductions then combine
            // across the workers too (the others bring the identity), so
            // that every thread has the result after the loop.
            let first_only = here.fence_stores
                && here.workers
                && mine == [true, false, false]
                && !outer[1]
                && !outer[2]
                && !inner_yz;
            // The loop's control code (and its reductions' and guard's)
            // is located at the loop's `for` (where the front end located
            // its bounds), else at its directive.
            let loc = f.expr_locs.get(l.limit.0 as usize).cloned().flatten();
            let (loc, first) = (loc.unwrap_or_else(|| l.loc.clone()), f.exprs.len());
            let mut e = Emit::new(f);
            reduce::prologue(&mut e, &reductions);
            let loop_at = e.out.len();
            let vars = std::iter::once(l.var).chain(l.collapsed.iter().map(|h| h.var));
            let kinds: Option<Vec<IntKind>> = vars
                .map(|v| match &e.f.local(v).ty {
                    Type::Int(k) => Some(*k),
                    _ => None,
                })
                .collect();
            let lv = match l.par {
                Parallelism::Par {
                    gang,
                    worker,
                    vector,
                } => Some(Levels {
                    gang,
                    worker,
                    vector,
                }),
                // A collapsed (or tiled) sequential nest is one counted loop too.
                Parallelism::Seq if !l.collapsed.is_empty() || !l.tile.is_empty() => Some(Levels {
                    gang: None,
                    worker: false,
                    vector: None,
                }),
                Parallelism::Seq => None,
            };
            let tiles = cache::plan(&mut e, &mut l, here.outer, here.workers, st, &body);
            match (lv, kinds) {
                (Some(lv), Some(kinds)) if !tiles.is_empty() => {
                    cache::cached_loop(&mut e, l, &kinds, lv, body, tiles)
                }
                (Some(lv), Some(kinds)) => par::par_loop(&mut e, l, &kinds, lv, body, reduces),
                // A parallel loop over a non-integer index cannot be counted;
                // the front end rejects it, and here it runs sequentially.
                _ => seq::seq_loop(&mut e, l, body),
            }
            let looped: Block = e.out.split_off(loop_at);
            let guarded = first_only && !fences::needs_all_threads(&looped);
            if guarded {
                let cond = reduce::first_thread(&mut e, &[1, 2]);
                e.out.push(Stmt::If {
                    cond,
                    then: looped,
                    otherwise: vec![],
                    single: false,
                });
            } else {
                e.out.extend(looped);
            }
            if reduces {
                let red_par = match par {
                    Parallelism::Par { gang, vector, .. } if guarded => Parallelism::Par {
                        gang,
                        worker: true,
                        vector,
                    },
                    _ => par,
                };
                reduce::epilogue(&mut e, st, reductions, red_par, outer);
            }
            let out = std::mem::take(&mut e.out);
            f.locate_since(first, &loc);
            Stmt::Block(out)
        }
        Stmt::If {
            cond,
            then,
            otherwise,
            single,
        } => {
            // One thread's code (a single-thread guard): its accesses are
            // the statement's, which `block` notes.
            let (mut p1, mut p2) = if single {
                (Pending::default(), Pending::default())
            } else {
                (*pending, *pending)
            };
            // No barrier in code one thread runs alone.
            let inside = if single {
                Here {
                    redundant: None,
                    ..here
                }
            } else {
                here
            };
            let then = block(f, then, inside, st, &mut p1);
            let otherwise = block(f, otherwise, inside, st, &mut p2);
            if !single {
                *pending = p1;
                pending.merge(&p2);
            }
            Stmt::If {
                cond,
                then,
                otherwise,
                single,
            }
        }
        Stmt::While { cond, body, step } => {
            let mut again = fences::Access::of_block(f, here.own, &body);
            again.merge(&fences::Access::of_block(f, here.own, &step));
            let mut p = *pending;
            p.add(&again);
            let body = block(f, body, here, st, &mut p);
            let step = block(f, step, here, st, &mut p);
            pending.add(&again);
            pending.merge(&p);
            Stmt::While { cond, body, step }
        }
        Stmt::Switch { value, arms } => {
            let mut again = fences::Access::default();
            for a in &arms {
                again.merge(&fences::Access::of_block(f, here.own, &a.body));
            }
            let mut start = *pending;
            start.add(&again);
            let mut end = start;
            let arms = arms
                .into_iter()
                .map(|a| {
                    let mut p = start;
                    let body = block(f, a.body, here, st, &mut p);
                    end.merge(&p);
                    crate::ir::SwitchArm { body, ..a }
                })
                .collect();
            *pending = end;
            Stmt::Switch { value, arms }
        }
        Stmt::Block(b) => Stmt::Block(block(f, b, here, st, pending)),
        s @ (Stmt::Assign { .. }
        | Stmt::Store { .. }
        | Stmt::Break
        | Stmt::Continue
        | Stmt::Return(_)
        | Stmt::Call { .. }
        | Stmt::Copy { .. }
        | Stmt::Print { .. }
        | Stmt::AtomicRmw { .. }
        | Stmt::AtomicCas { .. }
        | Stmt::AtomicLoad { .. }
        | Stmt::AtomicStore { .. }
        | Stmt::Fence
        | Stmt::Barrier(_)
        // (Resolved before the walk, by `single`.)
        | Stmt::Single(_)
        | Stmt::Broadcast { .. }) => s,
    }
}

#[cfg(test)]
mod tests;
