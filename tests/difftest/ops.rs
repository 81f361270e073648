//! C operators over generated expressions, each written in a form that is free of
//! undefined behaviour for its operands' spans (see `span.rs`):
//!
//! * signed `+ - *`, `-x` and `<<` are written as themselves when the span proves no
//!   overflow, else computed in the unsigned type and converted back
//!   (`(int)((unsigned)a + (unsigned)b)`: wraps, implementation-defined, never UB);
//! * `/` and `%` by a divisor that may be 0 (or -1 with a dividend that may be the
//!   minimum) are guarded (`b == 0 ? a : a / b`) or get a divisor `(b & 15) + 1`;
//! * shift counts that may be out of range are masked (`b & 31`);
//! * floating products are only written when exact, quotients only by divisors
//!   bounded away from zero (or guarded), and nothing may exceed `FP_LIMIT`;
//! * floating-to-integer casts only of values in range (or clamped first).
//!
//! A builder returns `None` when it has no safe form for its operands.

use super::expr::{prec, Expr};
use super::span::{Span, FP_LIMIT};
use super::ty::{usual, Ty};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bin {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Shl,
    Shr,
    And,
    Or,
    Xor,
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
    LAnd,
    LOr,
}

impl Bin {
    /// The operators that have a compound assignment form (`+=` ...).
    pub const COMPOUND: [Bin; 10] = [
        Bin::Add,
        Bin::Sub,
        Bin::Mul,
        Bin::Div,
        Bin::Rem,
        Bin::Shl,
        Bin::Shr,
        Bin::And,
        Bin::Or,
        Bin::Xor,
    ];

    pub fn sym(self) -> &'static str {
        match self {
            Bin::Add => "+",
            Bin::Sub => "-",
            Bin::Mul => "*",
            Bin::Div => "/",
            Bin::Rem => "%",
            Bin::Shl => "<<",
            Bin::Shr => ">>",
            Bin::And => "&",
            Bin::Or => "|",
            Bin::Xor => "^",
            Bin::Lt => "<",
            Bin::Le => "<=",
            Bin::Gt => ">",
            Bin::Ge => ">=",
            Bin::Eq => "==",
            Bin::Ne => "!=",
            Bin::LAnd => "&&",
            Bin::LOr => "||",
        }
    }

    pub fn prec(self) -> u8 {
        match self {
            Bin::Add | Bin::Sub => prec::ADD,
            Bin::Mul | Bin::Div | Bin::Rem => prec::MUL,
            Bin::Shl | Bin::Shr => prec::SHIFT,
            Bin::And => prec::BAND,
            Bin::Or => prec::BOR,
            Bin::Xor => prec::BXOR,
            Bin::Lt | Bin::Le | Bin::Gt | Bin::Ge => prec::REL,
            Bin::Eq | Bin::Ne => prec::EQ,
            Bin::LAnd => prec::LAND,
            Bin::LOr => prec::LOR,
        }
    }

    /// Only defined on integer operands.
    pub fn int_only(self) -> bool {
        matches!(
            self,
            Bin::Rem | Bin::Shl | Bin::Shr | Bin::And | Bin::Or | Bin::Xor
        )
    }

    /// The type of `a op b`.
    pub fn result_ty(self, a: Ty, b: Ty) -> Ty {
        match self {
            Bin::Shl | Bin::Shr => a.promote(),
            Bin::Lt | Bin::Le | Bin::Gt | Bin::Ge | Bin::Eq | Bin::Ne | Bin::LAnd | Bin::LOr => {
                Ty::Int
            }
            _ => usual(a, b),
        }
    }
}

/// `a op b`, left-associative, as written.
fn plain(op: Bin, a: &Expr, b: &Expr, ty: Ty, span: Span) -> Expr {
    let p = op.prec();
    let text = format!("{} {} {}", a.at(p), op.sym(), b.at(p + 1));
    Expr::node(text, ty, span, p, &[a, b])
}

fn conv(e: &Expr, to: Ty) -> Span {
    e.span
        .convert(to)
        .unwrap_or_else(|| panic!("usual conversion of {e:?} to {to:?}"))
}

fn bool_span() -> Span {
    Span::int(0, 1)
}

