//! Fences in redundant code: in code that every thread of a block (or of a
//! row) runs redundantly — gang-redundant code, worker-single code — a store
//! to memory is performed by one thread (`single.rs` guards it, marking
//! the guard: [`Stmt::If`]'s `single`), while loads are made by every
//! thread. Without a barrier between them, the other threads may load a location before that store or
//! after it (a read-after-write race: `acc[g] = 0; acc[g] += 1;`), or the
//! thread may store before the others have loaded the old value (a
//! write-after-read race: the load and the store of `acc[g] += 1`). The
//! schedule's walk (`mod.rs: block`) keeps what the redundant code did
//! since the last barrier ([`Pending`]) and puts a barrier — block-wide, or
//! the row's inside worker loops — before a statement that would race with
//! it ([`Pending::hazard`]), also across the iterations of sequential loops.
//!
//! Owns: [`Here`], [`Pending`], [`Access`] and the predicates they use.
//! May call: `ir`.

use crate::ir::{BarrierScope, Block, Expr, ExprId, Function, LocalId, Stmt};
use std::collections::{HashMap, HashSet};

/// Where a block is scheduled.
#[derive(Clone, Copy)]
pub(super) struct Here<'o> {
    /// The block dimensions that enclosing loops partition over threads.
    pub outer: [bool; 3],
    /// Whether redundant code here is fenced (kernels; a device function's
    /// threads follow its caller's partitioning, unknown here).
    pub fence_stores: bool,
    /// The barrier the threads that run this code redundantly meet at
    /// (`None`: no barrier covers exactly them).
    pub redundant: Option<BarrierScope>,
    /// Locals that hold addresses into the thread's own locals.
    pub own: &'o HashSet<LocalId>,
    /// The launch may have more than one thread along block y or z.
    pub workers: bool,
}

/// What the redundant code did since the last barrier.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Pending {
    /// One thread stored to shared memory.
    stored: bool,
    /// Every thread loaded shared memory.
    loaded: bool,
}

impl Pending {
    /// Whether `a` would race with what is pending: it loads what one
    /// thread may have stored, or one thread stores what the others may
    /// not have loaded yet.
    pub fn hazard(&self, a: &Access) -> bool {
        (self.stored && a.loads) || (self.loaded && a.stores)
    }

    /// Notes that `a` ran.
    pub fn add(&mut self, a: &Access) {
        self.stored |= a.stores;
        self.loaded |= a.loads;
    }

    /// What is pending after one of two paths.
    pub fn merge(&mut self, other: &Pending) {
        self.stored |= other.stored;
        self.loaded |= other.loaded;
    }
}

/// What a statement does to memory other threads see.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Access {
    /// Every thread that runs it loads shared memory (outside the code
    /// one thread runs alone).
    pub loads: bool,
    /// It (or one thread of those that run it) stores to shared memory.
    pub stores: bool,
    /// It is code one thread runs alone (a single-thread guard).
    pub single: bool,
}

impl Access {
    /// The accesses of statement `s`.
    pub fn of(f: &Function, own: &HashSet<LocalId>, s: &Stmt) -> Access {
        let single = matches!(s, Stmt::If { single: true, .. });
        let mut a = Access {
            loads: false,
            stores: false,
            single,
        };
        walk(f, own, s, single, &mut a);
        a
    }

    /// The accesses of a block's statements.
    pub fn of_block(f: &Function, own: &HashSet<LocalId>, b: &Block) -> Access {
        let mut a = Access::default();
        for s in b {
            a.merge(&Access::of(f, own, s));
        }
        a.single = false;
        a
    }

    pub fn merge(&mut self, o: &Access) {
        self.loads |= o.loads;
        self.stores |= o.stores;
    }
}

