//! Variable references in var-lists: `a`, `a[i]`, `a[0:n]`, `a[:n]`, `a[2:]`,
//! `u[1:k][0:M]`, `s.x[2:3]`, `p->q`.

use super::ast::{Access, VarRef};
use super::cursor::{Cursor, Stop};
use super::error::PResult;

impl Cursor<'_> {
    /// Reads one variable reference.
    pub fn var_ref(&mut self, clause: &str) -> PResult<VarRef> {
        let Some(base) = self.ident() else {
            let found = self.found();
            return Err(self.error(format!(
                "expected variable name in '{clause}' clause, found {found}"
            )));
        };
        let start = base.span.start;
        let mut end = base.span.end;
        let mut path = Vec::new();
        loop {
            let arrow = if self.eat(b'.') {
                false
            } else if self.eat_str("->") {
                true
            } else if self.peek() == Some(b'[') {
                let open = self.pos;
                self.pos += 1;
                path.push(self.subscript(open)?);
                end = self.pos;
                continue;
            } else {
                break;
            };
            let Some(name) = self.ident() else {
                let op = if arrow { "->" } else { "." };
                return Err(self.error(format!("expected member name after '{op}'")));
            };
            end = name.span.end;
            path.push(Access::Member { name, arrow });
        }
        Ok(VarRef {
            text: self.text[start..end].to_string(),
            span: start..end,
            base,
            path,
        })
    }

    /// Reads `[expr]` or `[lower:length]` after its `[` (at `open`), `]` included.
    fn subscript(&mut self, open: usize) -> PResult<Access> {
        let lower = if self.peek() == Some(b':') {
            None
        } else {
            Some(self.expr(Stop::Subscript)?)
        };
        if self.eat(b']') {
            return match lower {
                Some(e) => Ok(Access::Index(e)),
                None => Err(self.error("expected expression")),
            };
        }
        if !self.eat(b':') {
            return Err(self.error("expected ']'"));
        }
        let length = if self.peek() == Some(b']') {
            None
        } else {
            Some(self.expr(Stop::Subscript)?)
        };
        if !self.eat(b']') {
            return Err(self.error("expected ']' to close array section"));
        }
        Ok(Access::Section {
            lower,
            length,
            span: open..self.pos,
        })
    }

    /// Reads `var {, var} )` (the `(` already consumed).
    pub fn var_list_tail(&mut self, clause: &str) -> PResult<Vec<VarRef>> {
        let mut vars = vec![self.var_ref(clause)?];
        loop {
            if self.eat(b',') {
                vars.push(self.var_ref(clause)?);
            } else if self.eat(b')') {
                return Ok(vars);
            } else {
                let found = self.found();
                return Err(self.error(format!(
                    "expected ',' or ')' in '{clause}' clause, found {found}"
                )));
            }
        }
    }
}