/// `a op b` in a safe form, or `None`. `guard`: a form that repeats the operands'
/// text (`b == 0 ? a : a / b`) may be used.
pub fn binary(op: Bin, a: &Expr, b: &Expr, guard: bool) -> Option<Expr> {
    let ty = op.result_ty(a.ty, b.ty);
    match op {
        Bin::Lt | Bin::Le | Bin::Gt | Bin::Ge | Bin::Eq | Bin::Ne | Bin::LAnd | Bin::LOr => {
            Some(plain(op, a, b, Ty::Int, bool_span()))
        }
        _ if op.int_only() && (a.ty.is_float() || b.ty.is_float()) => None,
        Bin::Shl | Bin::Shr => Some(shift(op, a, b)),
        Bin::And | Bin::Or | Bin::Xor => Some(bitwise(op, a, b)),
        Bin::Add | Bin::Sub | Bin::Mul if !ty.is_float() => Some(int_arith(op, a, b)),
        Bin::Div | Bin::Rem if !ty.is_float() => Some(int_div(op, a, b, guard)),
        Bin::Add | Bin::Sub => fp_add(op, a, b),
        Bin::Mul => fp_mul(a, b),
        Bin::Div => fp_div(a, b, guard),
        Bin::Rem => None,
    }
}

fn int_arith(op: Bin, a: &Expr, b: &Expr) -> Expr {
    let t = usual(a.ty, b.ty);
    let (al, ah) = conv(a, t).ints();
    let (bl, bh) = conv(b, t).ints();
    let exact = match op {
        Bin::Add => Some((al + bl, ah + bh)),
        Bin::Sub => Some((al - bh, ah - bl)),
        _ => corners(al, ah, bl, bh),
    };
    match exact {
        Some((lo, hi)) if t.min_int() <= lo && hi <= t.max_int() => {
            plain(op, a, b, t, Span::int(lo, hi))
        }
        _ if !t.is_signed() => plain(op, a, b, t, Span::full(t)),
        _ => {
            let u = t.to_unsigned().name();
            let text = format!(
                "({})(({u}){} {} ({u}){})",
                t.name(),
                a.at(prec::UNARY),
                op.sym(),
                b.at(prec::UNARY)
            );
            let mut e = Expr::node(text, t, Span::full(t), prec::UNARY, &[a, b]);
            e.direct = false;
            e
        }
    }
}

/// The range of `a * b` for `a` in `al..=ah`, `b` in `bl..=bh`, if it fits i128.
fn corners(al: i128, ah: i128, bl: i128, bh: i128) -> Option<(i128, i128)> {
    let c = [
        al.checked_mul(bl)?,
        al.checked_mul(bh)?,
        ah.checked_mul(bl)?,
        ah.checked_mul(bh)?,
    ];
    Some((*c.iter().min()?, *c.iter().max()?))
}

fn int_div(op: Bin, a: &Expr, b: &Expr, guard: bool) -> Expr {
    let t = usual(a.ty, b.ty);
    let (al, ah) = conv(a, t).ints();
    let (bl, bh) = conv(b, t).ints();
    let may_be_zero = bl <= 0 && 0 <= bh;
    let may_overflow = t.is_signed() && al == t.min_int() && bl <= -1 && -1 <= bh;
    // |a / b| <= |a| and |a % b| <= |a|; a guarded form may also yield a itself.
    let span = if t.is_signed() {
        let m = al.abs().max(ah.abs());
        Span::int((-m).max(t.min_int()), m.min(t.max_int()))
    } else {
        Span::int(0, ah)
    };
    if !may_be_zero && !may_overflow {
        let span = if op == Bin::Rem {
            // |a % b| < |b|, with the sign of a.
            let m = (bl.abs().max(bh.abs()) - 1).min(al.abs().max(ah.abs()));
            Span::int(if al >= 0 { 0 } else { -m }, if ah <= 0 { 0 } else { m })
        } else {
            span
        };
        return plain(op, a, b, t, span);
    }
    if guard {
        let mut conds = Vec::new();
        if may_be_zero {
            conds.push(format!("{} == 0", b.at(prec::EQ)));
        }
        if may_overflow {
            conds.push(format!(
                "({} == {} && {} == -1)",
                a.at(prec::EQ),
                t.min_macro(),
                b.at(prec::EQ)
            ));
        }
        let quotient = plain(op, a, b, t, span);
        let text = format!(
            "({}) ? {} : {}",
            conds.join(" || "),
            a.at(prec::LOR),
            quotient.at(prec::COND)
        );
        let mut e = Expr::node(text, t, span, prec::COND, &[a, b, a, b]);
        e.direct = false;
        return e;
    }
    // A divisor in 1..=16: no zero, no -1.
    let dt = b.ty.promote();
    let mask = Expr::node(
        format!("{} & 15", b.at(prec::BAND)),
        dt,
        Span::int(0, 15),
        prec::BAND,
        &[b],
    );
    let div = Expr::node(
        format!("({}) + 1", mask.text),
        dt,
        Span::int(1, 16),
        prec::ADD,
        &[&mask],
    );
    let mut e = plain(op, a, &div, t, span);
    e.direct = false;
    e
}

