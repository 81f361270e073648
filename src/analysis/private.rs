//! Privatisation facts over the IR: for each counted loop, the scalars of
//! the code around it that its body assigns before it reads them in every
//! iteration (*written first*: a temporary of the iteration, which each
//! thread may hold in its own copy), and the scalars it assigns and reads
//! at all:
//!
//! * A *scalar* is a local of integer, floating or pointer type that the
//!   code outside the loop's body also uses (a parameter, a variable of
//!   the region), or a *cell*: a scalar in device memory reached through a
//!   pointer parameter of a kernel that the kernel only ever loads and
//!   stores whole (`load(%p)`, `store %p`, directly or through a local
//!   holding a copy of `%p`): how a `kernels` region receives a host
//!   scalar by reference. A pointer used any other way (indexed, moved,
//!   passed to a call, atomics through it, a part of it) is no cell. The
//!   indices of the loop and of the counted loops in it are not scalars
//!   of the code around (they are their loops' own).
//! * The walk follows the body in evaluation order with the set of
//!   scalars assigned on every path from the iteration's start: an
//!   assignment (`=`, a store to a cell, a call's result, an atomic's old
//!   value) adds its scalar; a read of one not in the set *exposes* it.
//!   Expressions have no side effects in the IR (lowering turns `&&`,
//!   `||` and `?:` with assignments into `if`s), so both arms of an `if`
//!   must assign for the set to keep it; a `switch` follows its arms and
//!   fall-through; a counted loop's body may run no iteration (its
//!   assignments do not count after it), nor does a `while`'s, unless its
//!   condition is a constant true (a `do … while`, `for (;;)`: then the
//!   paths that leave it are its `break`s); `break`, `continue` and
//!   `return` end a path. A reduction of an inner loop reads its target
//!   after the loop, then assigns it.
//! * Taking a local's address (`&v`) makes it not written first.
//! * Code one thread performs for the others (`single`): a store to a
//!   cell counts as an assignment (localised, it is each thread's own
//!   assignment, as lowering makes it for a private copy); a local it
//!   assigns is assigned in one thread only (it does not count).
//!
//! Owns: [`Scalar`], [`LoopScalars`], [`Scope`], [`loop_scalars`],
//! [`local_scalar`].
//! May call: `ir`, `depend` (its use count).

use super::depend::use_counts;
use crate::ir::{Block, Expr, ExprId, Function, LocalId, Loop, RedTarget, Stmt, Type};
use std::collections::{HashMap, HashSet};

/// A scalar variable of the code around a loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Scalar {
    /// A local (a parameter received by value, a variable of the region).
    Local(LocalId),
    /// The scalar a pointer parameter points to (see the module doc).
    Cell(LocalId),
}

/// What one loop's body does with the scalars of the code around it, each
/// list in order of first occurrence.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LoopScalars {
    /// Assigned before read on every path of every iteration: private
    /// candidates.
    pub written_first: Vec<Scalar>,
    /// Assigned somewhere in the body (the loop's threads race on those
    /// it leaves shared).
    pub assigned: Vec<Scalar>,
    /// Read somewhere in the body.
    pub read: Vec<Scalar>,
}

/// What a function receives: its parameters, and its cells — each
/// pointer local that reaches one (the pointer parameter itself, and
/// locals holding a copy of it), with the parameter.
#[derive(Clone, Debug, Default)]
pub struct Scope {
    params: HashSet<LocalId>,
    cells: HashMap<LocalId, LocalId>,
    /// Pointer parameters that are no cells and that no statement
    /// assigns: the bases of the arrays a kernel reaches, no scalars.
    bases: HashSet<LocalId>,
}

impl Scope {
    /// A device function with parameters `params`: no cells (its pointers
    /// are its caller's, not host scalars received by reference).
    pub fn function(params: &[LocalId]) -> Scope {
        Scope {
            params: params.iter().copied().collect(),
            cells: HashMap::new(),
            bases: HashSet::new(),
        }
    }

    /// Kernel `k`'s: [`Scope::kernel`] of its body, its parameters and
    /// its device pointers among them.
    pub fn of_kernel(k: &crate::ir::Kernel) -> Scope {
        let params: Vec<LocalId> = k.params.iter().map(|p| p.local).collect();
        let pointers: Vec<LocalId> = k
            .params
            .iter()
            .filter(|p| p.mode == crate::ir::ParamMode::DevicePtr)
            .map(|p| p.local)
            .collect();
        Scope::kernel(&k.body, &params, &pointers)
    }

