//! Lowering of C statements into an IR body: a compute region's body into a
//! kernel, or a function's body into a device function (`acc routine`).
//!
//! Owns: [`Lower`], the state of lowering one body: the IR function being
//! built, the kernel parameters (host variables a region uses, created on
//! first use, with the hidden sizes of variable-length arrays), the body's
//! own block scopes, the statement emission stack, and the loops and
//! switches around (for `break` and `continue`). Lowering decides nothing
//! about threads: it leaves every candidate loop's levels undecided
//! ([`crate::ir::Function::undecided`], with the facts of the source the
//! decision reads; `schedule::plan_levels` decides), and the rules that
//! depend on levels are the validator's. A side effect that
//! one thread performs where several run the code is a [`Stmt::Single`] (a
//! captured value every thread needs a [`Stmt::Broadcast`], a routine
//! call's guard arguments [`crate::ir::Special::Performs`]), which
//! `schedule` resolves.
//! `expr.rs` lowers expressions, `access.rs` addresses (subscripts, members,
//! pointer arithmetic), `call.rs` calls, `init.rs` initialisers, `stmt.rs`
//! statements and loops, `infer.rs` the base type of a declaration,
//! `tgmath.rs` the type-generic math of `<tgmath.h>`.
//! May call: `ir`, `frontend::{ctype, conv, declare, literal, parsed, record,
//! routine, scope, source}`.

mod access;
mod assign;
mod atomic;
mod cache;
mod call;
mod complex;
mod expr;
mod infer;
mod init;
mod private;
mod reduce;
mod stmt;
mod tgmath;
mod x87;

use super::ctype::{CType, VlaLen};
use super::routine::Routines;
use super::scope::{Scope, SymKind};
use super::source::SourceMap;
use crate::diag::{DResult, Diagnostics};
use crate::frontend::parsed::Parsed;
use crate::ir::{
    Block, Expr, ExprId, Function, LocalId, Param, ParamMode, RoutineLevel, SrcLoc, Stmt, Type,
};
use lang_c::span::Span;
use std::collections::HashMap;

/// The remark where device code first computes with `long double`.
pub const NARROWED: &str = "long double is computed in double precision on the device (values in host memory are rounded to double when read)";

/// What the source says of a candidate loop of the loop-level decision
/// (a `for` statement with a loop directive, or a plain `for` of a
/// `kernels` construct), which lowering records: the loop is lowered as
/// a counted [`crate::ir::Loop`] whose levels are undecided
/// (`schedule::plan_levels` decides).
#[derive(Clone, Debug, PartialEq)]
pub struct LoopSpec {
    /// Where the directive is (the `for` statement without one).
    pub loc: SrcLoc,
    /// `collapse(n)`: the loop and the n - 1 loops tightly nested in it
    /// are one iteration space (`tile` with n sizes too).
    pub collapse: u32,
    /// `collapse(force:n)`: the code around the inner loops runs in every
    /// iteration of the collapsed loop.
    pub collapse_force: bool,
    /// `tile(…)` sizes (see [`crate::ir::Loop::tile`]).
    pub tile: Vec<Option<u32>>,
    /// `gang(static:…)` (see [`crate::ir::Loop::chunk`]).
    pub chunk: Option<u32>,
    /// `reduction(…)` variables of its clauses.
    pub reductions: Vec<LoopReduction>,
    /// `private(…)` / `firstprivate(…)` variables.
    pub privates: Vec<Private>,
    /// What the launch geometry reads of it (see [`crate::ir::Loop::sizes`]).
    pub sizes: crate::ir::LoopSizes,
    /// What its directive asks (see [`crate::ir::Loop::directive`]);
    /// `None`: a plain `for` of a `kernels` construct, which also keeps
    /// its C form ([`crate::ir::Loop::c_form`]).
    pub directive: Option<crate::ir::LoopDirective>,
    /// Not tightly nested in the candidate loop around it
    /// ([`crate::ir::Undecided::loose`]).
    pub loose: bool,
    /// A plain `for` loop's variable declared outside it, which its C
    /// form assigns.
    pub outside: Option<String>,
}