fn bit_len(x: i128) -> u32 {
    128 - x.leading_zeros()
}

fn shift(op: Bin, a: &Expr, b: &Expr) -> Expr {
    let p = a.ty.promote();
    let w = i128::from(p.bits());
    let (al, ah) = conv(a, p).ints();
    let (bl, bh) = b.span.ints();
    let (count, cl, ch, masked) = if 0 <= bl && bh < w {
        (b.clone(), bl, bh, false)
    } else {
        // Mostly small counts: large ones leave only zero bits to narrow casts.
        let mask = if b.size.is_multiple_of(3) { w - 1 } else { 7 };
        let m = Expr::node(
            format!("{} & {mask}", b.at(prec::BAND)),
            b.ty.promote(),
            Span::int(0, mask),
            prec::BAND,
            &[b],
        );
        (m, 0, mask, true)
    };
    let (cl, ch) = (cl as u32, ch as u32);
    let mut e = if op == Bin::Shr {
        let lo = if al < 0 { al } else { al >> ch };
        let hi = if ah < 0 { -1 } else { ah >> cl };
        plain(op, a, &count, p, Span::int(lo, hi))
    } else {
        let value_bits = if p.is_signed() { w - 1 } else { w } as u32;
        if al >= 0 && (ah == 0 || bit_len(ah) + ch <= value_bits) {
            plain(op, a, &count, p, Span::int(al << cl, ah << ch))
        } else if !p.is_signed() {
            plain(op, a, &count, p, Span::full(p))
        } else {
            let text = format!(
                "({})(({}){} << {})",
                p.name(),
                p.to_unsigned().name(),
                a.at(prec::UNARY),
                count.at(prec::SHIFT + 1)
            );
            let mut e = Expr::node(text, p, Span::full(p), prec::UNARY, &[a, &count]);
            e.direct = false;
            e
        }
    };
    e.direct &= !masked;
    e
}

fn bitwise(op: Bin, a: &Expr, b: &Expr) -> Expr {
    let t = usual(a.ty, b.ty);
    let (al, ah) = conv(a, t).ints();
    let (bl, bh) = conv(b, t).ints();
    let span = if al >= 0 && bl >= 0 {
        if op == Bin::And {
            Span::int(0, ah.min(bh))
        } else {
            Span::int(0, (1i128 << bit_len(ah.max(bh))) - 1)
        }
    } else if op == Bin::And && al >= 0 {
        Span::int(0, ah)
    } else if op == Bin::And && bl >= 0 {
        Span::int(0, bh)
    } else {
        Span::full(t)
    };
    plain(op, a, b, t, span)
}

fn fp_add(op: Bin, a: &Expr, b: &Expr) -> Option<Expr> {
    let t = usual(a.ty, b.ty);
    let (sa, sb) = (conv(a, t), conv(b, t));
    let (lo, hi) = if op == Bin::Add {
        (sa.lo_f() + sb.lo_f(), sa.hi_f() + sb.hi_f())
    } else {
        (sa.lo_f() - sb.hi_f(), sa.hi_f() - sb.lo_f())
    };
    if lo.abs().max(hi.abs()) > FP_LIMIT {
        return None;
    }
    let grain = sa.grain().zip(sb.grain()).map(|(x, y)| x.max(y));
    Some(plain(op, a, b, t, Span::fp(lo, hi, grain, t)))
}

