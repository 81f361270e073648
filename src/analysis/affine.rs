//! Integer expressions of the IR as affine forms `k + Σ c·t`, with constant
//! coefficients `c` over terms `t` that are locals (loop indices among
//! them) or, where asked for, opaque subexpressions: what the dependence
//! test, contiguity and reuse compare subscripts with — by value, never by
//! text.
//!
//! Owns: [`Affine`], [`Term`], [`affine`] (strict: `None` when not
//! affine), [`Forms`] (the forms of one body, with opaque terms, remembered
//! per expression), [`int_literal`], [`render`], [`render_with`]. May call: `ir` only.
//!
//! Temporaries are seen through with an environment ([`Env`]: the value a
//! local holds at a point). The dependence test builds it along the path of
//! a loop body (`body`); [`Forms`] uses the locals assigned exactly once in
//! the body. Integer casts are taken as exact (subscripts and loop indices
//! do not wrap in programs with defined behaviour).

use crate::ir::{
    print_expr, BinOp, Expr, ExprId, Function, Literal, LocalId, Module, Stmt, Type, UnOp,
};
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

/// What a local holds at a point of a loop body: the expression it was
/// last assigned there (only for locals whose value that expression still
/// gives: see `body`).
pub type Env = HashMap<LocalId, ExprId>;

/// How deep substitutions of temporaries may nest (a guard against cycles).
const DEPTH: u32 = 32;

/// A term of an affine form.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Term {
    /// The value of a local the environment gives no value.
    Local(LocalId),
    /// A subexpression that is not affine (a load, a product of two
    /// variables, a division), by its printed text, with the locals it
    /// depends on. Only [`Forms`] makes them.
    Opaque {
        text: String,
        locals: BTreeSet<LocalId>,
    },
}

/// `k + Σ c·t` with integer coefficients `c` (none zero).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Affine {
    pub terms: BTreeMap<Term, i128>,
    pub k: i128,
}

impl Affine {
    fn constant(k: i128) -> Affine {
        Affine {
            terms: BTreeMap::new(),
            k,
        }
    }

    fn term(t: Term) -> Affine {
        Affine {
            terms: BTreeMap::from([(t, 1)]),
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
        for (t, c) in o.terms {
            let e = self.terms.entry(t).or_insert(0);
            *e = e.checked_add(c)?;
        }
        self.terms.retain(|_, v| *v != 0);
        Some(self)
    }

    /// The coefficient of local `l` as a term (0 when absent; opaque terms
    /// are not looked into: see [`Affine::coefficient`]).
    pub fn coef(&self, l: LocalId) -> i128 {
        self.terms.get(&Term::Local(l)).copied().unwrap_or(0)
    }

    /// The coefficient of local `v`, or `None` when an opaque term depends
    /// on it (the form is not affine in `v`).
    pub fn coefficient(&self, v: LocalId) -> Option<i128> {
        let opaque_in_v = self.terms.keys().any(|t| match t {
            Term::Opaque { locals, .. } => locals.contains(&v),
            Term::Local(_) => false,
        });
        (!opaque_in_v).then(|| self.coef(v))
    }

    /// The locals that are terms of the form.
    pub fn locals(&self) -> impl Iterator<Item = LocalId> + '_ {
        self.terms.keys().filter_map(|t| match t {
            Term::Local(l) => Some(*l),
            Term::Opaque { .. } => None,
        })
    }

    /// A constant (no term).
    pub fn as_const(&self) -> Option<i128> {
        self.terms.is_empty().then_some(self.k)
    }

