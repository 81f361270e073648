//! Scheduling: maps parallel loops onto the GPU's thread hierarchy and turns
//! every counted loop into an explicit loop, so back ends only translate.
//!
//! Owns: [`schedule`] and [`specialize`]. May call: `ir` only. Files:
//! * `mod.rs` — the walk over every kernel's statements;
//! * `par.rs` — parallel loops: trip count, 64-bit thread-strided counter,
//!   each thread's start and stride per level;
//! * `seq.rs` — sequential loops (C semantics);
//! * `build.rs` — the expression/statement builder both use;
//! * `tile.rs` — tiled and `gang(static:)` loops;
//! * `reduce.rs` (+ `reduce/gangs.rs`) — reductions: private copies set to
//!   the identity, combined after the loop within blocks and across gangs.
//!
//! Mapping (OpenUH, `shared/seeds/openuh-*.txt`): gang → blockIdx.x, worker →
//! threadIdx.y, vector → threadIdx.x. Every level strides (`k += blockDim.x *
//! gridDim.x`), so correctness never depends on the launch size. Nested
//! parallel loops each use their own levels (gang outer, vector inner).
//!
//! After [`schedule`], no [`Stmt::Loop`] is left and `ir::validate(m, true)`
//! holds for any module that validated before.

mod build;
mod par;
mod reduce;
mod seq;
mod tile;

use crate::ir::{
    BarrierScope, Block, Expr, ExprId, Function, IntKind, LocalId, Module, Parallelism, Param,
    ParamMode, Stmt, Type,
};
use build::Emit;
use par::Levels;
use reduce::RedState;
use std::collections::HashSet;

/// Schedules every kernel and device function of the module: each counted
/// loop becomes a [`Stmt::Block`] holding its setup and a [`Stmt::While`].
/// A loop partitioned over threads gets a [`Stmt::Barrier`] before and
/// after it when code beside it touches memory (that code's stores are one
/// thread's: see `frontend::lower`): a block barrier in code every thread of
/// the block runs, a row barrier inside worker (block y) loops; none at the
/// very start and end of a kernel.
pub fn schedule(m: &mut Module) {
    for k in &mut m.kernels {
        let own = own_locals(&k.body);
        let body = std::mem::take(&mut k.body.body);
        let mut st = RedState::default();
        let here = Here {
            outer: [false; 3],
            fence_stores: true,
            own: &own,
        };
        let mut b = block(&mut k.body, body, here, &mut st, &mut false);
        if let Some(local) = st.scratch {
            k.params.push(Param {
                name: "(reduction scratch)".into(),
                local,
                mode: ParamMode::Scratch,
            });
            k.scratch = st.layout();
        }
        while matches!(b.first(), Some(Stmt::Barrier(_))) {
            b.remove(0);
        }
        while matches!(b.last(), Some(Stmt::Barrier(_))) {
            b.pop();
        }
        k.body.body = b;
    }
    for f in &mut m.functions {
        let body = std::mem::take(&mut f.body.body);
        // The front end allows no reduction across gangs in a routine.
        let own = HashSet::new();
        let here = Here {
            outer: [false; 3],
            fence_stores: false,
            own: &own,
        };
        f.body.body = block(
            &mut f.body,
            body,
            here,
            &mut RedState::default(),
            &mut false,
        );
    }
}

/// Folds the launch sizes each kernel's launch fixes at compile time into
/// its code: `ntid`/`nctaid` of a constant size become that constant, `tid`
/// (`ctaid`) along a dimension of one thread (block) becomes 0 — so the
/// guards of single-thread code on unused dimensions vanish. Run after
/// [`schedule`], before the back ends.
pub fn specialize(m: &mut Module) {
    for k in &mut m.kernels {
        specialize_kernel(k);
    }
}