/// A variable of a `private` or `firstprivate` clause: the loop (or
/// region) gets its own copy, uninitialised or (`first`) a copy of the
/// variable's value where the construct starts.
#[derive(Clone, Debug, PartialEq)]
pub struct Private {
    pub var: String,
    pub first: bool,
    /// Named as a part (`tmp[0:5]`, `tmp[2]`): of an array variable, the
    /// whole array is private; of a pointer, `section` is.
    pub part: bool,
    /// For a part of what a pointer points to (`c[lo:len]`): the C text of
    /// `lo` (`None`: 0) and the constant `len` (`None`: not a constant).
    /// Each copy holds those `len` elements (the pointer then points into
    /// the copy, so `c[lo]` is its first element).
    pub section: Option<(Option<String>, Option<u64>)>,
    /// Where it is named (for messages).
    pub loc: SrcLoc,
}

/// One variable of a loop's reduction.
#[derive(Clone, Debug, PartialEq)]
pub struct LoopReduction {
    pub op: crate::ir::RedOp,
    /// The variable's name (visible where the loop is).
    pub var: String,
    /// `a[i]` / `a[lo:n]`: the elements (first, count) of the first
    /// dimension reduced; `None`: the whole variable.
    pub section: Option<(u64, u64)>,
    /// `a[k]` with a subscript the loop does not change (C text of `k`):
    /// that one element is reduced, through a scalar private copy the
    /// body's `a[k]` (the same text) stands for.
    pub index: Option<String>,
    /// Where it is named (for messages).
    pub loc: SrcLoc,
}

impl LoopReduction {
    /// What the clause reduces, as it names it: the variable, an element
    /// (`a[k]`, `a[2]`) or a section (`a[lo:n]`).
    pub fn written(&self) -> String {
        match (&self.section, &self.index) {
            (None, Some(i)) => format!("{}[{i}]", self.var),
            (None, None) => self.var.clone(),
            (Some((lo, 1)), _) => format!("{}[{lo}]", self.var),
            (Some((lo, n)), _) => format!("{}[{lo}:{n}]", self.var),
        }
    }
}

/// A host variable that the region uses, passed as a kernel parameter.
#[derive(Clone, Debug, PartialEq)]
pub struct HostVar {
    /// Its name in the host scope.
    pub name: String,
    /// Its C type in the host scope.
    pub ty: CType,
    /// The kernel reads and writes it in device memory (the parameter is
    /// its device address): a scalar in a data clause or a `kernels`
    /// region, or a struct.
    pub by_ref: bool,
    /// By reference only because every host scalar of a `kernels` region
    /// is (see `schedule::demote`).
    pub demotable: bool,
    /// A hidden parameter: not the variable itself but `sizeof` of this
    /// object, the byte size of one of its variable-length arrays.
    pub size_of: Option<crate::ir::Lvalue>,
}

/// What is being lowered.
#[derive(Clone, Debug)]
pub enum Mode {
    /// A compute region's body (a kernel).
    Region,
    /// The body of device function `name` (a routine of `level`) returning
    /// `ret`; `sret` is the hidden parameter holding where a struct result
    /// goes.
    Routine {
        name: String,
        ret: CType,
        level: RoutineLevel,
        sret: Option<LocalId>,
    },
}

/// How a name of the body's own scopes is held.
#[derive(Clone, Debug)]
pub enum Binding {
    /// In the local.
    Local(LocalId),
    /// At the address held in the local (a struct parameter, passed by
    /// address).
    Indirect(LocalId),
}