    /// The form without its constant (what two neighbours share).
    pub fn variable_part(&self) -> Affine {
        Affine {
            terms: self.terms.clone(),
            k: 0,
        }
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
/// variables, a float).
pub fn affine(f: &Function, env: &Env, e: ExprId) -> Option<Affine> {
    walk(f, env, e, DEPTH, &|_| None)
}

/// The walk of [`affine`] and [`Forms`]: `leaf` answers for a
/// subexpression that is not affine (or whose form overflows).
fn walk(
    f: &Function,
    env: &Env,
    e: ExprId,
    depth: u32,
    leaf: &dyn Fn(ExprId) -> Option<Affine>,
) -> Option<Affine> {
    let Some(depth) = depth.checked_sub(1) else {
        return leaf(e);
    };
    if !f.ty(e).is_int() {
        return leaf(e);
    }
    let sub = |x: ExprId| walk(f, env, x, depth, leaf);
    let form = || -> Option<Affine> {
        match f.expr(e) {
            Expr::Literal(_) => int_literal(f, e).map(Affine::constant),
            Expr::Local(l) => match env.get(l) {
                Some(v) => sub(*v),
                None => Some(Affine::term(Term::Local(*l))),
            },
            Expr::Cast(a) if f.ty(*a).is_int() => sub(*a),
            Expr::Unary { op: UnOp::Neg, arg } => sub(*arg)?.scaled(-1),
            Expr::Binary { op, lhs, rhs } => match op {
                BinOp::Add => sub(*lhs)?.plus(sub(*rhs)?),
                BinOp::Sub => sub(*lhs)?.plus(sub(*rhs)?.scaled(-1)?),
                BinOp::Mul => {
                    let (l, r) = (sub(*lhs)?, sub(*rhs)?);
                    match (l.as_const(), r.as_const()) {
                        (Some(c), _) => r.scaled(c),
                        (_, Some(c)) => l.scaled(c),
                        _ => None,
                    }
                }
                BinOp::Shl => {
                    let s = u32::try_from(sub(*rhs)?.as_const()?)
                        .ok()
                        .filter(|s| *s < 64)?;
                    sub(*lhs)?.scaled(1i128 << s)
                }
                _ => None,
            },
            _ => None,
        }
    };
    form().or_else(|| leaf(e))
}

/// The affine forms of one body's integer expressions, with opaque terms
/// for what is not affine; a local assigned exactly once in the body
/// stands for its value (`j = i + 1; a[j]` is `a[i + 1]`).
pub struct Forms<'a> {
    m: &'a Module,
    f: &'a Function,
    /// The value of each local assigned exactly once.
    single: Env,
    /// The forms and dependences found so far (every loop around an
    /// access asks about it again).
    forms: RefCell<HashMap<ExprId, Affine>>,
    deps: RefCell<HashMap<ExprId, BTreeSet<LocalId>>>,
}

impl<'a> Forms<'a> {
    pub fn new(m: &'a Module, f: &'a Function) -> Forms<'a> {
        let mut count: HashMap<LocalId, (u32, ExprId)> = HashMap::new();
        crate::ir::walk_stmts(&f.body, &mut |s| {
            let assigned = match s {
                Stmt::Assign { local, value } => Some((*local, Some(*value))),
                Stmt::AtomicRmw { old: Some(l), .. }
                | Stmt::AtomicLoad { dst: l, .. }
                | Stmt::Call {
                    result: Some(l), ..
                } => Some((*l, None)),
                Stmt::AtomicCas { old, ok, .. } => {
                    count.entry(*ok).or_insert((0, ExprId(u32::MAX))).0 += 2;
                    Some((*old, None))
                }
                Stmt::Loop(l) => Some((l.var, None)),
                _ => None,
            };
            if let Some((l, v)) = assigned {
                let e = count.entry(l).or_insert((0, ExprId(u32::MAX)));
                // A definition other than an assignment never substitutes.
                e.0 += if v.is_some() { 1 } else { 2 };
                if let Some(v) = v {
                    e.1 = v;
                }
            }
        });
        let single = count
            .into_iter()
            .filter(|(_, (n, _))| *n == 1)
            .map(|(l, (_, v))| (l, v))
            .collect();
        Forms {
            m,
            f,
            single,
            forms: RefCell::default(),
            deps: RefCell::default(),
        }
    }

    /// The affine form of integer expression `id`.
    pub fn of(&self, id: ExprId) -> Affine {
        if let Some(a) = self.forms.borrow().get(&id) {
            return a.clone();
        }
        let a = walk(self.f, &self.single, id, DEPTH, &|x| Some(self.opaque(x)))
            .unwrap_or_else(|| self.opaque(id));
        self.forms.borrow_mut().insert(id, a.clone());
        a
    }

    /// `id` as one opaque term.
    fn opaque(&self, id: ExprId) -> Affine {
        Affine::term(Term::Opaque {
            text: print_expr(self.m, self.f, id),
            locals: self.locals_of(id),
        })
    }

    /// The locals `id` depends on, through single assignments.
    fn deps(&self, id: ExprId, depth: u32, out: &mut BTreeSet<LocalId>) {
        let mut direct = vec![];
        self.f.locals_read(id, &mut direct);
        for l in direct {
            if !out.insert(l) {
                continue;
            }
            if let (Some(v), true) = (self.single.get(&l), depth < DEPTH) {
                self.deps(*v, depth + 1, out);
            }
        }
    }

    /// True when the value of `id` depends on local `v` (through single
    /// assignments).
    pub fn depends(&self, id: ExprId, v: LocalId) -> bool {
        self.locals_of(id).contains(&v)
    }

    /// The locals `id` depends on (see [`Self::deps`]), remembered.
    fn locals_of(&self, id: ExprId) -> BTreeSet<LocalId> {
        if let Some(l) = self.deps.borrow().get(&id) {
            return l.clone();
        }
        let mut locals = BTreeSet::new();
        self.deps(id, 0, &mut locals);
        self.deps.borrow_mut().insert(id, locals.clone());
        locals
    }

    /// The printed text of `id`.
    pub fn text(&self, id: ExprId) -> String {
        print_expr(self.m, self.f, id)
    }
}

/// `e` as C-like text for remarks (`a[i-1]`, `idx[i]`), substituting the
/// locals `env` gives a value, without spaces.
pub fn render(f: &Function, env: &Env, e: ExprId) -> String {
    render_with(f, env, &HashSet::new(), e)
}

/// [`render`], a host scalar held in memory (a pointer of `cells`) named
/// as the source names it (`n`, not `*n`).
pub fn render_with(f: &Function, env: &Env, cells: &HashSet<LocalId>, e: ExprId) -> String {
    text(f, env, cells, e, DEPTH).0
}

/// Precedence levels of the rendering (higher binds tighter).
const PRIMARY: u8 = 10;

fn text(f: &Function, env: &Env, cells: &HashSet<LocalId>, e: ExprId, depth: u32) -> (String, u8) {
    let Some(depth) = depth.checked_sub(1) else {
        return ("…".into(), PRIMARY);
    };
    let sub = |x: ExprId, min: u8| {
        let (s, p) = text(f, env, cells, x, depth);
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
            Some(v) => text(f, env, cells, *v, depth),
            None => (f.local(*l).name.clone(), PRIMARY),
        },
        Expr::LocalAddr(l) => (f.local(*l).name.clone(), PRIMARY),
        Expr::Cast(a) => text(f, env, cells, *a, depth),
        Expr::Load(a) => match f.expr(*a) {
            Expr::Index(_) => text(f, env, cells, *a, depth),
            Expr::Local(c) if cells.contains(c) => (f.local(*c).name.clone(), PRIMARY),
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
