//! Reductions in lowering: a `reduction` variable's target (the variable
//! outside the loop: a local of the body, or a host variable in device
//! memory) and its private copy, which the loop body sees instead.
//!
//! Owns: `Lower::reduction` (one variable of a loop's clause) and
//! `Lower::region_reductions` (the clause of a `parallel` or `serial`
//! construct: the whole region, once per gang, becomes a gang loop whose
//! reduction combines the gangs). Lowering reads no loop's levels: which
//! reductions the schedule can combine where they are is the validator's
//! check (`ir::validate`, its level checks), but for an element reduced
//! across gangs inside another loop, which `compute` rejects before
//! lowering, where it promotes the scalars so reduced to the construct.

use super::{Binding, CType, LoopReduction, Lower, Resolved};
use crate::diag::{DResult, Diagnostics};
use crate::ir::{reducible, Loop, Parallelism, RedOp, RedPart, RedTarget, Reduction, Stmt};
use lang_c::ast::Statement;
use lang_c::span::{Node, Span};

impl Lower<'_> {
    fn red_err<T>(r: &LoopReduction, msg: String) -> DResult<T> {
        Err(Diagnostics::one(Some(r.loc.clone()), msg))
    }

    /// Resolves reduction variable `r` of a loop (in the scope around the
    /// loop) and declares its private copy in the current scope.
    pub(super) fn reduction(&mut self, r: &LoopReduction) -> DResult<Reduction> {
        if let Some(index) = &r.index {
            return self.element_reduction(r, index);
        }
        let resolved = match self.resolve(&r.var, Span::none()) {
            Ok(x) => x,
            Err(_) => return Self::red_err(r, format!("use of undeclared identifier '{}'", r.var)),
        };
        let (target, cty) = match resolved {
            Resolved::Local(Binding::Local(id), t) => (RedTarget::Local(id), t),
            Resolved::Param(i) => {
                let local = self.params[i].local;
                let t = self.vars[i].ty.clone();
                // Arrays are reached through their device address; scalars
                // in device memory (`by_ref`) and structs too.
                if self.vars[i].by_ref || t.is_array() {
                    (RedTarget::Memory(self.f.read(local)), t)
                } else {
                    (RedTarget::Local(local), t)
                }
            }
            Resolved::Global(p, t) => (RedTarget::Memory(p), t),
            _ => {
                return Self::red_err(
                    r,
                    format!("'{}' in a reduction clause is not a variable", r.var),
                )
            }
        };
        // The reduced elements: all of them, or those of the section.
        let mut parts = vec![];
        let found = match (r.section, &cty) {
            (None, t) => parts_of(t, 0, &mut parts),
            (Some((lo, n)), CType::Array(elem, Some(len))) if lo + n <= *len => match elem.size() {
                Some(sz) => parts_of(&CType::Array(elem.clone(), Some(n)), lo * sz, &mut parts),
                None => Err(()),
            },
            (Some(_), CType::Array(..)) => {
                return Self::red_err(
                    r,
                    format!(
                        "reduction on '{}': the elements are outside the array",
                        r.var
                    ),
                )
            }
            (Some(_), _) => {
                return Self::red_err(
                    r,
                    format!(
                        "reduction on an element of '{}', which is not an array",
                        r.var
                    ),
                )
            }
        };
        if holds(&cty, &|t| *t == CType::LongDouble) {
            return Self::red_err(
                r,
                format!("reduction variable '{}' has type '{cty}': reductions on 'long double' are not supported on the device (it computes them in double precision; reduce a 'double')", r.var),
            );
        }
        if found.is_err() || parts.is_empty() {
            return Self::red_err(
                r,
                format!("reduction variable '{}' has type '{cty}'; only arithmetic types, arrays of them and structs of them can be reduced", r.var),
            );
        }
        // OpenACC 3.3 2.5.15: of the operators, '+' and '*' apply to
        // complex numbers; '+' reduces the parts one by one, '*' pairs them.
        let mut op = r.op;
        if holds(&cty, &CType::is_complex) {
            match r.op {
                RedOp::Add => {}
                RedOp::Mul if all_complex(&cty) => op = RedOp::ComplexMul,
                RedOp::Mul => {
                    return Self::red_err(
                        r,
                        format!("reduction '*' on '{}' of type '{cty}', which holds both complex and real numbers, is not supported", r.var),
                    )
                }
                _ => {
                    return Self::red_err(
                        r,
                        format!(
                            "reduction operator '{}' cannot be applied to '{}' of type '{cty}'",
                            r.op.symbol(),
                            r.var
                        ),
                    )
                }
            }
        }
        if parts.iter().any(|p| !op.applies_to(&p.ty)) {
            return Self::red_err(
                r,
                format!(
                    "reduction operator '{}' cannot be applied to '{}' of type '{cty}'",
                    r.op.symbol(),
                    r.var
                ),
            );
        }
        let private = match self.declare_local(&r.var, cty, Span::none()) {
            Ok(l) => l,
            Err(_) => {
                return Self::red_err(
                    r,
                    format!(
                        "reduction variable '{}' cannot be private on the device",
                        r.var
                    ),
                )
            }
        };
        Ok(Reduction {
            op,
            private,
            target,
            parts,
        })
    }

    /// A reduction on element `var[index]` whose subscript the loop does not
    /// change: a scalar private copy the body's `var[index]` stands for, and
    /// the element's address (computed before the loop) as the target.
    fn element_reduction(&mut self, r: &LoopReduction, index: &str) -> DResult<Reduction> {
        let text = format!("{}[{index}]", r.var);
        let Some(e) = crate::frontend::clauses::parse_expression(&text) else {
            return Self::red_err(
                r,
                format!("reduction on '{text}': cannot parse the element"),
            );
        };
        // (Its spans are of the clause's text: no element lookup in it.)
        let outer = std::mem::take(&mut self.elem_reds);
        let lowered = self.expr(&e);
        self.elem_reds = outer;
        let place = match lowered {
            Ok(super::expr::Val::L(place, ty)) => (place, ty),
            Ok(_) => {
                return Self::red_err(
                    r,
                    format!("reduction on '{text}': not an element of an array"),
                )
            }
            Err(d) => return Err(d),
        };
        let (place, ty) = place;
        if !ty.is_arithmetic() {
            return Self::red_err(
                r,
                format!("reduction variable '{text}' has type '{ty}'; only arithmetic elements can be reduced"),
            );
        }
        let irty = self.ir_type(&ty, Span::none())?;
        if !r.op.applies_to(&irty) || !reducible(&irty) {
            return Self::red_err(
                r,
                format!(
                    "reduction operator '{}' cannot be applied to '{text}' of type '{ty}'",
                    r.op.symbol()
                ),
            );
        }
        let addr = self.addr_of(place, &ty, Span::none())?;
        let at = self.f.new_local("red.at", self.f.ty(addr).clone());
        self.emit(Stmt::Assign {
            local: at,
            value: addr,
        });
        let target = RedTarget::Memory(self.f.read(at));
        let private = self.f.new_local(&text, irty.clone());
        let key: String = text.chars().filter(|c| !c.is_whitespace()).collect();
        self.elem_reds.push((key, private, ty));
        let size = irty.size();
        Ok(Reduction {
            op: r.op,
            private,
            target,
            parts: vec![RedPart {
                offset: 0,
                ty: irty,
                count: 1,
                stride: size,
            }],
        })
    }

    /// Lowers region body `s` of a construct with `private`/`firstprivate`
    /// variables `privs` and `reduction` variables `reds`: with reductions
    /// the body runs once per gang as the body of a loop over the gangs
    /// (`for (g = 0; g < gridDim.x; g++)`, shared among gangs) whose
    /// reductions combine the gangs' private copies.
    pub fn region(
        &mut self,
        s: &Node<Statement>,
        reds: &[LoopReduction],
        privs: &[super::Private],
    ) -> DResult<()> {
        let gang = Parallelism::Par {
            gang: Some(0),
            worker: false,
            vector: None,
        };
        self.push_scope();
        let r = (|| {
            self.privates(privs)?;
            if reds.is_empty() {
                return self.stmt(s);
            }
            let mut reductions = vec![];
            for r in reds {
                reductions.push(self.reduction(r)?);
            }
            let loc = reds.first().map(|r| r.loc.clone()).unwrap_or_default();
            let mut l = Loop::over_the_gangs(&mut self.f, gang, reductions, loc);
            let ((), body) = self.in_block(|l| l.stmt(s))?;
            l.body = body;
            self.emit(Stmt::Loop(l));
            Ok(())
        })();
        self.pop_scope();
        r
    }
}

