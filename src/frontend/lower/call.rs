//! Calls in device code: the `<math.h>` functions (libdevice), `abs`,
//! `acc_on_device`, and calls of device functions (`acc routine`, explicit
//! or implicit), whose arguments are converted to the prototype's types.
//!
//! Owns: the methods of `Lower` that lower calls, and the device calling
//! convention's hidden arguments: a struct result goes through a pointer
//! (`sret`) to the caller's temporary, a struct argument is a pointer to the
//! caller's copy, and three `bool`s say, per block dimension, whether the
//! calling thread performs the side effects of code the callee's own loops
//! do not partition along it.
//! May call: `frontend::routine` (to request the callee).

use super::expr::{Place, Val};
use super::Lower;
use crate::diag::DResult;
use crate::frontend::ctype::{CType, FnType};
use crate::frontend::routine::CallSite;
use crate::ir::{CmpOp, Expr, ExprId, FloatKind, Literal, MathFunc, Special, Stmt, Type, UnOp};
use lang_c::ast::*;
use lang_c::span::Span;

impl Lower<'_> {
    /// Lowers a call expression.
    pub fn call(&mut self, c: &CallExpression, span: Span) -> DResult<Val> {
        let Expression::Identifier(id) = &c.callee.node else {
            return self.err(
                span,
                "calls through function pointers are not supported in device code",
            );
        };
        let name = id.node.name.as_str();
        if name == "__builtin_tgmath" {
            return self.tgmath(&c.arguments, span);
        }
        if let Some((v, t)) = builtin_constant(name, &c.arguments) {
            let ir = self.ir_type(&t, span)?;
            return Ok(Val::R(self.f.add(Expr::Literal(Literal::Float(v)), ir), t));
        }
        if !self.routines.has_definition(name) {
            if let Some(v) = self.complex_call(name, &c.arguments, span) {
                return v;
            }
        }
        // A local or parameter of that name hides the function. A math
        // function may be called undeclared (C89's implicit declaration).
        let callee = match (self.resolve(name, id.span), math_name(name)) {
            (Err(_), Some((func, t))) => return self.math(func, t, name, &c.arguments, span),
            (r, _) => r?,
        };
        let sig = match callee {
            super::Resolved::Function(_, CType::Function(sig)) => *sig,
            super::Resolved::Function(..) => {
                return self.err(id.span, format!("'{name}' is not a function"))
            }
            _ => {
                return self.err(
                    id.span,
                    format!("called object '{name}' is not a function (calls through function pointers are not supported in device code)"),
                )
            }
        };
        if name == "printf" && !self.routines.has_definition(name) {
            return self.printf(&c.arguments, span);
        }
        if name == "acc_on_device" && c.arguments.len() == 1 {
            return self.acc_on_device(&c.arguments[0], span);
        }
        if let Some((func, t)) = math_name(name) {
            if !self.routines.has_definition(name) {
                return self.math(func, t, name, &c.arguments, span);
            }
        }
        if matches!(name, "abs" | "labs" | "llabs") && c.arguments.len() == 1 {
            return self.abs(name, &c.arguments[0], span);
        }
        self.device_call(name, &sig, &c.arguments, span)
    }

    /// `printf` with a string literal format: printed by the threads that
    /// perform side effects here (once per gang in gang-redundant code).
    fn printf(&mut self, args: &[lang_c::span::Node<Expression>], span: Span) -> DResult<Val> {
        let Some((fmt, rest)) = args.split_first() else {
            return self.err(span, "'printf' needs a format string");
        };
        let Expression::StringLiteral(parts) = &fmt.node else {
            return self.err(
                fmt.span,
                "in device code the format of 'printf' must be a string literal",
            );
        };
        let format = match crate::frontend::literal::string_literal(&parts.node) {
            Ok(b) => b,
            Err(m) => return self.err(fmt.span, m),
        };
        let mut vals = vec![];
        for a in rest {
            if let Expression::StringLiteral(_) = &a.node {
                return self.err(a.span, "string literal arguments of 'printf' are not supported in device code (put the text in the format)");
            }
            let (x, t) = self.rvalue(a)?;
            // The default argument promotions (C11 6.5.2.2p6).
            let to = match &t {
                CType::Float(_) => CType::DOUBLE,
                t if t.is_integer() => crate::frontend::conv::promote(t),
                CType::Ptr(_) => t.clone(),
                t => {
                    return self.err(
                        a.span,
                        format!("an argument of type '{t}' cannot be printed"),
                    )
                }
            };
            vals.push(self.convert(x, &t, &to, a.span)?);
        }
        self.emit_single(Stmt::Print { format, args: vals });
        Ok(Val::R(self.int_lit(0, &CType::INT), CType::INT))
    }

    /// `acc_on_device(x)`: `x == t && on_device.t`, or'ed over the device
    /// types `t` of `openacc.h` (0 to 9); the schedule answers each
    /// `on_device.t` for its target (the GPU: `acc_device_not_host` and
    /// `acc_device_nvidia`; the host's cores: `acc_device_host` and
    /// `acc_device_multicore`), and a constant `x` folds to one answer.
    fn acc_on_device(&mut self, arg: &lang_c::span::Node<Expression>, span: Span) -> DResult<Val> {
        let (x, t) = self.rvalue(arg)?;
        let x = self.convert(x, &t, &CType::INT, span)?;
        if let Expr::Literal(Literal::Int(v)) = *self.f.expr(x) {
            // A device type named by its constant: the one answer.
            let answer = match u8::try_from(v) {
                Ok(device) => self
                    .f
                    .add(Expr::Special(Special::OnDevice(device)), Type::BOOL),
                Err(_) => self.f.int(0, Type::BOOL),
            };
            return Ok(Val::R(
                self.f.add(Expr::Cast(answer), Type::I32),
                CType::INT,
            ));
        }
        let tmp = self.hold(x);
        let mut any = self.f.int(0, Type::BOOL);
        for device in 0..=9u8 {
            let xv = self.f.read(tmp);
            let tv = self.int_lit(i128::from(device), &CType::INT);
            let is = self.f.add(
                Expr::Cmp {
                    op: CmpOp::Eq,
                    lhs: xv,
                    rhs: tv,
                },
                Type::BOOL,
            );
            let on = self
                .f
                .add(Expr::Special(Special::OnDevice(device)), Type::BOOL);
            let both = self.f.add(
                Expr::Logical {
                    and: true,
                    lhs: is,
                    rhs: on,
                },
                Type::BOOL,
            );
            any = self.f.add(
                Expr::Logical {
                    and: false,
                    lhs: any,
                    rhs: both,
                },
                Type::BOOL,
            );
        }
        Ok(Val::R(self.f.add(Expr::Cast(any), Type::I32), CType::INT))
    }

    /// A `<math.h>` function of type `t` (`float`, `double`, or `long
    /// double`, computed in double precision).
    fn math(
        &mut self,
        func: MathFunc,
        t: CType,
        name: &str,
        args: &[lang_c::span::Node<Expression>],
        span: Span,
    ) -> DResult<Val> {
        if args.len() != func.arity() {
            return self.err(span, format!("'{name}' takes {} argument(s)", func.arity()));
        }
        let mut vals = vec![];
        for a in args {
            vals.push(self.rvalue_as(a, &t)?);
        }
        let ir = self.ir_type(&t, span)?;
        Ok(Val::R(self.f.add(Expr::Math { func, args: vals }, ir), t))
    }

    fn abs(
        &mut self,
        name: &str,
        arg: &lang_c::span::Node<Expression>,
        span: Span,
    ) -> DResult<Val> {
        let t = match name {
            "abs" => CType::INT,
            _ => CType::LONG,
        };
        let x = self.rvalue_as(arg, &t)?;
        let ir = self.ir_type(&t, span)?;
        let tmp = self.hold(x);
        let (a, b, n) = (self.f.read(tmp), self.f.read(tmp), self.f.read(tmp));
        let neg = self.f.add(
            Expr::Unary {
                op: UnOp::Neg,
                arg: b,
            },
            ir.clone(),
        );
        let zero = self.int_lit(0, &t);
        let lt = self.f.add(
            Expr::Cmp {
                op: CmpOp::Lt,
                lhs: n,
                rhs: zero,
            },
            Type::BOOL,
        );
        Ok(Val::R(
            self.f.add(
                Expr::Select {
                    cond: lt,
                    then: neg,
                    otherwise: a,
                },
                ir,
            ),
            t,
        ))
    }

    /// The hidden guard arguments: per block dimension (x, y, z), whether
    /// this thread performs the side effects of code not partitioned
    /// along it (which `schedule` decides).
    fn guard_args(&mut self) -> [ExprId; 3] {
        std::array::from_fn(|d| {
            self.f
                .add(Expr::Special(Special::Performs(d as u8)), Type::BOOL)
        })
    }

    /// A call of the device version of function `name`.
    fn device_call(
        &mut self,
        name: &str,
        sig: &FnType,
        args: &[lang_c::span::Node<Expression>],
        span: Span,
    ) -> DResult<Val> {
        if sig.variadic {
            return self.err(
                span,
                format!("the variadic function '{name}' cannot be called in device code"),
            );
        }
        let Some(params) = &sig.params else {
            return self.err(
                span,
                format!("function '{name}' is declared without a prototype; declare its parameter types to call it in device code"),
            );
        };
        if params.len() != args.len() {
            return self.err(
                span,
                format!(
                    "too {} arguments to function call of '{name}', expected {}, have {}",
                    if args.len() > params.len() {
                        "many"
                    } else {
                        "few"
                    },
                    params.len(),
                    args.len()
                ),
            );
        }
        let mut vals = vec![];
        for (a, pt) in args.iter().zip(params) {
            let (x, t) = self.rvalue(a)?;
            let v = match pt {
                pt if pt.by_address() => {
                    let x = if pt.is_complex() {
                        self.convert(x, &t, pt, a.span)?
                    } else {
                        x
                    };
                    if !pt.is_complex() && t != *pt {
                        return self.err(
                            a.span,
                            format!("passing '{t}' to parameter of incompatible type '{pt}'"),
                        );
                    }
                    // The callee gets the address of the caller's copy.
                    let ir = self.ir_type(pt, a.span)?;
                    let tmp = self.temp(ir);
                    let dst = self.addr_of(Place::Local(tmp), pt, a.span)?;
                    self.copy_struct(dst, x, pt, a.span)?;
                    self.addr_of(Place::Local(tmp), pt, a.span)?
                }
                CType::Ptr(_) if matches!(t, CType::Ptr(_)) || t.is_integer() => {
                    let want = self.ir_type(pt, a.span)?;
                    if t.is_integer() {
                        self.convert(x, &t, pt, a.span)?
                    } else {
                        self.cast_ir(x, want)
                    }
                }
                _ => self.convert(x, &t, pt, a.span)?,
            };
            vals.push(v);
        }
        let sret = match &sig.ret {
            t if t.by_address() => {
                let ir = self.ir_type(&sig.ret, span)?;
                let tmp = self.temp(ir);
                let a = self.addr_of(Place::Local(tmp), &sig.ret, span)?;
                vals.push(a);
                Some(tmp)
            }
            _ => None,
        };
        vals.extend(self.guard_args());
        let loc = self.sm.loc(span.start);
        let site = CallSite {
            loc: loc.clone(),
            caller_level: self.routine_level(),
        };
        let func = self.routines.request(name, sig, site);
        let result = match (&sig.ret, sret) {
            (CType::Void, _) | (_, Some(_)) => None,
            (t, None) => {
                let ir = self.ir_type(t, span)?;
                Some(self.temp(ir))
            }
        };
        self.emit(Stmt::Call {
            func,
            args: vals,
            result,
            loc,
        });
        Ok(match (sret, result) {
            (Some(tmp), _) => Val::L(Place::Local(tmp), sig.ret.clone()),
            (None, Some(r)) => Val::R(self.f.read(r), sig.ret.clone()),
            (None, None) => Val::R(self.int_lit(0, &CType::INT), CType::Void),
        })
    }
}

