//! One ordered walk over a loop body, gathering what the dependence test,
//! reduction recognition and privatisation ask: the memory accesses with
//! their roots and subscripts, the locals assigned and those read before
//! they are assigned in an iteration, the updates of scalars, and what
//! keeps a loop sequential whatever its subscripts (a call, an early exit).
//!
//! Lowering introduces temporaries (`%5 tmp = index(a, i); store %5 tmp`):
//! the walk keeps, at each point, the value each local was last given on
//! every path to it (an [`Env`]), so an address or a subscript is seen
//! through them.
//!
//! Owns: [`LoopBody`], [`Access`], [`Root`], [`Update`], [`loop_range`].
//! May call: `ir`, `affine`.

use super::affine::{affine, render_with, Affine, Env};
use crate::ir::{Expr, ExprId, Function, LocalId, Loop, LoopCmp, Stmt, Type};
use std::collections::{HashMap, HashSet};

/// The object an access reaches, as far as the IR tells.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Root {
    /// Memory a pointer held by a local points into (a kernel parameter).
    Ptr(LocalId),
    /// A local's own storage (an array, a struct, a scalar whose address
    /// is taken).
    Object(LocalId),
    /// A declared global's device copy.
    Cell(u32),
    /// A pointer loaded from memory or computed: may be anything.
    Unknown,
}

/// One load or store (an atomic counts as a store).
#[derive(Clone, Debug)]
pub struct Access {
    pub root: Root,
    /// One per dimension, outermost first: the subscript's affine form
    /// (`None`: not affine). Empty for `*p`.
    pub subs: Vec<Option<Affine>>,
    /// The element type and the inner extents as text: two accesses
    /// compare subscript by subscript only when their shapes are equal.
    pub shape: String,
    /// The access as C-like text (`a[i-1]`).
    pub text: String,
    pub write: bool,
}

/// An assignment of a local (`local = value`), or a store to a scalar
/// held in memory (`*p = value`, `p` a pointer to one scalar), with the
/// environment at that point.
#[derive(Clone, Debug)]
pub struct Update {
    pub target: Target,
    /// The value stored; `None` for an assignment of another kind (a
    /// call's result, an atomic's old value).
    pub value: Option<ExprId>,
    pub env: Env,
}

/// A scalar variable: a local, or one behind a pointer (a scalar the
/// kernel receives by reference), or the part at a byte offset of one
/// (the real or imaginary part of a complex number).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Target {
    Local(LocalId),
    Cell(LocalId, u64),
}

/// What one walk over a loop's body found.
#[derive(Debug, Default)]
pub struct LoopBody {
    pub accesses: Vec<Access>,
    /// Locals the body assigns (inner loops' indices included), in order.
    pub assigned: Vec<LocalId>,
    /// Locals some iteration reads before assigning them in it.
    pub exposed: HashSet<LocalId>,
    /// How many times each part of a scalar held in memory (a cell) is
    /// read, and its type.
    pub cell_reads: HashMap<(LocalId, u64), usize>,
    pub cell_types: HashMap<(LocalId, u64), Type>,
    /// Cells read or written other than part by part (copied whole into
    /// something else).
    pub cell_escapes: HashSet<LocalId>,
    /// The cells (see [`Ctx::cells`]).
    pub cells: HashSet<LocalId>,
    /// How many times each local is read in the body.
    pub reads: HashMap<LocalId, usize>,
    pub updates: Vec<Update>,
    /// The indices of loops nested in the body with constant bounds:
    /// their smallest and largest values.
    pub ranges: HashMap<LocalId, (i128, i128)>,
    /// The loop's step, when a constant.
    pub step: Option<i128>,
    /// Why the loop must stay sequential whatever its accesses (the first
    /// reason found).
    pub problem: Option<String>,
}

/// How the walk sees the pointers a kernel receives.
pub struct Ctx<'a> {
    pub f: &'a Function,
    /// Locals holding a pointer to one scalar of the host (received by
    /// reference): `*p` is that scalar; or holding the bytes of one (a
    /// complex or `long double` value): `&l` is its address.
    pub cells: &'a HashSet<LocalId>,
    /// The name of device function number `n`.
    pub callee: &'a dyn Fn(usize) -> String,
}

