//! Short C-like text of the memory accesses the SIMT back end writes, for
//! the sites of its instructions: what the emulator names when an access
//! is illegal or races (`store to a[i * m + j]`, `load of s->x`).
//!
//! Owns: [`Render`]. Casts are left out (the types are in the bytecode),
//! locals and parameters are named by their source names, element
//! accesses print as subscripts; long texts are cut at [`MAX`] characters.
//! May call: `ir`.

use crate::ir::{
    walk_stmts, BinOp, CmpOp, Expr, ExprId, Function, Literal, Module, Special, Stmt, UnOp,
};
use std::collections::HashMap;

/// Longest text kept.
pub const MAX: usize = 96;

/// Renders expressions of one function.
pub struct Render<'a> {
    pub f: &'a Function,
    pub m: &'a Module,
    /// The value of each compiler temporary (a local named `tmp` assigned
    /// once), rendered in its place: `a[i]`, not `*tmp`.
    pub temps: &'a HashMap<u32, ExprId>,
}

/// The compiler temporaries of `f` assigned exactly once, with their values.
pub fn temps(f: &Function) -> HashMap<u32, ExprId> {
    let mut seen: HashMap<u32, Option<ExprId>> = HashMap::new();
    walk_stmts(&f.body, &mut |s| {
        if let Stmt::Assign { local, value } = s {
            if f.locals
                .get(local.0 as usize)
                .is_some_and(|l| l.name == "tmp")
            {
                seen.entry(local.0)
                    .and_modify(|v| *v = None)
                    .or_insert(Some(*value));
            }
        }
    });
    seen.into_iter()
        .filter_map(|(l, v)| v.map(|v| (l, v)))
        .collect()
}

fn binop(op: BinOp) -> &'static str {
    match op {
        BinOp::Add => "+",
        BinOp::Sub => "-",
        BinOp::Mul => "*",
        BinOp::Div => "/",
        BinOp::Rem => "%",
        BinOp::And => "&",
        BinOp::Or => "|",
        BinOp::Xor => "^",
        BinOp::Shl => "<<",
        BinOp::Shr => ">>",
        BinOp::Min => "min",
        BinOp::Max => "max",
    }
}

fn cmpop(op: CmpOp) -> &'static str {
    match op {
        CmpOp::Eq => "==",
        CmpOp::Ne => "!=",
        CmpOp::Lt => "<",
        CmpOp::Le => "<=",
        CmpOp::Gt => ">",
        CmpOp::Ge => ">=",
    }
}

/// `s` cut to [`MAX`] characters.
pub fn cut(s: String) -> String {
    if s.chars().count() <= MAX {
        return s;
    }
    let mut t: String = s.chars().take(MAX - 3).collect();
    t.push_str("...");
    t
}