fn fp_corners(sa: Span, sb: Span, f: impl Fn(f64, f64) -> f64) -> (f64, f64) {
    let c = [
        f(sa.lo_f(), sb.lo_f()),
        f(sa.lo_f(), sb.hi_f()),
        f(sa.hi_f(), sb.lo_f()),
        f(sa.hi_f(), sb.hi_f()),
    ];
    (
        c.iter().copied().fold(f64::INFINITY, f64::min),
        c.iter().copied().fold(f64::NEG_INFINITY, f64::max),
    )
}

/// Floating `a * b`, only when the product is exact (see `span.rs`).
fn fp_mul(a: &Expr, b: &Expr) -> Option<Expr> {
    let t = usual(a.ty, b.ty);
    let (sa, sb) = (conv(a, t), conv(b, t));
    let (lo, hi) = fp_corners(sa, sb, |x, y| x * y);
    if lo.abs().max(hi.abs()) > FP_LIMIT {
        return None;
    }
    let grain = if let Some(e) = sb.pow2_point() {
        sa.grain().map(|k| k - e)
    } else if let Some(e) = sa.pow2_point() {
        sb.grain().map(|k| k - e)
    } else {
        let g = sa.grain()? + sb.grain()?;
        let mag = lo.abs().max(hi.abs());
        if mag * 2f64.powi(g) >= 2f64.powi(t.precision()) {
            return None;
        }
        Some(g)
    };
    Some(plain(Bin::Mul, a, b, t, Span::fp(lo, hi, grain, t)))
}

fn fp_div(a: &Expr, b: &Expr, guard: bool) -> Option<Expr> {
    let t = usual(a.ty, b.ty);
    let (sa, sb) = (conv(a, t), conv(b, t));
    let ok = |lo: f64, hi: f64| lo.abs().max(hi.abs()) <= FP_LIMIT;
    if let Some(e) = sb.pow2_point() {
        let (lo, hi) = fp_corners(sa, sb, |x, y| x / y);
        let span = Span::fp(lo, hi, sa.grain().map(|k| k + e), t);
        return ok(lo, hi).then(|| plain(Bin::Div, a, b, t, span));
    }
    if sb.lo_f() >= 0.5 || sb.hi_f() <= -0.5 {
        let (lo, hi) = fp_corners(sa, sb, |x, y| x / y);
        return ok(lo, hi).then(|| plain(Bin::Div, a, b, t, Span::fp(lo, hi, None, t)));
    }
    let m = 2.0 * sa.mag();
    if !guard || m > FP_LIMIT {
        return None;
    }
    let quotient = plain(Bin::Div, a, b, t, Span::fp(-m, m, None, t));
    let text = format!(
        "{b} > 0.5 || {b} < -0.5 ? {} : {}",
        quotient.at(prec::COND),
        a.at(prec::COND),
        b = b.at(prec::REL + 1),
    );
    let mut e = Expr::node(text, t, Span::fp(-m, m, None, t), prec::COND, &[a, b, b, b]);
    e.direct = false;
    Some(e)
}

/// `-a`.
pub fn neg(a: &Expr) -> Expr {
    let p = a.ty.promote();
    let s = conv(a, p);
    let span = match s {
        Span::Fp { lo, hi, grain } => Span::Fp {
            lo: -hi,
            hi: -lo,
            grain,
        },
        Span::Int { lo, hi } if p.is_signed() && lo > p.min_int() => Span::int(-hi, -lo),
        Span::Int { lo, hi } if !p.is_signed() && lo > 0 => {
            Span::int(p.max_int() + 1 - hi, p.max_int() + 1 - lo)
        }
        Span::Int { lo: 0, hi: 0 } => Span::int(0, 0),
        Span::Int { .. } if p.is_signed() => {
            let text = format!(
                "({})-({}){}",
                p.name(),
                p.to_unsigned().name(),
                a.at(prec::UNARY)
            );
            let mut e = Expr::node(text, p, Span::full(p), prec::UNARY, &[a]);
            e.direct = false;
            return e;
        }
        Span::Int { .. } => Span::full(p),
    };
    Expr::node(format!("-{}", a.at_prefix()), p, span, prec::UNARY, &[a])
}

