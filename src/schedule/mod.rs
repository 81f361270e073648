//! Scheduling: maps parallel loops onto the GPU's thread hierarchy and turns
//! every counted loop into an explicit loop, so back ends only translate.
//!
//! Owns: [`schedule`]. Mapping (OpenUH, `shared/seeds/openuh-*.txt`): gang →
//! blockIdx.x, worker → threadIdx.y, vector → threadIdx.x. Every level
//! strides (`k += blockDim.x * gridDim.x`), so correctness never depends on
//! the launch size. A parallel loop iterates a 64-bit counter `k` over its
//! trip count and sets the loop variable to `init + k * step`; a sequential
//! loop keeps C semantics (the variable keeps its last value).
//! May call: `ir` only.

use crate::ir::{
    BinOp, Block, CmpOp, Expr, ExprId, Function, IntKind, Kernel, LocalId, Loop, LoopCmp, Module,
    Parallelism, Special, Stmt, Type,
};

/// Schedules every kernel of the module; afterwards `ir::validate(m, true)`
/// holds.
pub fn schedule(m: &mut Module) {
    for k in &mut m.kernels {
        schedule_kernel(k);
    }
}

fn schedule_kernel(k: &mut Kernel) {
    let body = std::mem::take(&mut k.body.body);
    k.body.body = block(&mut k.body, body);
}

fn block(f: &mut Function, b: Block) -> Block {
    b.into_iter().map(|s| stmt(f, s)).collect()
}

fn stmt(f: &mut Function, s: Stmt) -> Stmt {
    match s {
        Stmt::Loop(l) => match l.par {
            Parallelism::Seq => seq_loop(f, l),
            Parallelism::Par {
                gang,
                worker,
                vector,
            } => par_loop(f, l, gang, worker, vector),
        },
        Stmt::If {
            cond,
            then,
            otherwise,
        } => Stmt::If {
            cond,
            then: block(f, then),
            otherwise: block(f, otherwise),
        },
        Stmt::While { cond, body, step } => Stmt::While {
            cond,
            body: block(f, body),
            step: block(f, step),
        },
        Stmt::Block(b) => Stmt::Block(block(f, b)),
        s => s,
    }
}

/// A local holding `value`, assigned by a statement pushed to `out`.
fn hold(f: &mut Function, out: &mut Block, name: &str, value: ExprId) -> LocalId {
    let ty = f.ty(value).clone();
    let l = f.new_local(name, ty);
    out.push(Stmt::Assign { local: l, value });
    l
}

fn bin(f: &mut Function, op: BinOp, a: ExprId, b: ExprId) -> ExprId {
    let ty = f.ty(a).clone();
    f.add(Expr::Binary { op, lhs: a, rhs: b }, ty)
}

fn cmp(f: &mut Function, op: CmpOp, a: ExprId, b: ExprId) -> ExprId {
    f.add(Expr::Cmp { op, lhs: a, rhs: b }, Type::BOOL)
}

fn cast(f: &mut Function, x: ExprId, to: Type) -> ExprId {
    if *f.ty(x) == to {
        x
    } else {
        f.add(Expr::Cast(x), to)
    }
}

fn special(f: &mut Function, s: Special) -> ExprId {
    let r = f.add(Expr::Special(s), Type::Int(IntKind::U32));
    cast(f, r, Type::U64)
}

/// `for (var = init; var cmp limit; var += step)`, sequential, C semantics.
fn seq_loop(f: &mut Function, l: Loop) -> Stmt {
    let mut out = vec![];
    let limit = hold(f, &mut out, "limit", l.limit);
    let step = hold(f, &mut out, "step", l.step);
    out.push(Stmt::Assign {
        local: l.var,
        value: l.init,
    });
    let (v, lim) = (f.read(l.var), f.read(limit));
    let op = match l.cmp {
        LoopCmp::Lt => CmpOp::Lt,
        LoopCmp::Le => CmpOp::Le,
        LoopCmp::Gt => CmpOp::Gt,
        LoopCmp::Ge => CmpOp::Ge,
    };
    let cond = cmp(f, op, v, lim);
    let (v, s) = (f.read(l.var), f.read(step));
    let next = bin(f, BinOp::Add, v, s);
    let body = block(f, l.body);
    out.push(Stmt::While {
        cond,
        body,
        step: vec![Stmt::Assign {
            local: l.var,
            value: next,
        }],
    });
    Stmt::Block(out)
}