    /// A kernel with parameters `params`, its pointers `pointers`: the
    /// cells are those of scalar pointee type used only as whole scalars
    /// in `f`.
    pub fn kernel(f: &Function, params: &[LocalId], pointers: &[LocalId]) -> Scope {
        let params = params.iter().copied().collect();
        let scalar_ptr = |l: LocalId| matches!(&f.local(l).ty, Type::Ptr(p) if is_scalar(p));
        // Copies: locals assigned once, from one pointer local's value.
        let mut assigns: HashMap<LocalId, Vec<Option<LocalId>>> = HashMap::new();
        crate::ir::walk_stmts(&f.body, &mut |s| {
            if let Stmt::Assign { local, value } = s {
                let from = match f.expr(*value) {
                    Expr::Local(p) => Some(*p),
                    _ => None,
                };
                assigns.entry(*local).or_default().push(from);
            }
        });
        let mut map: HashMap<LocalId, LocalId> = pointers
            .iter()
            .filter(|p| scalar_ptr(**p) && !assigns.contains_key(p))
            .map(|p| (*p, *p))
            .collect();
        loop {
            let more: Vec<(LocalId, LocalId)> = assigns
                .iter()
                .filter(|(l, _)| !map.contains_key(l) && scalar_ptr(**l))
                .filter_map(|(l, from)| match from.as_slice() {
                    [Some(p)] => map.get(p).map(|c| (*l, *c)),
                    _ => None,
                })
                .collect();
            if more.is_empty() {
                break;
            }
            map.extend(more);
        }
        // A pointer used otherwise is no cell, nor are its copies.
        let mut bad: HashSet<LocalId> = HashSet::new();
        crate::ir::walk_stmts(&f.body, &mut |s| {
            let whole: Vec<ExprId> = match s {
                Stmt::Store { ptr, .. } => vec![*ptr],
                Stmt::Assign { local, value } if map.contains_key(local) => vec![*value],
                Stmt::Loop(l) => l
                    .reductions
                    .iter()
                    .filter_map(|r| match r.target {
                        RedTarget::Memory(p) => Some(p),
                        RedTarget::Local(_) => None,
                    })
                    .collect(),
                _ => vec![],
            };
            for root in s.roots() {
                let direct = whole.contains(&root);
                misused(f, root, direct, &map, &mut bad);
            }
        });
        let bad: HashSet<LocalId> = bad.iter().filter_map(|l| map.get(l).copied()).collect();
        map.retain(|_, c| !bad.contains(c));
        let bases = pointers
            .iter()
            .filter(|p| !map.contains_key(p) && !assigns.contains_key(p))
            .copied()
            .collect();
        Scope {
            params,
            cells: map,
            bases,
        }
    }

    /// The cell at address `addr` (a pointer local of the cell, read).
    pub fn at(&self, f: &Function, addr: ExprId) -> Option<LocalId> {
        match f.expr(addr) {
            Expr::Local(l) => self.cells.get(l).copied(),
            _ => None,
        }
    }

    /// Whether `l` is a pointer local of a cell.
    pub fn holds(&self, l: LocalId) -> bool {
        self.cells.contains_key(&l)
    }
}

/// An integer, floating or pointer type.
fn is_scalar(t: &Type) -> bool {
    matches!(t, Type::Int(_) | Type::Float(_) | Type::Ptr(_))
}

/// Marks in `bad` the cell pointers expression `e` uses other than as the
/// address of a whole load (`direct`: `e` itself is a whole address).
fn misused(
    f: &Function,
    e: ExprId,
    direct: bool,
    map: &HashMap<LocalId, LocalId>,
    bad: &mut HashSet<LocalId>,
) {
    match f.expr(e) {
        Expr::Local(l) if map.contains_key(l) && !direct => {
            bad.insert(*l);
        }
        Expr::Load(a) => {
            let whole = f.ty(*a).pointee() == Some(f.ty(e));
            misused(f, *a, whole, map, bad);
        }
        _ => {
            for c in f.children(e) {
                misused(f, c, false, map, bad);
            }
        }
    }
}

/// The facts of loop `lp` of function `f` (`cells`: what it receives).
pub fn loop_scalars(f: &Function, cells: &Scope, lp: &Loop) -> LoopScalars {
    let own = own_indices(lp);
    // Used outside the body too (or a parameter): of the code around.
    let (everywhere, inside) = (use_counts(f, &f.body), use_counts(f, &lp.body));
    let outer = |l: LocalId| {
        !own.contains(&l)
            && is_scalar(&f.local(l).ty)
            && !cells.holds(l)
            && !cells.bases.contains(&l)
            && (cells.params.contains(&l) || everywhere.get(&l) != inside.get(&l))
    };
    facts(f, cells, lp, &outer)
}

