//! Single-thread code: who performs a side effect where several threads
//! run the code redundantly. Lowering only records that one thread performs
//! it ([`Stmt::Single`], [`Stmt::Broadcast`], [`Special::Performs`]); this
//! pass, which sees the mapping of every loop around it, decides which
//! thread: along each block dimension no enclosing loop partitions (outside
//! vector loops, outside worker loops) the thread of index 0 (in a routine:
//! the caller's say, the guard parameters), and every thread along the
//! dimensions the loops partition. A captured value every thread needs goes
//! through a slot of shared memory between two barriers. It runs first in
//! [`super::schedule`], on the loops as lowered, so the fences and the loop
//! schedule see the guards (marked: [`Stmt::If`]'s `single`).
//!
//! Owns: [`resolve`], [`Performer`]. May call: `ir`.

use crate::ir::{
    broadcast_scope, BarrierScope, BinOp, Block, CmpOp, Expr, ExprId, Function, IntKind, Literal,
    LocalId, Special, Stmt, Type,
};
use std::collections::HashMap;

/// Who runs a body, for its single-thread code.
#[derive(Clone, Copy, Debug)]
pub(super) enum Performer {
    /// A kernel: the threads of its launch; `one_thread` when one thread
    /// runs it (a `serial` construct: nothing to broadcast).
    Kernel { one_thread: bool },
    /// A device function: its caller's threads, which pass whether this
    /// one performs in the guard parameters (`None`: it always does).
    Routine(Option<[LocalId; 3]>),
}

/// Replaces every [`Stmt::Single`], [`Stmt::Broadcast`] and
/// [`Special::Performs`] of `f` (a body with its counted loops, before the
/// rest of the schedule) by the guards of their position.
pub(super) fn resolve(f: &mut Function, who: Performer) {
    let body = std::mem::take(&mut f.body);
    let mut r = Resolver {
        who,
        slots: HashMap::new(),
    };
    f.body = r.block(f, body, [false; 3]);
}

struct Resolver {
    who: Performer,
    /// The shared slots of broadcasts, by type and whether per row: a slot
    /// serves every broadcast of its type (each between barriers).
    slots: HashMap<(Type, bool), u32>,
}

impl Resolver {
    /// Resolves block `b`, inside loops that partition the block
    /// dimensions `outer`.
    fn block(&mut self, f: &mut Function, b: Block, outer: [bool; 3]) -> Block {
        let mut out = vec![];
        for s in b {
            self.stmt(f, s, outer, &mut out);
        }
        out
    }

    fn stmt(&mut self, f: &mut Function, mut s: Stmt, outer: [bool; 3], out: &mut Block) {
        for e in s.roots() {
            self.performs(f, e, outer);
        }
        match s {
            Stmt::Single(b) => {
                let b = self.block(f, b, outer);
                self.single(f, b, outer, out);
            }
            Stmt::Broadcast { value, performed } => {
                let performed = self.block(f, performed, outer);
                match (self.who, broadcast_scope(outer)) {
                    (Performer::Kernel { one_thread: false }, Some(scope)) => {
                        self.broadcast(f, (value, performed), (outer, scope), out)
                    }
                    _ => self.single(f, performed, outer, out),
                }
            }
            Stmt::Loop(mut l) => {
                let mine = l.par.thread_dims();
                let inner = std::array::from_fn(|d| outer[d] || mine[d]);
                l.body = self.block(f, std::mem::take(&mut l.body), inner);
                out.push(Stmt::Loop(l));
            }
            _ => {
                for b in s.blocks_mut() {
                    *b = self.block(f, std::mem::take(b), outer);
                }
                out.push(s);
            }
        }
    }

    /// Whether this thread performs along dimension `d` where the loops
    /// do not partition it (`None`: every thread does).
    fn performs_along(&self, f: &mut Function, d: u8) -> Option<ExprId> {
        match self.who {
            Performer::Kernel { .. } => {
                let u32t = Type::Int(IntKind::U32);
                let t = f.add(Expr::Special(Special::ThreadIdx(d)), u32t.clone());
                let z = f.int(0, u32t);
                Some(f.add(
                    Expr::Cmp {
                        op: CmpOp::Eq,
                        lhs: t,
                        rhs: z,
                    },
                    Type::BOOL,
                ))
            }
            Performer::Routine(guards) => guards.map(|g| f.read(g[usize::from(d)])),
        }
    }