/// `~a` (integer `a`).
pub fn bit_not(a: &Expr) -> Expr {
    let p = a.ty.promote();
    let (lo, hi) = conv(a, p).ints();
    let span = if p.is_signed() {
        Span::int(-hi - 1, -lo - 1)
    } else {
        Span::int(p.max_int() - hi, p.max_int() - lo)
    };
    Expr::node(format!("~{}", a.at_prefix()), p, span, prec::UNARY, &[a])
}

/// `!a`.
pub fn not(a: &Expr) -> Expr {
    Expr::node(
        format!("!{}", a.at_prefix()),
        Ty::Int,
        bool_span(),
        prec::UNARY,
        &[a],
    )
}

/// `+a` (promotes).
pub fn plus(a: &Expr) -> Expr {
    let p = a.ty.promote();
    Expr::node(
        format!("+{}", a.at_prefix()),
        p,
        conv(a, p),
        prec::UNARY,
        &[a],
    )
}

/// `c ? x : y`.
pub fn cond(c: &Expr, x: &Expr, y: &Expr) -> Expr {
    let t = usual(x.ty, y.ty);
    let span = Span::hull(conv(x, t), conv(y, t));
    let text = format!(
        "{} ? {} : {}",
        c.at(prec::LOR),
        x.at(prec::ASSIGN),
        y.at(prec::COND)
    );
    Expr::node(text, t, span, prec::COND, &[c, x, y])
}

/// `(ty)e`, or `None` when the conversion may be undefined.
pub fn cast(ty: Ty, e: &Expr) -> Option<Expr> {
    let span = e.span.convert(ty)?;
    let text = format!("({}){}", ty.name(), e.at(prec::UNARY));
    Some(Expr::node(text, ty, span, prec::UNARY, &[e]))
}

/// `(ty)e` for floating `e` and integer `ty`, clamping `e` into range first when its
/// span needs it: `(int)(e < -1e9 ? -1e9 : e > 1e9 ? 1e9 : e)`.
pub fn clamp_cast(ty: Ty, e: &Expr) -> Expr {
    if let Some(c) = cast(ty, e) {
        return c;
    }
    let (lo, hi): (f64, f64) = match ty {
        Ty::SChar => (-100.0, 100.0),
        Ty::UChar => (0.0, 250.0),
        Ty::Short => (-3e4, 3e4),
        Ty::UShort => (0.0, 6e4),
        Ty::Int => (-2e9, 2e9),
        Ty::UInt => (0.0, 4e9),
        Ty::Long | Ty::LLong => (-1e15, 1e15),
        _ => (0.0, 1e15),
    };
    let (lo_t, hi_t) = (format!("{lo:e}"), format!("{hi:e}"));
    let inner = format!(
        "{x} < {lo_t} ? {lo_t} : {x} > {hi_t} ? {hi_t} : {x}",
        x = e.at(prec::REL + 1)
    );
    let span = Span::int(
        lo.max(e.span.lo_f()).min(hi).trunc() as i128,
        hi.min(e.span.hi_f()).max(lo).trunc() as i128,
    );
    let text = format!("({})({inner})", ty.name());
    let mut c = Expr::node(text, ty, span, prec::UNARY, &[e, e, e]);
    c.direct = false;
    c
}

/// `(a, b)`.
pub fn comma(a: &Expr, b: &Expr) -> Expr {
    let text = format!("({}, {})", a.at(prec::ASSIGN), b.at(prec::ASSIGN));
    Expr::node(text, b.ty, b.span, prec::PRIMARY, &[a, b])
}

/// `sizeof(T)`.
pub fn sizeof_ty(ty: Ty) -> Expr {
    let s = ty.size();
    Expr::leaf(format!("sizeof({})", ty.name()), Ty::ULong, Span::int(s, s))
}

/// `sizeof e` (not evaluated).
pub fn sizeof_expr(e: &Expr) -> Expr {
    let s = e.ty.size();
    let text = if e.prec >= prec::UNARY && !e.text.starts_with('(') {
        format!("sizeof {}", e.text)
    } else {
        format!("sizeof({})", e.text)
    };
    Expr::node(text, Ty::ULong, Span::int(s, s), prec::UNARY, &[])
}