/// The facts of loop `lp` of function `f` about local `l` alone, taken
/// as a variable of the code around whatever its type and uses (the
/// private copy of a reduction of a loop around, which only this loop's
/// body may mention): [`LoopScalars`] with `l` or nothing in each list.
pub fn local_scalar(f: &Function, cells: &Scope, lp: &Loop, l: LocalId) -> LoopScalars {
    let own = own_indices(lp);
    facts(f, cells, lp, &|x| x == l && !own.contains(&x))
}

/// The indices of loop `lp` and of the counted loops in it.
fn own_indices(lp: &Loop) -> Vec<LocalId> {
    let mut own = vec![lp.var];
    own.extend(lp.collapsed.iter().map(|h| h.var));
    crate::ir::walk_stmts(&lp.body, &mut |s| {
        if let Stmt::Loop(l) = s {
            own.push(l.var);
            own.extend(l.collapsed.iter().map(|h| h.var));
        }
    });
    own
}

/// The facts of loop `lp` about the locals `outer` accepts (and the cells).
fn facts(f: &Function, cells: &Scope, lp: &Loop, outer: &dyn Fn(LocalId) -> bool) -> LoopScalars {
    let mut w = Walk {
        f,
        cells,
        outer,
        facts: LoopScalars::default(),
        exposed: HashSet::new(),
        exits: vec![],
    };
    w.block(&lp.body, Some(HashSet::new()));
    let LoopScalars { assigned, read, .. } = w.facts;
    let exposed = w.exposed;
    let written_first = assigned
        .iter()
        .copied()
        .filter(|s| !exposed.contains(s))
        .collect();
    LoopScalars {
        written_first,
        assigned,
        read,
    }
}

/// The set of scalars assigned on every path to a point; `None`: no path
/// reaches it.
type Set = Option<HashSet<Scalar>>;

/// What holds where two paths join.
fn meet(a: Set, b: Set) -> Set {
    match (a, b) {
        (None, x) | (x, None) => x,
        (Some(a), Some(b)) => Some(a.intersection(&b).copied().collect()),
    }
}

/// Where `break` and `continue` go: the states they carry to the end of a
/// `while` or `switch` (breaks) and to a `while`'s step (continues).
#[derive(Default)]
struct Exits {
    breaks: Set,
    continues: Set,
    /// A `switch`: `continue` goes past it, to the loop around.
    switch: bool,
}

struct Walk<'a> {
    f: &'a Function,
    cells: &'a Scope,
    outer: &'a dyn Fn(LocalId) -> bool,
    facts: LoopScalars,
    /// Read where some path has not assigned them, or their address taken.
    exposed: HashSet<Scalar>,
    /// The `while`s and `switch`es around, innermost last.
    exits: Vec<Exits>,
}

