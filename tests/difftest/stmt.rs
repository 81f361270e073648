//! Random statements of a loop body: initialised declarations, assignments and
//! compound assignments, `++`/`--` (also inside expressions), `if`/`else`, inner
//! `for`/`while`/`do` loops with small constant trip counts, `break`/`continue`,
//! `switch` (`stmt/control.rs`), local arrays and structs (`stmt/locals.rs`).
//!
//! Every variable has an invariant span (`env.rs`); a statement is only written
//! when its value fits the target's invariant (floating targets: the grain, see
//! `span.rs`), followed by a clamp `x = x < -B ? -B : x > B ? B : x;` when the
//! value may exceed the target's bound. Integer variables hold any value of their
//! type; `const` locals keep the exact span of their initialiser.

mod control;
mod locals;

use super::ctx::Ctx;
use super::env::{Access, ArrayView, Env, Scalar, Shape};
use super::expr::{prec, Expr};
use super::ops::{self, Bin};
use super::span::Span;
use super::ty::{usual, Ty};

/// A struct type declared at file scope: name and members.
#[derive(Clone, Debug)]
pub struct StructDef {
    pub name: String,
    pub members: Vec<(String, Ty)>,
}

/// Something that can be assigned.
#[derive(Clone, Debug)]
struct LVal {
    text: String,
    base: String,
    ty: Ty,
    /// Invariant.
    span: Span,
    /// Names its text reads (an index).
    reads: Vec<String>,
}

impl LVal {
    fn as_expr(&self) -> Expr {
        let mut e = Expr::read(&self.text, &self.base, self.ty, self.span);
        e.prec = prec::POSTFIX;
        e
    }
}

/// The invariant a new mutable variable of type `ty` gets, given the span of its
/// first value (already of type `ty`).
pub fn invariant(ctx: &mut Ctx, ty: Ty, first: Span) -> Span {
    if !ty.is_float() {
        return Span::full(ty);
    }
    let classes: [(i32, f64); 3] = if ty == Ty::Float {
        [(0, 1048576.0), (2, 262144.0), (4, 65536.0)]
    } else {
        [(0, 1073741824.0), (8, 1073741824.0), (16, 1073741824.0)]
    };
    if let Some(g) = first.grain() {
        if ctx.rng.chance(60) {
            if let Some(&(k, b)) = classes.iter().find(|(k, _)| *k >= g) {
                return Span::Fp {
                    lo: -b,
                    hi: b,
                    grain: Some(k),
                };
            }
        }
    }
    let b = if ty == Ty::Float { 1e6 } else { 1e9 };
    Span::Fp {
        lo: -b,
        hi: b,
        grain: None,
    }
}

/// Whether a value with span `v` (of the target's type) may be stored in a target
/// with invariant `inv`: `Some(clamp)`, where `clamp` says a clamp must follow.
pub fn conform(v: Span, inv: Span) -> Option<bool> {
    match (v, inv) {
        (Span::Int { lo, hi }, Span::Int { lo: il, hi: ih }) => {
            (il <= lo && hi <= ih).then_some(false)
        }
        (
            Span::Fp { lo, hi, grain },
            Span::Fp {
                lo: il,
                hi: ih,
                grain: ig,
            },
        ) => {
            if let Some(k) = ig {
                if grain.is_none_or(|g| g > k) {
                    return None;
                }
            }
            Some(!(il <= lo && hi <= ih))
        }
        _ => None,
    }
}

/// `0` of type `ty` (conforms to every invariant).
pub fn zero(ty: Ty) -> Expr {
    let text = match ty {
        Ty::Float => "0.0f".to_string(),
        Ty::Double => "0.0".to_string(),
        t if t.promote() == t => "0".to_string(),
        t => format!("({})0", t.name()),
    };
    let span = if ty.is_float() {
        Span::fp_point(0.0, ty)
    } else {
        Span::int(0, 0)
    };
    Expr::leaf(text, ty, span)
}

