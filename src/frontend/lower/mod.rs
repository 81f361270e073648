//! Lowering of one compute region's C statements into an IR kernel body.
//!
//! Owns: [`Lower`], the state of lowering one region: the kernel function
//! being built, its parameters (host variables the region uses, created on
//! first use), the region's own block scopes and the statement emission stack.
//! `expr.rs` lowers expressions, `stmt.rs` statements and loops.
//! May call: `ir`, `frontend::{ctype, conv, declare, literal, scope, source}`.

mod expr;
mod stmt;

use super::ctype::CType;
use super::scope::{Scope, SymKind};
use super::source::SourceMap;
use crate::diag::{DResult, Diagnostics};
use crate::ir::{Block, Function, LocalId, Parallelism, Param, ParamMode, SrcLoc, Stmt};
use lang_c::span::Span;
use std::collections::HashMap;

/// What a loop directive asks of the `for` statement it is attached to.
#[derive(Clone, Debug, PartialEq)]
pub struct LoopSpec {
    /// The parallelism chosen for the loop.
    pub par: Parallelism,
    /// Where the directive is (for messages).
    pub loc: SrcLoc,
}

/// A host variable that the region uses, passed as a kernel parameter.
#[derive(Clone, Debug, PartialEq)]
pub struct HostVar {
    /// Its name in the host scope.
    pub name: String,
    /// Its C type in the host scope.
    pub ty: CType,
    /// Whether the region writes through it (arrays and pointers).
    pub written: bool,
    /// A scalar in a data clause: the kernel reads and writes it in device
    /// memory (the parameter is its device address).
    pub by_ref: bool,
}

/// The state of lowering one region.
pub struct Lower<'a> {
    pub sm: &'a SourceMap,
    /// The host scope at the construct (typedefs, host variables).
    pub host: &'a mut Scope,
    /// The kernel body being built.
    pub f: Function,
    /// Kernel parameters, in order; `vars[i]` describes `params[i]`.
    pub params: Vec<Param>,
    pub vars: Vec<HostVar>,
    /// Loop directives, by the byte offset of the `for` they are attached to.
    pub loops: &'a HashMap<usize, LoopSpec>,
    /// Scalars that appear in data clauses (accessed in device memory).
    pub by_ref: std::collections::HashSet<String>,
    /// Block scopes of the region's own declarations.
    scopes: Vec<HashMap<String, (LocalId, CType)>>,
    /// Statement emission stack: statements go to the last block.
    blocks: Vec<Block>,
    /// Depth of enclosing loops (for break/continue checks).
    loop_depth: u32,
    /// Inside a vector-partitioned loop.
    in_vector: bool,
    /// Inside a worker-partitioned loop.
    in_worker: bool,
}

impl<'a> Lower<'a> {
    /// Starts lowering a region in the given host scope.
    pub fn new(
        sm: &'a SourceMap,
        host: &'a mut Scope,
        loops: &'a HashMap<usize, LoopSpec>,
    ) -> Self {
        Lower {
            sm,
            host,
            f: Function::default(),
            params: vec![],
            vars: vec![],
            loops,
            by_ref: Default::default(),
            scopes: vec![HashMap::new()],
            blocks: vec![vec![]],
            loop_depth: 0,
            in_vector: false,
            in_worker: false,
        }
    }

    /// Finishes: the kernel body with its statements.
    pub fn finish(mut self) -> (Function, Vec<Param>, Vec<HostVar>) {
        self.f.body = self.blocks.pop().unwrap_or_default();
        let written = written_locals(&self.f);
        for i in 0..self.params.len() {
            if written.contains(&self.params[i].local) {
                self.mark_written(i);
            }
        }
        (self.f, self.params, self.vars)
    }

    /// An error at a span.
    pub fn err<T>(&self, span: Span, msg: impl Into<String>) -> DResult<T> {
        Err(Diagnostics::one(Some(self.sm.loc(span.start)), msg))
    }

    /// Appends a statement to the current block.
    pub fn emit(&mut self, s: Stmt) {
        if let Some(b) = self.blocks.last_mut() {
            b.push(s);
        }
    }

    /// Lowers statements produced by `f` into a separate block.
    pub fn in_block<T>(&mut self, f: impl FnOnce(&mut Self) -> DResult<T>) -> DResult<(T, Block)> {
        self.blocks.push(vec![]);
        let r = f(self);
        let b = self.blocks.pop().unwrap_or_default();
        Ok((r?, b))
    }