/// The state of lowering one body.
pub struct Lower<'a> {
    sm: &'a SourceMap,
    /// The host scope at the construct (a region) or the file scope (a
    /// device function): typedefs, tags, host variables, functions.
    host: &'a mut Scope,
    /// Device functions called, and what is known of them.
    routines: &'a mut Routines,
    mode: Mode,
    /// The body being built.
    f: Function,
    /// Kernel parameters, in order; `vars[i]` describes `params[i]`.
    params: Vec<Param>,
    vars: Vec<HostVar>,
    /// Loop directives, by the byte offset of the `for` they are attached to.
    loops: &'a HashMap<usize, LoopSpec>,
    /// Scalars that appear in data clauses (accessed in device memory).
    by_ref: std::collections::HashSet<String>,
    /// Every host scalar is accessed in device memory (a `kernels` region:
    /// see `schedule::demote`).
    by_ref_all: bool,
    /// Block scopes of the body's own declarations.
    scopes: Vec<HashMap<String, (Binding, CType)>>,
    /// Statement emission stack: statements go to the last block.
    blocks: Vec<Block>,
    /// Enclosing loops that `continue` may target.
    loop_depth: u32,
    /// Enclosing loops and switches that `break` may leave.
    break_depth: u32,
    /// Temporaries holding addresses into this thread's own locals (see
    /// [`Lower::thread_own`]).
    own_addrs: std::collections::HashSet<LocalId>,
    /// The `atomic` directives of the file, by statement start.
    atomics: &'a HashMap<usize, crate::frontend::atomic::AtomicSpec>,
    /// The preprocessed text (to compare the lvalues of atomic forms).
    text: &'a str,
    /// Elements reduced through a scalar private copy, in the loops being
    /// lowered: (the element's text without white space, the copy, its
    /// type); an expression of that text in the body is the copy.
    elem_reds: Vec<(String, LocalId, CType)>,
    /// Where the body first computes with `long double` (which the device
    /// does in double precision: a remark says so).
    narrowed: Option<SrcLoc>,
    /// The `cache` directives of the file, by the statement or
    /// declaration they head.
    caches: &'a HashMap<usize, Vec<crate::frontend::cachedir::CacheDir>>,
    /// The top of the loop body being lowered (where a `cache` directive
    /// may be).
    cache_top: Option<cache::Top>,
    /// The remarks on the `cache` directives lowered.
    cache_remarks: Vec<(SrcLoc, crate::ir::Remark)>,
}

impl<'a> Lower<'a> {
    /// Starts lowering a body of `unit` in the given scope.
    pub fn new(
        unit: &'a Parsed<'a>,
        host: &'a mut Scope,
        routines: &'a mut Routines,
        loops: &'a HashMap<usize, LoopSpec>,
        mode: Mode,
    ) -> Self {
        Lower {
            sm: unit.sm,
            host,
            routines,
            mode,
            f: Function {
                undecided: Some(Box::default()),
                ..Function::default()
            },
            params: vec![],
            vars: vec![],
            loops,
            by_ref: Default::default(),
            by_ref_all: false,
            scopes: vec![HashMap::new()],
            blocks: vec![vec![]],
            loop_depth: 0,
            break_depth: 0,
            own_addrs: Default::default(),
            atomics: &unit.atomics,
            text: unit.text,
            elem_reds: vec![],
            narrowed: None,
            caches: &unit.caches,
            cache_top: None,
            cache_remarks: vec![],
        }
    }

    /// Accesses the scalars `by_ref` (those of data clauses), or every host
    /// scalar (`all`: a `kernels` region), in device memory.
    pub fn with_by_ref(mut self, by_ref: std::collections::HashSet<String>, all: bool) -> Self {
        self.by_ref = by_ref;
        self.by_ref_all = all;
        self
    }

    /// Lowers the body as the device function `mode` says (once its
    /// parameters are locals).
    pub fn set_mode(&mut self, mode: Mode) {
        self.mode = mode;
    }

    /// A new local of the body.
    pub fn new_local(&mut self, name: &str, ty: crate::ir::Type) -> LocalId {
        self.f.new_local(name, ty)
    }

    /// Where the body first computed with `long double`, if it did
    /// (once: the place is taken).
    pub fn take_narrowed(&mut self) -> Option<SrcLoc> {
        self.narrowed.take()
    }

    /// The remarks on the body's `cache` directives (taken).
    pub fn take_cache_remarks(&mut self) -> Vec<(SrcLoc, crate::ir::Remark)> {
        std::mem::take(&mut self.cache_remarks)
    }

