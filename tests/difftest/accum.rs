//! Accumulators: scalars that many iterations update with one associative,
//! commutative operator — reduction variables and atomically updated counters.
//! Their declarations, their update statements, and the span of every value they
//! can hold.
//!
//! The device combines partial results in an order of its own, so an update is
//! only written when every order gives the host's answer and no order has
//! undefined behaviour:
//! * integer `+ - *` either stay within the bound of every partial result (the
//!   span of the initial value plus `count` contributions, tracked in `bound`), or
//!   wrap in an unsigned type or a narrow type's conversion — modular arithmetic,
//!   the same in any order;
//! * floating `+` only adds exact values on a grain fine enough that every partial
//!   sum is exact (see `span.rs`); floating `*` only multiplies by powers of two and
//!   -1, at most so many times that the product stays far from overflow;
//! * `max`, `min`, `& | ^`, `&& ||` choose or combine bits: any order gives the same
//!   value (`&&`, `||` start from 0 or 1, so even zero updates agree).
//!
//! Uses `Body` (statements), `ops`, `literal` and `span`; region code decides where
//! the updates go and how often they run.

use super::ctx::Ctx;
use super::expr::{prec, Expr};
use super::literal;
use super::ops::{self, Bin};
use super::span::{Span, FP_LIMIT};
use super::stmt::Body;
use super::ty::Ty;

/// The operator of an accumulator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Add,
    /// Atomic counters only (`x -= e`, `x--`).
    Sub,
    Mul,
    Max,
    Min,
    And,
    Or,
    Xor,
    LAnd,
    LOr,
}

impl Op {
    /// The reduction operator as a clause spells it.
    pub fn clause(self) -> &'static str {
        match self {
            Op::Add | Op::Sub => "+",
            Op::Mul => "*",
            Op::Max => "max",
            Op::Min => "min",
            Op::And => "&",
            Op::Or => "|",
            Op::Xor => "^",
            Op::LAnd => "&&",
            Op::LOr => "||",
        }
    }

    fn bin(self) -> Bin {
        match self {
            Op::Add => Bin::Add,
            Op::Sub => Bin::Sub,
            Op::Mul => Bin::Mul,
            Op::And => Bin::And,
            Op::Or => Bin::Or,
            Op::Xor => Bin::Xor,
            Op::Max | Op::Min | Op::LAnd | Op::LOr => unreachable!("{self:?} has no compound form"),
        }
    }

    /// A reduction operator that applies to `ty` (every one applies to integers;
    /// floating types take `+ * max min && ||`).
    pub fn reduction(ctx: &mut Ctx, ty: Ty) -> Op {
        if ty.is_float() {
            *ctx.rng.pick(&[
                Op::Add,
                Op::Add,
                Op::Mul,
                Op::Max,
                Op::Min,
                Op::LAnd,
                Op::LOr,
            ])
        } else {
            *ctx.rng.pick(&[
                Op::Add,
                Op::Add,
                Op::Mul,
                Op::Max,
                Op::Min,
                Op::And,
                Op::Or,
                Op::Xor,
                Op::LAnd,
                Op::LOr,
            ])
        }
    }

    /// An operator of an `atomic update` on `ty`.
    pub fn atomic(ctx: &mut Ctx, ty: Ty) -> Op {
        if ty.is_float() {
            *ctx.rng.pick(&[Op::Add, Op::Add, Op::Sub, Op::Mul])
        } else {
            *ctx.rng
                .pick(&[Op::Add, Op::Add, Op::Sub, Op::Mul, Op::And, Op::Or, Op::Xor])
        }
    }
}

/// A scalar accumulated into: `name` (a variable, or an element like `h3[k]` whose
/// index the update supplies) of type `ty`.
#[derive(Clone, Debug)]
pub struct Acc {
    pub name: String,
    pub ty: Ty,
    pub op: Op,
    /// The initial value's C text (of type `ty`).
    pub init_text: String,
    init: Span,
    /// Every value the variable and every partial result can hold, so far.
    bound: Span,
    /// Integer sums and products: some order may leave the type's range (the
    /// result wraps, which is the same in every order).
    wraps: bool,
    /// Floating products: factors of 2 or 1/2 written so far.
    factors: i32,
}

/// Non-unit factors a floating product may take: far from overflow and
/// underflow, and `init * 2^±40` stays below `FP_LIMIT`.
const MAX_FACTORS: i32 = 40;

