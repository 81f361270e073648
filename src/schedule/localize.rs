//! Localisation: a scalar of the code around a loop (a local, or a cell —
//! a host scalar a kernel receives by reference; see `analysis::private`)
//! gets a fresh local that every access inside the loop's body uses
//! instead, so each thread has its own copy — what lowering makes of a
//! `private(v)` clause, made on the IR.
//!
//! Owns: [`localize`], [`Start`]. May call: `ir`, `analysis::private` (the
//! cells of a function).
//!
//! Expressions are rebuilt, never changed in place (a tree may be shared
//! by uses outside the loop). A store to the cell becomes an assignment of
//! the copy; where lowering had put it in code one thread performs
//! ([`Stmt::Single`]), the assignment moves out of it, in place: each
//! thread assigns its own copy, as lowering does for a private variable.

use crate::analysis::private::{Scalar, Scope};
use crate::ir::{
    Block, Expr, ExprId, Function, LocalId, Loop, RedOp, RedPart, RedTarget, Reduction, Stmt,
};
use std::collections::HashMap;

/// How the copy starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Start {
    /// Undefined (`private`).
    Undefined,
    /// The scalar's value where the loop starts (`firstprivate`).
    First,
    /// A reduction: the loop combines the threads' copies into the scalar
    /// with `op` after it (the copies start at its identity: `schedule`).
    Reduction(RedOp),
}

/// Gives loop `block[at]` (a [`Stmt::Loop`]) its own copy of `scalar` of
/// function `f` (whose cells `scope` knows), started as `start` says, and
/// returns it. Inner loops' reductions into the scalar reduce into the
/// copy. Panics if `block[at]` is no loop (a caller's error).
pub fn localize(
    f: &mut Function,
    scope: &Scope,
    block: &mut Block,
    at: usize,
    scalar: Scalar,
    start: Start,
) -> LocalId {
    let (name, ty) = match scalar {
        Scalar::Local(l) => (f.local(l).name.clone(), f.local(l).ty.clone()),
        Scalar::Cell(p) => {
            let l = f.local(p);
            (
                l.name.clone(),
                l.ty.pointee().cloned().unwrap_or(l.ty.clone()),
            )
        }
    };
    let copy = f.new_local(&name, ty.clone());
    let Some(Stmt::Loop(lp)) = block.get_mut(at) else {
        panic!("localize: statement {at} is no loop");
    };
    let mut r = Rewrite {
        scope,
        scalar,
        copy,
        done: HashMap::new(),
    };
    let body = std::mem::take(&mut lp.body);
    lp.body = r.block(f, body);
    inner_reductions(&mut r, f, lp);
    // The original's value, where the loop starts.
    let original = |f: &mut Function| match scalar {
        Scalar::Local(l) => f.read(l),
        Scalar::Cell(p) => {
            let ptr = f.read(p);
            f.add(Expr::Load(ptr), ty.clone())
        }
    };
    match start {
        Start::Undefined => {}
        Start::First => {
            let value = original(f);
            block.insert(at, Stmt::Assign { local: copy, value });
        }
        Start::Reduction(op) => {
            let target = match scalar {
                Scalar::Local(l) => RedTarget::Local(l),
                Scalar::Cell(p) => RedTarget::Memory(f.read(p)),
            };
            let size = ty.size();
            let red = Reduction {
                op,
                private: copy,
                target,
                parts: vec![RedPart {
                    offset: 0,
                    ty,
                    count: 1,
                    stride: size,
                }],
            };
            if let Some(Stmt::Loop(lp)) = block.get_mut(at) {
                lp.reductions.push(red);
            }
        }
    }
    copy
}

/// The reductions of the loops nested in `lp`'s body whose target is the
/// scalar now reduce into the copy.
fn inner_reductions(r: &mut Rewrite, f: &mut Function, lp: &mut Loop) {
    for s in &mut lp.body {
        each_loop(s, &mut |inner: &mut Loop| {
            for red in &mut inner.reductions {
                if r.is_target(f, &red.target) {
                    red.target = RedTarget::Local(r.copy);
                }
            }
        });
    }
}

/// Calls `visit` on every counted loop in `s` (itself included).
fn each_loop(s: &mut Stmt, visit: &mut dyn FnMut(&mut Loop)) {
    if let Stmt::Loop(l) = s {
        visit(l);
    }
    for b in s.blocks_mut() {
        for s in b {
            each_loop(s, visit);
        }
    }
}

struct Rewrite<'a> {
    scope: &'a Scope,
    scalar: Scalar,
    copy: LocalId,
    /// The rebuilt trees, by original.
    done: HashMap<ExprId, ExprId>,
}