/// Adds the accesses of `s` (inside single-thread code when `single`).
fn walk(f: &Function, own: &HashSet<LocalId>, s: &Stmt, single: bool, a: &mut Access) {
    let shared = |p: ExprId| !points_into_own(f, own, p);
    match s {
        Stmt::Store { ptr, .. } => a.stores |= shared(*ptr),
        Stmt::Copy { dst, .. } => {
            a.stores |= shared(*dst);
            a.loads |= !single;
        }
        Stmt::Call { .. } | Stmt::AtomicRmw { .. } | Stmt::AtomicCas { .. } => {
            a.stores = true;
            a.loads |= !single;
        }
        Stmt::AtomicStore { .. } => a.stores = true,
        Stmt::AtomicLoad { .. } => a.loads |= !single,
        _ => {}
    }
    if !single && s.roots().into_iter().any(|e| loads_shared(f, own, e)) {
        a.loads = true;
    }
    match s {
        Stmt::If {
            then,
            otherwise,
            single: guard,
            ..
        } => {
            let one = single || *guard;
            for x in then.iter().chain(otherwise) {
                walk(f, own, x, one, a);
            }
        }
        Stmt::Loop(l) => l.body.iter().for_each(|x| walk(f, own, x, single, a)),
        Stmt::While { body, step, .. } => body
            .iter()
            .chain(step)
            .for_each(|x| walk(f, own, x, single, a)),
        Stmt::Switch { arms, .. } => arms
            .iter()
            .flat_map(|x| &x.body)
            .for_each(|x| walk(f, own, x, single, a)),
        Stmt::Block(b) => b.iter().for_each(|x| walk(f, own, x, single, a)),
        _ => {}
    }
}

/// Whether expression `e` loads memory other threads may write.
fn loads_shared(f: &Function, own: &HashSet<LocalId>, e: ExprId) -> bool {
    let mut stack = vec![e];
    while let Some(x) = stack.pop() {
        match f.expr(x) {
            Expr::Load(p) if points_into_own(f, own, *p) => {}
            Expr::Load(_) | Expr::Cell(_) => return true,
            _ => {}
        }
        stack.extend(f.children(x));
    }
    false
}

/// Whether scheduled code needs every thread of the block: it holds a
/// barrier (of a loop nested in it over block y or z, of a broadcast).
pub(super) fn needs_all_threads(b: &Block) -> bool {
    let mut hit = false;
    crate::ir::walk_stmts(b, &mut |s| hit |= matches!(s, Stmt::Barrier(_)));
    hit
}

/// True for statements with no statements inside.
pub(super) fn is_leaf(s: &Stmt) -> bool {
    !matches!(
        s,
        Stmt::Loop(_) | Stmt::If { .. } | Stmt::While { .. } | Stmt::Switch { .. } | Stmt::Block(_)
    )
}

/// Whether address `p` is into the thread's own locals (it takes a
/// local's address, or reads a local of `own`).
fn points_into_own(f: &Function, own: &HashSet<LocalId>, p: ExprId) -> bool {
    let mut stack = vec![p];
    while let Some(e) = stack.pop() {
        match f.expr(e) {
            Expr::LocalAddr(_) => return true,
            Expr::Local(l) if own.contains(l) => return true,
            _ => stack.extend(f.children(e)),
        }
    }
    false
}

/// The locals every assignment of which is an address into the thread's
/// own locals (the temporaries lowering keeps such addresses in).
pub(super) fn own_locals(f: &Function) -> HashSet<LocalId> {
    let mut assigns: Vec<(LocalId, ExprId)> = vec![];
    crate::ir::walk_stmts(&f.body, &mut |s| {
        if let Stmt::Assign { local, value } = s {
            assigns.push((*local, *value));
        }
    });
    let mut own: HashSet<LocalId> = HashSet::new();
    loop {
        let mut by_local: HashMap<LocalId, bool> = HashMap::new();
        for &(l, v) in &assigns {
            let ok = points_into_own(f, &own, v);
            *by_local.entry(l).or_insert(true) &= ok;
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
