//! The scanner under the directive parser: white space, identifiers,
//! punctuation, and capture of balanced C expression text.
//!
//! The cursor only ever stops on ASCII bytes (or at the end), so every offset
//! it produces is a char boundary of the text and slicing never panics.

use super::ast::{ClauseExpr, Ident, SizeExpr, Span};
use super::error::{DirectiveError, PResult};

/// What ends an expression captured by [`Cursor::expr`] (at bracket depth 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stop {
    /// `)` or `,`: one element of a parenthesised list.
    ListItem,
    /// `)` only: a single parenthesised expression (commas are part of it).
    Paren,
    /// `]` or a `:` not matching a `?`: a subscript or section bound.
    Subscript,
    /// `:` (not matching a `?`), `)` or `,`: an expression followed by `:`.
    Colon,
}

/// A position in the directive text.
pub(crate) struct Cursor<'a> {
    /// The whole directive text.
    pub text: &'a str,
    /// The current byte offset.
    pub pos: usize,
}

/// Whether `b` can start an identifier.
fn ident_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_'
}

/// Whether `b` can continue an identifier.
fn ident_continue(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

impl<'a> Cursor<'a> {
    /// A cursor at the start of `text`.
    pub fn new(text: &'a str) -> Self {
        Cursor { text, pos: 0 }
    }

    /// The byte at `pos + n`, if any.
    fn byte_at(&self, n: usize) -> Option<u8> {
        self.text.as_bytes().get(self.pos + n).copied()
    }

    /// Skips white space and C comments.
    pub fn skip_ws(&mut self) {
        let b = self.text.as_bytes();
        loop {
            match b.get(self.pos) {
                Some(c) if c.is_ascii_whitespace() => self.pos += 1,
                Some(b'/') if b.get(self.pos + 1) == Some(&b'*') => {
                    match self.text[self.pos + 2..].find("*/") {
                        Some(i) => self.pos += 2 + i + 2,
                        None => self.pos = b.len(),
                    }
                }
                Some(b'/') if b.get(self.pos + 1) == Some(&b'/') => self.pos = b.len(),
                _ => return,
            }
        }
    }

    /// Skips white space and returns the next byte without consuming it.
    pub fn peek(&mut self) -> Option<u8> {
        self.skip_ws();
        self.byte_at(0)
    }

    /// Whether only white space remains.
    pub fn at_end(&mut self) -> bool {
        self.peek().is_none()
    }

    /// Skips white space and consumes `c` if it is next.
    pub fn eat(&mut self, c: u8) -> bool {
        if self.peek() == Some(c) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    /// Skips white space and consumes the string `s` if it is next.
    pub fn eat_str(&mut self, s: &str) -> bool {
        self.skip_ws();
        if self.text[self.pos..].starts_with(s) {
            self.pos += s.len();
            true
        } else {
            false
        }
    }

    /// Consumes `c` or fails with `message`.
    pub fn expect(&mut self, c: u8, message: impl FnOnce() -> String) -> PResult<()> {
        if self.eat(c) {
            Ok(())
        } else {
            Err(self.error(message()))
        }
    }

    /// An error at the current position (after white space).
    pub fn error(&mut self, message: impl Into<String>) -> DirectiveError {
        self.skip_ws();
        DirectiveError::new(self.pos, message)
    }

    /// Skips white space and reads an identifier, if one is next.
    pub fn ident(&mut self) -> Option<Ident> {
        self.skip_ws();
        let b = self.text.as_bytes();
        if !b.get(self.pos).is_some_and(|&c| ident_start(c)) {
            return None;
        }
        let start = self.pos;
        while b.get(self.pos).is_some_and(|&c| ident_continue(c)) {
            self.pos += 1;
        }
        Some(Ident {
            name: self.text[start..self.pos].to_string(),
            span: start..self.pos,
        })
    }

    /// Reads the identifier `word` if it is next and followed by `:` (not
    /// `::`); consumes both. Used for modifiers such as `readonly:`.
    pub fn keyword_colon(&mut self, word: &str) -> Option<Span> {
        let save = self.pos;
        if let Some(id) = self.ident() {
            if id.name == word && self.peek() == Some(b':') && self.byte_at(1) != Some(b':') {
                self.pos += 1;
                return Some(id.span);
            }
        }
        self.pos = save;
        None
    }

    /// Reads any identifier followed by `:` (not `::`) and consumes both.
    pub fn any_keyword_colon(&mut self) -> Option<Ident> {
        let save = self.pos;
        if let Some(id) = self.ident() {
            if self.peek() == Some(b':') && self.byte_at(1) != Some(b':') {
                self.pos += 1;
                return Some(id);
            }
        }
        self.pos = save;
        None
    }

    /// Describes what is at the current position, for messages.
    pub fn found(&mut self) -> String {
        self.skip_ws();
        let save = self.pos;
        if let Some(id) = self.ident() {
            self.pos = save;
            return format!("'{}'", id.name);
        }
        match self.text.get(self.pos..).and_then(|s| s.chars().next()) {
            Some(c) => format!("'{c}'"),
            None => "end of directive".to_string(),
        }
    }

    /// Captures a C expression ending (at depth 0) where `stop` says, without
    /// consuming the terminator. Fails on an empty expression, unbalanced
    /// brackets, an unterminated literal, or the end of the text.
    pub fn expr(&mut self, stop: Stop) -> PResult<ClauseExpr> {
        self.skip_ws();
        let b = self.text.as_bytes();
        let start = self.pos;
        let mut stack: Vec<u8> = Vec::new();
        let mut questions = 0usize;
        let mut i = start;
        let closer = match stop {
            Stop::Subscript => b']',
            _ => b')',
        };
        loop {
            let want = stack.last().copied().unwrap_or(closer) as char;
            let Some(&c) = b.get(i) else {
                return Err(DirectiveError::new(
                    b.len(),
                    format!("expected '{want}' at end of directive"),
                ));
            };
            if stack.is_empty() {
                let ends = match c {
                    b')' => stop != Stop::Subscript,
                    b']' => stop == Stop::Subscript,
                    b',' => matches!(stop, Stop::ListItem | Stop::Colon),
                    b':' if questions > 0 => {
                        questions -= 1;
                        false
                    }
                    b':' => matches!(stop, Stop::Subscript | Stop::Colon),
                    b'?' => {
                        questions += 1;
                        false
                    }
                    _ => false,
                };
                if ends {
                    break;
                }
            }
            match c {
                b'(' => stack.push(b')'),
                b'[' => stack.push(b']'),
                b'{' => stack.push(b'}'),
                // The guard pops the matching opener; a mismatch is an error.
                b')' | b']' | b'}' if stack.pop() != Some(c) => {
                    return Err(DirectiveError::new(
                        i,
                        format!("expected '{want}' before '{}'", c as char),
                    ));
                }
                b'"' | b'\'' => {
                    i = skip_literal(b, i)?;
                    continue;
                }
                _ => {}
            }
            i += 1;
        }
        let raw = &self.text[start..i];
        let trimmed = raw.trim_end();
        self.pos = i;
        if trimmed.is_empty() {
            return Err(DirectiveError::new(start, "expected expression"));
        }
        Ok(ClauseExpr {
            text: trimmed.to_string(),
            span: start..start + trimmed.len(),
        })
    }

    /// Reads a size expression: `*` alone, or an expression ending like `stop`.
    pub fn size_expr(&mut self, stop: Stop) -> PResult<SizeExpr> {
        self.skip_ws();
        let save = self.pos;
        if self.eat(b'*') && matches!(self.peek(), Some(b',') | Some(b')')) {
            return Ok(SizeExpr::Star(save..save + 1));
        }
        self.pos = save;
        self.expr(stop).map(SizeExpr::Expr)
    }

    /// Reads a parenthesised, comma-separated list of expressions, `(` included.
    pub fn expr_list(&mut self, clause: &str) -> PResult<Vec<ClauseExpr>> {
        self.expect(b'(', || format!("expected '(' after '{clause}'"))?;
        self.expr_list_tail(clause)
    }

    /// Reads `expr {, expr} )` (the `(` already consumed).
    pub fn expr_list_tail(&mut self, clause: &str) -> PResult<Vec<ClauseExpr>> {
        let mut out = vec![self.expr(Stop::ListItem)?];
        while self.eat(b',') {
            out.push(self.expr(Stop::ListItem)?);
        }
        self.close(clause)?;
        Ok(out)
    }

    /// Consumes the `)` closing the argument of `what`.
    pub fn close(&mut self, what: &str) -> PResult<()> {
        if self.eat(b')') {
            return Ok(());
        }
        let found = self.found();
        Err(self.error(format!("expected ')' to close '{what}', found {found}")))
    }
}

/// Skips a string or character literal starting at `i` (the quote) and
/// returns the offset after its closing quote.
pub(crate) fn skip_literal(b: &[u8], i: usize) -> PResult<usize> {
    let quote = b[i];
    let mut j = i + 1;
    while let Some(&c) = b.get(j) {
        if c == b'\\' {
            j += 2;
            continue;
        }
        if c == quote {
            return Ok(j + 1);
        }
        j += 1;
    }
    Err(DirectiveError::new(
        i,
        format!("missing terminating {} character", quote as char),
    ))
}