impl Rewrite<'_> {
    /// Whether address `addr` is the cell being localised.
    fn is_cell(&self, f: &Function, addr: ExprId) -> bool {
        matches!(self.scalar, Scalar::Cell(c) if self.scope.at(f, addr) == Some(c))
    }

    fn is_target(&self, f: &Function, t: &RedTarget) -> bool {
        match (t, self.scalar) {
            (RedTarget::Local(l), Scalar::Local(s)) => *l == s,
            (RedTarget::Memory(p), _) => self.is_cell(f, *p),
            _ => false,
        }
    }

    fn is_local(&self, l: LocalId) -> bool {
        self.scalar == Scalar::Local(l)
    }

    /// Expression `e` reading the copy instead of the scalar.
    fn expr(&mut self, f: &mut Function, e: ExprId) -> ExprId {
        if let Some(x) = self.done.get(&e) {
            return *x;
        }
        let new = match f.expr(e) {
            Expr::Local(l) if self.is_local(*l) => f.read(self.copy),
            Expr::Load(a) if self.is_cell(f, *a) => f.read(self.copy),
            _ if !self.mentions(f, e) => e,
            _ => f.with_operands(e, &mut |f, o| self.expr(f, o)),
        };
        self.done.insert(e, new);
        new
    }

    /// Whether tree `e` reads the scalar.
    fn mentions(&self, f: &Function, e: ExprId) -> bool {
        match f.expr(e) {
            Expr::Local(l) | Expr::LocalAddr(l) if self.is_local(*l) => true,
            Expr::Load(a) if self.is_cell(f, *a) => true,
            _ => f.children(e).into_iter().any(|c| self.mentions(f, c)),
        }
    }

    fn local(&self, l: LocalId) -> LocalId {
        if self.is_local(l) {
            self.copy
        } else {
            l
        }
    }

    fn block(&mut self, f: &mut Function, b: Block) -> Block {
        let mut out = Vec::with_capacity(b.len());
        for s in b {
            self.stmt(f, s, &mut out);
        }
        out
    }

    /// Appends statement `s`, rewritten, to `out`.
    fn stmt(&mut self, f: &mut Function, s: Stmt, out: &mut Block) {
        let s = match s {
            Stmt::Store { ptr, value } if self.is_cell(f, ptr) => Stmt::Assign {
                local: self.copy,
                value: self.expr(f, value),
            },
            Stmt::Single(b) => return self.single(f, b, out),
            mut s => {
                self.fields(f, &mut s);
                for b in s.blocks_mut() {
                    *b = self.block(f, std::mem::take(b));
                }
                s
            }
        };
        out.push(s);
    }

    /// The expressions and assigned locals of `s` itself, rewritten.
    fn fields(&mut self, f: &mut Function, s: &mut Stmt) {
        let mut e = |r: &mut Self, x: &mut ExprId| *x = r.expr(f, *x);
        match s {
            Stmt::Assign { local, value } => {
                e(self, value);
                *local = self.local(*local);
            }
            Stmt::Store { ptr, value } | Stmt::AtomicStore { ptr, value } => {
                e(self, ptr);
                e(self, value);
            }
            Stmt::If { cond, .. } | Stmt::While { cond, .. } => e(self, cond),
            Stmt::Switch { value, .. } => e(self, value),
            Stmt::Loop(l) => {
                for x in [&mut l.init, &mut l.limit, &mut l.step] {
                    e(self, x);
                }
                for h in &mut l.collapsed {
                    for x in [&mut h.init, &mut h.limit, &mut h.step] {
                        e(self, x);
                    }
                }
            }
            Stmt::Return(v) => {
                if let Some(v) = v {
                    e(self, v);
                }
            }
            Stmt::Call { args, result, .. } => {
                for a in args.iter_mut() {
                    e(self, a);
                }
                *result = result.map(|r| self.local(r));
            }
            Stmt::Print { args, .. } => {
                for a in args.iter_mut() {
                    e(self, a);
                }
            }
            Stmt::Copy { dst, src, .. } => {
                e(self, dst);
                e(self, src);
            }
            Stmt::AtomicRmw {
                ptr, value, old, ..
            } => {
                e(self, ptr);
                e(self, value);
                *old = old.map(|o| self.local(o));
            }
            Stmt::AtomicCas {
                ptr,
                expected,
                desired,
                old,
                ok,
            } => {
                for x in [ptr, expected, desired] {
                    e(self, x);
                }
                *old = self.local(*old);
                *ok = self.local(*ok);
            }
            Stmt::AtomicLoad { ptr, dst } => {
                e(self, ptr);
                *dst = self.local(*dst);
            }
            Stmt::Broadcast { value, .. } => *value = self.local(*value),
            Stmt::Break
            | Stmt::Continue
            | Stmt::Barrier(_)
            | Stmt::Fence
            | Stmt::Block(_)
            | Stmt::Single(_) => {}
        }
    }

    /// Single-thread code `b`: its stores to the cell become assignments
    /// every thread performs, in place (the code before and after them
    /// stays single).
    fn single(&mut self, f: &mut Function, b: Block, out: &mut Block) {
        let mut run = vec![];
        for s in b {
            match s {
                Stmt::Store { ptr, .. } if self.is_cell(f, ptr) => {
                    if !run.is_empty() {
                        out.push(Stmt::Single(std::mem::take(&mut run)));
                    }
                    self.stmt(f, s, out);
                }
                s => self.stmt(f, s, &mut run),
            }
        }
        if !run.is_empty() {
            out.push(Stmt::Single(run));
        }
    }
}
