//! `__builtin_tgmath`, which glibc's `<tgmath.h>` expands its type-generic
//! macros to: `sqrt(x)` becomes `__builtin_tgmath(sqrtf, sqrt, sqrtl, csqrtf,
//! csqrt, csqrtl, x)`. As GCC does, the call goes to the candidate whose
//! parameters match the arguments at the positions where the candidates'
//! parameter types differ: `double` when one of those arguments is a
//! `double` or an integer, else `float` (complex and `long double` have no
//! device version).
//!
//! Owns: the `Lower` method [`Lower::tgmath`]. May call: `frontend::{ctype,
//! scope}`, `call.rs`.

use super::expr::Val;
use super::Lower;
use crate::diag::DResult;
use crate::frontend::ctype::{CType, FnType};
use crate::frontend::scope::SymKind;
use crate::ir::FloatKind;
use lang_c::ast::*;
use lang_c::span::{Node, Span};

impl Lower<'_> {
    /// Lowers `__builtin_tgmath(candidates…, arguments…)`.
    pub fn tgmath(&mut self, args: &[Node<Expression>], span: Span) -> DResult<Val> {
        // The leading arguments that name functions are the candidates.
        let mut cands: Vec<(String, FnType)> = vec![];
        for a in args {
            let Expression::Identifier(id) = &a.node else {
                break;
            };
            match self.host.lookup(&id.node.name) {
                Some(s) if s.kind == SymKind::Function => match &s.ty {
                    CType::Function(sig) => cands.push((id.node.name.clone(), (**sig).clone())),
                    _ => break,
                },
                _ => break,
            }
        }
        let values = &args[cands.len()..];
        let real = |t: &CType| matches!(t, CType::Float(_));
        cands.retain(|(_, sig)| {
            sig.params
                .as_ref()
                .is_some_and(|p| p.len() == values.len() && p.iter().any(real))
        });
        let params = |c: &(String, FnType)| c.1.params.clone().unwrap_or_default();
        // The generic positions: where the candidates' parameters differ.
        let generic: Vec<usize> = (0..values.len())
            .filter(|&k| {
                let first = cands.first().map(|c| params(c)[k].clone());
                cands.iter().any(|c| Some(params(c)[k].clone()) != first)
            })
            .collect();
        let mut double = false;
        for &k in &generic {
            // Typed without being evaluated here.
            let (v, _) = self.in_block(|l| l.expr(&values[k]))?;
            match v.ty() {
                CType::Float(FloatKind::F64) => double = true,
                t if t.is_integer() => double = true,
                CType::Float(_) => {}
                t => {
                    return self.err(
                        values[k].span,
                        format!("a type-generic math call on an argument of type '{t}' is not supported in device code"),
                    )
                }
            }
        }
        let want = CType::Float(if double {
            FloatKind::F64
        } else {
            FloatKind::F32
        });
        let chosen = cands.iter().find(|c| {
            let p = params(c);
            !generic.is_empty() && generic.iter().all(|&k| p[k] == want)
        });
        let Some((name, _)) = chosen else {
            return self.err(
                span,
                "no function of this type-generic math call ('__builtin_tgmath') fits its arguments",
            );
        };
        let call = CallExpression {
            callee: Box::new(Node::new(
                Expression::Identifier(Box::new(Node::new(
                    Identifier { name: name.clone() },
                    span,
                ))),
                span,
            )),
            arguments: values.to_vec(),
        };
        self.call(&call, span)
    }
}
