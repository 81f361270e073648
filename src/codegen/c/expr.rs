//! C expressions as a small tree, written with C's precedence and
//! associativity so that a parenthesis appears only where the grammar
//! needs one.
//!
//! Owns: [`CExpr`], [`CBinOp`], [`CUnOp`] and their rendering
//! ([`CExpr::to_c`], [`CExpr::to_c_arg`]). May call: [`super::lit`].

use std::fmt::Write;

/// A binary operator of C.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CBinOp {
    Mul,
    Div,
    Rem,
    Add,
    Sub,
    Shl,
    Shr,
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
    BitAnd,
    BitXor,
    BitOr,
    LogAnd,
    LogOr,
    /// `=`: right-associative, binds loosest but for the comma.
    Assign,
    /// `,`.
    Comma,
}

impl CBinOp {
    /// The operator's spelling.
    pub fn text(self) -> &'static str {
        use CBinOp::*;
        match self {
            Mul => "*",
            Div => "/",
            Rem => "%",
            Add => "+",
            Sub => "-",
            Shl => "<<",
            Shr => ">>",
            Lt => "<",
            Le => "<=",
            Gt => ">",
            Ge => ">=",
            Eq => "==",
            Ne => "!=",
            BitAnd => "&",
            BitXor => "^",
            BitOr => "|",
            LogAnd => "&&",
            LogOr => "||",
            Assign => "=",
            Comma => ",",
        }
    }

    /// Its precedence: higher binds tighter (see [`prec`]).
    fn prec(self) -> u8 {
        use CBinOp::*;
        match self {
            Mul | Div | Rem => prec::MUL,
            Add | Sub => prec::ADD,
            Shl | Shr => prec::SHIFT,
            Lt | Le | Gt | Ge => prec::REL,
            Eq | Ne => prec::EQ,
            BitAnd => prec::BIT_AND,
            BitXor => prec::BIT_XOR,
            BitOr => prec::BIT_OR,
            LogAnd => prec::AND,
            LogOr => prec::OR,
            Assign => prec::ASSIGN,
            Comma => prec::COMMA,
        }
    }
}

/// A prefix operator of C.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CUnOp {
    /// `-`.
    Neg,
    /// `!`.
    Not,
    /// `~`.
    BitNot,
    /// `*`.
    Deref,
    /// `&`.
    AddrOf,
}

impl CUnOp {
    fn text(self) -> &'static str {
        match self {
            CUnOp::Neg => "-",
            CUnOp::Not => "!",
            CUnOp::BitNot => "~",
            CUnOp::Deref => "*",
            CUnOp::AddrOf => "&",
        }
    }
}

/// C's precedence levels, loosest first: an operand is parenthesised when
/// its level is below the one its place asks for.
mod prec {
    /// C text of unknown shape ([`super::CExpr::Text`] that is not a
    /// primary expression): parenthesised everywhere but where any
    /// expression may stand.
    pub const ANY: u8 = 0;
    pub const COMMA: u8 = 1;
    pub const ASSIGN: u8 = 2;
    pub const COND: u8 = 3;
    pub const OR: u8 = 4;
    pub const AND: u8 = 5;
    pub const BIT_OR: u8 = 6;
    pub const BIT_XOR: u8 = 7;
    pub const BIT_AND: u8 = 8;
    pub const EQ: u8 = 9;
    pub const REL: u8 = 10;
    pub const SHIFT: u8 = 11;
    pub const ADD: u8 = 12;
    pub const MUL: u8 = 13;
    /// Prefix operators, casts, `sizeof`.
    pub const UNARY: u8 = 14;
    /// Calls, subscripts, member accesses.
    pub const POSTFIX: u8 = 15;
    /// Names, literals, parenthesised text.
    pub const PRIMARY: u8 = 16;
}