/// The smallest and largest values of loop `lp`'s index, and its step,
/// when its bounds are constants (and it runs at least once).
pub fn loop_range(f: &Function, lp: &Loop) -> Option<(i128, i128, i128)> {
    let none = Env::new();
    let c = |e| affine(f, &none, e)?.as_const();
    let (init, limit, step) = (c(lp.init)?, c(lp.limit)?, c(lp.step)?);
    let last = match lp.cmp {
        LoopCmp::Lt => limit - 1,
        LoopCmp::Le => limit,
        LoopCmp::Gt => limit + 1,
        LoopCmp::Ge => limit,
    };
    if step == 0 || (last - init).signum() * step.signum() < 0 {
        return None;
    }
    let n = (last - init) / step;
    let end = init + n * step;
    Some((init.min(end), init.max(end), step))
}

impl LoopBody {
    /// Walks the body of `lp`.
    pub fn of(cx: &Ctx, lp: &Loop) -> LoopBody {
        let mut b = LoopBody::default();
        let mut assigned = vec![];
        collect_assigned(&lp.body, &mut assigned);
        let mut w = Walker {
            cx,
            body: &mut b,
            assigned: assigned.iter().copied().collect(),
            depth: 0,
        };
        let mut st = State::default();
        w.block(&lp.body, &mut st);
        b.assigned = assigned;
        b.cells = cx.cells.clone();
        b.step = affine(cx.f, &Env::new(), lp.step)
            .and_then(|a| a.as_const())
            .filter(|s| *s != 0);
        b
    }
}

/// The locals `b` assigns, in order of first assignment.
fn collect_assigned(b: &[Stmt], out: &mut Vec<LocalId>) {
    let add = |l: LocalId, out: &mut Vec<LocalId>| {
        if !out.contains(&l) {
            out.push(l)
        }
    };
    crate::ir::walk_stmts(b, &mut |s| match s {
        Stmt::Assign { local, .. } => add(*local, out),
        Stmt::Call {
            result: Some(l), ..
        }
        | Stmt::AtomicRmw { old: Some(l), .. }
        | Stmt::AtomicLoad { dst: l, .. } => add(*l, out),
        Stmt::AtomicCas { old, ok, .. } => {
            add(*old, out);
            add(*ok, out);
        }
        Stmt::Loop(l) => {
            add(l.var, out);
            for h in &l.collapsed {
                add(h.var, out);
            }
        }
        _ => {}
    });
}

/// The walk's state at a point: the values of temporaries and the locals
/// assigned on every path from the iteration's start.
#[derive(Clone, Default)]
struct State {
    env: Env,
    defined: HashSet<LocalId>,
    /// The values stored into the parts (by byte offset) of a local
    /// object on every path here (a complex number built part by part).
    parts: HashMap<(LocalId, u64), ExprId>,
}

impl State {
    /// `l` changes: forget what read its old value.
    fn kill(&mut self, f: &Function, l: LocalId) {
        let reads = |v: &ExprId| {
            let mut r = vec![];
            f.locals_read(*v, &mut r);
            r.contains(&l)
        };
        self.env.remove(&l);
        self.env.retain(|_, v| !reads(v));
        self.parts.retain(|(o, _), v| *o != l && !reads(v));
    }

    /// `l = value`.
    fn assign(&mut self, f: &Function, l: LocalId, value: Option<ExprId>) {
        self.kill(f, l);
        self.defined.insert(l);
        if let Some(v) = value {
            let mut r = vec![];
            f.locals_read(v, &mut r);
            if !r.contains(&l) {
                self.env.insert(l, v);
            }
        }
    }

    /// What holds after either of two paths.
    fn meet(a: State, b: State) -> State {
        State {
            env: a
                .env
                .into_iter()
                .filter(|(k, v)| b.env.get(k) == Some(v))
                .collect(),
            defined: a.defined.intersection(&b.defined).copied().collect(),
            parts: a
                .parts
                .into_iter()
                .filter(|(k, v)| b.parts.get(k) == Some(v))
                .collect(),
        }
    }
}

