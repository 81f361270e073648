//! A generated C expression: its text, its C type, what is known of its value, and
//! its precedence (so operands are parenthesised only where C needs it).

use super::span::Span;
use super::ty::Ty;

/// C operator precedence levels; higher binds tighter.
pub mod prec {
    pub const ASSIGN: u8 = 2;
    pub const COND: u8 = 3;
    pub const LOR: u8 = 4;
    pub const LAND: u8 = 5;
    pub const BOR: u8 = 6;
    pub const BXOR: u8 = 7;
    pub const BAND: u8 = 8;
    pub const EQ: u8 = 9;
    pub const REL: u8 = 10;
    pub const SHIFT: u8 = 11;
    pub const ADD: u8 = 12;
    pub const MUL: u8 = 13;
    pub const UNARY: u8 = 14;
    pub const POSTFIX: u8 = 15;
    pub const PRIMARY: u8 = 16;
}

#[derive(Clone, Debug)]
pub struct Expr {
    pub text: String,
    pub ty: Ty,
    pub span: Span,
    /// Precedence of the outermost operator.
    pub prec: u8,
    /// Number of operators and leaves (bounds the text guards duplicate).
    pub size: u32,
    /// Names read: variables, and arrays by array name (a struct member by its base).
    pub reads: Vec<String>,
    /// The outermost operator is written as itself (`a + b`), each operand evaluated
    /// once; false for wrapped (`(int)((unsigned)a + (unsigned)b)`) or guarded
    /// (`b == 0 ? a : a / b`) forms. Compound assignments need direct forms.
    pub direct: bool,
}

impl Expr {
    /// A primary expression (name, literal, array element).
    pub fn leaf(text: impl Into<String>, ty: Ty, span: Span) -> Expr {
        Expr {
            text: text.into(),
            ty,
            span,
            prec: prec::PRIMARY,
            size: 1,
            reads: Vec::new(),
            direct: true,
        }
    }

    /// A leaf that reads `name`.
    pub fn read(text: impl Into<String>, name: &str, ty: Ty, span: Span) -> Expr {
        let mut e = Expr::leaf(text, ty, span);
        e.reads.push(name.to_string());
        e
    }

    /// A new expression over `parts` with the given outermost operator.
    pub fn node(text: String, ty: Ty, span: Span, prec: u8, parts: &[&Expr]) -> Expr {
        let mut reads: Vec<String> = Vec::new();
        for p in parts {
            for r in &p.reads {
                if !reads.contains(r) {
                    reads.push(r.clone());
                }
            }
        }
        Expr {
            text,
            ty,
            span,
            prec,
            size: 1 + parts.iter().map(|p| p.size).sum::<u32>(),
            reads,
            direct: true,
        }
    }

    /// The text as an operand needing at least precedence `min`.
    pub fn at(&self, min: u8) -> String {
        if self.prec < min {
            format!("({})", self.text)
        } else {
            self.text.clone()
        }
    }

    /// The text as the operand of a prefix operator (`-x`, `~x`): parenthesised
    /// also when it starts with a sign, so `-` and `-5` never make `--5`.
    pub fn at_prefix(&self) -> String {
        if self.prec < prec::UNARY || self.text.starts_with(['-', '+']) {
            format!("({})", self.text)
        } else {
            self.text.clone()
        }
    }

    pub fn reads_name(&self, name: &str) -> bool {
        self.reads.iter().any(|r| r == name)
    }
}