/// A C expression. Trees: every node owns its operands. Names are written
/// as given: legalise them first ([`super::Namer`]).
#[derive(Clone, Debug, PartialEq)]
pub enum CExpr {
    /// A name or a literal: written as is, never parenthesised (build
    /// literals with [`super::lit`]; a negative number is a
    /// [`CUnOp::Neg`]).
    Atom(String),
    /// C text from elsewhere (the user's program): written as is where it
    /// is a primary expression (a name, a number, or text in one pair of
    /// parentheses), else parenthesised wherever an operator surrounds it.
    Text(String),
    /// `f(args…)`.
    Call(String, Vec<CExpr>),
    /// `(type)e`.
    Cast(String, Box<CExpr>),
    /// A prefix operator.
    Unary(CUnOp, Box<CExpr>),
    Binary(CBinOp, Box<CExpr>, Box<CExpr>),
    /// `c ? t : f`.
    Cond(Box<CExpr>, Box<CExpr>, Box<CExpr>),
    /// `a[i]`.
    Index(Box<CExpr>, Box<CExpr>),
    /// `e.name`, or `e->name` when `arrow`.
    Member {
        base: Box<CExpr>,
        name: String,
        arrow: bool,
    },
    /// `sizeof(e)`.
    SizeofExpr(Box<CExpr>),
    /// `sizeof(type)`.
    SizeofType(String),
}

impl CExpr {
    /// A name (or literal) as an expression.
    pub fn atom(s: impl Into<String>) -> CExpr {
        CExpr::Atom(s.into())
    }

    /// A user's C text as an expression.
    pub fn text(s: impl Into<String>) -> CExpr {
        CExpr::Text(s.into())
    }

    /// `(ty)e`.
    pub fn cast(ty: impl Into<String>, e: CExpr) -> CExpr {
        CExpr::Cast(ty.into(), Box::new(e))
    }

    /// `f(args…)`.
    pub fn call(f: impl Into<String>, args: Vec<CExpr>) -> CExpr {
        CExpr::Call(f.into(), args)
    }

    /// `a op b`.
    pub fn bin(op: CBinOp, a: CExpr, b: CExpr) -> CExpr {
        CExpr::Binary(op, Box::new(a), Box::new(b))
    }

    /// `op e`.
    pub fn un(op: CUnOp, e: CExpr) -> CExpr {
        CExpr::Unary(op, Box::new(e))
    }

    /// `c ? t : f`.
    pub fn cond(c: CExpr, t: CExpr, f: CExpr) -> CExpr {
        CExpr::Cond(Box::new(c), Box::new(t), Box::new(f))
    }

    /// `a[i]`.
    pub fn index(a: CExpr, i: CExpr) -> CExpr {
        CExpr::Index(Box::new(a), Box::new(i))
    }

    /// `&e`.
    pub fn addr_of(e: CExpr) -> CExpr {
        CExpr::un(CUnOp::AddrOf, e)
    }

    /// How tightly the expression binds.
    fn prec(&self) -> u8 {
        match self {
            CExpr::Atom(_) => prec::PRIMARY,
            CExpr::Text(t) if is_primary(t) => prec::PRIMARY,
            CExpr::Text(_) => prec::ANY,
            CExpr::Call(..) | CExpr::Index(..) | CExpr::Member { .. } => prec::POSTFIX,
            CExpr::Cast(..) | CExpr::Unary(..) | CExpr::SizeofExpr(_) | CExpr::SizeofType(_) => {
                prec::UNARY
            }
            CExpr::Binary(op, ..) => op.prec(),
            CExpr::Cond(..) => prec::COND,
        }
    }

    /// The expression as C, where any expression may stand (a statement,
    /// a parenthesised argument).
    pub fn to_c(&self) -> String {
        let mut out = String::new();
        self.write(&mut out, prec::ANY);
        out
    }

    /// The expression as C for a function argument or an initializer item
    /// (a comma expression is parenthesised).
    pub fn to_c_arg(&self) -> String {
        let mut out = String::new();
        self.write(&mut out, prec::ASSIGN);
        out
    }

