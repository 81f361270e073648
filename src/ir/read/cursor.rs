//! The reader's lexing: a position in the text and the tokens of the IR's
//! text form (words, numbers, quoted strings, types, balanced C text).
//!
//! Owns: [`Cursor`] and [`ReadError`]. May call: `ir` types only.

use crate::ir::{FloatKind, IntKind, Type};

/// Why a text is not a module: where (1-based line and column) and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadError {
    pub line: u32,
    pub col: u32,
    pub message: String,
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.col, self.message)
    }
}

impl std::error::Error for ReadError {}

pub(super) type Result<T> = std::result::Result<T, ReadError>;

/// The deepest nesting of types and expressions the reader follows (so
/// that no input overflows its stack).
pub(super) const MAX_DEPTH: u32 = 500;

const INT_KINDS: [IntKind; 9] = [
    IntKind::Bool,
    IntKind::I8,
    IntKind::U8,
    IntKind::I16,
    IntKind::U16,
    IntKind::I32,
    IntKind::U32,
    IntKind::I64,
    IntKind::U64,
];

/// A byte position in the text being read.
pub(super) struct Cursor<'a> {
    pub(super) src: &'a str,
    pub(super) pos: usize,
}

impl<'a> Cursor<'a> {
    pub(super) fn new(src: &'a str) -> Cursor<'a> {
        Cursor { src, pos: 0 }
    }

    /// An error at the current position.
    pub(super) fn err<T>(&self, message: impl Into<String>) -> Result<T> {
        Err(self.error_at(self.pos, message))
    }

    /// An error at byte `pos`.
    pub(super) fn error_at(&self, pos: usize, message: impl Into<String>) -> ReadError {
        let before = self.src.get(..pos).unwrap_or(self.src);
        let line = before.matches('\n').count() + 1;
        let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        ReadError {
            line: u32::try_from(line).unwrap_or(u32::MAX),
            col: u32::try_from(col).unwrap_or(u32::MAX),
            message: message.into(),
        }
    }

    /// The text from the current position.
    pub(super) fn rest(&self) -> &'a str {
        self.src.get(self.pos..).unwrap_or("")
    }

    pub(super) fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    /// Whether the current position starts a comment line: a `;` that is
    /// the first character but blanks on its line.
    fn at_comment(&self) -> bool {
        let line_start = self.src[..self.pos].rfind('\n').map_or(0, |i| i + 1);
        self.rest().starts_with(';') && self.src[line_start..self.pos].trim().is_empty()
    }

    /// Skips blanks, newlines and comment lines.
    pub(super) fn skip_ws(&mut self) {
        loop {
            let r = self.rest();
            let t = r.trim_start();
            self.pos += r.len() - t.len();
            if !self.at_comment() {
                return;
            }
            self.pos += self.rest().find('\n').unwrap_or(self.rest().len());
        }
    }

    /// Consumes `s` where the text continues with it (no blanks skipped).
    pub(super) fn eat(&mut self, s: &str) -> bool {
        if self.rest().starts_with(s) {
            self.pos += s.len();
            true
        } else {
            false
        }
    }

    /// Skips blanks, then consumes `s` if it comes next.
    pub(super) fn tok(&mut self, s: &str) -> bool {
        self.skip_ws();
        self.eat(s)
    }

    /// Skips blanks, then consumes `s` or fails.
    pub(super) fn expect(&mut self, s: &str) -> Result<()> {
        if self.tok(s) {
            Ok(())
        } else {
            let found: String = self.rest().chars().take(20).collect();
            self.err(format!("expected '{s}', found '{found}'"))
        }
    }

    /// Consumes `s` (no blanks skipped) or fails.
    pub(super) fn expect_here(&mut self, s: &str) -> Result<()> {
        if self.eat(s) {
            Ok(())
        } else {
            let found: String = self.rest().chars().take(20).collect();
            self.err(format!("expected '{s}', found '{found}'"))
        }
    }

    /// Whether only blanks are left on the current line.
    pub(super) fn at_eol(&self) -> bool {
        let r = self.rest();
        let line = &r[..r.find('\n').unwrap_or(r.len())];
        line.trim().is_empty()
    }