/// The thread's first iteration and the stride, for the given levels.
fn start_stride(f: &mut Function, gang: bool, worker: bool, vector: bool) -> (ExprId, ExprId) {
    // Index and count of this thread among the levels, innermost last.
    let mut idx: Option<ExprId> = None;
    let mut count: Option<ExprId> = None;
    let levels = [
        (gang, Special::BlockIdx(0), Special::GridDim(0)),
        (worker, Special::ThreadIdx(1), Special::BlockDim(1)),
        (vector, Special::ThreadIdx(0), Special::BlockDim(0)),
    ];
    for (on, id, n) in levels {
        if !on {
            continue;
        }
        let i = special(f, id);
        idx = Some(match idx {
            None => i,
            Some(prev) => {
                let size = special(f, n);
                let scaled = bin(f, BinOp::Mul, prev, size);
                bin(f, BinOp::Add, scaled, i)
            }
        });
        let c = special(f, n);
        count = Some(match count {
            None => c,
            Some(prev) => bin(f, BinOp::Mul, prev, c),
        });
    }
    let zero = f.int(0, Type::U64);
    let one = f.int(1, Type::U64);
    (idx.unwrap_or(zero), count.unwrap_or(one))
}

/// A loop shared among gangs/workers/lanes: a strided 64-bit counter.
fn par_loop(f: &mut Function, l: Loop, gang: bool, worker: bool, vector: bool) -> Stmt {
    let mut out = vec![];
    let ty = f.local(l.var).ty.clone();
    let init = hold(f, &mut out, "init", l.init);
    let step = hold(f, &mut out, "step", l.step);
    // Trip count in i64: (hi - lo + s - 1) / s for < and >, (hi - lo) / s + 1
    // for <= and >=, or 0 when the range is empty; s is the step's magnitude.
    let i64t = Type::I64;
    let up = matches!(l.cmp, LoopCmp::Lt | LoopCmp::Le);
    let (i0, l0, s0) = {
        let i = f.read(init);
        let i = cast(f, i, i64t.clone());
        let lim = cast(f, l.limit, i64t.clone());
        let s = f.read(step);
        let s = cast(f, s, i64t.clone());
        let i = hold(f, &mut out, "init64", i);
        let lim = hold(f, &mut out, "limit64", lim);
        let s = hold(f, &mut out, "step64", s);
        (i, lim, s)
    };
    let (hi, lo) = if up { (l0, i0) } else { (i0, l0) };
    let mag = {
        let s = f.read(s0);
        if up {
            s
        } else {
            f.add(
                Expr::Unary {
                    op: crate::ir::UnOp::Neg,
                    arg: s,
                },
                i64t.clone(),
            )
        }
    };
    let mag = hold(f, &mut out, "stepmag", mag);
    let strict = matches!(l.cmp, LoopCmp::Lt | LoopCmp::Gt);
    let (h, lw) = (f.read(hi), f.read(lo));
    let nonempty = cmp(f, if strict { CmpOp::Gt } else { CmpOp::Ge }, h, lw);
    let (h, lw) = (f.read(hi), f.read(lo));
    let diff = bin(f, BinOp::Sub, h, lw);
    let count = if strict {
        let m = f.read(mag);
        let one = f.int(1, i64t.clone());
        let m1 = bin(f, BinOp::Sub, m, one);
        let num = bin(f, BinOp::Add, diff, m1);
        let m = f.read(mag);
        bin(f, BinOp::Div, num, m)
    } else {
        let m = f.read(mag);
        let q = bin(f, BinOp::Div, diff, m);
        let one = f.int(1, i64t.clone());
        bin(f, BinOp::Add, q, one)
    };
    let zero = f.int(0, i64t);
    let trip = f.add(
        Expr::Select {
            cond: nonempty,
            then: count,
            otherwise: zero,
        },
        Type::I64,
    );
    let trip = cast(f, trip, Type::U64);
    let trip = hold(f, &mut out, "trip", trip);
    let (start, stride) = start_stride(f, gang, worker, vector);
    let k = hold(f, &mut out, "k", start);
    let stride = hold(f, &mut out, "stride", stride);
    let (kv, t) = (f.read(k), f.read(trip));
    let cond = cmp(f, CmpOp::Lt, kv, t);
    // var = init + (T)k * step
    let kv = f.read(k);
    let kt = cast(f, kv, ty.clone());
    let s = f.read(step);
    let off = bin(f, BinOp::Mul, kt, s);
    let i = f.read(init);
    let v = bin(f, BinOp::Add, i, off);
    let mut body = vec![Stmt::Assign {
        local: l.var,
        value: v,
    }];
    body.extend(block(f, l.body));
    let (kv, st) = (f.read(k), f.read(stride));
    let next = bin(f, BinOp::Add, kv, st);
    out.push(Stmt::While {
        cond,
        body,
        step: vec![Stmt::Assign {
            local: k,
            value: next,
        }],
    });
    Stmt::Block(out)
}

#[cfg(test)]
mod tests;
