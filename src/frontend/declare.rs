//! Declarations: C types from lang-c declaration specifiers and declarators
//! (struct and union definitions among them), and integer constant
//! expressions (array sizes, enumerators, case labels). GNU types device
//! code cannot use (`__int128`, `_Float128`, vector types, `_Atomic`,
//! structs whose layout attributes accc does not apply) are named
//! `Unsupported` types: an error only where device code uses them.
//!
//! Owns: [`base_type`], [`apply_declarator`], [`const_int`]. May call:
//! `attrs`, `ctype`, `exprtype`, `record`, `scope`, `literal`, `source`.

use super::attrs;
use super::ctype::{CType, FnType, VlaLen};
use super::literal;
use super::record::{Field, StructRef};
use super::scope::{Scope, SymKind, Symbol};
use super::source::SourceMap;
use crate::diag::{DResult, Diagnostics};
use crate::ir::{FloatKind, IntKind};
use lang_c::ast::*;
use lang_c::span::{Node, Span};

fn err<T>(sm: &SourceMap, span: Span, msg: impl Into<String>) -> DResult<T> {
    Err(Diagnostics::one(Some(sm.loc(span.start)), msg))
}

/// The type named by a list of type specifiers (`unsigned long`, a typedef
/// name, an enum); declares enumerators of an enum definition in `scope`.
pub fn base_type(
    specs: &[&Node<TypeSpecifier>],
    scope: &mut Scope,
    sm: &SourceMap,
) -> DResult<CType> {
    let (mut signed, mut unsigned, mut longs, mut short, mut char_, mut int) =
        (false, false, 0, false, false, false);
    let mut complex = false;
    let mut other: Option<CType> = None;
    let span = specs.first().map(|s| s.span).unwrap_or_else(Span::none);
    for s in specs {
        match &s.node {
            TypeSpecifier::Void => other = Some(CType::Void),
            TypeSpecifier::Char => char_ = true,
            TypeSpecifier::Short => short = true,
            TypeSpecifier::Int => int = true,
            TypeSpecifier::Long => longs += 1,
            TypeSpecifier::Float => other = Some(CType::Float(FloatKind::F32)),
            TypeSpecifier::Double => other = Some(CType::Float(FloatKind::F64)),
            TypeSpecifier::Signed => signed = true,
            TypeSpecifier::Unsigned => unsigned = true,
            TypeSpecifier::Bool => other = Some(CType::Bool),
            TypeSpecifier::Struct(st) => other = Some(struct_type(st, scope, sm)?),
            TypeSpecifier::Enum(e) => {
                let mut next: i128 = 0;
                for en in &e.node.enumerators {
                    if let Some(x) = &en.node.expression {
                        next = const_int(x, scope, sm)?;
                    }
                    scope.insert(Symbol {
                        name: en.node.identifier.node.name.clone(),
                        ty: CType::INT,
                        kind: SymKind::EnumConst(next),
                        readonly: false,
                        restrict: false,
                    });
                    next += 1;
                }
                other = Some(attrs::enum_type(&e.node.extensions));
            }
            TypeSpecifier::TypedefName(id) => match scope.lookup(&id.node.name) {
                Some(sym) if sym.kind == SymKind::Typedef => other = Some(sym.ty.clone()),
                _ => return err(sm, id.span, format!("unknown type name '{}'", id.node.name)),
            },
            TypeSpecifier::Complex => complex = true,
            TypeSpecifier::Int128 => other = Some(CType::Unsupported("__int128".into())),
            TypeSpecifier::AutoType => other = Some(CType::Unsupported("__auto_type".into())),
            TypeSpecifier::TS18661Float(f) => other = Some(ts18661_float(f)),
            TypeSpecifier::TypeOf(t) => {
                other = Some(match &t.node {
                    TypeOf::Type(name) => type_name(name, scope, sm)?,
                    // (Device code types its own from the lowered expression.)
                    TypeOf::Expression(e) => super::exprtype::expr_type(e, scope, sm)
                        .unwrap_or_else(|| {
                            CType::Unsupported("__typeof__ of an expression".into())
                        }),
                })
            }
            TypeSpecifier::Atomic(_) => other = Some(CType::Unsupported("_Atomic".into())),
        }
    }
    if complex {
        // `_Complex` alone is `double _Complex` (GNU); `long double _Complex`.
        let real = match other {
            None if longs == 0 && !signed && !unsigned && !short && !char_ && !int => CType::DOUBLE,
            Some(CType::Float(FloatKind::F64)) if longs == 1 => CType::LongDouble,
            Some(t @ CType::Float(_)) if longs == 0 => t,
            _ => {
                return Ok(CType::Unsupported(
                    "a complex type of integers or of an unsupported type".into(),
                ))
            }
        };
        return Ok(if signed || unsigned || short || char_ || int {
            CType::Unsupported("an invalid complex type".into())
        } else {
            CType::Complex(Box::new(real))
        });
    }
    if let Some(t) = other {
        if t == CType::DOUBLE && longs == 1 && !signed && !unsigned && !short && !char_ && !int {
            return Ok(CType::LongDouble);
        }
        if longs == 0 && !signed && !unsigned && !short && !char_ && !int {
            return Ok(t);
        }
        if matches!(t, CType::Unsupported(_)) {
            return Ok(t);
        }
        return err(sm, span, "invalid combination of type specifiers");
    }
    let kind = if char_ {
        if unsigned {
            IntKind::U8
        } else {
            IntKind::I8
        }
    } else if short {
        if unsigned {
            IntKind::U16
        } else {
            IntKind::I16
        }
    } else if longs > 0 {
        if unsigned {
            IntKind::U64
        } else {
            IntKind::I64
        }
    } else if unsigned {
        IntKind::U32
    } else if signed || int {
        IntKind::I32
    } else {
        return err(sm, span, "type specifier missing");
    };
    Ok(CType::Int(kind))
}

