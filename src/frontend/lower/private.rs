//! Private copies: `private(v)` and `firstprivate(v)` on a loop (or on a
//! `parallel`/`serial` construct, for the whole region).
//!
//! Owns: `Lower::privates`. Each variable gets a fresh local of its type in
//! the current scope, which the code after it sees instead of the
//! variable; a `firstprivate` copy starts with the variable's value where
//! the loop (region) starts. Every thread has its own copy, so a private
//! variable is private to each gang, worker and vector lane.

use super::{Lower, Private};
use crate::diag::{DResult, Diagnostics};
use lang_c::ast::{Expression, Identifier};
use lang_c::span::{Node, Span};

impl Lower<'_> {
    /// Declares the private copies of `vars` in the current scope (the
    /// `firstprivate` values read first, in the scope around).
    pub(super) fn privates(&mut self, vars: &[Private]) -> DResult<()> {
        let mut decls = vec![];
        for p in vars {
            let err = |m: String| Err(Diagnostics::one(Some(p.loc.clone()), m));
            let Some(ty) = self.var_type(&p.var) else {
                return err(format!("use of undeclared identifier '{}'", p.var));
            };
            if p.part && !ty.is_array() {
                return err(format!(
                    "a part of '{}' (type '{ty}') in a private clause: only parts of arrays can be private (the whole array is); private copies of memory a pointer points to are not supported",
                    p.var
                ));
            }
            let init = if p.first {
                if !(ty.is_c_arithmetic() || matches!(ty, super::CType::Ptr(_))) {
                    return err(format!(
                        "firstprivate '{}' of type '{ty}': only scalars and pointers are supported",
                        p.var
                    ));
                }
                let id = Node::new(
                    Expression::Identifier(Box::new(Node::new(
                        Identifier {
                            name: p.var.clone(),
                        },
                        Span::none(),
                    ))),
                    Span::none(),
                );
                match self.rvalue_as(&id, &ty) {
                    Ok(v) => Some(v),
                    Err(_) => return err(format!("'{}' cannot be firstprivate", p.var)),
                }
            } else {
                None
            };
            decls.push((p, ty, init));
        }
        for (p, ty, init) in decls {
            let local = match self.declare_local(&p.var, ty.clone(), Span::none()) {
                Ok(l) => l,
                Err(_) => {
                    return Err(Diagnostics::one(
                        Some(p.loc.clone()),
                        format!("'{}' cannot be private on the device", p.var),
                    ))
                }
            };
            match init {
                // A complex value is the address of the original's storage.
                Some(value) if ty.is_complex() => {
                    let dst = self.addr_of(super::expr::Place::Local(local), &ty, Span::none())?;
                    self.copy_struct(dst, value, &ty, Span::none())?;
                }
                Some(value) => self.emit(crate::ir::Stmt::Assign { local, value }),
                None => {}
            }
        }
        Ok(())
    }

    /// The C type of variable `name` where the code is (a variable of the
    /// body, else of the host scope), without making it a kernel parameter.
    fn var_type(&self, name: &str) -> Option<super::CType> {
        for s in self.scopes.iter().rev() {
            if let Some((_, ty)) = s.get(name) {
                return Some(ty.clone());
            }
        }
        if let Some(v) = self
            .vars
            .iter()
            .find(|v| v.name == name && v.size_of.is_none())
        {
            return Some(v.ty.clone());
        }
        self.host.lookup(name).map(|s| s.ty.clone())
    }
}