impl Walk<'_> {
    fn block(&mut self, b: &[Stmt], mut st: Set) -> Set {
        for s in b {
            st = self.stmt(s, st);
        }
        st
    }

    fn note(list: &mut Vec<Scalar>, s: Scalar) {
        if !list.contains(&s) {
            list.push(s);
        }
    }

    /// A read of `s` in state `st`.
    fn read(&mut self, s: Scalar, st: &Set) {
        Self::note(&mut self.facts.read, s);
        if st.as_ref().is_some_and(|d| !d.contains(&s)) {
            self.exposed.insert(s);
        }
    }

    /// An assignment of `s`.
    fn assign(&mut self, s: Scalar, st: &mut Set) {
        Self::note(&mut self.facts.assigned, s);
        if let Some(d) = st {
            d.insert(s);
        }
    }

    fn local(&self, l: LocalId) -> Option<Scalar> {
        (self.outer)(l).then_some(Scalar::Local(l))
    }

    /// Assigns local `l` (when it is a scalar of the code around).
    fn assign_local(&mut self, l: LocalId, st: &mut Set) {
        if let Some(s) = self.local(l) {
            self.assign(s, st);
        }
    }

    /// The reads of expression `e`.
    fn expr(&mut self, e: ExprId, st: &Set) {
        let f = self.f;
        match f.expr(e) {
            Expr::Local(l) => {
                if let Some(s) = self.local(*l) {
                    self.read(s, st);
                }
            }
            Expr::LocalAddr(l) => {
                if let Some(s) = self.local(*l) {
                    Self::note(&mut self.facts.read, s);
                    self.exposed.insert(s);
                }
            }
            Expr::Load(a) => match self.cells.at(f, *a) {
                Some(c) => self.read(Scalar::Cell(c), st),
                None => self.expr(*a, st),
            },
            _ => {
                for c in f.children(e) {
                    self.expr(c, st);
                }
            }
        }
    }

    fn stmt(&mut self, s: &Stmt, mut st: Set) -> Set {
        let f = self.f;
        match s {
            Stmt::Assign { local, value } => {
                self.expr(*value, &st);
                self.assign_local(*local, &mut st);
            }
            Stmt::Store { ptr, value } => {
                self.expr(*value, &st);
                match self.cells.at(f, *ptr) {
                    Some(c) => self.assign(Scalar::Cell(c), &mut st),
                    None => self.expr(*ptr, &st),
                }
            }
            Stmt::If {
                cond,
                then,
                otherwise,
                ..
            } => {
                self.expr(*cond, &st);
                let a = self.block(then, st.clone());
                let b = self.block(otherwise, st);
                st = meet(a, b);
            }
            Stmt::Loop(l) => {
                for e in s.roots() {
                    self.expr(e, &st);
                }
                // Its `break`s and `continue`s are its own.
                self.exits.push(Exits::default());
                self.block(&l.body, st.clone());
                self.exits.pop();
                for r in &l.reductions {
                    let target = match r.target {
                        RedTarget::Local(t) => self.local(t),
                        RedTarget::Memory(p) => self.cells.at(f, p).map(Scalar::Cell),
                    };
                    if let Some(t) = target {
                        self.read(t, &st);
                        self.assign(t, &mut st);
                    }
                }
            }
            Stmt::While { cond, body, step } => {
                self.expr(*cond, &st);
                self.exits.push(Exits::default());
                let end = self.block(body, st.clone());
                let into_step = meet(end, self.exits.last_mut().and_then(|x| x.continues.take()));
                self.block(step, into_step);
                let breaks = self.exits.pop().and_then(|x| x.breaks);
                // Leaves at a `break`, or when the condition fails (before
                // any iteration, unless it is always true).
                st = if always_true(f, *cond) {
                    breaks
                } else {
                    meet(st, breaks)
                };
            }
            Stmt::Switch { value, arms } => {
                self.expr(*value, &st);
                self.exits.push(Exits {
                    switch: true,
                    ..Exits::default()
                });
                let mut fall: Set = None;
                for a in arms {
                    fall = self.block(&a.body, meet(st.clone(), fall));
                }
                let breaks = self.exits.pop().and_then(|x| x.breaks);
                let skipped = if arms.iter().any(|a| a.default) {
                    None
                } else {
                    st
                };
                st = meet(meet(fall, breaks), skipped);
            }
            Stmt::Break => {
                if let Some(x) = self.exits.last_mut() {
                    x.breaks = meet(x.breaks.take(), st);
                }
                st = None;
            }
            Stmt::Continue => {
                if let Some(x) = self.exits.iter_mut().rev().find(|x| !x.switch) {
                    x.continues = meet(x.continues.take(), st);
                }
                st = None;
            }
            Stmt::Return(v) => {
                if let Some(v) = v {
                    self.expr(*v, &st);
                }
                st = None;
            }
            Stmt::Call { args, result, .. } => {
                for a in args {
                    self.expr(*a, &st);
                }
                if let Some(r) = result {
                    self.assign_local(*r, &mut st);
                }
            }
            Stmt::AtomicRmw { old, .. } => {
                for e in s.roots() {
                    self.expr(e, &st);
                }
                if let Some(o) = old {
                    self.assign_local(*o, &mut st);
                }
            }
            Stmt::AtomicLoad { dst, .. } => {
                for e in s.roots() {
                    self.expr(e, &st);
                }
                self.assign_local(*dst, &mut st);
            }
            Stmt::AtomicCas { old, ok, .. } => {
                for e in s.roots() {
                    self.expr(e, &st);
                }
                self.assign_local(*old, &mut st);
                self.assign_local(*ok, &mut st);
            }
            Stmt::Print { .. } | Stmt::Copy { .. } | Stmt::AtomicStore { .. } => {
                for e in s.roots() {
                    self.expr(e, &st);
                }
            }
            Stmt::Barrier(_) | Stmt::Fence => {}
            Stmt::Block(b) => st = self.block(b, st),
            Stmt::Single(b) => st = self.single(b, st),
            Stmt::Broadcast { value, performed } => {
                st = self.single(performed, st);
                self.assign_local(*value, &mut st);
            }
        }
        st
    }

    /// Code one thread performs: its stores to cells count, its
    /// assignments of locals do not (see the module doc).
    fn single(&mut self, b: &Block, st: Set) -> Set {
        let after = self.block(b, st.clone());
        match (st, after) {
            (Some(mut d), Some(a)) => {
                d.extend(a.into_iter().filter(|s| matches!(s, Scalar::Cell(_))));
                Some(d)
            }
            (st, _) => st,
        }
    }
}

/// Whether condition `e` is a constant true (through casts).
fn always_true(f: &Function, e: ExprId) -> bool {
    match f.expr(e) {
        Expr::Literal(crate::ir::Literal::Int(v)) => *v != 0,
        Expr::Cast(a) => always_true(f, *a),
        _ => false,
    }
}

#[cfg(test)]
mod tests;