struct Walker<'a, 'c> {
    cx: &'a Ctx<'c>,
    body: &'a mut LoopBody,
    assigned: HashSet<LocalId>,
    /// Nesting in `while`/`switch` (a `break` there stays in the body).
    depth: u32,
}

impl Walker<'_, '_> {
    fn problem(&mut self, why: String) {
        self.body.problem.get_or_insert(why);
    }

    /// `l` gets a value other than an expression's.
    fn other(&mut self, l: LocalId, st: &mut State) {
        self.body.updates.push(Update {
            target: Target::Local(l),
            value: None,
            env: Env::new(),
        });
        st.assign(self.cx.f, l, None);
    }

    fn block(&mut self, b: &[Stmt], st: &mut State) {
        for s in b {
            self.stmt(s, st);
        }
    }

    /// The state at the start of a region that may repeat (a loop's
    /// body), where the locals in `changes` may have any value.
    fn repeating(&self, st: &State, b: &[Stmt], extra: &[LocalId]) -> State {
        let mut changes = extra.to_vec();
        collect_assigned(b, &mut changes);
        let mut inner = st.clone();
        inner.parts.clear();
        for l in changes {
            inner.kill(self.cx.f, l);
        }
        inner
    }

    fn stmt(&mut self, s: &Stmt, st: &mut State) {
        let f = self.cx.f;
        match s {
            Stmt::Assign { local, value } => {
                self.expr(*value, st);
                self.body.updates.push(Update {
                    target: Target::Local(*local),
                    value: Some(*value),
                    env: st.env.clone(),
                });
                st.assign(f, *local, Some(*value));
            }
            Stmt::Store { ptr, value } => {
                self.expr(*value, st);
                self.store(*ptr, Some(*value), st);
            }
            Stmt::If {
                cond,
                then,
                otherwise,
                ..
            } => {
                self.expr(*cond, st);
                let mut a = st.clone();
                self.block(then, &mut a);
                let mut b = st.clone();
                self.block(otherwise, &mut b);
                *st = State::meet(a, b);
            }
            Stmt::Loop(l) => {
                for h in std::iter::once((l.init, l.limit, l.step))
                    .chain(l.collapsed.iter().map(|h| (h.init, h.limit, h.step)))
                {
                    for e in [h.0, h.1, h.2] {
                        self.expr(e, st);
                    }
                }
                let vars: Vec<LocalId> = std::iter::once(l.var)
                    .chain(l.collapsed.iter().map(|h| h.var))
                    .collect();
                if l.collapsed.is_empty() {
                    if let Some((lo, hi, _)) = loop_range(f, l) {
                        self.body.ranges.insert(l.var, (lo, hi));
                    }
                }
                let mut inner = self.repeating(st, &l.body, &vars);
                inner.defined.extend(&vars);
                self.block(&l.body, &mut inner);
                for v in vars {
                    st.kill(f, v);
                }
                let after = self.repeating(st, &l.body, &[]);
                st.env = after.env;
            }
            Stmt::While { cond, body, step } => {
                let mut inner = self.repeating(st, body, &[]);
                let mut changes = vec![];
                collect_assigned(step, &mut changes);
                for l in changes {
                    inner.kill(f, l);
                }
                self.expr(*cond, &mut inner);
                self.depth += 1;
                let mut b = inner.clone();
                self.block(body, &mut b);
                let mut s2 = inner.clone();
                self.block(step, &mut s2);
                self.depth -= 1;
                st.env = inner.env;
            }
            Stmt::Switch { value, arms } => {
                self.expr(*value, st);
                let all: Vec<Stmt> = arms.iter().flat_map(|a| a.body.clone()).collect();
                let inner = self.repeating(st, &all, &[]);
                self.depth += 1;
                for a in arms {
                    let mut b = inner.clone();
                    self.block(&a.body, &mut b);
                }
                self.depth -= 1;
                st.env = inner.env;
            }
            Stmt::Break if self.depth == 0 => {
                self.problem("it can leave early ('break', 'return' or 'goto')".into())
            }
            Stmt::Return(_) => {
                self.problem("it can leave early ('break', 'return' or 'goto')".into())
            }
            Stmt::Break | Stmt::Continue | Stmt::Barrier(_) | Stmt::Fence => {}
            Stmt::Call {
                func, args, result, ..
            } => {
                for a in args {
                    self.expr(*a, st);
                }
                let name = (self.cx.callee)(*func);
                self.problem(format!("it calls '{name}', which may write memory"));
                if let Some(r) = result {
                    self.other(*r, st);
                }
            }
            Stmt::Print { args, .. } => {
                for a in args {
                    self.expr(*a, st);
                }
                self.problem("it calls 'printf', which may write memory".into());
            }
            Stmt::Copy { dst, src, bytes } => self.copy(*dst, *src, *bytes, st),
            Stmt::AtomicRmw {
                ptr, value, old, ..
            } => {
                self.expr(*value, st);
                self.store(*ptr, None, st);
                if let Some(o) = old {
                    self.other(*o, st);
                }
            }
            Stmt::AtomicCas {
                ptr,
                expected,
                desired,
                old,
                ok,
            } => {
                self.expr(*expected, st);
                self.expr(*desired, st);
                self.store(*ptr, None, st);
                self.other(*old, st);
                self.other(*ok, st);
            }
            Stmt::AtomicLoad { ptr, dst } => {
                self.load(*ptr, st);
                self.other(*dst, st);
            }
            Stmt::AtomicStore { ptr, value } => {
                self.expr(*value, st);
                self.store(*ptr, None, st);
            }
            Stmt::Block(b) => self.block(b, st),
            // One thread of those that run this code performs it: its
            // locals are assigned in that thread only.
            Stmt::Single(b) => {
                let mut a = st.clone();
                self.block(b, &mut a);
                *st = State::meet(a, st.clone());
            }
            // Every thread then holds the value.
            Stmt::Broadcast { value, performed } => {
                let mut a = st.clone();
                self.block(performed, &mut a);
                *st = State::meet(a, st.clone());
                self.other(*value, st);
            }
        }
    }