    /// Finishes: the body with its statements, the kernel parameters and
    /// the host variables behind them.
    pub fn finish(mut self) -> (Function, Vec<Param>, Vec<HostVar>) {
        self.f.body = self.blocks.pop().unwrap_or_default();
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

    /// The IR type of a value of C type `t`, or an error naming it.
    pub fn ir_type(&mut self, t: &CType, span: Span) -> DResult<Type> {
        if t.real() == CType::LongDouble && self.narrowed.is_none() && span.end > span.start {
            self.narrowed = Some(self.sm.loc(span.start));
        }
        if let CType::Struct(s) = t {
            if let Some(why) = s.unusable() {
                return self.err(span, why);
            }
        }
        match t.to_ir() {
            Some(t) => Ok(t),
            None => self.err(span, format!("type '{t}' is not supported in device code")),
        }
    }

    /// Declares a variable of the body.
    pub fn declare_local(&mut self, name: &str, ty: CType, span: Span) -> DResult<LocalId> {
        let irty = match (&ty, ty.to_ir()) {
            (CType::Struct(_), _) => self.ir_type(&ty, span)?,
            (_, Some(t)) => t,
            (_, None) => {
                return self.err(
                    span,
                    format!("variable '{name}' of type '{ty}' is not supported in device code"),
                )
            }
        };
        let id = self.f.new_local(name, irty);
        self.bind(name, Binding::Local(id), ty);
        Ok(id)
    }

    /// Makes `name` denote `b` (of type `ty`) in the innermost scope.
    pub fn bind(&mut self, name: &str, b: Binding, ty: CType) {
        if let Some(s) = self.scopes.last_mut() {
            s.insert(name.to_string(), (b, ty));
        }
    }

    /// A fresh temporary local.
    pub fn temp(&mut self, ty: Type) -> LocalId {
        self.f.new_local("tmp", ty)
    }

    fn push_scope(&mut self) {
        self.scopes.push(HashMap::new());
    }

    fn pop_scope(&mut self) {
        self.scopes.pop();
    }

    /// Emits `s` to be performed by one thread where several run this code
    /// ([`Stmt::Single`]: `schedule` decides which threads those are).
    pub fn emit_single(&mut self, s: Stmt) {
        self.emit_single_block(vec![s]);
    }

    /// Emits `stmts` to be performed by one thread where several run this
    /// code (as [`Lower::emit_single`]).
    pub fn emit_single_block(&mut self, stmts: Block) {
        self.emit(Stmt::Single(stmts));
    }

    /// Resolves a name used in the body: a local of the body, or (in a
    /// region) a host variable, made a kernel parameter on first use.
    pub fn resolve(&mut self, name: &str, span: Span) -> DResult<Resolved> {
        for s in self.scopes.iter().rev() {
            if let Some((b, ty)) = s.get(name) {
                return Ok(Resolved::Local(b.clone(), ty.clone()));
            }
        }
        if let Some(i) = self
            .vars
            .iter()
            .position(|v| v.name == name && v.size_of.is_none())
        {
            return Ok(Resolved::Param(i));
        }
        let Some(sym) = self.host.lookup(name).cloned() else {
            return self.err(span, format!("use of undeclared identifier '{name}'"));
        };
        match sym.kind {
            SymKind::EnumConst(v) => Ok(Resolved::Const(v)),
            SymKind::Typedef => self.err(span, format!("unexpected type name '{name}'")),
            SymKind::Function => Ok(Resolved::Function(name.to_string(), sym.ty)),
            SymKind::Global | SymKind::Local | SymKind::Param => {
                if let Mode::Routine { name: f, .. } = &self.mode {
                    // A declared global: through its device address cell.
                    if let Some(cell) = self.routines.cell(name) {
                        let Some(ptr) = sym.ty.decay_or_pointer_ir() else {
                            return self.err(span, format!("global variable '{name}' of type '{}' is not supported in device code", sym.ty));
                        };
                        let p = self.f.add(Expr::Cell(cell), ptr);
                        return Ok(Resolved::Global(p, sym.ty.clone()));
                    }
                    return self.err(
                        span,
                        format!("global variable '{name}' is used in device function '{f}', but it is not in an 'acc declare' directive"),
                    );
                }
                self.host_var(name, &sym.ty, span)
            }
        }
    }

    /// Makes host variable `name` of type `ty` a kernel parameter.
    fn host_var(&mut self, name: &str, ty: &CType, span: Span) -> DResult<Resolved> {
        let named = self.by_ref.contains(name);
        let demotable = self.by_ref_all && !named && ty.is_c_arithmetic();
        let by_ref =
            matches!(ty, CType::Struct(_)) || ((self.by_ref_all || named) && ty.is_c_arithmetic());
        if let CType::Struct(s) = ty {
            if let Some(why) = s.unusable() {
                return self.err(span, why);
            }
        }
        // Variable-length arrays: their sizes come along as hidden
        // parameters, computed with `sizeof` where the construct is.
        let ty = self.materialize_host(ty, &crate::ir::Lvalue::var(name));
        let (mode, irty) = match &ty {
            t if by_ref => (ParamMode::DevicePtr, t.pointee_ir().map(|t| t.ptr_to())),
            // A `long double` or complex value comes as the host's bytes,
            // read where it is used (see `Lower::identifier`).
            t if t.is_c_arithmetic() => (ParamMode::Value, t.mem_ir()),
            CType::Ptr(_) | CType::Array(..) | CType::Vla(..) => {
                (ParamMode::DevicePtr, ty.decay().to_ir())
            }
            _ => (ParamMode::Value, None),
        };
        let Some(irty) = irty else {
            return self.err(
                span,
                format!("variable '{name}' of type '{ty}' cannot be used in a compute region"),
            );
        };
        let local = self.f.new_local(name, irty);
        self.params.push(Param {
            name: name.to_string(),
            local,
            mode,
            own: false,
        });
        self.vars.push(HostVar {
            name: name.to_string(),
            ty,
            by_ref,
            demotable,
            size_of: None,
        });
        Ok(Resolved::Param(self.vars.len() - 1))
    }

    /// `ty` (the type of host object `obj`) with every variable-length
    /// dimension's byte size made a hidden kernel parameter.
    fn materialize_host(&mut self, ty: &CType, obj: &crate::ir::Lvalue) -> CType {
        let first = || obj.clone().index(vec!["0".into()]);
        match ty {
            CType::Vla(e, _) => {
                let inner = self.materialize_host(e, &first());
                let name = format!("sizeof({})", obj.c_spelling());
                let local = self.f.new_local(&name, Type::U64);
                self.params.push(Param {
                    name: name.clone(),
                    local,
                    mode: ParamMode::Value,
                    own: false,
                });
                self.vars.push(HostVar {
                    name,
                    ty: CType::ULONG,
                    by_ref: false,
                    demotable: false,
                    size_of: Some(obj.clone()),
                });
                CType::Vla(Box::new(inner), VlaLen::Bytes(local))
            }
            CType::Array(e, n) if e.runtime_sized() => {
                CType::Array(Box::new(self.materialize_host(e, &first())), *n)
            }
            CType::Ptr(e) if e.runtime_sized() => {
                CType::Ptr(Box::new(self.materialize_host(e, &obj.clone().deref())))
            }
            t => t.clone(),
        }
    }

    /// The routine level and the function being lowered, if any.
    pub fn routine_level(&self) -> Option<RoutineLevel> {
        match &self.mode {
            Mode::Routine { level, .. } => Some(*level),
            Mode::Region => None,
        }
    }
}

/// What a name in a body denotes.
pub enum Resolved {
    /// A variable of the body.
    Local(Binding, CType),
    /// Host variable number `i` (a kernel parameter).
    Param(usize),
    /// An enumeration constant.
    Const(i128),
    /// A function, with its type.
    Function(String, CType),
    /// A declared global in device memory at this address.
    Global(ExprId, CType),
}