    /// Rewrites the [`Special::Performs`] nodes of the tree at `e` in place
    /// (each node has one parent, so one position).
    fn performs(&self, f: &mut Function, e: ExprId, outer: [bool; 3]) {
        let mut stack = vec![e];
        while let Some(x) = stack.pop() {
            if let Expr::Special(Special::Performs(d)) = *f.expr(x) {
                let cond = match outer.get(usize::from(d)) {
                    Some(false) => self.performs_along(f, d),
                    _ => None,
                };
                f.exprs[x.0 as usize] = match cond {
                    Some(c) => f.expr(c).clone(),
                    None => Expr::Literal(Literal::Int(1)),
                };
            } else {
                stack.extend(f.children(x));
            }
        }
    }

    /// Emits `b` guarded so that one thread performs it where several run
    /// this code (the conditions along x, y, z, all of which must hold).
    fn single(&self, f: &mut Function, b: Block, outer: [bool; 3], out: &mut Block) {
        let mut cond: Option<ExprId> = None;
        for d in (0..3u8).filter(|d| !outer[usize::from(*d)]) {
            let Some(c) = self.performs_along(f, d) else {
                continue;
            };
            cond = Some(match cond {
                None => c,
                Some(p) => f.add(
                    Expr::Logical {
                        and: true,
                        lhs: p,
                        rhs: c,
                    },
                    Type::BOOL,
                ),
            });
        }
        match cond {
            Some(cond) => out.push(Stmt::If {
                cond,
                then: b,
                otherwise: vec![],
                single: true,
            }),
            None => out.extend(b),
        }
    }

    /// `value`, which the single code `performed` computes, in every thread
    /// that meets at barriers of `scope` (inside loops partitioning
    /// `outer`): the performing thread stores it to
    /// a slot of shared memory (one for the block, or one per row of
    /// `ntid.x` lanes), the threads meet, read it, and meet again before
    /// the slot may be written again (in a loop).
    fn broadcast(
        &mut self,
        f: &mut Function,
        (value, performed): (LocalId, Block),
        (outer, scope): ([bool; 3], BarrierScope),
        out: &mut Block,
    ) {
        let ty = f.local(value).ty.clone();
        let u32t = Type::Int(IntKind::U32);
        let row = scope == BarrierScope::Row;
        let n = *self.slots.entry((ty.clone(), row)).or_insert_with(|| {
            let len = if row { 1024 } else { 1 };
            f.shared.push(Type::Array(Box::new(ty.clone()), len));
            (f.shared.len() - 1) as u32
        });
        let index = if row {
            // The row: tid.y + tid.z * ntid.y.
            let r = |f: &mut Function, s: Special| f.add(Expr::Special(s), u32t.clone());
            let (ty_, tz, ny) = (
                r(f, Special::ThreadIdx(1)),
                r(f, Special::ThreadIdx(2)),
                r(f, Special::BlockDim(1)),
            );
            let zy = f.add(
                Expr::Binary {
                    op: BinOp::Mul,
                    lhs: tz,
                    rhs: ny,
                },
                u32t.clone(),
            );
            f.add(
                Expr::Binary {
                    op: BinOp::Add,
                    lhs: ty_,
                    rhs: zy,
                },
                u32t.clone(),
            )
        } else {
            f.int(0, u32t.clone())
        };
        let index = f.add(Expr::Cast(index), Type::U64);
        let at = f.new_local("bcast.at", Type::U64);
        out.push(Stmt::Assign {
            local: at,
            value: index,
        });
        let slot = |f: &mut Function| {
            let base = f.add(Expr::SharedAddr(n), ty.ptr_to());
            let i = f.read(at);
            f.add(Expr::PtrAdd { base, index: i }, ty.ptr_to())
        };
        let mut single = performed;
        let (p, v) = (slot(f), f.read(value));
        single.push(Stmt::Store { ptr: p, value: v });
        self.single(f, single, outer, out);
        out.push(Stmt::Barrier(scope));
        let p = slot(f);
        let got = f.add(Expr::Load(p), ty);
        out.push(Stmt::Assign {
            local: value,
            value: got,
        });
        out.push(Stmt::Barrier(scope));
    }
}