    /// The reads of expression `e`: its locals (exposed when the
    /// iteration has not assigned them yet) and its loads.
    fn expr(&mut self, e: ExprId, st: &mut State) {
        let f = self.cx.f;
        match f.expr(e) {
            Expr::Local(l) => self.read_local(*l, st),
            Expr::LocalAddr(l) => {
                // An array's address reaches its elements (accesses);
                // a scalar's escapes.
                if !matches!(f.local(*l).ty, Type::Array(..) | Type::Blob { .. }) {
                    self.body.exposed.insert(*l);
                }
                self.read_local(*l, st);
            }
            Expr::Load(a) => self.load(*a, st),
            _ => {
                for c in f.children(e) {
                    self.expr(c, st);
                }
            }
        }
    }

    fn read_local(&mut self, l: LocalId, st: &State) {
        *self.body.reads.entry(l).or_default() += 1;
        if self.assigned.contains(&l) && !st.defined.contains(&l) {
            self.body.exposed.insert(l);
        }
    }

    /// A load from `addr`.
    fn load(&mut self, addr: ExprId, st: &mut State) {
        self.expr(addr, st);
        match cell_at(self.cx.f, self.cx.cells, &st.env, addr) {
            Some(p) => {
                *self.body.cell_reads.entry(p).or_default() += 1;
                let ty = self.cx.f.ty(addr).pointee().cloned().unwrap_or(Type::Void);
                self.body.cell_types.insert(p, ty);
            }
            None => {
                let a = self.access(addr, false, st);
                self.body.accesses.push(a);
            }
        }
    }

