//! Private copies: `private(v)` and `firstprivate(v)` on a loop (or on a
//! `parallel`/`serial` construct, for the whole region).
//!
//! Owns: `Lower::privates`. Each variable gets a fresh local of its type in
//! the current scope, which the code after it sees instead of the
//! variable; a `firstprivate` copy starts with the variable's value where
//! the loop (region) starts. Every thread has its own copy, so a private
//! variable is private to each gang, worker and vector lane. A part of what
//! a pointer points to (`private(c[0:4])`) gets a local array of its
//! (constant) length, the pointer pointing into it.

use super::{Lower, Private};
use crate::diag::{DResult, Diagnostics};
use lang_c::ast::{Expression, Identifier};
use lang_c::span::{Node, Span};

impl Lower<'_> {
    /// Declares the private copies of `vars` in the current scope (the
    /// `firstprivate` values read first, in the scope around).
    pub(super) fn privates(&mut self, vars: &[Private]) -> DResult<()> {
        let mut decls = vec![];
        let mut pointees = vec![];
        for p in vars {
            let err = |m: String| Err(Diagnostics::one(Some(p.loc.clone()), m));
            let Some(ty) = self.var_type(&p.var) else {
                return err(format!("use of undeclared identifier '{}'", p.var));
            };
            if let (Some(section), super::CType::Ptr(elem)) = (&p.section, &ty) {
                let copy = self.pointee_copy(p, section, elem)?;
                pointees.push((p, ty.clone(), copy));
                continue;
            }
            if p.part && !ty.is_array() {
                return err(format!(
                    "a part of '{}' (type '{ty}') in a private clause: only parts of arrays and of what pointers point to can be private",
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
        for (p, ty, (first_byte, fill)) in pointees {
            if let Some(s) = fill {
                self.emit(s);
            }
            let local = self.declare_local(&p.var, ty, Span::none())?;
            self.emit(crate::ir::Stmt::Assign {
                local,
                value: first_byte,
            });
            // It points into this thread's own copy: every thread stores
            // into it, also where one thread stores to memory for the others.
            self.own_addrs.insert(local);
        }
        Ok(())
    }

    /// The private copy of `p.var[lo:len]` (`p.var` a pointer to `elem`), a
    /// local array of `len` elements: the value the pointer gets (the
    /// array's address minus `lo` elements, so `p.var[lo]` is its first
    /// element) and, for `firstprivate`, the copy of the original elements
    /// into it (read where the construct starts, through the pointer's
    /// device address).
    fn pointee_copy(
        &mut self,
        p: &Private,
        (lo, len): &(Option<String>, Option<u64>),
        elem: &super::CType,
    ) -> DResult<(crate::ir::ExprId, Option<crate::ir::Stmt>)> {
        use crate::ir::{Expr, Stmt, Type, UnOp};
        let err = |m: String| Err(Diagnostics::one(Some(p.loc.clone()), m));
        let Some(len) = *len else {
            return err(format!(
                "a private copy of what '{}' points to needs a constant length (each gang, worker or vector lane gets its own copy, in its own memory)",
                p.var
            ));
        };
        let (Some(ety), Some(esize)) = (elem.to_ir(), elem.size()) else {
            return err(format!(
                "'{}' points to '{elem}', which cannot have private copies on the device",
                p.var
            ));
        };
        let bytes = len.checked_mul(esize).filter(|b| *b <= 1 << 20);
        let Some(bytes) = bytes else {
            return err(format!(
                "the private copy of '{}' would take more than 1 MiB per thread",
                p.var
            ));
        };
        // (Each use of `lo` and of the array's address is its own tree.)
        let lo_expr = |l: &mut Self| -> DResult<crate::ir::ExprId> {
            match lo {
                Some(text) => match crate::frontend::clauses::parse_expression(text) {
                    Some(x) => l.rvalue_as(&x, &super::CType::LONG),
                    None => Err(Diagnostics::one(
                        Some(p.loc.clone()),
                        format!("'{text}' is not an expression"),
                    )),
                },
                None => Ok(l.f.int(0, Type::I64)),
            }
        };
        let arr = self.f.new_local(
            &format!("{}.private", p.var),
            Type::Array(Box::new(ety.clone()), len),
        );
        let base = self.f.add(Expr::LocalAddr(arr), ety.ptr_to());
        let lo = lo_expr(self)?;
        let neg = self.f.add(
            Expr::Unary {
                op: UnOp::Neg,
                arg: lo,
            },
            Type::I64,
        );
        let first_byte = self.f.add(Expr::PtrAdd { base, index: neg }, ety.ptr_to());
        let fill = if p.first {
            let id = Node::new(
                Expression::Identifier(Box::new(Node::new(
                    Identifier {
                        name: p.var.clone(),
                    },
                    Span::none(),
                ))),
                Span::none(),
            );
            let (orig, _) = self.rvalue(&id)?;
            let lo = lo_expr(self)?;
            let src = self.f.add(
                Expr::PtrAdd {
                    base: orig,
                    index: lo,
                },
                ety.ptr_to(),
            );
            let dst = self.f.add(Expr::LocalAddr(arr), ety.ptr_to());
            Some(Stmt::Copy { dst, src, bytes })
        } else {
            None
        };
        Ok((first_byte, fill))
    }

    /// The C type of variable `name` where the code is (a variable of the
    /// body, else of the host scope), without making it a kernel parameter.
    pub(super) fn var_type(&self, name: &str) -> Option<super::CType> {
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
