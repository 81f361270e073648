//! Sequential loops: a `seq` counted loop (or one whose index is not an
//! integer) becomes a plain `while` with C semantics.
//!
//! Owns: [`seq_loop`].

use super::build::Emit;
use crate::ir::{BinOp, Block, CmpOp, Loop, LoopCmp, Stmt};

/// Rewrites the counted loop `l` with its already scheduled `body` into
///
/// ```text
/// var = <init>; limit = <limit>; step = <step>
/// while var <cmp> limit { body } step { var = var + step }
/// ```
///
/// `init`, `limit` and `step` are evaluated once, in that order (the
/// [`Loop`] contract); the variable keeps its C value after the loop, and
/// `continue` in the body goes to the `step` block.
pub(super) fn seq_loop(e: &mut Emit, l: Loop, body: Block) {
    e.assign(l.var, l.init);
    let limit = e.hold("limit", l.limit);
    let step = e.hold("step", l.step);
    let op = match l.cmp {
        LoopCmp::Lt => CmpOp::Lt,
        LoopCmp::Le => CmpOp::Le,
        LoopCmp::Gt => CmpOp::Gt,
        LoopCmp::Ge => CmpOp::Ge,
    };
    let (v, lim) = (e.read(l.var), e.read(limit));
    let cond = e.cmp(op, v, lim);
    let (v, s) = (e.read(l.var), e.read(step));
    let next = e.bin(BinOp::Add, v, s);
    e.out.push(Stmt::While {
        cond,
        body,
        step: vec![Stmt::Assign {
            local: l.var,
            value: next,
        }],
    });
}
