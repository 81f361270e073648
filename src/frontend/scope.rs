//! Scopes: what each identifier means at a point of the translation unit.
//!
//! Owns: [`Scope`] and [`Symbol`]; the ordinary identifiers and, in their
//! own name space, struct and union tags. May call: `ctype`, `record`.

use super::ctype::CType;
use super::record::StructRef;
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
    /// The object itself is const-qualified (`const double w[5]`, not
    /// `const double *p`): the host may keep it in read-only memory, so no
    /// data movement ever copies into it.
    pub readonly: bool,
    /// A `restrict`-qualified pointer (`double *restrict p`): what it
    /// points to is reached through no other name.
    pub restrict: bool,
}

/// A stack of block scopes; the first is file scope.
#[derive(Clone, Debug)]
pub struct Scope {
    stack: Vec<HashMap<String, Symbol>>,
    /// Struct and union tags, one map per block scope.
    tags: Vec<HashMap<String, StructRef>>,
}

impl Default for Scope {
    fn default() -> Self {
        Scope {
            stack: vec![HashMap::new()],
            tags: vec![HashMap::new()],
        }
    }
}

impl Scope {
    /// Opens a block scope.
    pub fn push(&mut self) {
        self.stack.push(HashMap::new());
        self.tags.push(HashMap::new());
    }

    /// Closes the innermost block scope (never the file scope).
    pub fn pop(&mut self) {
        if self.stack.len() > 1 {
            self.stack.pop();
            self.tags.pop();
        }
    }

    /// The file scope alone (for compiling a function defined at file
    /// scope, away from the block it is called from).
    pub fn file_scope(&self) -> Scope {
        Scope {
            stack: self.stack.iter().take(1).cloned().collect(),
            tags: self.tags.iter().take(1).cloned().collect(),
        }
    }

    /// The innermost visible struct or union with this tag.
    pub fn lookup_tag(&self, tag: &str) -> Option<&StructRef> {
        self.tags.iter().rev().find_map(|s| s.get(tag))
    }

    /// The struct or union with this tag declared in the innermost scope.
    pub fn tag_here(&self, tag: &str) -> Option<&StructRef> {
        self.tags.last().and_then(|s| s.get(tag))
    }

    /// Declares a tag in the innermost scope.
    pub fn insert_tag(&mut self, tag: &str, s: StructRef) {
        if let Some(top) = self.tags.last_mut() {
            top.insert(tag.to_string(), s);
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