    /// Writes the expression where its place asks for level `min`.
    fn write(&self, out: &mut String, min: u8) {
        let paren = self.prec() < min;
        if paren {
            out.push('(');
        }
        match self {
            CExpr::Atom(s) | CExpr::Text(s) => out.push_str(s),
            CExpr::Call(f, args) => {
                out.push_str(f);
                out.push('(');
                for (k, a) in args.iter().enumerate() {
                    if k > 0 {
                        out.push_str(", ");
                    }
                    a.write(out, prec::ASSIGN);
                }
                out.push(')');
            }
            CExpr::Cast(ty, e) => {
                let _ = write!(out, "({ty})");
                e.write(out, prec::UNARY);
            }
            CExpr::Unary(op, e) => {
                out.push_str(op.text());
                // `- -x`, `& &x`: never let two prefix operators fuse into
                // one token (`--`, `&&`).
                let fuse = matches!(&**e, CExpr::Unary(inner, _) if inner.text() == op.text())
                    || matches!(&**e, CExpr::Atom(a) if a.starts_with(op.text()));
                if fuse {
                    out.push('(');
                    e.write(out, prec::ANY);
                    out.push(')');
                } else {
                    e.write(out, prec::UNARY);
                }
            }
            CExpr::Binary(op, a, b) => {
                // Left-associative but for `=`.
                let (l, r) = if *op == CBinOp::Assign {
                    (op.prec() + 1, op.prec())
                } else {
                    (op.prec(), op.prec() + 1)
                };
                a.write(out, l);
                if *op == CBinOp::Comma {
                    out.push_str(", ");
                } else {
                    let _ = write!(out, " {} ", op.text());
                }
                b.write(out, r);
            }
            CExpr::Cond(c, t, f) => {
                c.write(out, prec::OR);
                out.push_str(" ? ");
                t.write(out, prec::COMMA);
                out.push_str(" : ");
                f.write(out, prec::COND);
            }
            CExpr::Index(a, i) => {
                a.write(out, prec::POSTFIX);
                out.push('[');
                i.write(out, prec::ANY);
                out.push(']');
            }
            CExpr::Member { base, name, arrow } => {
                base.write(out, prec::POSTFIX);
                out.push_str(if *arrow { "->" } else { "." });
                out.push_str(name);
            }
            CExpr::SizeofExpr(e) => {
                out.push_str("sizeof(");
                e.write(out, prec::ANY);
                out.push(')');
            }
            CExpr::SizeofType(t) => {
                let _ = write!(out, "sizeof({t})");
            }
        }
        if paren {
            out.push(')');
        }
    }
}

/// Whether C text is a primary expression: an identifier, a number, or
/// enclosed in one pair of parentheses.
fn is_primary(t: &str) -> bool {
    let t = t.as_bytes();
    if t.is_empty() {
        return false;
    }
    if t.iter().all(|b| b.is_ascii_alphanumeric() || *b == b'_') {
        return true;
    }
    if t[0] != b'(' || t[t.len() - 1] != b')' {
        return false;
    }
    // The first parenthesis must close at the end (no string or character
    // literal may hold an unbalanced one: those are counted as text).
    let mut depth = 0usize;
    let mut quote: Option<u8> = None;
    let mut escaped = false;
    for (k, &b) in t.iter().enumerate() {
        if let Some(q) = quote {
            if escaped {
                escaped = false;
            } else if b == b'\\' {
                escaped = true;
            } else if b == q {
                quote = None;
            }
            continue;
        }
        match b {
            b'"' | b'\'' => quote = Some(b),
            b'(' => depth += 1,
            b')' => {
                depth = depth.saturating_sub(1);
                if depth == 0 && k != t.len() - 1 {
                    return false;
                }
            }
            _ => {}
        }
    }
    depth == 0 && quote.is_none()
}

#[cfg(test)]
mod tests {
    use super::*;
    use CBinOp::*;

    fn a(s: &str) -> CExpr {
        CExpr::atom(s)
    }

    #[test]
    fn minimal_parentheses() {
        // (a + b) * c needs them; a + b * c does not.
        let sum = CExpr::bin(Add, a("a"), a("b"));
        assert_eq!(CExpr::bin(Mul, sum.clone(), a("c")).to_c(), "(a + b) * c");
        let prod = CExpr::bin(Mul, a("b"), a("c"));
        assert_eq!(CExpr::bin(Add, a("a"), prod).to_c(), "a + b * c");
        // Left-associative: a - (b - c) keeps them, (a - b) - c drops them.
        let d = CExpr::bin(Sub, a("b"), a("c"));
        assert_eq!(CExpr::bin(Sub, a("a"), d.clone()).to_c(), "a - (b - c)");
        assert_eq!(CExpr::bin(Sub, d, a("a")).to_c(), "b - c - a");
        // `=` is right-associative.
        let inner = CExpr::bin(Assign, a("b"), a("c"));
        assert_eq!(CExpr::bin(Assign, a("a"), inner).to_c(), "a = b = c");
        // Relational below shifts, equality below relational, bit ops
        // between.
        let sh = CExpr::bin(Shl, a("x"), a("1"));
        assert_eq!(CExpr::bin(Lt, sh.clone(), a("y")).to_c(), "x << 1 < y");
        let rel = CExpr::bin(Lt, a("x"), a("y"));
        assert_eq!(CExpr::bin(Shl, rel, a("1")).to_c(), "(x < y) << 1");
        let and = CExpr::bin(BitAnd, a("x"), a("m"));
        assert_eq!(CExpr::bin(Eq, and, a("0")).to_c(), "(x & m) == 0");
        let or = CExpr::bin(LogOr, a("p"), a("q"));
        assert_eq!(CExpr::bin(LogAnd, or, a("r")).to_c(), "(p || q) && r");
    }

