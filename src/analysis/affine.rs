//! Subscripts as affine forms: `c + Σ kᵢ·tᵢ` over terms that are locals
//! (loop indices among them) or opaque subexpressions, so that contiguity
//! and reuse compare subscripts by their value, not their text.
//!
//! Owns: [`Affine`], [`Term`], [`Forms`] (the forms of one body). May call:
//! `ir`.
//!
//! Integer casts are looked through (a subscript `cast.i32.i64(%0 i)` is
//! `i`; wrap-around is not modelled). A local assigned exactly once in the
//! body stands for its value (`j = i + 1; a[j]` is `a[i + 1]`); other
//! locals are terms. Anything else (a load, a product of two non-constant
//! values, a division) is an opaque term, keyed by its printed text, that
//! remembers the locals it depends on.

use crate::ir::{print_expr, BinOp, Expr, ExprId, Function, Literal, LocalId, Module, Stmt, UnOp};
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// A term of an affine form.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Term {
    /// The value of a local that is not assigned exactly once.
    Local(LocalId),
    /// A subexpression that is not affine, by its text, with the locals
    /// it depends on.
    Opaque {
        text: String,
        locals: BTreeSet<LocalId>,
    },
}

/// `konst + Σ coefficient·term`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Affine {
    pub konst: i128,
    pub terms: BTreeMap<Term, i128>,
}

impl Affine {
    fn constant(c: i128) -> Affine {
        Affine {
            konst: c,
            terms: BTreeMap::new(),
        }
    }

    fn term(t: Term) -> Affine {
        Affine {
            konst: 0,
            terms: BTreeMap::from([(t, 1)]),
        }
    }

    fn scaled(mut self, k: i128) -> Affine {
        self.konst = self.konst.saturating_mul(k);
        for c in self.terms.values_mut() {
            *c = c.saturating_mul(k);
        }
        self.terms.retain(|_, c| *c != 0);
        self
    }

    fn plus(mut self, o: Affine) -> Affine {
        self.konst = self.konst.saturating_add(o.konst);
        for (t, c) in o.terms {
            let k = self.terms.entry(t).or_insert(0);
            *k = k.saturating_add(c);
        }
        self.terms.retain(|_, c| *c != 0);
        self
    }

    /// The coefficient of local `v`, or `None` when an opaque term depends
    /// on it (not affine in `v`).
    pub fn coefficient(&self, v: LocalId) -> Option<i128> {
        let mut k = 0;
        for (t, c) in &self.terms {
            match t {
                Term::Local(l) if *l == v => k = *c,
                Term::Opaque { locals, .. } if locals.contains(&v) => return None,
                _ => {}
            }
        }
        Some(k)
    }

    /// The form without its constant (what two neighbours share).
    pub fn variable_part(&self) -> Affine {
        Affine {
            konst: 0,
            terms: self.terms.clone(),
        }
    }
}

/// The affine forms of one body's expressions.
pub struct Forms<'a> {
    m: &'a Module,
    f: &'a Function,
    /// The value of each local assigned exactly once.
    single: HashMap<LocalId, ExprId>,
    /// The forms and dependences found so far (every loop around an
    /// access asks about it again).
    forms: RefCell<HashMap<ExprId, Affine>>,
    deps: RefCell<HashMap<ExprId, BTreeSet<LocalId>>>,
}

/// How deep substitutions of single-assignment locals go.
const MAX_DEPTH: u32 = 16;

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
        let a = self.form(id, 0);
        self.forms.borrow_mut().insert(id, a.clone());
        a
    }

    fn form(&self, id: ExprId, depth: u32) -> Affine {
        if depth > MAX_DEPTH {
            return self.opaque(id);
        }
        let konst = |e: ExprId| match self.f.expr(e) {
            Expr::Literal(Literal::Int(v)) => Some(*v),
            _ => None,
        };
        match self.f.expr(id) {
            Expr::Literal(Literal::Int(v)) => Affine::constant(*v),
            Expr::Local(l) => match self.single.get(l) {
                Some(v) => self.form(*v, depth + 1),
                None => Affine::term(Term::Local(*l)),
            },
            Expr::Cast(a) if self.f.ty(*a).is_int() && self.f.ty(id).is_int() => {
                self.form(*a, depth + 1)
            }
            Expr::Binary { op, lhs, rhs } => match op {
                BinOp::Add => self.form(*lhs, depth + 1).plus(self.form(*rhs, depth + 1)),
                BinOp::Sub => self
                    .form(*lhs, depth + 1)
                    .plus(self.form(*rhs, depth + 1).scaled(-1)),
                BinOp::Mul => match (konst(*lhs), konst(*rhs)) {
                    (_, Some(k)) => self.form(*lhs, depth + 1).scaled(k),
                    (Some(k), _) => self.form(*rhs, depth + 1).scaled(k),
                    _ => self.opaque(id),
                },
                BinOp::Shl => match konst(*rhs) {
                    Some(k @ 0..=62) => self.form(*lhs, depth + 1).scaled(1 << k),
                    _ => self.opaque(id),
                },
                _ => self.opaque(id),
            },
            Expr::Unary { op: UnOp::Neg, arg } => self.form(*arg, depth + 1).scaled(-1),
            _ => self.opaque(id),
        }
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
            if let (Some(v), true) = (self.single.get(&l), depth < MAX_DEPTH) {
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