    /// The rest of the current line (without the newline), consumed.
    pub(super) fn rest_of_line(&mut self) -> &'a str {
        let r = self.rest();
        let n = r.find('\n').unwrap_or(r.len());
        self.pos += n;
        &r[..n]
    }

    /// A word of letters, digits and `_` (possibly empty), no blanks skipped.
    pub(super) fn word(&mut self) -> &'a str {
        let r = self.rest();
        let n = r
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(r.len());
        self.pos += n;
        &r[..n]
    }

    /// A symbol after `@`: letters, digits, `_`, `.` and `$`.
    pub(super) fn symbol(&mut self) -> Result<&'a str> {
        self.expect("@")?;
        let r = self.rest();
        let n = r
            .find(|c: char| !(c.is_ascii_alphanumeric() || "_.$".contains(c)))
            .unwrap_or(r.len());
        if n == 0 {
            return self.err("expected a symbol name");
        }
        self.pos += n;
        Ok(&r[..n])
    }

    /// An unsigned decimal number (after blanks).
    pub(super) fn unsigned<T: std::str::FromStr>(&mut self) -> Result<T> {
        self.skip_ws();
        let start = self.pos;
        let r = self.rest();
        let n = r.find(|c: char| !c.is_ascii_digit()).unwrap_or(r.len());
        self.pos += n;
        r[..n]
            .parse()
            .map_err(|_| self.error_at(start, "expected a number"))
    }

    /// A signed decimal integer (after blanks).
    pub(super) fn integer(&mut self) -> Result<i128> {
        self.skip_ws();
        let neg = self.eat("-");
        let v: i128 = self.unsigned()?;
        Ok(if neg { -v } else { v })
    }

    /// A local's handle `%N` (after blanks).
    pub(super) fn local_id(&mut self) -> Result<u32> {
        self.expect("%")?;
        self.unsigned()
    }

    /// A string in double quotes with the escapes the printer writes,
    /// as bytes (after blanks).
    pub(super) fn quoted_bytes(&mut self) -> Result<Vec<u8>> {
        self.expect("\"")?;
        let mut out = vec![];
        loop {
            let Some(c) = self.peek() else {
                return self.err("unterminated string");
            };
            self.pos += c.len_utf8();
            match c {
                '"' => return Ok(out),
                '\\' => {
                    let at = self.pos - 1;
                    let e = self.peek();
                    self.pos += e.map_or(0, char::len_utf8);
                    match e {
                        Some('n') => out.push(b'\n'),
                        Some('t') => out.push(b'\t'),
                        Some('r') => out.push(b'\r'),
                        Some('"') => out.push(b'"'),
                        Some('\\') => out.push(b'\\'),
                        Some('x') => {
                            let hex = self.rest().get(..2).unwrap_or("");
                            let b = u8::from_str_radix(hex, 16)
                                .map_err(|_| self.error_at(self.pos, "bad \\x escape"))?;
                            self.pos += 2;
                            out.push(b);
                        }
                        _ => return Err(self.error_at(at, "unknown escape in string")),
                    }
                }
                '\n' => return self.err("unterminated string"),
                c => {
                    let mut buf = [0; 4];
                    out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                }
            }
        }
    }

    /// A quoted string that must be UTF-8.
    pub(super) fn quoted(&mut self) -> Result<String> {
        let start = self.pos;
        let b = self.quoted_bytes()?;
        String::from_utf8(b).map_err(|_| self.error_at(start, "string is not UTF-8"))
    }

    /// Host C text in parentheses, balanced over `()`, `[]`, `{}` and
    /// skipping string and character literals: the text inside the outer
    /// pair.
    pub(super) fn balanced(&mut self) -> Result<&'a str> {
        self.expect("(")?;
        let start = self.pos;
        let mut stack = vec![')'];
        let mut chars = self.rest().char_indices();
        while let Some((i, c)) = chars.next() {
            match c {
                '(' => stack.push(')'),
                '[' => stack.push(']'),
                '{' => stack.push('}'),
                ')' | ']' | '}' => {
                    if stack.pop() != Some(c) {
                        return Err(self.error_at(start + i, "unbalanced C text"));
                    }
                    if stack.is_empty() {
                        self.pos = start + i + 1;
                        return Ok(&self.src[start..start + i]);
                    }
                }
                '"' | '\'' => loop {
                    match chars.next() {
                        Some((_, '\\')) => {
                            chars.next();
                        }
                        Some((_, q)) if q == c => break,
                        Some(_) => {}
                        None => return Err(self.error_at(start + i, "unterminated C literal")),
                    }
                },
                _ => {}
            }
        }
        self.err("unterminated C text")
    }

    /// A type: `void`, `bool`, `i8` … `u64`, `f32`, `f64`, `ptr<T>`,
    /// `[T; n]`, `blob<size, align>` (after blanks).
    pub(super) fn ty(&mut self) -> Result<Type> {
        self.ty_at(0)
    }

    fn ty_at(&mut self, depth: u32) -> Result<Type> {
        if depth > MAX_DEPTH {
            return self.err("type nested too deeply");
        }
        self.skip_ws();
        let start = self.pos;
        if self.eat("[") {
            let elem = self.ty_at(depth + 1)?;
            self.expect(";")?;
            let n = self.unsigned()?;
            self.expect("]")?;
            return Ok(Type::Array(Box::new(elem), n));
        }
        let w = self.word();
        let t = match w {
            "void" => Type::Void,
            "f32" => Type::Float(FloatKind::F32),
            "f64" => Type::Float(FloatKind::F64),
            "ptr" => {
                self.expect_here("<")?;
                let t = self.ty_at(depth + 1)?;
                self.expect(">")?;
                t.ptr_to()
            }
            "blob" => {
                self.expect_here("<")?;
                let size = self.unsigned()?;
                self.expect(",")?;
                let align = self.unsigned()?;
                self.expect(">")?;
                Type::Blob { size, align }
            }
            w => match INT_KINDS.iter().find(|k| Type::Int(**k).to_string() == w) {
                Some(k) => Type::Int(*k),
                None => return Err(self.error_at(start, format!("unknown type '{w}'"))),
            },
        };
        Ok(t)
    }
}