impl Acc {
    /// A new accumulator named `name` of type `ty` for `op`, with an initial
    /// value suited to the operator (sometimes the type's extremes for max/min).
    pub fn new(ctx: &mut Ctx, name: String, ty: Ty, op: Op) -> Acc {
        let init = if ty.is_float() {
            let v: f64 = match op {
                Op::Mul => *ctx.rng.pick(&[1.0, -1.0, 1.5, 0.75, 3.0]),
                Op::LAnd | Op::LOr => *ctx.rng.pick(&[0.0, 1.0]),
                Op::Max => *ctx.rng.pick(&[-1e6, -0.5, 0.0, 12.25]),
                Op::Min => *ctx.rng.pick(&[1e6, 0.5, 0.0, -12.25]),
                _ => *ctx.rng.pick(&[0.0, 0.5, -2.25, 7.0]),
            };
            literal::fp_value(v, ty)
        } else {
            let (min, max) = (ty.min_int(), ty.max_int());
            let small = |ctx: &mut Ctx| {
                let v = i128::from(ctx.rng.range(-9, 9));
                v.clamp(min, max)
            };
            let v = match op {
                Op::Mul => {
                    let v: i128 = *ctx.rng.pick(&[1, -1, 3, 2]);
                    v.clamp(min.max(1), max)
                }
                Op::LAnd | Op::LOr => *ctx.rng.pick(&[0, 1]),
                Op::Max if ctx.rng.chance(40) => min,
                Op::Min if ctx.rng.chance(40) => max,
                // All ones.
                Op::And if ctx.rng.chance(50) => {
                    if ty.is_signed() {
                        -1
                    } else {
                        max
                    }
                }
                _ => small(ctx),
            };
            literal::int_value(v, ty)
        };
        Acc {
            name,
            ty,
            op,
            init_text: init.at(prec::ASSIGN),
            init: init.span,
            bound: init.span,
            wraps: false,
            factors: 0,
        }
    }

    /// `T name = init;`
    pub fn decl(&self) -> String {
        format!("{} {} = {};", self.ty.name(), self.name, self.init_text)
    }

    /// The span of every value the variable can hold after the updates written.
    pub fn span(&self) -> Span {
        if self.wraps {
            Span::full(self.ty)
        } else {
            self.bound
        }
    }

    /// The variable (spelled `text`) as an operand whose value may be any partial
    /// result within `bound`.
    fn operand(&self, text: &str, bound: Span) -> Expr {
        let span = if fits(bound, self.ty) {
            bound
        } else {
            Span::full(self.ty)
        };
        let mut e = Expr::read(text, &self.name, self.ty, span);
        e.prec = prec::POSTFIX;
        e
    }
}

/// Where an update runs: `count` times at most, inside a loop whose index
/// `index.0` takes `index.1` values `0..index.1` (products use it to choose the
/// few iterations with a factor other than ±1).
#[derive(Clone, Copy)]
pub struct Site<'a> {
    pub count: i128,
    pub index: (&'a str, i128),
}