/// `_FloatN` and `_FloatNx`: `_Float32` is `float` and `_Float64` and
/// `_Float32x` are `double` on x86-64 and on the device; the others (and
/// the decimal types) have no device version.
fn ts18661_float(f: &TS18661FloatType) -> CType {
    match (&f.format, f.width) {
        (TS18661FloatFormat::BinaryInterchange, 32) => CType::Float(FloatKind::F32),
        (TS18661FloatFormat::BinaryInterchange, 64) | (TS18661FloatFormat::BinaryExtended, 32) => {
            CType::Float(FloatKind::F64)
        }
        (TS18661FloatFormat::BinaryInterchange, w) => CType::Unsupported(format!("_Float{w}")),
        (TS18661FloatFormat::BinaryExtended, w) => CType::Unsupported(format!("_Float{w}x")),
        (TS18661FloatFormat::DecimalInterchange, w) => CType::Unsupported(format!("_Decimal{w}")),
        (TS18661FloatFormat::DecimalExtended, w) => CType::Unsupported(format!("_Decimal{w}x")),
    }
}

/// Whether the specifiers hold the `_Atomic` qualifier.
pub fn atomic_qualified(specs: &[Node<DeclarationSpecifier>]) -> bool {
    specs.iter().any(|s| {
        matches!(&s.node, DeclarationSpecifier::TypeQualifier(q) if q.node == TypeQualifier::Atomic)
    })
}

/// The struct or union a specifier names: defines it when the specifier
/// has a member list, else finds the visible tag or declares an incomplete
/// one (`struct node *next;` before `struct node` is complete).
fn struct_type(st: &Node<StructType>, scope: &mut Scope, sm: &SourceMap) -> DResult<CType> {
    let union = matches!(st.node.kind.node, StructKind::Union);
    let tag = st.node.identifier.as_ref().map(|i| i.node.name.clone());
    let Some(decls) = &st.node.declarations else {
        let Some(tag) = tag else {
            return err(sm, st.span, "a struct without a tag or members");
        };
        if let Some(s) = scope.lookup_tag(&tag) {
            return Ok(CType::Struct(s.clone()));
        }
        let s = StructRef::new(Some(tag.clone()), union);
        scope.insert_tag(&tag, s.clone());
        return Ok(CType::Struct(s));
    };
    // A definition: completes a forward declaration of the same scope, or
    // declares a new type (which may shadow an outer one).
    let s = match tag.as_deref().and_then(|t| scope.tag_here(t)) {
        Some(s) if !s.is_complete() => s.clone(),
        _ => {
            let s = StructRef::new(tag.clone(), union);
            if let Some(t) = &tag {
                scope.insert_tag(t, s.clone());
            }
            s
        }
    };
    let mut fields = vec![];
    for d in decls {
        let StructDeclaration::Field(f) = &d.node else {
            continue;
        };
        let base = base_type(&type_name_specifiers(&f.node.specifiers), scope, sm)?;
        if f.node.declarators.is_empty() {
            // An anonymous struct or union member (C11 6.7.2.1p13).
            fields.push(Field {
                name: None,
                ty: base,
                bit_field: false,
            });
            continue;
        }
        for sd in &f.node.declarators {
            let (name, ty) = match &sd.node.declarator {
                Some(dd) => {
                    let (n, t) = apply_declarator(base.clone(), dd, scope, sm)?;
                    (n.map(|n| n.node.name), t)
                }
                None => (None, base.clone()),
            };
            fields.push(Field {
                name,
                ty,
                bit_field: sd.node.bit_width.is_some(),
            });
        }
    }
    if let Err(m) = s.define(fields) {
        return err(sm, st.span, m);
    }
    attrs::member_attributes(&s, decls);
    attrs::struct_attributes(&s, &st.node.extensions, scope, sm);
    Ok(CType::Struct(s))
}