/// The `<math.h>` function a name calls and its type: `sqrt` (double),
/// `sqrtf` (float), `sqrtl` (long double, computed in double precision).
fn math_name(name: &str) -> Option<(MathFunc, CType)> {
    if let Some((f, single)) = MathFunc::from_c_name(name) {
        let t = if single {
            CType::Float(FloatKind::F32)
        } else {
            CType::DOUBLE
        };
        return Some((f, t));
    }
    let (f, single) = MathFunc::from_c_name(name.strip_suffix('l')?)?;
    (!single).then_some((f, CType::LongDouble))
}

/// GCC's constant builtins behind `<math.h>`'s `HUGE_VAL`, `INFINITY` and
/// `NAN` (`__builtin_huge_val()`, `__builtin_inff()`, `__builtin_nanf("")`,
/// with their `f`/`l` forms): the value and its type.
fn builtin_constant(name: &str, args: &[lang_c::span::Node<Expression>]) -> Option<(f64, CType)> {
    let base = name.strip_prefix("__builtin_")?;
    let known = |s: &str| matches!(s, "huge_val" | "inf" | "nan");
    let (stem, t) = if known(base) {
        (base, CType::DOUBLE)
    } else if let Some(s) = base.strip_suffix('f').filter(|s| known(s)) {
        (s, CType::Float(FloatKind::F32))
    } else {
        (base.strip_suffix('l')?, CType::LongDouble)
    };
    let empty_string = |a: &lang_c::span::Node<Expression>| matches!(&a.node, Expression::StringLiteral(s) if s.node.iter().all(|p| p == "\"\""));
    match (stem, args) {
        ("huge_val" | "inf", []) => Some((f64::INFINITY, t)),
        ("nan", [a]) if empty_string(a) => Some((f64::NAN, t)),
        _ => None,
    }
}