    /// A store to `addr` (of `value` for a plain store).
    fn store(&mut self, addr: ExprId, value: Option<ExprId>, st: &mut State) {
        self.expr(addr, st);
        let f = self.cx.f;
        match (cell_at(f, self.cx.cells, &st.env, addr), value) {
            (Some((p, o)), v) => {
                let ty = f.ty(addr).pointee().cloned().unwrap_or(Type::Void);
                self.body.cell_types.insert((p, o), ty);
                self.body.updates.push(Update {
                    target: Target::Cell(p, o),
                    value: v,
                    env: st.env.clone(),
                })
            }
            (None, _) => {
                if let (Some(v), Some(part)) = (value, self.object_part(addr, st)) {
                    st.parts.insert(part, v);
                }
                let a = self.access(addr, true, st);
                self.body.accesses.push(a);
            }
        }
    }

    /// The part of a local object (a struct, a complex number) at
    /// address `addr`: the local and the byte offset.
    fn object_part(&self, addr: ExprId, st: &State) -> Option<(LocalId, u64)> {
        let f = self.cx.f;
        let (b, off) = base_offset(f, &st.env, addr)?;
        match f.expr(b) {
            Expr::LocalAddr(l) => Some((*l, off)),
            _ => None,
        }
    }

    /// `dst = src` of a struct: a whole cell assigned from a local object
    /// built part by part is an update of each of its parts.
    fn copy(&mut self, dst: ExprId, src: ExprId, bytes: u64, st: &mut State) {
        let f = self.cx.f;
        if let Some((p, _)) = cell_at(f, self.cx.cells, &st.env, src) {
            self.expr(src, st);
            self.body.cell_escapes.insert(p);
        } else {
            self.load(src, st);
        }
        let Some((p, o)) = cell_at(f, self.cx.cells, &st.env, dst) else {
            return self.store(dst, None, st);
        };
        self.expr(dst, st);
        let parts: Vec<(u64, ExprId)> = match self.object_part(src, st) {
            Some((obj, base)) => st
                .parts
                .iter()
                .filter(|((l, x), _)| *l == obj && *x >= base && *x < base + bytes)
                .map(|((_, x), v)| (*x - base, *v))
                .collect(),
            None => vec![],
        };
        if parts.is_empty() {
            self.body.cell_escapes.insert(p);
        }
        for (x, v) in parts {
            self.body.cell_types.insert((p, o + x), f.ty(v).clone());
            self.body.updates.push(Update {
                target: Target::Cell(p, o + x),
                value: Some(v),
                env: st.env.clone(),
            });
        }
    }

    /// The access of a load or store at `addr`.
    fn access(&self, addr: ExprId, write: bool, st: &State) -> Access {
        let f = self.cx.f;
        let (root, subs, shape) = self.place(addr, st, 32);
        let elem = f
            .ty(addr)
            .pointee()
            .map(ToString::to_string)
            .unwrap_or_default();
        Access {
            root,
            subs,
            shape: format!("{elem} {shape}"),
            text: render_with(f, &st.env, self.cx.cells, addr),
            write,
        }
    }