impl Render<'_> {
    /// The lvalue that pointer `p` designates (`a[i]`, `*p`).
    pub fn place(&self, p: ExprId) -> String {
        cut(self.place_in(p, 0))
    }

    fn place_in(&self, p: ExprId, depth: u32) -> String {
        match self.f.exprs.get(p.0 as usize) {
            Some(Expr::PtrAdd { base, index }) => format!(
                "{}[{}]",
                self.expr_in(*base, depth + 1, true),
                self.expr_in(*index, depth + 1, false)
            ),
            Some(Expr::LocalAddr(l)) => self.local(l.0),
            Some(Expr::SharedAddr(n)) => format!("shared{n}[0]"),
            Some(Expr::Cast(a)) => self.place_in(*a, depth),
            Some(Expr::Local(l)) if self.temps.contains_key(&l.0) && depth < 12 => {
                self.place_in(self.temps[&l.0], depth + 1)
            }
            _ => format!("*{}", self.expr_in(p, depth + 1, true)),
        }
    }

    fn local(&self, l: u32) -> String {
        self.f
            .locals
            .get(l as usize)
            .map_or_else(|| format!("%{l}"), |x| x.name.clone())
    }

    /// An expression.
    pub fn expr(&self, e: ExprId) -> String {
        cut(self.expr_in(e, 0, false))
    }

    fn expr_in(&self, e: ExprId, depth: u32, tight: bool) -> String {
        if depth > 12 {
            return "...".into();
        }
        let d = depth + 1;
        let paren = |s: String| if tight { format!("({s})") } else { s };
        let Some(x) = self.f.exprs.get(e.0 as usize) else {
            return "?".into();
        };
        match x {
            Expr::Literal(Literal::Int(v)) => v.to_string(),
            Expr::Literal(Literal::Float(v)) => format!("{v}"),
            Expr::Local(l) => match self.temps.get(&l.0) {
                Some(&v) if v != e => self.expr_in(v, d, tight),
                _ => self.local(l.0),
            },
            Expr::LocalAddr(l) => format!("&{}", self.local(l.0)),
            Expr::Load(p) => self.place_in(*p, d),
            Expr::Index(ix) => {
                let subs: String = ix
                    .subs
                    .iter()
                    .map(|s| format!("[{}]", self.expr_in(*s, d, false)))
                    .collect();
                format!("&{}{subs}", self.expr_in(ix.base, d, true))
            }
            Expr::PtrAdd { base, index } => paren(format!(
                "{} + {}",
                self.expr_in(*base, d, true),
                self.expr_in(*index, d, true)
            )),
            Expr::Binary { op, lhs, rhs } if matches!(op, BinOp::Min | BinOp::Max) => format!(
                "{}({}, {})",
                binop(*op),
                self.expr_in(*lhs, d, false),
                self.expr_in(*rhs, d, false)
            ),
            Expr::Binary { op, lhs, rhs } => paren(format!(
                "{} {} {}",
                self.expr_in(*lhs, d, true),
                binop(*op),
                self.expr_in(*rhs, d, true)
            )),
            Expr::Cmp { op, lhs, rhs } => paren(format!(
                "{} {} {}",
                self.expr_in(*lhs, d, true),
                cmpop(*op),
                self.expr_in(*rhs, d, true)
            )),
            Expr::Unary { op, arg } => format!(
                "{}{}",
                match op {
                    UnOp::Neg => "-",
                    UnOp::BitNot => "~",
                    UnOp::Not => "!",
                },
                self.expr_in(*arg, d, true)
            ),
            Expr::Cast(a) => self.expr_in(*a, depth, tight),
            Expr::Select {
                cond,
                then,
                otherwise,
            } => paren(format!(
                "{} ? {} : {}",
                self.expr_in(*cond, d, true),
                self.expr_in(*then, d, true),
                self.expr_in(*otherwise, d, true)
            )),
            Expr::Logical { and, lhs, rhs } => paren(format!(
                "{} {} {}",
                self.expr_in(*lhs, d, true),
                if *and { "&&" } else { "||" },
                self.expr_in(*rhs, d, true)
            )),
            Expr::Special(s) => {
                let (n, dim) = match s {
                    Special::ThreadIdx(k) => ("threadIdx", k),
                    Special::BlockIdx(k) => ("blockIdx", k),
                    Special::BlockDim(k) => ("blockDim", k),
                    Special::GridDim(k) => ("gridDim", k),
                    Special::Performs(k) => ("performs", k),
                    Special::OnDevice(k) => ("on_device", k),
                };
                format!(
                    "{n}.{}",
                    ["x", "y", "z"].get(usize::from(*dim)).unwrap_or(&"?")
                )
            }
            Expr::Math { func, args } => format!(
                "{}({})",
                func.c_name(),
                args.iter()
                    .map(|a| self.expr_in(*a, d, false))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Expr::Cell(n) => format!(
                "&{}",
                self.m
                    .cells
                    .get(*n as usize)
                    .map_or("?", |c| c.host.as_str())
            ),
            Expr::Shuffle { value, .. } => {
                format!("shuffle({})", self.expr_in(*value, d, false))
            }
            Expr::SharedAddr(n) => format!("shared{n}"),
        }
    }
}