impl Body<'_> {
    /// Writes one update of `acc` (its element `target`, for a bin) at the current
    /// indentation: a plain statement for a reduction, `#pragma acc atomic` ...
    /// for a counter. Extends `acc`'s bound by what it may add.
    pub fn accumulate(&mut self, acc: &mut Acc, target: &str, site: Site, atomic: bool) {
        let stmt = match acc.op {
            Op::Add | Op::Sub => self.sum_update(acc, target, site),
            Op::Mul => self.product_update(acc, target, site),
            Op::Max | Op::Min => self.choice_update(acc, target),
            Op::And | Op::Or | Op::Xor => self.bits_update(acc, target),
            Op::LAnd | Op::LOr => self.logic_update(acc, target),
        };
        if atomic {
            let clause = if self.ctx.rng.chance(60) {
                " update"
            } else {
                ""
            };
            self.line(&format!("#pragma acc atomic{clause}"));
        }
        self.line(&stmt);
    }

    /// `x += v;` (or `x = x + v;`, `x = v + x;`, `x++`, ...) with a contribution
    /// that keeps every partial sum defined (and exact, for floating `x`).
    fn sum_update(&mut self, acc: &mut Acc, target: &str, site: Site) -> String {
        let sub = acc.op == Op::Sub;
        let one = Expr::leaf("1", Ty::Int, Span::int(1, 1));
        if !acc.ty.is_float() && self.ctx.rng.chance(15) {
            if let Some(bound) = self.extend_sum(acc, &one, site.count) {
                acc.bound = bound;
                let (pre, post) = if sub { ("--", "--") } else { ("++", "++") };
                return if self.ctx.rng.chance(50) {
                    format!("{target}{post};")
                } else {
                    format!("{pre}{target};")
                };
            }
        }
        for attempt in 0..6 {
            let v = if attempt < 4 {
                let t = if acc.ty.is_float() || self.ctx.rng.chance(50) {
                    acc.ty
                } else {
                    self.ctx.int_ty()
                };
                self.ctx.expr(&self.env, t, 2)
            } else {
                self.narrow(acc.ty)
            };
            let Some(bound) = self.extend_sum(acc, &v, site.count) else {
                continue;
            };
            let Some(r) = ops::binary(acc.op.bin(), &acc.operand(target, bound), &v, false) else {
                continue;
            };
            if !r.direct || r.span.convert(acc.ty).is_none() {
                continue;
            }
            let wraps = !acc.ty.is_float() && !fits(bound, acc.ty);
            acc.wraps |= wraps;
            acc.bound = if wraps { Span::full(acc.ty) } else { bound };
            let sym = acc.op.bin().sym();
            let v = v.at(prec::ASSIGN);
            return match self.ctx.rng.below(if sub { 2 } else { 3 }) {
                0 => format!("{target} {sym}= {v};"),
                1 => format!("{target} = {target} {sym} {};", r_operand(&v)),
                _ => format!("{target} = {} {sym} {target};", r_operand(&v)),
            };
        }
        format!("{target} {}= 0;", acc.op.bin().sym())
    }

    /// A small contribution of type `ty` that always fits: an integer expression
    /// `% 16` (scaled by 1/4 for floating types).
    fn narrow(&mut self, ty: Ty) -> Expr {
        let t = self.ctx.int_ty();
        let e = self.ctx.expr(&self.env, t, 1);
        let sixteen = Expr::leaf("16", Ty::Int, Span::int(16, 16));
        let m = ops::binary(Bin::Rem, &e, &sixteen, false).expect("% 16 is safe");
        if !ty.is_float() {
            return m;
        }
        let c = ops::cast(ty, &m).expect("small integers convert exactly");
        let quarter = literal::fp_value(0.25, ty);
        ops::binary(Bin::Mul, &c, &quarter, false).expect("a quarter of a small integer is exact")
    }

    /// The bound after `count` more contributions `v` (of any type, converted to
    /// the accumulator's), or `None` when some partial sum could be undefined or
    /// (floating) inexact.
    fn extend_sum(&self, acc: &Acc, v: &Expr, count: i128) -> Option<Span> {
        let sign = if acc.op == Op::Sub { -1.0 } else { 1.0 };
        if acc.ty.is_float() {
            let vs = v.span.convert(acc.ty)?;
            let g = acc.bound.grain()?.max(vs.grain()?);
            let n = count as f64;
            let (lo, hi) = if sign > 0.0 {
                (vs.lo_f().min(0.0), vs.hi_f().max(0.0))
            } else {
                (-vs.hi_f().max(0.0), -vs.lo_f().min(0.0))
            };
            let (lo, hi) = (acc.bound.lo_f() + n * lo, acc.bound.hi_f() + n * hi);
            // The device's partial sums leave the initial value out: they may
            // reach |init| further out.
            let m = acc.init.mag();
            if lo.abs().max(hi.abs()) + m > FP_LIMIT {
                return None;
            }
            let wide = Span::fp(lo - m, hi + m, Some(g), acc.ty);
            let s = Span::fp(lo, hi, Some(g), acc.ty);
            return (wide.grain().is_some() && s.grain().is_some()).then_some(s);
        }
        // Integers: the contribution as the type the sum is computed in decides
        // overflow; `sum_update` checks that with `ops::binary`.
        let (vl, vh) = match v.span {
            Span::Int { lo, hi } => (lo, hi),
            Span::Fp { .. } => return None,
        };
        let (bl, bh) = acc.bound.ints();
        let (lo, hi) = if sign > 0.0 {
            (bl + count * vl.min(0), bh + count * vh.max(0))
        } else {
            (bl - count * vh.max(0), bh - count * vl.min(0))
        };
        // Keep the numbers finite; beyond the type the sum wraps (modular).
        let cap = 1i128 << 100;
        if lo < -cap || hi > cap {
            return Some(Span::full(acc.ty));
        }
        // A signed type of rank int or more computes in itself (or in an unsigned
        // type when `v` is one): staying in range is `ops::binary`'s check, on
        // the span this returns.
        Some(if fits(Span::int(lo, hi), acc.ty) {
            Span::int(lo, hi)
        } else if wraps_ok(acc.ty, v.ty) {
            Span::full(acc.ty)
        } else {
            return None;
        })
    }

    /// `x *= f;` where `f` is ±1 except on a few iterations (`i % K == J`), where
    /// it is a small integer or a power of two: every order of the product is the
    /// same and within range.
    fn product_update(&mut self, acc: &mut Acc, target: &str, site: Site) -> String {
        let (index, values) = site.index;
        let values = values.max(1);
        let reps = (site.count + values - 1) / values;
        let ty = acc.ty;
        let (f, g) = if ty.is_float() {
            (
                *self.ctx.rng.pick(&[2.0, 0.5, -2.0, -0.5, -1.0]),
                *self.ctx.rng.pick(&[1.0, 1.0, -1.0]),
            )
        } else if ty.is_signed() {
            (
                *self.ctx.rng.pick(&[2.0, 3.0, -2.0, -1.0]),
                *self.ctx.rng.pick(&[1.0, 1.0, -1.0]),
            )
        } else {
            (*self.ctx.rng.pick(&[2.0, 3.0, 5.0, 7.0]), 1.0)
        };
        // How many non-unit factors may still come.
        let budget: i128 = if ty.is_float() {
            i128::from(MAX_FACTORS - acc.factors)
        } else if !ty.is_signed() || ty.promote() != ty {
            // Unsigned products wrap; narrow signed ones compute in int and wrap
            // when converted back (|x| <= 128, |f| <= 3: no int overflow).
            i128::MAX
        } else {
            let (bl, bh) = acc.bound.ints();
            let mag = bl.abs().max(bh.abs()).max(1);
            let mut k = 0;
            let mut m = mag;
            while m * 3 <= ty.max_int() && k < 64 {
                m *= 3;
                k += 1;
            }
            k
        };
        // Iterations with the factor f: ceil(values / K) per repetition.
        let mut k = 1 + self.ctx.rng.below(8) as i128;
        if budget != i128::MAX {
            let per_rep = budget / reps.max(1);
            if per_rep <= 0 {
                return format!("{target} *= {};", literal_factor(g, ty).at(prec::ASSIGN));
            }
            k = k.max((values + per_rep - 1) / per_rep);
        }
        let j = self.ctx.rng.below(k as u64) as i128;
        let times = ((values + k - 1) / k * reps).min(site.count);
        let mut cond = format!("{index} % {k} == {j}");
        if self.ctx.rng.chance(30) {
            let c = self.ctx.any_expr(&self.env, 1);
            cond = format!("{cond} && {}", c.at(prec::LAND + 1));
        }
        let fx = literal_factor(f, ty);
        let gx = literal_factor(g, ty);
        let factor = format!("({cond} ? {} : {})", fx.at(prec::ASSIGN), gx.at(prec::COND));
        // The new bound.
        if ty.is_float() {
            acc.factors += times as i32;
            let mag = acc.init.mag().max(1.0) * 2f64.powi(acc.factors);
            acc.bound = Span::Fp {
                lo: -mag,
                hi: mag,
                grain: None,
            };
        } else if budget == i128::MAX {
            acc.wraps = true;
        } else {
            let (bl, bh) = acc.bound.ints();
            let mut m = bl.abs().max(bh.abs()).max(1);
            for _ in 0..times {
                m *= 3;
            }
            acc.bound = Span::int(-m, m);
        }
        match self.ctx.rng.below(3) {
            0 => format!("{target} *= {factor};"),
            1 => format!("{target} = {target} * {factor};"),
            _ => format!("{target} = {factor} * {target};"),
        }
    }

    /// `x = x > v ? x : v;` (and the other spellings of max and min) with `v` of
    /// the accumulator's type, held in a local so it is computed once.
    fn choice_update(&mut self, acc: &mut Acc, target: &str) -> String {
        let ty = acc.ty;
        let mut v = None;
        for _ in 0..4 {
            let e = self.ctx.any_expr(&self.env, 2);
            if let Some(c) = self.ctx.convert(e, ty) {
                v = Some(c);
                break;
            }
        }
        let v = v.unwrap_or_else(|| self.ctx.literal(ty));
        acc.bound = Span::hull(acc.bound, v.span);
        let l = self.ctx.fresh("l");
        self.line(&format!(
            "const {} {l} = {};",
            ty.name(),
            v.at(prec::ASSIGN)
        ));
        let (gt, lt) = if acc.op == Op::Max {
            (">", "<")
        } else {
            ("<", ">")
        };
        match self.ctx.rng.below(4) {
            0 => format!("{target} = {target} {gt} {l} ? {target} : {l};"),
            1 => format!("{target} = {l} {gt} {target} ? {l} : {target};"),
            2 => format!("if ({l} {gt} {target}) {target} = {l};"),
            _ => format!("{target} = {target} {lt} {l} ? {l} : {target};"),
        }
    }

    /// `x &= v | M;`, `x |= v & M;`, `x ^= v;` (masks keep `&` and `|` from
    /// saturating after a few iterations).
    fn bits_update(&mut self, acc: &mut Acc, target: &str) -> String {
        let ty = acc.ty;
        let e = self.ctx.expr(&self.env, ty.promote(), 2);
        let bits = ty.bits();
        let mut mask: u128 = 0;
        for b in 0..bits {
            let dense = acc.op == Op::And;
            if self.ctx.rng.chance(if dense { 85 } else { 15 }) {
                mask |= 1 << b;
            }
        }
        let m = if ty.is_signed() && mask >> (bits - 1) & 1 == 1 {
            mask as i128 - (1i128 << bits)
        } else {
            mask as i128
        };
        let mx = literal::int_value(m, ty);
        let v = match acc.op {
            Op::And => ops::binary(Bin::Or, &e, &mx, false),
            Op::Or => ops::binary(Bin::And, &e, &mx, false),
            _ => Some(e),
        }
        .expect("bitwise operators are defined on integers");
        acc.wraps = true;
        let sym = acc.op.bin().sym();
        let text = v.at(prec::ASSIGN);
        match self.ctx.rng.below(3) {
            0 => format!("{target} {sym}= {text};"),
            1 => format!("{target} = {target} {sym} ({text});"),
            _ => format!("{target} = ({text}) {sym} {target};"),
        }
    }

    /// `x = x && v;` / `x = v || x;`: the result is 0 or 1.
    fn logic_update(&mut self, acc: &mut Acc, target: &str) -> String {
        let c = self.ctx.any_expr(&self.env, 2);
        acc.bound = Span::hull(acc.bound, zero_one(acc.ty));
        let sym = acc.op.clause();
        if self.ctx.rng.chance(50) {
            format!("{target} = {target} {sym} {};", c.at(prec::LAND + 1))
        } else {
            format!("{target} = {} {sym} {target};", c.at(prec::LOR + 1))
        }
    }
}

