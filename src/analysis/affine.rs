//! Integer expressions of the IR as affine forms `k + Σ c·local`, with
//! constant coefficients: what the dependence test compares subscripts
//! with. Temporaries are seen through with an environment (`Env`: the
//! value a local was last given on the current path, see `body`).
//!
//! Owns: [`Affine`], [`affine`], [`int_literal`], [`render`]. May call:
//! `ir` only.

use crate::ir::{BinOp, Expr, ExprId, Function, Literal, LocalId, Type, UnOp};
use std::collections::{BTreeMap, HashMap};

/// What a local holds at a point of a loop body: the expression it was
/// last assigned there (only for locals whose value that expression still
/// gives: see `body`).
pub type Env = HashMap<LocalId, ExprId>;

/// How deep substitutions of temporaries may nest (a guard against cycles).
const DEPTH: u32 = 32;

/// `k + Σ c·l` over locals `l` with integer coefficients `c` (none zero).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Affine {
    pub terms: BTreeMap<LocalId, i128>,
    pub k: i128,
}

impl Affine {
    fn constant(k: i128) -> Affine {
        Affine {
            terms: BTreeMap::new(),
            k,
        }
    }

    fn var(l: LocalId) -> Affine {
        Affine {
            terms: [(l, 1)].into_iter().collect(),
            k: 0,
        }
    }

    fn scaled(mut self, c: i128) -> Option<Affine> {
        self.k = self.k.checked_mul(c)?;
        for v in self.terms.values_mut() {
            *v = v.checked_mul(c)?;
        }
        self.terms.retain(|_, v| *v != 0);
        Some(self)
    }

    /// `self + o`, `None` on overflow.
    pub fn plus(mut self, o: Affine) -> Option<Affine> {
        self.k = self.k.checked_add(o.k)?;
        for (l, c) in o.terms {
            let e = self.terms.entry(l).or_insert(0);
            *e = e.checked_add(c)?;
        }
        self.terms.retain(|_, v| *v != 0);
        Some(self)
    }

    /// The coefficient of `l` (0 when absent).
    pub fn coef(&self, l: LocalId) -> i128 {
        self.terms.get(&l).copied().unwrap_or(0)
    }

    /// A constant (no term).
    pub fn as_const(&self) -> Option<i128> {
        self.terms.is_empty().then_some(self.k)
    }
}

/// The value of an integer literal as its type reads it (signed types
/// sign-extended from their width).
pub fn int_literal(f: &Function, e: ExprId) -> Option<i128> {
    let (Expr::Literal(Literal::Int(v)), Type::Int(kind)) = (f.expr(e), f.ty(e)) else {
        return None;
    };
    let bits = kind.bits();
    if bits >= 128 {
        return Some(*v);
    }
    let mask = (1i128 << bits) - 1;
    let low = v & mask;
    Some(if kind.is_signed() && low >> (bits - 1) & 1 == 1 {
        low - (1i128 << bits)
    } else {
        low
    })
}

/// `e` as an affine form, substituting the locals `env` gives a value,
/// or `None` when it is not one (a load, a division, a product of two
/// variables, a float). Integer casts are taken as exact (subscripts and
/// loop indices do not wrap in programs with defined behaviour).
pub fn affine(f: &Function, env: &Env, e: ExprId) -> Option<Affine> {
    walk(f, env, e, DEPTH)
}

fn walk(f: &Function, env: &Env, e: ExprId, depth: u32) -> Option<Affine> {
    let depth = depth.checked_sub(1)?;
    if !f.ty(e).is_int() {
        return None;
    }
    match f.expr(e) {
        Expr::Literal(_) => int_literal(f, e).map(Affine::constant),
        Expr::Local(l) => match env.get(l) {
            Some(v) => walk(f, env, *v, depth),
            None => Some(Affine::var(*l)),
        },
        Expr::Cast(a) if f.ty(*a).is_int() => walk(f, env, *a, depth),
        Expr::Unary { op: UnOp::Neg, arg } => walk(f, env, *arg, depth)?.scaled(-1),
        Expr::Binary { op, lhs, rhs } => {
            let l = walk(f, env, *lhs, depth);
            let r = walk(f, env, *rhs, depth);
            match op {
                BinOp::Add => l?.plus(r?),
                BinOp::Sub => l?.plus(r?.scaled(-1)?),
                BinOp::Mul => {
                    let (l, r) = (l?, r?);
                    match (l.as_const(), r.as_const()) {
                        (Some(c), _) => r.scaled(c),
                        (_, Some(c)) => l.scaled(c),
                        _ => None,
                    }
                }
                BinOp::Shl => {
                    let s = u32::try_from(r?.as_const()?).ok().filter(|s| *s < 64)?;
                    l?.scaled(1i128 << s)
                }
                _ => None,
            }
        }
        _ => None,
    }
}