    #[test]
    fn casts_unary_postfix() {
        let sum = CExpr::bin(Add, a("a"), a("b"));
        assert_eq!(CExpr::cast("int", sum.clone()).to_c(), "(int)(a + b)");
        assert_eq!(CExpr::cast("int", a("a")).to_c(), "(int)a");
        assert_eq!(
            CExpr::index(CExpr::cast("int *", a("p")), a("i")).to_c(),
            "((int *)p)[i]"
        );
        assert_eq!(CExpr::index(a("p"), sum.clone()).to_c(), "p[a + b]");
        let m = CExpr::Member {
            base: Box::new(CExpr::un(CUnOp::Deref, a("s"))),
            name: "f".into(),
            arrow: false,
        };
        assert_eq!(m.to_c(), "(*s).f");
        assert_eq!(CExpr::addr_of(CExpr::index(a("a"), a("0"))).to_c(), "&a[0]");
        // No `--` or `&&` tokens from two prefix operators.
        let neg = CExpr::un(CUnOp::Neg, a("x"));
        assert_eq!(CExpr::un(CUnOp::Neg, neg).to_c(), "-(-x)");
        assert_eq!(CExpr::un(CUnOp::Neg, a("-1")).to_c(), "-(-1)");
        assert_eq!(
            CExpr::un(CUnOp::Not, CExpr::un(CUnOp::Neg, a("x"))).to_c(),
            "!-x"
        );
        // Arguments: a comma expression is parenthesised.
        let comma = CExpr::bin(Comma, a("a"), a("b"));
        assert_eq!(
            CExpr::call("f", vec![comma, sum]).to_c(),
            "f((a, b), a + b)"
        );
    }

    #[test]
    fn conditional() {
        let c = CExpr::cond(
            CExpr::bin(Lt, a("a"), a("b")),
            CExpr::bin(Add, a("a"), a("1")),
            CExpr::cond(a("p"), a("x"), a("y")),
        );
        assert_eq!(c.to_c(), "a < b ? a + 1 : p ? x : y");
        let nested = CExpr::cond(CExpr::cond(a("p"), a("q"), a("r")), a("x"), a("y"));
        assert_eq!(nested.to_c(), "(p ? q : r) ? x : y");
        let assign = CExpr::bin(Assign, a("v"), CExpr::cond(a("p"), a("x"), a("y")));
        assert_eq!(assign.to_c(), "v = p ? x : y");
        assert_eq!(
            CExpr::bin(Mul, c, a("2")).to_c(),
            "(a < b ? a + 1 : p ? x : y) * 2"
        );
    }

    #[test]
    fn user_text() {
        assert!(is_primary("n"));
        assert!(is_primary("(a + b)"));
        assert!(is_primary("(f(\")\"))"));
        assert!(!is_primary("(a) + (b)"));
        assert!(!is_primary("a + b"));
        assert!(!is_primary("(a + ')'"));
        assert_eq!(
            CExpr::cast("long long", CExpr::text("(n)")).to_c(),
            "(long long)(n)"
        );
        assert_eq!(
            CExpr::cast("long long", CExpr::text("n + 1")).to_c(),
            "(long long)(n + 1)"
        );
        assert_eq!(
            CExpr::bin(Mul, CExpr::text("(a) + (b)"), a("2")).to_c(),
            "((a) + (b)) * 2"
        );
        assert_eq!(CExpr::text("a, b").to_c(), "a, b");
        assert_eq!(CExpr::text("a, b").to_c_arg(), "(a, b)");
    }
}