/// The type specifiers among declaration specifiers.
pub fn type_specifiers(specs: &[Node<DeclarationSpecifier>]) -> Vec<&Node<TypeSpecifier>> {
    specs
        .iter()
        .filter_map(|s| match &s.node {
            DeclarationSpecifier::TypeSpecifier(t) => Some(t),
            _ => None,
        })
        .collect()
}

/// The type specifiers of a type name (`(unsigned long)x`, `sizeof(float)`).
pub fn type_name_specifiers(specs: &[Node<SpecifierQualifier>]) -> Vec<&Node<TypeSpecifier>> {
    specs
        .iter()
        .filter_map(|s| match &s.node {
            SpecifierQualifier::TypeSpecifier(t) => Some(t),
            _ => None,
        })
        .collect()
}

/// The type of a type name.
pub fn type_name(t: &Node<TypeName>, scope: &mut Scope, sm: &SourceMap) -> DResult<CType> {
    let base = base_type(&type_name_specifiers(&t.node.specifiers), scope, sm)?;
    match &t.node.declarator {
        Some(d) => Ok(apply_declarator(base, d, scope, sm)?.1),
        None => Ok(base),
    }
}

/// Whether a declarator makes a pointer or a function (anywhere in its
/// nesting), so that a `const` in the specifiers qualifies what it points
/// to or returns rather than the declared object.
pub fn declares_pointer(d: &Node<Declarator>) -> bool {
    d.node.derived.iter().any(|dd| {
        matches!(
            dd.node,
            DerivedDeclarator::Pointer(_)
                | DerivedDeclarator::Function(_)
                | DerivedDeclarator::KRFunction(_)
        )
    }) || matches!(&d.node.kind.node, DeclaratorKind::Declarator(inner) if declares_pointer(inner))
}

/// Whether a declarator declares a `restrict`-qualified pointer
/// (`T *restrict p`).
pub fn restrict_pointer(d: &Node<Declarator>) -> bool {
    let pointers: Vec<_> = d
        .node
        .derived
        .iter()
        .filter_map(|dd| match &dd.node {
            DerivedDeclarator::Pointer(q) => Some(q),
            _ => None,
        })
        .collect();
    matches!(&d.node.kind.node, DeclaratorKind::Identifier(_))
        && d.node.derived.len() == 1
        && pointers.len() == 1
        && pointers[0].iter().any(|q| {
            matches!(&q.node, PointerQualifier::TypeQualifier(t) if t.node == TypeQualifier::Restrict)
        })
}

/// Applies a declarator to a base type: returns the declared name (if any)
/// and its type. `int *a[10]` → ("a", array of 10 pointers to int).
pub fn apply_declarator(
    base: CType,
    d: &Node<Declarator>,
    scope: &mut Scope,
    sm: &SourceMap,
) -> DResult<(Option<Node<Identifier>>, CType)> {
    let mut t = attrs::declarator_type(&d.node.extensions, base);
    for dd in &d.node.derived {
        if let DerivedDeclarator::Pointer(_) = dd.node {
            t = CType::Ptr(Box::new(t));
        }
    }
    for dd in d.node.derived.iter().rev() {
        match &dd.node {
            DerivedDeclarator::Array(a) => {
                t = match &a.node.size {
                    ArraySize::VariableExpression(e) | ArraySize::StaticExpression(e) => {
                        match const_int(e, scope, sm) {
                            Ok(v) if v >= 0 => CType::Array(Box::new(t), Some(v as u64)),
                            Ok(_) => return err(sm, e.span, "size of array is negative"),
                            Err(_) => CType::Vla(
                                Box::new(t),
                                VlaLen::Expr(std::rc::Rc::new((**e).clone())),
                            ),
                        }
                    }
                    _ => CType::Array(Box::new(t), None),
                };
            }
            DerivedDeclarator::Function(fd) => {
                let mut params = vec![];
                for p in &fd.node.parameters {
                    let pt = parameter_type(p, scope, sm)?;
                    if pt != CType::Void {
                        params.push(pt);
                    }
                }
                t = CType::Function(Box::new(FnType {
                    ret: t,
                    params: Some(params),
                    variadic: fd.node.ellipsis == Ellipsis::Some,
                }));
            }
            DerivedDeclarator::KRFunction(_) => {
                t = CType::Function(Box::new(FnType {
                    ret: t,
                    params: None,
                    variadic: false,
                }));
            }
            _ => {}
        }
    }
    match &d.node.kind.node {
        DeclaratorKind::Identifier(id) => Ok((Some(id.clone()), t)),
        DeclaratorKind::Abstract => Ok((None, t)),
        DeclaratorKind::Declarator(inner) => apply_declarator(t, inner, scope, sm),
    }
}