/// `v` as a right operand of `+`/`-`/`*` in `x = x op v`: parenthesised unless
/// it is a primary or postfix expression (the text is already at ASSIGN level).
fn r_operand(v: &str) -> String {
    if v.chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
    {
        v.to_string()
    } else {
        format!("({v})")
    }
}

/// A factor of a product as a constant of type `ty`.
fn literal_factor(f: f64, ty: Ty) -> Expr {
    if ty.is_float() {
        literal::fp_value(f, ty)
    } else {
        literal::int_value(f as i128, ty.promote())
    }
}

/// The span {0, 1} in type `ty`.
fn zero_one(ty: Ty) -> Span {
    if ty.is_float() {
        Span::Fp {
            lo: 0.0,
            hi: 1.0,
            grain: Some(0),
        }
    } else {
        Span::int(0, 1)
    }
}

/// Whether the integer span lies in `ty`'s range.
fn fits(s: Span, ty: Ty) -> bool {
    match s {
        Span::Int { lo, hi } => ty.min_int() <= lo && hi <= ty.max_int(),
        Span::Fp { .. } => true,
    }
}

/// Whether `x op= v` on an `x` of type `ty` may leave `ty`'s range without
/// undefined behaviour: the arithmetic is unsigned, or it is done in `int` and
/// converted back to a narrower type (modular on every compiler accc pairs with).
fn wraps_ok(ty: Ty, v: Ty) -> bool {
    let p = super::ty::usual(ty, v);
    !p.is_signed() || ty.promote() != ty && p == Ty::Int
}
