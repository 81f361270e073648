//! Read and write sets: which locals a body reads or writes memory
//! through, and so whether each parameter is read-only, write-only or
//! read-write.
//!
//! Owns: [`Access`], [`param_access`], [`written_locals`]. May call: `ir`.
//!
//! The rule (deliberately the one the NVPTX back end's `readonly`
//! attribute has always had, so its PTX is unchanged): a local is
//! *written* when it is read anywhere in the address of a store, an
//! atomic update, a `Copy`'s destination or a pointer argument of a call,
//! or in the target of a reduction into memory; *read* when it is read in
//! the address of a load, an atomic, a `Copy`'s source, a pointer argument
//! of a call or a reduction's target. Both sets are then closed over
//! assignments: a local assigned from an expression that reads `p` makes
//! `p` read (written) when the local is. Indexed accesses count like the
//! pointer arithmetic they stand for (their base and subscripts are part of
//! the address). The rule is conservative: every local of an address
//! counts, also one only loaded from (`a[b[i]] = …` marks `b` written), and
//! a pointer passed to a device function counts as read and written
//! whatever the routine does with it.

use crate::ir::{walk_stmts, Expr, ExprId, Function, LocalId, RedTarget, Stmt, Type};
use std::collections::HashSet;

/// What a body does with the memory a parameter points to.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Access {
    /// Memory is read through it.
    pub read: bool,
    /// Memory is written through it.
    pub written: bool,
}

impl Access {
    /// Nothing writes through it (it may still be read, or unused).
    pub fn read_only(self) -> bool {
        !self.written
    }
}

impl std::fmt::Display for Access {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match (self.read, self.written) {
            (false, false) => "not accessed",
            (true, false) => "read-only",
            (false, true) => "write-only",
            (true, true) => "read-write",
        })
    }
}

/// The access through each of `params` (locals of `f`), in order.
pub fn param_access(f: &Function, params: &[LocalId]) -> Vec<Access> {
    let sets = Sets::of(f);
    params
        .iter()
        .map(|p| Access {
            read: sets.read.contains(p),
            written: sets.written.contains(p),
        })
        .collect()
}

/// The locals of `f` that memory is written through (see the module doc).
pub fn written_locals(f: &Function) -> HashSet<LocalId> {
    Sets::of(f).written
}

/// The read and written sets of one body.
struct Sets {
    read: HashSet<LocalId>,
    written: HashSet<LocalId>,
}

impl Sets {
    fn of(f: &Function) -> Sets {
        let (mut reads, mut writes, mut flows) = (vec![], vec![], vec![]);
        walk_stmts(&f.body, &mut |s| {
            for root in s.roots() {
                loads(f, root, &mut reads);
            }
            match s {
                Stmt::Store { ptr, .. } | Stmt::AtomicStore { ptr, .. } => {
                    f.locals_read(*ptr, &mut writes)
                }
                Stmt::AtomicRmw { ptr, .. } | Stmt::AtomicCas { ptr, .. } => {
                    f.locals_read(*ptr, &mut writes);
                    f.locals_read(*ptr, &mut reads);
                }
                Stmt::AtomicLoad { ptr, .. } => f.locals_read(*ptr, &mut reads),
                Stmt::Copy { dst, src, .. } => {
                    f.locals_read(*dst, &mut writes);
                    f.locals_read(*src, &mut reads);
                }
                Stmt::Call { args, .. } => {
                    for a in args {
                        if matches!(f.ty(*a), Type::Ptr(_)) {
                            f.locals_read(*a, &mut writes);
                            f.locals_read(*a, &mut reads);
                        }
                    }
                }
                Stmt::Loop(l) => {
                    for r in &l.reductions {
                        if let RedTarget::Memory(p) = r.target {
                            f.locals_read(p, &mut writes);
                            f.locals_read(p, &mut reads);
                        }
                    }
                }
                Stmt::Assign { local, value } => {
                    let mut v = vec![];
                    f.locals_read(*value, &mut v);
                    flows.push((*local, v));
                }
                _ => {}
            }
        });
        Sets {
            read: close(reads, &flows),
            written: close(writes, &flows),
        }
    }
}

/// `seed` closed over the assignments `flows` (destination, the locals its
/// value reads).
fn close(seed: Vec<LocalId>, flows: &[(LocalId, Vec<LocalId>)]) -> HashSet<LocalId> {
    let mut set: HashSet<LocalId> = seed.into_iter().collect();
    loop {
        let before = set.len();
        for (dst, srcs) in flows {
            if set.contains(dst) {
                set.extend(srcs.iter().copied());
            }
        }
        if set.len() == before {
            return set;
        }
    }
}

/// The locals read in the address of every load in the tree `id`.
fn loads(f: &Function, id: ExprId, out: &mut Vec<LocalId>) {
    if let Expr::Load(p) = f.expr(id) {
        f.locals_read(*p, out);
    }
    for c in f.children(id) {
        loads(f, c, out);
    }
}