fn specialize_kernel(k: &mut crate::ir::Kernel) {
    use crate::ir::{GridSize, Literal, Special};
    let size = |g: &GridSize| match g {
        GridSize::Const(n) => Some(*n),
        _ => None,
    };
    let block: Vec<Option<u32>> = k.launch.block.iter().map(size).collect();
    let grid: Vec<Option<u32>> = k.launch.grid.iter().map(size).collect();
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

/// The block dimensions a loop partitions over threads.
fn thread_dims(par: Parallelism) -> [bool; 3] {
    let mut d = [false; 3];
    if let Parallelism::Par { worker, vector, .. } = par {
        d[1] |= worker;
        if let Some(v) = vector {
            d[usize::from(v).min(2)] = true;
        }
    }
    d
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

/// True for statements with no statements inside.
fn is_leaf(s: &Stmt) -> bool {
    !matches!(
        s,
        Stmt::Loop(_) | Stmt::If { .. } | Stmt::While { .. } | Stmt::Switch { .. } | Stmt::Block(_)
    )
}

/// True when statement `s` (or one inside it) may write memory other
/// threads read: stores and copies not into the thread's own locals,
/// atomics, calls.
fn stores_shared(f: &Function, own_locals: &HashSet<LocalId>, s: &Stmt) -> bool {
    let own = |p: ExprId| points_into_own(f, own_locals, p);
    let mut hit = false;
    crate::ir::walk_stmts(std::slice::from_ref(s), &mut |s| match s {
        Stmt::Store { ptr, .. } => hit |= !own(*ptr),
        Stmt::Copy { dst, .. } => hit |= !own(*dst),
        Stmt::Call { .. }
        | Stmt::AtomicRmw { .. }
        | Stmt::AtomicCas { .. }
        | Stmt::AtomicStore { .. } => hit = true,
        _ => {}
    });
    hit
}

/// Whether address `p` is into the thread's own locals (it takes a
/// local's address, or reads a local of `own_locals`).
fn points_into_own(f: &Function, own_locals: &HashSet<LocalId>, p: ExprId) -> bool {
    let mut stack = vec![p];
    while let Some(e) = stack.pop() {
        match f.expr(e) {
            Expr::LocalAddr(_) => return true,
            Expr::Local(l) if own_locals.contains(l) => return true,
            _ => stack.extend(f.children(e)),
        }
    }
    false
}

/// The locals every assignment of which is an address into the thread's
/// own locals (the temporaries lowering keeps such addresses in).
fn own_locals(f: &Function) -> HashSet<LocalId> {
    let mut assigns: Vec<(LocalId, ExprId)> = vec![];
    crate::ir::walk_stmts(&f.body, &mut |s| {
        if let Stmt::Assign { local, value } = s {
            assigns.push((*local, *value));
        }
    });
    let mut own: HashSet<LocalId> = HashSet::new();
    loop {
        let mut by_local: std::collections::HashMap<LocalId, bool> = Default::default();
        for &(l, v) in &assigns {
            let ok = points_into_own(f, &own, v);
            let e = by_local.entry(l).or_insert(true);
            *e &= ok;
        }
        let next: HashSet<LocalId> = by_local
            .into_iter()
            .filter(|(_, ok)| *ok)
            .map(|(l, _)| l)
            .collect();
        if next == own {
            return own;
        }
        own = next;
    }
}

/// True when statement `s` (or one inside it) reads memory: loads, address
/// cells, copies, atomics, calls.
fn reads_memory(f: &Function, own_locals: &HashSet<LocalId>, s: &Stmt) -> bool {
    let mut hit = false;
    let mut exprs = vec![];
    crate::ir::walk_stmts(std::slice::from_ref(s), &mut |s| {
        if matches!(
            s,
            Stmt::Copy { .. }
                | Stmt::Call { .. }
                | Stmt::AtomicRmw { .. }
                | Stmt::AtomicCas { .. }
                | Stmt::AtomicLoad { .. }
        ) {
            hit = true;
        }
        exprs.extend(stmt_exprs(s));
    });
    while let Some(e) = exprs.pop() {
        if hit {
            break;
        }
        match f.expr(e) {
            Expr::Load(p) if points_into_own(f, own_locals, *p) => {}
            Expr::Load(_) | Expr::Cell(_) => hit = true,
            _ => {}
        }
        exprs.extend(f.children(e));
    }
    hit
}

/// The expressions a statement evaluates itself (not those of statements
/// inside it).
fn stmt_exprs(s: &Stmt) -> Vec<ExprId> {
    match s {
        Stmt::Assign { value, .. } => vec![*value],
        Stmt::Store { ptr, value } => vec![*ptr, *value],
        Stmt::If { cond, .. } | Stmt::While { cond, .. } => vec![*cond],
        Stmt::Switch { value, .. } => vec![*value],
        Stmt::Return(Some(v)) => vec![*v],
        Stmt::Loop(l) => {
            let mut v = vec![l.init, l.limit, l.step];
            for h in &l.collapsed {
                v.extend([h.init, h.limit, h.step]);
            }
            v
        }
        Stmt::Print { args, .. } => args.clone(),
        _ => vec![],
    }
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

/// Where a block is scheduled: the block dimensions that enclosing loops
/// partition over threads, and whether its single-thread stores must be
/// fenced from the redundant loads after them (in kernels; a device
/// function's threads follow its caller's partitioning, unknown here).
#[derive(Clone, Copy)]
struct Here<'o> {
    outer: [bool; 3],
    fence_stores: bool,
    /// Locals that hold addresses into the thread's own locals.
    own: &'o HashSet<LocalId>,
}

/// Schedules a block inside loops that partition `here.outer`. `dirty`
/// says, on entry and exit, whether a store of the code that every thread
/// runs redundantly (one thread performs it: see `frontend::lower`) may
/// not yet be seen by the other threads: a later load of memory by those
/// threads then gets a barrier first (else they could read the value before
/// the store, or after it, and disagree: a race).
fn block(f: &mut Function, b: Block, here: Here, st: &mut RedState, dirty: &mut bool) -> Block {
    let outer = here.outer;
    // Fences only where something beside the loop touches memory.
    let busy: Vec<bool> = b.iter().map(|s| touches_memory(f, s)).collect();
    // The barrier the threads that run this code redundantly meet at.
    let redundant = if here.fence_stores {
        fence(outer, [true, false, false])
    } else {
        None
    };
    let mut out = vec![];
    for (i, s) in b.into_iter().enumerate() {
        let scope = match &s {
            Stmt::Loop(l) => fence(outer, thread_dims(l.par)),
            _ => None,
        };
        let others = busy.iter().enumerate().any(|(j, t)| j != i && *t);
        let scope = scope.filter(|_| others);
        if let Some(sc) = scope {
            if out.last() != Some(&Stmt::Barrier(sc)) {
                out.push(Stmt::Barrier(sc));
            }
            *dirty = false;
        }
        if let Some(sc) = redundant.filter(|_| *dirty && reads_memory(f, here.own, &s)) {
            if out.last() != Some(&Stmt::Barrier(sc)) {
                out.push(Stmt::Barrier(sc));
            }
            *dirty = false;
        }
        let leaf_store = stores_shared(f, here.own, &s) && is_leaf(&s);
        out.push(stmt(f, s, here, st, dirty));
        *dirty |= leaf_store;
        if let Some(sc) = scope {
            out.push(Stmt::Barrier(sc));
            *dirty = false;
        }
    }
    out
}

fn stmt(f: &mut Function, s: Stmt, here: Here, st: &mut RedState, dirty: &mut bool) -> Stmt {
    let outer = here.outer;
    match s {
        Stmt::Loop(mut l) => {
            let mine = thread_dims(l.par);
            let inner = Here {
                outer: std::array::from_fn(|d| outer[d] || mine[d]),
                ..here
            };
            // A loop's body runs again after itself: its stores are
            // pending at its start. A partitioned loop's body is code of
            // other threads; a sequential one's leaves its stores pending.
            let body_stores = l.body.iter().any(|x| stores_shared(f, here.own, x));
            let partitioned = mine.iter().any(|d| *d);
            let mut body_dirty = body_stores || (!partitioned && *dirty);
            let body = block(f, std::mem::take(&mut l.body), inner, st, &mut body_dirty);
            if !partitioned {
                *dirty |= body_stores || body_dirty;
            }
            let reductions = std::mem::take(&mut l.reductions);
            let par = l.par;
            let mut e = Emit::new(f);
            reduce::prologue(&mut e, &reductions);
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
            match (lv, kinds) {
                (Some(lv), Some(kinds)) => {
                    par::par_loop(&mut e, l, &kinds, lv, body, !reductions.is_empty())
                }
                // A parallel loop over a non-integer index cannot be counted;
                // the front end rejects it, and here it runs sequentially.
                _ => seq::seq_loop(&mut e, l, body),
            }
            if !reductions.is_empty() {
                reduce::epilogue(&mut e, st, reductions, par, outer);
            }
            Stmt::Block(e.out)
        }
        Stmt::If {
            cond,
            then,
            otherwise,
        } => {
            let (mut d1, mut d2) = (*dirty, *dirty);
            let then = block(f, then, here, st, &mut d1);
            let otherwise = block(f, otherwise, here, st, &mut d2);
            *dirty = d1 || d2;
            Stmt::If {
                cond,
                then,
                otherwise,
            }
        }
        Stmt::While { cond, body, step } => {
            let again = body
                .iter()
                .chain(&step)
                .any(|x| stores_shared(f, here.own, x));
            let mut d = *dirty || again;
            let body = block(f, body, here, st, &mut d);
            let step = block(f, step, here, st, &mut d);
            *dirty = *dirty || again || d;
            Stmt::While { cond, body, step }
        }
        Stmt::Switch { value, arms } => {
            let any = arms
                .iter()
                .any(|a| a.body.iter().any(|x| stores_shared(f, here.own, x)));
            let start = *dirty || any;
            let mut end = start;
            let arms = arms
                .into_iter()
                .map(|a| {
                    let mut d = start;
                    let body = block(f, a.body, here, st, &mut d);
                    end |= d;
                    crate::ir::SwitchArm { body, ..a }
                })
                .collect();
            *dirty = end;
            Stmt::Switch { value, arms }
        }
        Stmt::Block(b) => Stmt::Block(block(f, b, here, st, dirty)),
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
        | Stmt::Barrier(_)) => s,
    }
}

#[cfg(test)]
mod tests;
