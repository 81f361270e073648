//! Removing locals a body no longer uses: the locals after them move down,
//! every reference with them (expressions, statements, loops, reductions,
//! the undecided facts), so the body reads as if they were never made.
//!
//! Owns: [`Function::drop_locals`]. May call: `ir` types.

use super::expr::Expr;
use super::function::{Function, LocalId};
use super::reduce::RedTarget;
use super::stmt::{Block, Stmt};

impl Function {
    /// Removes locals `dead` (which nothing may use any more); gives the
    /// new id of each old one (`None`: removed), for the references
    /// outside the body (a kernel's parameters).
    pub fn drop_locals(&mut self, dead: &[LocalId]) -> Vec<Option<LocalId>> {
        let mut map = vec![];
        let mut next = 0u32;
        for i in 0..self.locals.len() {
            if dead.contains(&LocalId(i as u32)) {
                map.push(None);
            } else {
                map.push(Some(LocalId(next)));
                next += 1;
            }
        }
        let mut i = 0;
        self.locals.retain(|_| {
            i += 1;
            map[i - 1].is_some()
        });
        let at = |l: &mut LocalId| {
            if let Some(Some(n)) = map.get(l.0 as usize) {
                *l = *n;
            }
        };
        for e in &mut self.exprs {
            if let Expr::Local(l) | Expr::LocalAddr(l) = e {
                at(l);
            }
        }
        block(&mut self.body, &at);
        if let Some(u) = &mut self.undecided {
            u.named.iter_mut().for_each(|n| at(&mut n.private));
        }
        map
    }
}

/// Renumbers the locals the statements of `b` name (`at`).
fn block(b: &mut Block, at: &impl Fn(&mut LocalId)) {
    for s in b.iter_mut() {
        match s {
            Stmt::Assign { local, .. } => at(local),
            Stmt::Call {
                result: Some(l), ..
            }
            | Stmt::AtomicRmw { old: Some(l), .. }
            | Stmt::AtomicLoad { dst: l, .. }
            | Stmt::Broadcast { value: l, .. } => at(l),
            Stmt::AtomicCas { old, ok, .. } => {
                at(old);
                at(ok);
            }
            Stmt::Loop(lp) => {
                at(&mut lp.var);
                for h in &mut lp.collapsed {
                    at(&mut h.var);
                }
                for r in &mut lp.reductions {
                    at(&mut r.private);
                    if let RedTarget::Local(t) = &mut r.target {
                        at(t);
                    }
                }
            }
            _ => {}
        }
        for inner in s.blocks_mut() {
            block(inner, at);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::ir::{Function, LocalId, Stmt, Type};

    /// The locals after a removed one move down, with their uses.
    #[test]
    fn dropped_locals_renumber_the_rest() {
        let mut f = Function::default();
        let a = f.new_local("a", Type::I32);
        let dead = f.new_local("dead", Type::I32);
        let b = f.new_local("b", Type::I32);
        let value = f.read(a);
        f.body = vec![Stmt::Assign { local: b, value }];
        let map = f.drop_locals(&[dead]);
        assert_eq!(map, [Some(LocalId(0)), None, Some(LocalId(1))]);
        assert_eq!(f.locals.len(), 2);
        assert_eq!(f.locals[1].name, "b");
        assert!(matches!(
            f.body[0],
            Stmt::Assign {
                local: LocalId(1),
                ..
            }
        ));
        assert_eq!(f.exprs[value.0 as usize], crate::ir::Expr::Local(a));
    }
}