/// The runs of scalar elements of an object of type `ty` at byte `offset`
/// (arithmetic values, arrays of them, structs of those); `Err` for
/// anything else (pointers, unions, incomplete types).
fn parts_of(ty: &CType, offset: u64, out: &mut Vec<RedPart>) -> Result<(), ()> {
    // At most this many runs (a struct of arrays of structs…).
    const MAX_PARTS: usize = 256;
    if out.len() > MAX_PARTS {
        return Err(());
    }
    match ty {
        // Its two parts, of a real floating type.
        CType::Complex(real) => {
            let ir = real.to_ir().filter(reducible).ok_or(())?;
            let size = ir.size();
            out.push(RedPart {
                offset,
                ty: ir,
                count: 2,
                stride: size,
            });
            Ok(())
        }
        t if t.is_arithmetic() => {
            let ir = t.to_ir().filter(reducible).ok_or(())?;
            let size = ir.size();
            out.push(RedPart {
                offset,
                ty: ir,
                count: 1,
                stride: size,
            });
            Ok(())
        }
        CType::Array(elem, Some(n)) => {
            // Arrays of scalars (of any rank): one run.
            let mut inner = &**elem;
            let mut per = 1u64;
            while let CType::Array(e, Some(m)) = inner {
                per = per.checked_mul(*m).ok_or(())?;
                inner = e;
            }
            if inner.is_arithmetic()
                || matches!(inner, CType::Complex(r) if **r != CType::LongDouble)
            {
                // Complex elements: twice as many values of the real type.
                let (scalar, twice) = match inner {
                    CType::Complex(r) => (&**r, 2),
                    t => (t, 1),
                };
                let ir = scalar.to_ir().filter(reducible).ok_or(())?;
                let size = ir.size();
                out.push(RedPart {
                    offset,
                    ty: ir,
                    count: n
                        .checked_mul(per)
                        .and_then(|c| c.checked_mul(twice))
                        .ok_or(())?,
                    stride: size,
                });
                return Ok(());
            }
            let size = elem.size().ok_or(())?;
            for k in 0..*n {
                parts_of(elem, offset + k * size, out)?;
            }
            Ok(())
        }
        CType::Struct(s) if !s.is_union() && s.unusable().is_none() => {
            for m in s.members() {
                parts_of(&m.ty, offset + m.offset, out)?;
            }
            Ok(())
        }
        _ => Err(()),
    }
}

/// Whether `ty` is, or is made of (arrays, struct members), a type `p`
/// holds for.
fn holds(ty: &CType, p: &dyn Fn(&CType) -> bool) -> bool {
    p(ty)
        || match ty {
            CType::Array(e, _) => holds(e, p),
            CType::Struct(s) => s.members().iter().any(|m| holds(&m.ty, p)),
            CType::Complex(r) => holds(r, p),
            _ => false,
        }
}

/// Whether every number `ty` holds is complex.
fn all_complex(ty: &CType) -> bool {
    match ty {
        CType::Complex(_) => true,
        CType::Array(e, _) => all_complex(e),
        CType::Struct(s) => s.members().iter().all(|m| all_complex(&m.ty)),
        _ => false,
    }
}
