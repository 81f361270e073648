//! The base type of a declaration in device code, with the GNU forms whose
//! type comes from an expression: `__auto_type x = e;` (the type of `e`
//! after lvalue conversion: arrays and functions become pointers) and
//! `__typeof__(e) y;` (the type of `e` as it is). `_Atomic` objects are
//! rejected (device code updates shared data with `#pragma acc atomic`), and
//! structs defined with layout attributes accc does not apply are made
//! unusable.
//!
//! Owns: the `Lower` method [`Lower::declared_base`]. May call:
//! `frontend::{attrs, ctype, declare}`.

use super::Lower;
use crate::diag::DResult;
use crate::frontend::ctype::CType;
use crate::frontend::{attrs, declare};
use lang_c::ast::*;
use lang_c::span::Node;

impl Lower<'_> {
    /// The type the specifiers of declaration `d` give its declarators.
    pub fn declared_base(&mut self, d: &Node<Declaration>) -> DResult<CType> {
        let specs = &d.node.specifiers;
        for s in specs {
            if let DeclarationSpecifier::TypeQualifier(q) = &s.node {
                if q.node == TypeQualifier::Atomic {
                    return self.err(
                        q.span,
                        "'_Atomic' objects are not supported in device code (use '#pragma acc atomic')",
                    );
                }
            }
        }
        let types = declare::type_specifiers(specs);
        let base = match types.as_slice() {
            [t] if t.node == TypeSpecifier::AutoType => {
                let [id] = d.node.declarators.as_slice() else {
                    return self.err(t.span, "'__auto_type' needs exactly one declarator");
                };
                let Some(Node {
                    node: Initializer::Expression(e),
                    ..
                }) = &id.node.initializer
                else {
                    return self.err(
                        t.span,
                        "'__auto_type' needs an initializer that is an expression",
                    );
                };
                // Typed without being evaluated here (the initialiser is
                // lowered again where the variable is initialised).
                let (v, _) = self.in_block(|l| l.expr(e))?;
                v.ty().decay()
            }
            _ => self.specifier_type(&types)?,
        };
        Ok(attrs::apply_type_attributes(
            specs, base, self.host, self.sm,
        ))
    }

    /// The type named by type specifiers, `__typeof__` (of an expression,
    /// or of a type name that uses one: `__typeof__(__typeof__(x) *)`)
    /// included.
    fn specifier_type(&mut self, types: &[&Node<TypeSpecifier>]) -> DResult<CType> {
        let [t] = types else {
            return declare::base_type(types, self.host, self.sm);
        };
        let TypeSpecifier::TypeOf(to) = &t.node else {
            return declare::base_type(types, self.host, self.sm);
        };
        match &to.node {
            TypeOf::Expression(e) => {
                // Typed, not evaluated (GCC evaluates only variably
                // modified operands).
                let (v, _) = self.in_block(|l| l.expr(e))?;
                Ok(v.ty().clone())
            }
            TypeOf::Type(name) => {
                let base =
                    self.specifier_type(&declare::type_name_specifiers(&name.node.specifiers))?;
                match &name.node.declarator {
                    Some(d) => Ok(declare::apply_declarator(base, d, self.host, self.sm)?.1),
                    None => Ok(base),
                }
            }
        }
    }
}