/// The clamp statement for a floating target with invariant `inv`.
fn clamp_text(text: &str, ty: Ty, inv: Span) -> String {
    let b = format!(
        "{:.1}{}",
        inv.hi_f(),
        if ty == Ty::Float { "f" } else { "" }
    );
    format!("{text} = {text} < -{b} ? -{b} : {text} > {b} ? {b} : {text};")
}

/// Writes the statements of one block.
pub struct Body<'c> {
    pub ctx: &'c mut Ctx,
    pub env: Env,
    pub structs: Vec<StructDef>,
    pub out: String,
    pub indent: usize,
    /// Statements left to write.
    pub budget: u32,
    nest: u32,
    /// Product of the trip counts of the enclosing inner loops.
    trip: u32,
    /// Enclosing inner loops (targets of `continue`).
    loops: u32,
    /// Enclosing inner loops and switches (targets of `break`).
    breakable: u32,
}

impl<'c> Body<'c> {
    pub fn new(
        ctx: &'c mut Ctx,
        env: Env,
        structs: Vec<StructDef>,
        indent: usize,
        budget: u32,
    ) -> Body<'c> {
        Body {
            ctx,
            env,
            structs,
            out: String::new(),
            indent,
            budget,
            nest: 0,
            trip: 1,
            loops: 0,
            breakable: 0,
        }
    }

    pub fn line(&mut self, s: &str) {
        for _ in 0..self.indent {
            self.out.push_str("    ");
        }
        self.out.push_str(s);
        self.out.push('\n');
    }

    /// Writes statements until the budget (or this block's share) is spent.
    pub fn block(&mut self, max: u32) {
        let n = self.ctx.rng.range(1, i64::from(max.max(1))) as u32;
        let (scalars, arrays) = (self.env.scalars.len(), self.env.arrays.len());
        for _ in 0..n {
            if self.budget == 0 {
                break;
            }
            self.budget -= 1;
            self.stmt();
        }
        self.env.scalars.truncate(scalars);
        self.env.arrays.truncate(arrays);
    }

    /// A braced block: `{`, statements, `}` (the opening line is the caller's).
    fn braced(&mut self, max: u32) {
        self.indent += 1;
        self.nest += 1;
        self.block(max);
        self.nest -= 1;
        self.indent -= 1;
    }

    fn stmt(&mut self) {
        let deep = self.nest >= 3;
        let f = self.ctx.feat;
        let weights = [
            20,                                         // declaration
            20,                                         // assignment
            16,                                         // compound assignment
            6,                                          // ++ / --
            6,                                          // side effect inside an expression
            if deep { 0 } else { 10 },                  // if
            if deep || self.trip >= 8 { 0 } else { 6 }, // for
            if deep || self.trip >= 8 { 0 } else { 4 }, // while
            if deep || self.trip >= 8 || !f.do_while {
                0
            } else {
                4
            }, // do while
            if deep || !f.switch { 0 } else { 5 },      // switch
            if self.loops > 0 || self.breakable > 0 {
                3
            } else {
                0
            }, // break / continue
            if f.local_arrays { 4 } else { 0 },         // local array
            if f.structs && !self.structs.is_empty() {
                4
            } else {
                0
            }, // struct variable
        ];
        match self.ctx.rng.weighted(&weights) {
            0 => self.decl(),
            1 => self.assign(),
            2 => self.compound(),
            3 => self.incdec(),
            4 => self.side_effect(),
            5 => self.if_stmt(),
            6 => self.for_stmt(),
            7 => self.while_stmt(false),
            8 => self.while_stmt(true),
            9 => self.switch_stmt(),
            10 => self.jump(),
            11 => self.local_array(),
            _ => self.struct_var(),
        }
    }

    fn expr(&mut self, ty: Ty, depth: u32) -> Expr {
        self.ctx.expr(&self.env, ty, depth)
    }

    /// A value for a target of type `ty` with invariant `inv`, of type `ty` or
    /// another type that converts safely; and whether a clamp must follow.
    fn value_for(&mut self, ty: Ty, inv: Span, depth: u32) -> (Expr, bool) {
        for attempt in 0..6 {
            let t = if self.ctx.rng.chance(60) {
                ty
            } else {
                self.ctx.any_ty()
            };
            let e = self.expr(t, depth);
            if e.reads.is_empty() && attempt < 3 && self.ctx.rng.chance(75) {
                continue; // rather a value that depends on something
            }
            if let Some(clamp) = e.span.convert(ty).and_then(|v| conform(v, inv)) {
                return (e, clamp);
            }
        }
        (zero(ty), false)
    }

    /// A random assignable place, if there is one.
    fn lvalue(&mut self) -> Option<LVal> {
        let scalars: Vec<&Scalar> = self.env.scalars.iter().filter(|s| s.mutable).collect();
        let arrays: Vec<&ArrayView> = self.env.arrays.iter().filter(|a| a.write).collect();
        let pick = self
            .ctx
            .rng
            .below((scalars.len() + arrays.len()) as u64 + 1) as usize;
        if pick < scalars.len() {
            let s = scalars[pick];
            return Some(LVal {
                text: s.text.clone(),
                base: s.base.clone(),
                ty: s.ty,
                span: s.span,
                reads: Vec::new(),
            });
        }
        let a = (*arrays.get(pick - scalars.len())?).clone();
        Some(self.element_lvalue(&a))
    }

    /// The element of `a` this iteration may write (any element of a local array).
    fn element_lvalue(&mut self, a: &ArrayView) -> LVal {
        let mut view = a.clone();
        if !matches!(view.shape, Shape::Local(_)) {
            view.read = Access::Own;
        }
        let e = self.ctx.element_of(&self.env, &view, 1);
        LVal {
            text: e.text,
            base: a.name.clone(),
            ty: a.ty,
            span: a.span,
            reads: e.reads,
        }
    }

    fn emit_clamp(&mut self, lv: &LVal) {
        let text = clamp_text(&lv.text, lv.ty, lv.span);
        self.line(&text);
    }

    fn decl(&mut self) {
        let ty = self.ctx.any_ty();
        let name = self.ctx.fresh("l");
        let konst = self.ctx.rng.chance(25);
        if konst {
            let e = self.expr(ty, 3);
            if let Some(span) = e.span.convert(ty) {
                self.line(&format!(
                    "const {} {name} = {};",
                    ty.name(),
                    e.at(prec::ASSIGN)
                ));
                self.push_scalar(&name, ty, span, false);
                return;
            }
        }
        let e = self.expr(ty, 3);
        let e = match e.span.convert(ty) {
            Some(_) => e,
            None => zero(ty),
        };
        let first = e.span.convert(ty).expect("checked");
        let inv = invariant(self.ctx, ty, first);
        let clamp = conform(first, inv).expect("an invariant holds its first value");
        self.line(&format!("{} {name} = {};", ty.name(), e.at(prec::ASSIGN)));
        if clamp {
            self.line(&clamp_text(&name, ty, inv));
        }
        self.push_scalar(&name, ty, inv, true);
    }

    fn push_scalar(&mut self, name: &str, ty: Ty, span: Span, mutable: bool) {
        self.env.scalars.push(Scalar {
            text: name.to_string(),
            base: name.to_string(),
            ty,
            span,
            mutable,
        });
    }

    /// `lv = e;` (and a clamp if needed).
    pub fn assign(&mut self) {
        let Some(lv) = self.lvalue() else {
            return self.decl();
        };
        self.assign_to(&lv);
    }

    fn assign_to(&mut self, lv: &LVal) {
        let (e, clamp) = self.value_for(lv.ty, lv.span, 3);
        self.line(&format!("{} = {};", lv.text, e.at(prec::ASSIGN)));
        if clamp {
            self.emit_clamp(lv);
        }
    }

    /// `s = e;` for a scalar variable (and a clamp if needed).
    pub fn assign_scalar(&mut self, s: &Scalar) {
        let lv = LVal {
            text: s.text.clone(),
            base: s.base.clone(),
            ty: s.ty,
            span: s.span,
            reads: Vec::new(),
        };
        self.assign_to(&lv);
    }

    /// A statement that makes the iteration's element of `a` depend on the scalar
    /// `s`: `a[i] = s;` (converted) when that fits the array's invariant, else
    /// `if (s > m) a[i] = 0;` with `m` inside `s`'s span.
    pub fn mix_in(&mut self, s: &Scalar, a: &ArrayView) {
        let lv = self.element_lvalue(a);
        let e = Expr::read(&s.text, &s.base, s.ty, s.span);
        if let Some(c) = self.ctx.convert(e, lv.ty) {
            if let Some(clamp) = c.span.convert(lv.ty).and_then(|v| conform(v, lv.span)) {
                self.line(&format!("{} = {};", lv.text, c.at(prec::ASSIGN)));
                if clamp {
                    self.emit_clamp(&lv);
                }
                return;
            }
        }
        let m = match s.span {
            Span::Int { lo, hi } => lo + (hi - lo) / 2,
            Span::Fp { .. } => 0,
        };
        let m = if s.ty.is_float() {
            zero(s.ty).text
        } else {
            super::literal::int_value(m, s.ty).at(prec::REL + 1)
        };
        self.line(&format!(
            "if ({} > {m}) {} = {};",
            s.text,
            lv.text,
            zero(lv.ty).text
        ));
    }

    /// `o[i] = e;` for an array whose element this iteration writes first (so `e`
    /// must not read it).
    pub fn first_write(&mut self, a: &ArrayView) {
        let lv = self.element_lvalue(a);
        self.assign_to(&lv);
    }

    /// A final write of `a`'s element, so every written array is written; compound
    /// where possible, so what the iteration computed before still counts.
    pub fn last_write(&mut self, a: &ArrayView) {
        let lv = self.element_lvalue(a);
        if !self.compound_to(&lv) {
            self.assign_to(&lv);
        }
    }

    fn compound(&mut self) {
        let Some(lv) = self.lvalue() else {
            return self.decl();
        };
        if !self.compound_to(&lv) {
            self.assign_to(&lv);
        }
    }

    /// `lv op= e;` when some operator has a safe compound form for `lv`.
    fn compound_to(&mut self, lv: &LVal) -> bool {
        for attempt in 0..4 {
            // Shifts, `&`, `/` and `%` tend to wipe values out: less often.
            let op = if lv.ty.is_float() {
                *self.ctx.rng.pick(&[Bin::Add, Bin::Sub, Bin::Mul, Bin::Div])
            } else {
                Bin::COMPOUND[self.ctx.rng.weighted(&[6, 6, 5, 2, 2, 2, 2, 2, 4, 5])]
            };
            // Signed targets of + - * take an unsigned operand (the arithmetic then
            // wraps); most others any type.
            let t = if op.int_only() {
                self.ctx.int_ty()
            } else if lv.ty.is_signed()
                && matches!(op, Bin::Add | Bin::Sub | Bin::Mul)
                && self.ctx.rng.chance(70)
            {
                usual(lv.ty, Ty::UInt).to_unsigned()
            } else {
                self.ctx.any_ty()
            };
            let mut e = self.expr(t, 2);
            if e.reads.is_empty() && attempt < 2 && self.ctx.rng.chance(75) {
                continue; // rather an operand that depends on something
            }
            if matches!(op, Bin::Div | Bin::Rem) && !e.ty.is_float() && self.ctx.rng.chance(60) {
                // A divisor in 1..=8, so the compound form is safe.
                let mask = Expr::node(
                    format!("{} & 7", e.at(prec::BAND)),
                    e.ty.promote(),
                    Span::int(0, 7),
                    prec::BAND,
                    &[&e],
                );
                e = Expr::node(
                    format!("({}) + 1", mask.text),
                    e.ty.promote(),
                    Span::int(1, 8),
                    prec::ADD,
                    &[&mask],
                );
            }
            if matches!(op, Bin::Shl | Bin::Shr) {
                let w = i128::from(lv.ty.promote().bits());
                let (lo, hi) = e.span.ints();
                if lo < 0 || hi >= w {
                    let mask = *self.ctx.rng.pick(&[3, 7, w - 1]);
                    e = Expr::node(
                        format!("{} & {mask}", e.at(prec::BAND)),
                        e.ty.promote(),
                        Span::int(0, mask),
                        prec::BAND,
                        &[&e],
                    );
                }
            }
            let Some(r) = ops::binary(op, &lv.as_expr(), &e, false) else {
                continue;
            };
            let Some(clamp) = r
                .direct
                .then(|| r.span.convert(lv.ty))
                .flatten()
                .and_then(|v| conform(v, lv.span))
            else {
                continue;
            };
            self.line(&format!(
                "{} {}= {};",
                lv.text,
                op.sym(),
                e.at(prec::ASSIGN)
            ));
            if clamp {
                self.emit_clamp(lv);
            }
            return true;
        }
        false
    }

    /// The expression `x++` (or `++x`, `x--`, `--x`) for `lv` if it has no
    /// undefined behaviour, and whether `lv` needs a clamp afterwards.
    fn step(&mut self, lv: &LVal) -> Option<(Expr, bool)> {
        let op = if self.ctx.rng.chance(50) {
            Bin::Add
        } else {
            Bin::Sub
        };
        let one = Expr::leaf("1", Ty::Int, Span::int(1, 1));
        let r = ops::binary(op, &lv.as_expr(), &one, false)?;
        let after = r.direct.then(|| r.span.convert(lv.ty)).flatten()?;
        let clamp = conform(after, lv.span)?;
        let sym = if op == Bin::Add { "++" } else { "--" };
        let (text, span, p) = if self.ctx.rng.chance(50) {
            (format!("{}{sym}", lv.text), lv.span, prec::POSTFIX)
        } else {
            (format!("{sym}{}", lv.text), after, prec::UNARY)
        };
        let mut e = Expr::read(text, &lv.base, lv.ty, span);
        e.prec = p;
        e.reads.extend(lv.reads.iter().cloned());
        Some((e, clamp))
    }

    fn incdec(&mut self) {
        let Some(lv) = self.lvalue() else {
            return self.decl();
        };
        match self.step(&lv) {
            Some((e, clamp)) => {
                self.line(&format!("{};", e.text));
                if clamp {
                    self.emit_clamp(&lv);
                }
            }
            None => self.assign_to(&lv),
        }
    }

    /// `w = v++ op e;`, `w = (--v, e);`, ...: one side effect inside an expression;
    /// `v` appears nowhere else in the statement.
    fn side_effect(&mut self) {
        let (Some(w), Some(v)) = (self.lvalue(), self.lvalue()) else {
            return self.assign();
        };
        let independent =
            w.base != v.base && !w.reads.contains(&v.base) && !v.reads.contains(&w.base);
        let Some((inc, v_clamp)) = independent.then(|| self.step(&v)).flatten() else {
            return self.assign();
        };
        for _ in 0..4 {
            let e = self.ctx.any_expr(&self.env, 2);
            if e.reads_name(&v.base) {
                continue;
            }
            let r = if self.ctx.rng.chance(25) {
                Some(ops::comma(&inc, &e))
            } else {
                let op = *self.ctx.rng.pick(&[
                    Bin::Add,
                    Bin::Sub,
                    Bin::Mul,
                    Bin::Xor,
                    Bin::Lt,
                    Bin::Ne,
                    Bin::LAnd,
                ]);
                let (a, b) = if self.ctx.rng.chance(50) {
                    (&inc, &e)
                } else {
                    (&e, &inc)
                };
                ops::binary(op, a, b, false).filter(|r| r.direct)
            };
            let Some(r) = r else { continue };
            let Some(clamp) = r.span.convert(w.ty).and_then(|s| conform(s, w.span)) else {
                continue;
            };
            self.line(&format!("{} = {};", w.text, r.at(prec::ASSIGN)));
            if clamp {
                self.emit_clamp(&w);
            }
            if v_clamp {
                self.emit_clamp(&v);
            }
            return;
        }
        self.assign_to(&w);
    }
}