/// The adjusted type of a function parameter (C11 6.7.6.3p7-8: arrays and
/// functions become pointers); `void` for the `(void)` parameter list.
pub fn parameter_type(
    p: &Node<ParameterDeclaration>,
    scope: &mut Scope,
    sm: &SourceMap,
) -> DResult<CType> {
    let base = base_type(&type_specifiers(&p.node.specifiers), scope, sm)?;
    let ty = match &p.node.declarator {
        Some(d) => apply_declarator(base, d, scope, sm)?.1,
        None => base,
    };
    Ok(adjust_parameter(ty))
}

/// Array and function parameters are pointers (C11 6.7.6.3p7-8).
pub fn adjust_parameter(ty: CType) -> CType {
    match ty {
        CType::Array(e, _) | CType::Vla(e, _) => CType::Ptr(e),
        t @ CType::Function(_) => CType::Ptr(Box::new(t)),
        t => t,
    }
}

/// Evaluates an integer constant expression.
pub fn const_int(e: &Node<Expression>, scope: &mut Scope, sm: &SourceMap) -> DResult<i128> {
    let bad = || {
        err(
            sm,
            e.span,
            "expression is not an integer constant expression",
        )
    };
    match &e.node {
        Expression::Constant(c) => match &c.node {
            Constant::Integer(i) => literal::int_constant(i)
                .map(|(v, _)| v)
                .or_else(|m| err(sm, e.span, m)),
            Constant::Character(ch) => literal::char_constant(ch).or_else(|m| err(sm, e.span, m)),
            Constant::Float(_) => bad(),
        },
        Expression::Identifier(id) => match scope.lookup(&id.node.name) {
            Some(Symbol {
                kind: SymKind::EnumConst(v),
                ..
            }) => Ok(*v),
            _ => bad(),
        },
        Expression::SizeOfTy(t) => {
            let ty = type_name(&t.node.0, scope, sm)?;
            ty.size().map(i128::from).map_or_else(bad, Ok)
        }
        Expression::SizeOfVal(v) => match &v.node.0.node {
            Expression::Identifier(id) => {
                match scope.lookup(&id.node.name).and_then(|s| s.ty.size()) {
                    Some(n) => Ok(i128::from(n)),
                    None => bad(),
                }
            }
            _ => bad(),
        },
        Expression::Cast(c) => {
            let v = const_int(&c.node.expression, scope, sm)?;
            match type_name(&c.node.type_name, scope, sm)? {
                CType::Int(k) => Ok(wrap(v, k)),
                _ => bad(),
            }
        }
        Expression::UnaryOperator(u) => {
            let v = const_int(&u.node.operand, scope, sm)?;
            match u.node.operator.node {
                UnaryOperator::Minus => Ok(-v),
                UnaryOperator::Plus => Ok(v),
                UnaryOperator::Complement => Ok(!v),
                UnaryOperator::Negate => Ok((v == 0) as i128),
                _ => bad(),
            }
        }
        Expression::BinaryOperator(b) => {
            let l = const_int(&b.node.lhs, scope, sm)?;
            let r = const_int(&b.node.rhs, scope, sm)?;
            use BinaryOperator::*;
            Ok(match b.node.operator.node {
                Plus => l + r,
                Minus => l - r,
                Multiply => l * r,
                Divide | Modulo if r == 0 => return err(sm, e.span, "division by zero"),
                Divide => l / r,
                Modulo => l % r,
                ShiftLeft => l.checked_shl(r as u32).map_or_else(bad, Ok)?,
                ShiftRight => l.checked_shr(r as u32).map_or_else(bad, Ok)?,
                Less => (l < r) as i128,
                Greater => (l > r) as i128,
                LessOrEqual => (l <= r) as i128,
                GreaterOrEqual => (l >= r) as i128,
                Equals => (l == r) as i128,
                NotEquals => (l != r) as i128,
                BitwiseAnd => l & r,
                BitwiseOr => l | r,
                BitwiseXor => l ^ r,
                LogicalAnd => (l != 0 && r != 0) as i128,
                LogicalOr => (l != 0 || r != 0) as i128,
                _ => return bad(),
            })
        }
        Expression::Conditional(c) => {
            if const_int(&c.node.condition, scope, sm)? != 0 {
                const_int(&c.node.then_expression, scope, sm)
            } else {
                const_int(&c.node.else_expression, scope, sm)
            }
        }
        _ => bad(),
    }
}

/// Truncates `v` to the width and signedness of `k`.
pub fn wrap(v: i128, k: IntKind) -> i128 {
    let bits = k.bits();
    if bits >= 128 {
        return v;
    }
    let m = v & ((1i128 << bits) - 1);
    if k.is_signed() && m >= (1i128 << (bits - 1)) {
        m - (1i128 << bits)
    } else {
        m
    }
}
