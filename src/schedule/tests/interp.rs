//! A tiny interpreter for scheduled integer IR, used to check that the
//! scheduled loops run every iteration exactly once for any launch size.
//! Supports what the schedule emits plus `Store` (recorded, not performed).

use crate::ir::*;

/// One simulated thread's launch registers: (tid, ctaid, ntid, nctaid) per dim.
#[derive(Clone, Copy)]
pub struct Thread {
    pub tid: [u32; 2],
    pub ctaid: u32,
    pub ntid: [u32; 2],
    pub nctaid: u32,
}

enum Flow {
    Next,
    Break,
    Continue,
    Return,
}

/// Truncates `v` to the integer kind `k` (sign-extending signed kinds).
pub fn norm(v: i128, k: IntKind) -> i128 {
    let bits = k.bits();
    let m = v & ((1i128 << bits) - 1);
    if k.is_signed() && m >> (bits - 1) != 0 {
        m - (1i128 << bits)
    } else {
        m
    }
}

struct Interp<'a> {
    f: &'a Function,
    t: Thread,
    vars: Vec<i128>,
    stores: Vec<i128>,
    fuel: u32,
}

/// Runs the function body as thread `t`; returns the values stored, in order.
pub fn run(f: &Function, t: Thread) -> Vec<i128> {
    let mut i = Interp {
        f,
        t,
        vars: vec![0; f.locals.len()],
        stores: vec![],
        fuel: 100_000,
    };
    let _ = i.block(&f.body);
    i.stores
}

impl Interp<'_> {
    fn block(&mut self, b: &Block) -> Flow {
        for s in b {
            match self.stmt(s) {
                Flow::Next => {}
                other => return other,
            }
        }
        Flow::Next
    }

    fn stmt(&mut self, s: &Stmt) -> Flow {
        match s {
            Stmt::Assign { local, value } => {
                self.vars[local.0 as usize] = self.expr(*value);
            }
            Stmt::Store { value, .. } => {
                let v = self.expr(*value);
                self.stores.push(v);
            }
            Stmt::If {
                cond,
                then,
                otherwise,
                ..
            } => {
                let b = if self.expr(*cond) != 0 {
                    then
                } else {
                    otherwise
                };
                return self.block(b);
            }
            Stmt::While { cond, body, step } => {
                while self.expr(*cond) != 0 {
                    self.fuel = self.fuel.checked_sub(1).expect("loop runs away");
                    match self.block(body) {
                        Flow::Break => break,
                        Flow::Return => return Flow::Return,
                        Flow::Next | Flow::Continue => {}
                    }
                    if let Flow::Break = self.block(step) {
                        break;
                    }
                }
            }
            Stmt::Break => return Flow::Break,
            Stmt::Continue => return Flow::Continue,
            Stmt::Return(_) => return Flow::Return,
            Stmt::Switch { value, arms } => {
                let v = self.expr(*value);
                let start = arms
                    .iter()
                    .position(|a| a.values.contains(&v))
                    .or_else(|| arms.iter().position(|a| a.default));
                for a in arms.iter().skip(start.unwrap_or(arms.len())) {
                    match self.block(&a.body) {
                        Flow::Next => {}
                        Flow::Break => break,
                        other => return other,
                    }
                }
            }
            Stmt::Barrier(_) => {}
            Stmt::Call { .. }
            | Stmt::Copy { .. }
            | Stmt::Print { .. }
            | Stmt::AtomicRmw { .. }
            | Stmt::AtomicCas { .. }
            | Stmt::AtomicLoad { .. }
            | Stmt::AtomicStore { .. }
            | Stmt::Fence => {
                panic!("interpreter: {s:?}")
            }
            Stmt::Block(b) => return self.block(b),
            Stmt::Loop(_) | Stmt::Single(_) | Stmt::Broadcast { .. } => panic!("unscheduled {s:?}"),
        }
        Flow::Next
    }

    fn kind(&self, e: ExprId) -> IntKind {
        match self.f.ty(e) {
            Type::Int(k) => *k,
            t => panic!("interpreter: non-integer type {t}"),
        }
    }

    fn expr(&mut self, id: ExprId) -> i128 {
        let k = self.kind(id);
        let v = match self.f.expr(id).clone() {
            Expr::Literal(Literal::Int(v)) => v,
            Expr::Local(l) => self.vars[l.0 as usize],
            Expr::Binary { op, lhs, rhs } => {
                let (a, b) = (self.expr(lhs), self.expr(rhs));
                match op {
                    BinOp::Add => a + b,
                    BinOp::Sub => a - b,
                    BinOp::Mul => a.wrapping_mul(b),
                    BinOp::Div => a / b,
                    BinOp::Rem => a % b,
                    BinOp::Min => a.min(b),
                    BinOp::Max => a.max(b),
                    o => panic!("interpreter: {o:?}"),
                }
            }
            Expr::Cmp { op, lhs, rhs } => {
                let (a, b) = (self.expr(lhs), self.expr(rhs));
                i128::from(match op {
                    CmpOp::Eq => a == b,
                    CmpOp::Ne => a != b,
                    CmpOp::Lt => a < b,
                    CmpOp::Le => a <= b,
                    CmpOp::Gt => a > b,
                    CmpOp::Ge => a >= b,
                })
            }
            Expr::Unary { op: UnOp::Neg, arg } => -self.expr(arg),
            Expr::Cast(a) => {
                let v = self.expr(a);
                if k == IntKind::Bool {
                    i128::from(v != 0)
                } else {
                    v
                }
            }
            Expr::Select {
                cond,
                then,
                otherwise,
            } => {
                if self.expr(cond) != 0 {
                    self.expr(then)
                } else {
                    self.expr(otherwise)
                }
            }
            Expr::Logical { and, lhs, rhs } => {
                let a = self.expr(lhs) != 0;
                i128::from(if and {
                    a && self.expr(rhs) != 0
                } else {
                    a || self.expr(rhs) != 0
                })
            }
            Expr::Special(s) => i128::from(match s {
                Special::ThreadIdx(d) => self.t.tid[d as usize],
                Special::BlockIdx(_) => self.t.ctaid,
                Special::BlockDim(d) => self.t.ntid[d as usize],
                Special::GridDim(_) => self.t.nctaid,
                Special::Performs(_) | Special::OnDevice(_) => panic!("unscheduled special"),
            }),
            e => panic!("interpreter: {e:?}"),
        };
        norm(v, k)
    }
}

/// Every thread of a `grid` × `block` launch (y, x) runs `f`; returns all
/// stored values of all threads, sorted.
pub fn run_grid(f: &Function, grid: u32, block: [u32; 2]) -> Vec<i128> {
    let mut all = vec![];
    for ctaid in 0..grid {
        for y in 0..block[1] {
            for x in 0..block[0] {
                let t = Thread {
                    tid: [x, y],
                    ctaid,
                    ntid: block,
                    nctaid: grid,
                };
                all.extend(run(f, t));
            }
        }
    }
    all.sort();
    all
}
