//! Localisation: a scalar of the code around a loop (a local, or a cell —
//! a host scalar a kernel receives by reference; see `analysis::private`)
//! gets a fresh local that every access inside the loop's body uses
//! instead, so each thread has its own copy — what lowering makes of a
//! `private(v)` clause, made on the IR.
//!
//! Owns: [`localize`], [`Start`]. May call: `ir`, `analysis::private` (the
//! cells of a function).
//!
//! Expressions are rebuilt, never changed in place: valid IR gives every
//! node one parent (the validator's `ExprReused`), but a rebuilt tree
//! cannot change a use outside the loop even where that rule is broken
//! (the replaced nodes stay in the arena, unused). A store to the cell becomes an assignment of
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
/// copy. `None` (and nothing changed) when `block[at]` is no loop.
pub fn localize(
    f: &mut Function,
    scope: &Scope,
    block: &mut Block,
    at: usize,
    scalar: Scalar,
    start: Start,
) -> Option<LocalId> {
    if !matches!(block.get(at), Some(Stmt::Loop(_))) {
        return None;
    }
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
        return None;
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
    Some(copy)
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
            Expr::Local(l) if self.is_local(*l) => self.read_copy(f, e),
            Expr::Load(a) if self.is_cell(f, *a) => self.read_copy(f, e),
            _ if !self.mentions(f, e) => e,
            _ => f.with_operands(e, &mut |f, o| self.expr(f, o)),
        };
        self.done.insert(e, new);
        new
    }

    /// A read of the copy in place of read `e` of the scalar, located
    /// where `e` is.
    fn read_copy(&self, f: &mut Function, e: ExprId) -> ExprId {
        let new = f.read(self.copy);
        let loc = f.expr_locs[e.0 as usize].clone();
        f.expr_locs[new.0 as usize] = loc;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{print_expr, read_module, Module};

    fn module(text: &str) -> Module {
        read_module(text).expect("reads")
    }

    /// Every expression the statements of `b` hold, printed.
    fn exprs(m: &Module, f: &Function, b: &[Stmt]) -> Vec<String> {
        let mut out = vec![];
        crate::ir::walk_stmts(b, &mut |s| {
            out.extend(s.roots().into_iter().map(|e| print_expr(m, f, e)));
        });
        out
    }

    #[test]
    fn firstprivate_copy_keeps_shared_trees() {
        let m = module(include_str!("../../tests/in/priv_temp.ir"));
        let mut f = m.kernels[0].body.clone();
        let t = m.kernels[0].params.iter().find(|p| p.name == "t");
        let t = t.map(|p| p.local).unwrap_or(LocalId(2));
        let scope = Scope::function(&[t]);
        let mut body = std::mem::take(&mut f.body);
        // A tree the loop shares with the code after it (invalid IR: the
        // rewrite must still leave the use after the loop as it was).
        let shared = match &body[0] {
            Stmt::Loop(l) => l.body.iter().find_map(|s| match s {
                Stmt::Assign { value, .. } if matches!(f.expr(*value), Expr::Binary { .. }) => {
                    Some(*value)
                }
                _ => None,
            }),
            _ => None,
        }
        .expect("t * t in the loop");
        let after = f.new_local("after", f.ty(shared).clone());
        body.push(Stmt::Assign {
            local: after,
            value: shared,
        });
        let copy = localize(&mut f, &scope, &mut body, 0, Scalar::Local(t), Start::First)
            .expect("block[0] is a loop");
        assert_eq!(f.local(copy).name, "t");
        let Stmt::Assign { local, value } = &body[0] else {
            panic!("no initialisation before the loop")
        };
        assert_eq!((*local, f.expr(*value)), (copy, &Expr::Local(t)));
        let Stmt::Loop(lp) = &body[1] else {
            panic!("the loop moved")
        };
        let inside = exprs(&m, &f, &lp.body);
        assert!(inside.iter().all(|e| !e.contains("%2 t")), "{inside:?}");
        assert!(inside.iter().any(|e| e.contains(&format!("{copy} t"))));
        let Stmt::Assign { value, .. } = &body[2] else {
            panic!("the code after the loop")
        };
        assert_eq!(print_expr(&m, &f, *value), "mul.f32(%2 t, %2 t)");
    }

    #[test]
    fn reduction_into_a_cell() {
        let m = module(include_str!("../../tests/in/priv_byref.ir"));
        let k = &m.kernels[1];
        let mut f = k.body.clone();
        let params: Vec<_> = k.params.iter().map(|p| p.local).collect();
        let scope = Scope::kernel(&f, &params, &params);
        let s = k.params.iter().find(|p| p.name == "s").map(|p| p.local);
        let s = s.expect("s by reference");
        let mut body = std::mem::take(&mut f.body);
        let op = RedOp::Max;
        let copy = localize(
            &mut f,
            &scope,
            &mut body,
            0,
            Scalar::Cell(s),
            Start::Reduction(op),
        )
        .expect("block[0] is a loop");
        let Stmt::Loop(lp) = &body[0] else {
            panic!("no loop")
        };
        let red = lp.reductions.last().expect("a reduction");
        assert_eq!((red.op, red.private), (op, copy));
        assert!(matches!(red.target, RedTarget::Memory(p) if f.expr(p) == &Expr::Local(s)));
        assert!(red.scalar(&f.local(copy).ty));
        // The inner loop reduces into the copy; no store to `*s` is left,
        // and the assignment that was one thread's is every thread's.
        let mut inner = vec![];
        let mut singles = 0;
        crate::ir::walk_stmts(&lp.body, &mut |st| match st {
            Stmt::Loop(l) => inner.extend(l.reductions.iter().map(|r| r.target.clone())),
            Stmt::Single(b) => {
                singles += 1;
                assert!(!b.iter().any(|x| matches!(x, Stmt::Assign { .. })));
            }
            _ => {}
        });
        assert_eq!(inner, [RedTarget::Local(copy)]);
        assert_eq!(singles, 1, "the store of b[i] stays single");
        let texts = exprs(&m, &f, &lp.body);
        assert!(texts.iter().all(|e| !e.contains("%2 s")), "{texts:?}");
    }
}