/// `e` as C-like text for remarks (`a[i-1]`, `idx[i]`), substituting the
/// locals `env` gives a value, without spaces.
pub fn render(f: &Function, env: &Env, e: ExprId) -> String {
    text(f, env, e, DEPTH).0
}

/// Precedence levels of the rendering (higher binds tighter).
const PRIMARY: u8 = 10;

fn text(f: &Function, env: &Env, e: ExprId, depth: u32) -> (String, u8) {
    let Some(depth) = depth.checked_sub(1) else {
        return ("…".into(), PRIMARY);
    };
    let sub = |x: ExprId, min: u8| {
        let (s, p) = text(f, env, x, depth);
        if p < min {
            format!("({s})")
        } else {
            s
        }
    };
    match f.expr(e) {
        Expr::Literal(Literal::Int(_)) => (
            int_literal(f, e).map_or("?".into(), |v| v.to_string()),
            PRIMARY,
        ),
        Expr::Literal(Literal::Float(v)) => (v.to_string(), PRIMARY),
        Expr::Local(l) => match env.get(l) {
            Some(v) => text(f, env, *v, depth),
            None => (f.local(*l).name.clone(), PRIMARY),
        },
        Expr::LocalAddr(l) => (f.local(*l).name.clone(), PRIMARY),
        Expr::Cast(a) => text(f, env, *a, depth),
        Expr::Load(a) => match f.expr(*a) {
            Expr::Index(_) => text(f, env, *a, depth),
            _ => (format!("*{}", sub(*a, 9)), 9),
        },
        Expr::Index(ix) => {
            let subs: String = ix
                .subs
                .iter()
                .map(|s| format!("[{}]", sub(*s, 0)))
                .collect();
            (format!("{}{subs}", sub(ix.base, PRIMARY)), PRIMARY)
        }
        Expr::PtrAdd { base, index } => (format!("{}+{}", sub(*base, 6), sub(*index, 7)), 6),
        Expr::Unary { op, arg } => {
            let o = match op {
                UnOp::Neg => "-",
                UnOp::BitNot => "~",
                UnOp::Not => "!",
            };
            (format!("{o}{}", sub(*arg, 9)), 9)
        }
        Expr::Binary { op, lhs, rhs } => {
            let (o, p) = match op {
                BinOp::Mul => ("*", 7),
                BinOp::Div => ("/", 7),
                BinOp::Rem => ("%", 7),
                BinOp::Add => ("+", 6),
                BinOp::Sub => ("-", 6),
                BinOp::Shl => ("<<", 5),
                BinOp::Shr => (">>", 5),
                BinOp::And => ("&", 4),
                BinOp::Xor => ("^", 3),
                BinOp::Or => ("|", 2),
                BinOp::Min => return (format!("min({},{})", sub(*lhs, 0), sub(*rhs, 0)), PRIMARY),
                BinOp::Max => return (format!("max({},{})", sub(*lhs, 0), sub(*rhs, 0)), PRIMARY),
            };
            (format!("{}{o}{}", sub(*lhs, p), sub(*rhs, p + 1)), p)
        }
        Expr::Math { func, args } => {
            let a: Vec<String> = args.iter().map(|x| sub(*x, 0)).collect();
            (format!("{}({})", func.c_name(), a.join(",")), PRIMARY)
        }
        _ => ("…".into(), PRIMARY),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{IntKind, Type};

    #[test]
    fn forms_and_text() {
        let mut f = Function::default();
        let i = f.new_local("i", Type::I32);
        let t = f.new_local("t", Type::I64);
        let n = f.new_local("n", Type::I32);
        let ri = f.read(i);
        let two = f.int(2, Type::I32);
        let minus_one = f.int(0xffff_ffff, Type::I32);
        let m = f.add(
            Expr::Binary {
                op: BinOp::Mul,
                lhs: two,
                rhs: ri,
            },
            Type::I32,
        );
        let s = f.add(
            Expr::Binary {
                op: BinOp::Add,
                lhs: m,
                rhs: minus_one,
            },
            Type::I32,
        );
        let c = f.add(Expr::Cast(s), Type::I64);
        let mut env = Env::new();
        env.insert(t, c);
        let rt = f.read(t);
        let a = affine(&f, &env, rt).unwrap_or_default();
        assert_eq!((a.coef(i), a.k), (2, -1));
        assert_eq!(render(&f, &env, rt), "2*i+-1");
        // A product of two variables is not affine.
        let rn = f.read(n);
        let ri2 = f.read(i);
        let p = f.add(
            Expr::Binary {
                op: BinOp::Mul,
                lhs: rn,
                rhs: ri2,
            },
            Type::I32,
        );
        assert_eq!(affine(&f, &env, p), None);
        assert_eq!(render(&f, &env, p), "n*i");
        let u = f.int(0xff, Type::Int(IntKind::U8));
        assert_eq!(int_literal(&f, u), Some(255));
    }
}
