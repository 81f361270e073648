//! Scheduling: maps parallel loops onto the GPU's thread hierarchy and turns
//! every counted loop into an explicit loop, so back ends only translate.
//!
//! Owns: [`schedule`]. May call: `ir` only. Files:
//! * `mod.rs` — the walk over every kernel's statements;
//! * `par.rs` — parallel loops: trip count, 64-bit thread-strided counter,
//!   each thread's start and stride per level;
//! * `seq.rs` — sequential loops (C semantics);
//! * `build.rs` — the expression/statement builder both use.
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
mod seq;

use crate::ir::{Block, Function, Module, Parallelism, Stmt, Type};
use build::Emit;
use par::Levels;

/// Schedules every kernel of the module: each counted loop becomes a
/// [`Stmt::Block`] holding its setup and a [`Stmt::While`].
pub fn schedule(m: &mut Module) {
    let bodies = m
        .kernels
        .iter_mut()
        .map(|k| &mut k.body)
        .chain(m.functions.iter_mut().map(|f| &mut f.body));
    for f in bodies {
        let body = std::mem::take(&mut f.body);
        f.body = block(f, body);
    }
}

fn block(f: &mut Function, b: Block) -> Block {
    b.into_iter().map(|s| stmt(f, s)).collect()
}

fn stmt(f: &mut Function, s: Stmt) -> Stmt {
    match s {
        Stmt::Loop(mut l) => {
            let body = block(f, std::mem::take(&mut l.body));
            let mut e = Emit::new(f);
            let kind = match &e.f.local(l.var).ty {
                Type::Int(k) => Some(*k),
                _ => None,
            };
            match (l.par, kind) {
                (
                    Parallelism::Par {
                        gang,
                        worker,
                        vector,
                    },
                    Some(kind),
                ) => {
                    let lv = Levels {
                        gang,
                        worker,
                        vector,
                    };
                    par::par_loop(&mut e, l, kind, lv, body);
                }
                // A parallel loop over a non-integer index cannot be counted;
                // the front end rejects it, and here it runs sequentially.
                _ => seq::seq_loop(&mut e, l, body),
            }
            Stmt::Block(e.out)
        }
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
        Stmt::Switch { value, arms } => Stmt::Switch {
            value,
            arms: arms
                .into_iter()
                .map(|a| crate::ir::SwitchArm {
                    body: block(f, a.body),
                    ..a
                })
                .collect(),
        },
        Stmt::Block(b) => Stmt::Block(block(f, b)),
        s @ (Stmt::Assign { .. }
        | Stmt::Store { .. }
        | Stmt::Break
        | Stmt::Continue
        | Stmt::Return(_)
        | Stmt::Call { .. }
        | Stmt::Copy { .. }
        | Stmt::Print { .. }) => s,
    }
}

#[cfg(test)]
mod tests;