    /// Declares a region-local variable.
    pub fn declare_local(&mut self, name: &str, ty: CType, span: Span) -> DResult<LocalId> {
        let Some(irty) = ty.to_ir() else {
            return self.err(
                span,
                format!(
                    "variable '{name}' of type '{ty}' is not supported in a compute region yet"
                ),
            );
        };
        let id = self.f.new_local(name, irty);
        if let Some(s) = self.scopes.last_mut() {
            s.insert(name.to_string(), (id, ty));
        }
        Ok(id)
    }

    /// A fresh temporary local.
    pub fn temp(&mut self, ty: crate::ir::Type) -> LocalId {
        self.f.new_local("tmp", ty)
    }

    fn push_scope(&mut self) {
        self.scopes.push(HashMap::new());
    }

    fn pop_scope(&mut self) {
        self.scopes.pop();
    }

    /// Resolves a name used in the region: a region local, or a host variable
    /// (made a kernel parameter on first use).
    pub fn resolve(&mut self, name: &str, span: Span) -> DResult<Resolved> {
        for s in self.scopes.iter().rev() {
            if let Some((id, ty)) = s.get(name) {
                return Ok(Resolved::Local(*id, ty.clone()));
            }
        }
        if let Some(i) = self.vars.iter().position(|v| v.name == name) {
            return Ok(Resolved::Param(i));
        }
        let Some(sym) = self.host.lookup(name).cloned() else {
            return self.err(span, format!("use of undeclared identifier '{name}'"));
        };
        match sym.kind {
            SymKind::EnumConst(v) => Ok(Resolved::Const(v)),
            SymKind::Typedef => self.err(span, format!("unexpected type name '{name}'")),
            SymKind::Function => Ok(Resolved::Function(name.to_string())),
            SymKind::Global | SymKind::Local | SymKind::Param => {
                let by_ref = self.by_ref.contains(name) && sym.ty.is_arithmetic();
                let (mode, irty) = match &sym.ty {
                    t if by_ref => (
                        ParamMode::DevicePtr { read_only: true },
                        t.to_ir().map(|t| t.ptr_to()),
                    ),
                    t if t.is_arithmetic() => (ParamMode::Value, t.to_ir()),
                    CType::Ptr(_) | CType::Array(..) => (
                        ParamMode::DevicePtr { read_only: true },
                        sym.ty.decay().to_ir(),
                    ),
                    _ => (ParamMode::Value, None),
                };
                let Some(irty) = irty else {
                    return self.err(
                        span,
                        format!(
                            "variable '{name}' of type '{}' cannot be used in a compute region yet",
                            sym.ty
                        ),
                    );
                };
                let local = self.f.new_local(name, irty);
                self.params.push(Param {
                    name: name.to_string(),
                    local,
                    mode,
                });
                self.vars.push(HostVar {
                    name: name.to_string(),
                    ty: sym.ty.clone(),
                    written: false,
                    by_ref,
                });
                Ok(Resolved::Param(self.vars.len() - 1))
            }
        }
    }
}

/// What a name in a region denotes.
pub enum Resolved {
    /// A region-local variable.
    Local(LocalId, CType),
    /// Host variable number `i` (a kernel parameter).
    Param(usize),
    /// An enumeration constant.
    Const(i128),
    /// A function.
    Function(String),
}

/// The locals through which the function may store: those read in the
/// address of a store, and (transitively) those whose value flows into such
/// a local by assignment.
fn written_locals(f: &Function) -> std::collections::HashSet<LocalId> {
    let (mut stores, mut flows) = (vec![], vec![]);
    crate::ir::walk_stmts(&f.body, &mut |s| match s {
        Stmt::Store { ptr, .. } => f.locals_read(*ptr, &mut stores),
        Stmt::Assign { local, value } => {
            let mut v = vec![];
            f.locals_read(*value, &mut v);
            flows.push((*local, v));
        }
        _ => {}
    });
    let mut set: std::collections::HashSet<LocalId> = stores.into_iter().collect();
    loop {
        let before = set.len();
        for (dst, srcs) in &flows {
            if set.contains(dst) {
                set.extend(srcs.iter().copied());
            }
        }
        if set.len() == before {
            return set;
        }
    }
}
