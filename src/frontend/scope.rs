//! Scopes: what each identifier means at a point of the translation unit.
//!
//! Owns: [`Scope`] and [`Symbol`]. May call: `ctype`.

use super::ctype::CType;
use std::collections::HashMap;

/// What kind of entity a name denotes.
#[derive(Clone, Debug, PartialEq)]
pub enum SymKind {
    /// A variable with static storage (file scope, `static` or `extern`).
    Global,
    /// An automatic variable of the enclosing host function.
    Local,
    /// A parameter of the enclosing host function.
    Param,
    /// A typedef name.
    Typedef,
    /// An enumeration constant with its value.
    EnumConst(i128),
    /// A function.
    Function,
}

/// A declared name.
#[derive(Clone, Debug, PartialEq)]
pub struct Symbol {
    pub name: String,
    pub ty: CType,
    pub kind: SymKind,
}

/// A stack of block scopes; the first is file scope.
#[derive(Clone, Debug)]
pub struct Scope {
    stack: Vec<HashMap<String, Symbol>>,
}

impl Default for Scope {
    fn default() -> Self {
        Scope {
            stack: vec![HashMap::new()],
        }
    }
}

impl Scope {
    /// Opens a block scope.
    pub fn push(&mut self) {
        self.stack.push(HashMap::new());
    }

    /// Closes the innermost block scope (never the file scope).
    pub fn pop(&mut self) {
        if self.stack.len() > 1 {
            self.stack.pop();
        }
    }

    /// Declares a name in the innermost scope.
    pub fn insert(&mut self, sym: Symbol) {
        if let Some(top) = self.stack.last_mut() {
            top.insert(sym.name.clone(), sym);
        }
    }

    /// Finds the innermost declaration of `name`.
    pub fn lookup(&self, name: &str) -> Option<&Symbol> {
        self.stack.iter().rev().find_map(|s| s.get(name))
    }

    /// Every typedef name visible (for parsing clause expressions).
    pub fn typedef_names(&self) -> Vec<String> {
        self.stack
            .iter()
            .flat_map(|s| s.values())
            .filter(|s| s.kind == SymKind::Typedef)
            .map(|s| s.name.clone())
            .collect()
    }
}