    /// The root of address `e`, its subscripts and its extents as text.
    fn place(&self, e: ExprId, st: &State, depth: u32) -> (Root, Vec<Option<Affine>>, String) {
        let f = self.cx.f;
        let opaque = (Root::Unknown, vec![], "?".to_string());
        let Some(depth) = depth.checked_sub(1) else {
            return opaque;
        };
        // The root of a base, when it is one without subscripts of its own.
        let bare = |b: ExprId| match self.place(b, st, depth) {
            (r, s, _) if s.is_empty() => Some(r),
            _ => None,
        };
        match f.expr(e) {
            Expr::Local(l) => match st.env.get(l) {
                Some(v) => self.place(*v, st, depth),
                None => (Root::Ptr(*l), vec![], String::new()),
            },
            Expr::LocalAddr(l) => (Root::Object(*l), vec![], String::new()),
            Expr::Cell(n) => (Root::Cell(*n), vec![], String::new()),
            Expr::Cast(a) if f.ty(*a).pointee().is_some() => {
                let (r, s, sh) = self.place(*a, st, depth);
                if s.is_empty() {
                    (r, s, sh)
                } else {
                    // A row reinterpreted: its elements are not comparable.
                    (r, vec![None], "cast".into())
                }
            }
            Expr::PtrAdd { base, index } => match bare(*base) {
                Some(r) => (r, vec![affine(f, &st.env, *index)], String::new()),
                None => {
                    let (r, _, _) = self.place(*base, st, depth);
                    (r, vec![None], "nested".into())
                }
            },
            Expr::Index(ix) => {
                let extents: Vec<String> = ix
                    .extents
                    .iter()
                    .map(|x| match x {
                        crate::ir::Extent::Const(n) => n.to_string(),
                        crate::ir::Extent::Dyn(d) => render_with(f, &st.env, self.cx.cells, *d),
                    })
                    .collect();
                let subs: Vec<Option<Affine>> =
                    ix.subs.iter().map(|s| affine(f, &st.env, *s)).collect();
                // `p[i]` with `p = a + k`: `a[k + i]`.
                let flat_base = if ix.subs.len() == 1 {
                    self.offset_base(ix.base, st, depth)
                } else {
                    None
                };
                if let Some((r, off)) = flat_base {
                    let s = match (off, subs.into_iter().next().flatten()) {
                        (Some(o), Some(s)) => o.plus(s),
                        _ => None,
                    };
                    return (r, vec![s], String::new());
                }
                match bare(ix.base) {
                    Some(r) => (r, subs, format!("[{}]", extents.join(","))),
                    None => {
                        let (r, _, _) = self.place(ix.base, st, depth);
                        (r, vec![None], "nested".into())
                    }
                }
            }
            _ => opaque,
        }
    }

    /// `base` as `root + offset` elements (a pointer moved by `ptradd`),
    /// when it is one.
    fn offset_base(&self, base: ExprId, st: &State, depth: u32) -> Option<(Root, Option<Affine>)> {
        let f = self.cx.f;
        match f.expr(base) {
            Expr::Local(l) => self.offset_base(*st.env.get(l)?, st, depth.checked_sub(1)?),
            Expr::PtrAdd { base: b, index } => match self.place(*b, st, depth) {
                (r, s, _) if s.is_empty() && f.ty(*b) == f.ty(base) => {
                    Some((r, affine(f, &st.env, *index)))
                }
                _ => None,
            },
            _ => None,
        }
    }
}

/// The part of a scalar held in memory at address `addr` (`*p`, `&l` for
/// one held in a local's bytes, or a part of it: `cast(ptradd(cast(p),
/// 8))`), seen through the temporaries of
/// `env`: the cell and the byte offset.
pub fn cell_at(
    f: &Function,
    cells: &HashSet<LocalId>,
    env: &Env,
    addr: ExprId,
) -> Option<(LocalId, u64)> {
    let (b, off) = base_offset(f, env, addr)?;
    match f.expr(b) {
        Expr::Local(l) if cells.contains(l) && f.local(*l).ty.pointee().is_some() => {
            Some((*l, off))
        }
        Expr::LocalAddr(l) if cells.contains(l) && f.local(*l).ty.pointee().is_none() => {
            Some((*l, off))
        }
        _ => None,
    }
}

/// `addr` as a base address moved by a constant number of bytes (through
/// casts, constant `ptradd`s and the temporaries of `env`): the base (a
/// local's value or address, or another expression) and the offset.
fn base_offset(f: &Function, env: &Env, addr: ExprId) -> Option<(ExprId, u64)> {
    let mut e = addr;
    let mut off = 0u64;
    for _ in 0..32 {
        match f.expr(e) {
            Expr::Local(l) => match env.get(l) {
                Some(v) => e = *v,
                None => return Some((e, off)),
            },
            Expr::Cast(a) => e = *a,
            Expr::PtrAdd { base, index } => {
                let n = u64::try_from(affine(f, env, *index)?.as_const()?).ok()?;
                off = off.checked_add(n.checked_mul(f.ty(*base).pointee()?.size())?)?;
                e = *base;
            }
            _ => return Some((e, off)),
        }
    }
    None
}
