//! Device functions: `#pragma acc routine` (explicit, with its level, `bind`
//! and `nohost`), implicit routines (OpenACC 3.3 2.15.1: a function defined
//! in this file that device code calls is compiled for the device as `seq`),
//! and the compilation of their bodies into IR device functions.
//!
//! Owns: [`Routines`] (what device code calls and what routine directives
//! say), the `Walker` methods that read routine directives and lower the
//! bodies, and the device symbol names (`__accc_r_<name>`,
//! [`crate::ir::ROUTINE_SYMBOL_PREFIX`], the same in every translation
//! unit, so separately compiled files link). A routine calling one of a
//! higher level is an error here; a call inside loops partitioned at the
//! callee's level, the validator's (`ir::validate`, on the loops' levels). Linkage: a routine
//! defined here with an explicit directive and external linkage is exported;
//! a function defined here otherwise is internal; a routine declared here and
//! defined elsewhere is imported. May call: `lower`, `construct` (loop
//! levels), `ir`; the walk's owners (`parsed`, `output`) through their
//! methods.

use super::ctype::{CType, FnType};
use super::lower::{Binding, Lower, Mode};
use super::unit::Walker;
use crate::diag::{DResult, Diagnostics};
use crate::directive::{BindName, ClauseKind, DeviceTypeList, DirectiveKind};
use crate::ir::{DeviceFunction, Function, Linkage, LocalId, RoutineLevel, SrcLoc, Stmt, Type};
use lang_c::ast::*;
use lang_c::span::Node;
use std::collections::{HashMap, HashSet};

/// What a routine directive says of a function.
#[derive(Clone, Debug)]
pub struct RoutineInfo {
    pub level: RoutineLevel,
    /// `bind(name)`: the device code calls this instead; `true` when the
    /// name is an identifier (a C function), `false` for a string (a device
    /// symbol).
    pub bind: Option<(String, bool)>,
    /// Where the directive is.
    pub loc: SrcLoc,
}

/// Where device code calls a function, and in which context.
#[derive(Clone, Debug)]
pub struct CallSite {
    pub loc: SrcLoc,
    /// The level of the calling routine (`None`: a compute region).
    pub caller_level: Option<RoutineLevel>,
}

#[derive(Clone)]
struct Entry {
    name: String,
    sig: FnType,
    sites: Vec<CallSite>,
}

/// The device functions of a translation unit, by index (the index of the
/// IR function `Stmt::Call` names).
#[derive(Clone, Default)]
pub struct Routines {
    entries: Vec<Entry>,
    index: HashMap<String, usize>,
    info: HashMap<String, RoutineInfo>,
    defined: HashSet<String>,
    /// Globals of file-scope `declare` directives.
    declared: HashSet<String>,
    /// The device address cells device functions use, by IR index: the
    /// declared global each one holds.
    cells: Vec<String>,
}

impl Routines {
    /// The index of function `name` (signature `sig`) for a call at `site`.
    pub fn request(&mut self, name: &str, sig: &FnType, site: CallSite) -> usize {
        let i = self.index_of(name, sig);
        self.entries[i].sites.push(site);
        i
    }

    fn index_of(&mut self, name: &str, sig: &FnType) -> usize {
        if let Some(&i) = self.index.get(name) {
            return i;
        }
        self.entries.push(Entry {
            name: name.to_string(),
            sig: sig.clone(),
            sites: vec![],
        });
        self.index.insert(name.to_string(), self.entries.len() - 1);
        self.entries.len() - 1
    }

    /// Records that this translation unit defines function `name`.
    pub fn define(&mut self, name: &str) {
        self.defined.insert(name.to_string());
    }

    /// True when a routine directive names function `name`.
    pub fn is_routine(&self, name: &str) -> bool {
        self.info.contains_key(name)
    }

    /// Records a global of a file-scope `declare` directive.
    pub fn declare_global(&mut self, name: &str) {
        self.declared.insert(name.to_string());
    }

    /// The cell (IR index) through which device functions reach declared
    /// global `name`; `None` when it is not declared.
    pub fn cell(&mut self, name: &str) -> Option<u32> {
        if !self.declared.contains(name) {
            return None;
        }
        let i = match self.cells.iter().position(|c| c == name) {
            Some(i) => i,
            None => {
                self.cells.push(name.to_string());
                self.cells.len() - 1
            }
        };
        u32::try_from(i).ok()
    }

    /// The module's cells, with symbols unique to translation unit `tag`.
    pub fn ir_cells(&self, tag: &str) -> Vec<crate::ir::Cell> {
        self.cells
            .iter()
            .map(|c| crate::ir::Cell {
                symbol: format!("__accc_cell_{tag}_{c}"),
                host: c.clone(),
            })
            .collect()
    }

    /// True when this translation unit defines function `name`.
    pub fn has_definition(&self, name: &str) -> bool {
        self.defined.contains(name)
    }
}

/// The device symbol of C function `name`.
pub fn symbol(name: &str) -> String {
    format!("{}{name}", crate::ir::ROUTINE_SYMBOL_PREFIX)
}

/// The declarator's name.
pub(super) fn declarator_name(d: &Node<Declarator>) -> Option<String> {
    match &d.node.kind.node {
        DeclaratorKind::Identifier(id) => Some(id.node.name.clone()),
        DeclaratorKind::Declarator(inner) => declarator_name(inner),
        DeclaratorKind::Abstract => None,
    }
}

/// The name of the function a definition defines.
pub fn defined_name(f: &Node<FunctionDefinition>) -> Option<String> {
    declarator_name(&f.node.declarator)
}

/// The parameter declarations of a function declarator (the innermost
/// function part: `int (*f(int a))(double)` has `a`).
fn parameters(d: &Node<Declarator>) -> Vec<&Node<ParameterDeclaration>> {
    if let DeclaratorKind::Declarator(inner) = &d.node.kind.node {
        let p = parameters(inner);
        if !p.is_empty() {
            return p;
        }
    }
    for dd in &d.node.derived {
        if let DerivedDeclarator::Function(fd) = &dd.node {
            return fd.node.parameters.iter().collect();
        }
    }
    vec![]
}

/// The guard parameters of a device function of parameters `params`: the
/// last three (see [`ir_signature`]).
fn guard_params(params: &[LocalId]) -> Option<[LocalId; 3]> {
    match params {
        [.., x, y, z] => Some([*x, *y, *z]),
        _ => None,
    }
}

/// The IR types of a device function's parameters and result for C
/// signature `sig`: scalars as themselves, structs by address; a struct
/// result becomes a hidden pointer parameter after the others, and three
/// hidden `bool`s (the guards, per block dimension) come last.
fn ir_signature(sig: &FnType) -> Result<(Vec<Type>, Type, bool), String> {
    let mut params = vec![];
    for p in sig.params.iter().flatten() {
        let t = match p {
            CType::Struct(s) => {
                if let Some(why) = s.unusable() {
                    return Err(why);
                }
                p.pointee_ir().map(|t| t.ptr_to())
            }
            CType::Complex(_) => p.pointee_ir().map(|t| t.ptr_to()),
            t => t.to_ir(),
        };
        params.push(
            t.ok_or_else(|| format!("a parameter of type '{p}' is not supported in device code"))?,
        );
    }
    let (ret, sret) = match &sig.ret {
        CType::Struct(s) => {
            if let Some(why) = s.unusable() {
                return Err(why);
            }
            (Type::Void, true)
        }
        CType::Complex(_) => (Type::Void, true),
        t => (
            t.to_ir()
                .ok_or_else(|| format!("a result of type '{t}' is not supported in device code"))?,
            false,
        ),
    };
    if sret {
        params.push(
            sig.ret
                .pointee_ir()
                .map(|t| t.ptr_to())
                .unwrap_or(Type::U64),
        );
    }
    params.extend([Type::BOOL, Type::BOOL, Type::BOOL]);
    Ok((params, ret, sret))
}

impl<'a> Walker<'a> {
    /// Reads every `routine(name)` directive (they stand alone, anywhere).
    pub fn named_routines(&mut self) {
        for p in 0..self.unit.dirs.len() {
            if let DirectiveKind::Routine(Some(n)) = &self.unit.dirs[p].kind {
                let name = n.name.clone();
                let r = self.routine_info(p).map(|info| self.set_info(&name, info));
                self.out.report(r);
            }
        }
    }

    /// Applies the unnamed routine directives attached to the declaration
    /// (or function definition) starting at `start` to the functions it
    /// declares.
    pub fn routine_on_decl(&mut self, start: usize, names: &[String]) {
        for &p in self.unit.on_decl(start) {
            if !matches!(self.unit.dirs[p].kind, DirectiveKind::Routine(None)) {
                continue;
            }
            if names.is_empty() {
                let loc = self.unit.pragma_loc(p, self.unit.dirs[p].kind_span.start);
                self.out.error(crate::diag::Diagnostic::error(
                    Some(loc),
                    "'#pragma acc routine' must be followed by a function declaration or definition",
                ));
                continue;
            }
            let r = self.routine_info(p);
            if let Some(info) = self.out.report(r) {
                for n in names {
                    self.set_info(n, info.clone());
                }
            }
        }
    }

    fn set_info(&mut self, name: &str, info: RoutineInfo) {
        if let Some(old) = self.routines.info.get(name) {
            if old.level != info.level {
                self.out.error(crate::diag::Diagnostic::error(
                    Some(info.loc.clone()),
                    format!(
                        "routine '{name}' was declared {:?} at {}, now {:?}",
                        old.level, old.loc, info.level
                    )
                    .to_lowercase(),
                ));
                return;
            }
        }
        self.routines.info.insert(name.to_string(), info);
    }

    /// The level and bind name a routine directive gives (clauses after a
    /// `device_type` that does not name NVIDIA devices are ignored).
    fn routine_info(&self, p: usize) -> DResult<RoutineInfo> {
        let d = &self.unit.dirs[p];
        let loc = self.unit.pragma_loc(p, d.kind_span.start);
        let (mut level, mut bind, mut applies) = (None, None, true);
        for c in &d.clauses {
            let l = match &c.kind {
                ClauseKind::DeviceType { list, .. } => {
                    applies = match list {
                        DeviceTypeList::Any(_) => true,
                        DeviceTypeList::Names(n) => n.iter().any(|i| {
                            matches!(i.name.as_str(), "nvidia" | "acc_device_nvidia" | "default")
                        }),
                    };
                    continue;
                }
                _ if !applies => continue,
                ClauseKind::Seq => RoutineLevel::Seq,
                ClauseKind::Vector(_) => RoutineLevel::Vector,
                ClauseKind::Worker(_) => RoutineLevel::Worker,
                ClauseKind::Gang(_) => RoutineLevel::Gang,
                ClauseKind::Bind(b) => {
                    bind = Some(match b {
                        BindName::Ident(id) => (id.name.clone(), true),
                        s @ BindName::Str { .. } => (s.name().to_string(), false),
                    });
                    continue;
                }
                _ => continue, // nohost: the host version is kept
            };
            if level.is_some_and(|old| old != l) {
                return Err(Diagnostics::one(
                    Some(self.unit.pragma_loc(p, c.span.start)),
                    "a routine directive may give only one of 'gang', 'worker', 'vector' and 'seq'",
                ));
            }
            level = Some(l);
        }
        Ok(RoutineInfo {
            level: level.unwrap_or(RoutineLevel::Seq),
            bind,
            loc,
        })
    }

    /// Compiles every device function: the explicit routines defined here
    /// and every function device code calls (transitively), then checks
    /// that each call happens where the callee's level allows.
    pub fn finish_routines(&mut self) {
        let file = self.scope.file_scope();
        let mut explicit: Vec<(usize, String)> = self
            .routines
            .info
            .keys()
            .filter_map(|n| self.unit.fn_defs.get(n).map(|d| (d.span.start, n.clone())))
            .collect();
        explicit.sort();
        for (_, n) in explicit {
            if let Some(sig) = function_sig(&file, &n) {
                self.routines.index_of(&n, &sig);
            }
        }
        let mut names: Vec<(String, SrcLoc)> = self
            .routines
            .info
            .iter()
            .map(|(n, i)| (n.clone(), i.loc.clone()))
            .collect();
        names.sort_by_key(|n| n.1.line);
        for (n, loc) in names {
            if function_sig(&file, &n).is_none() {
                self.out.error(crate::diag::Diagnostic::error(
                    Some(loc),
                    format!("'{n}' in a routine directive is not a declared function"),
                ));
            }
        }
        let mut out = vec![];
        let mut i = 0;
        while i < self.routines.entries.len() {
            let r = self.device_function(i, &file);
            if let Some(f) = self.out.report(r) {
                out.push(f);
            }
            i += 1;
        }
        self.check_levels();
        let cells = self.routines.ir_cells(&self.unit.unit_tag);
        self.out.set_device_code(out, cells);
    }

    /// Every call site against its callee's level: a routine may not call
    /// one of a higher level. (A call inside loops partitioned at the
    /// callee's level or an inner one is the validator's error: the
    /// levels are the IR's.)
    fn check_levels(&mut self) {
        for e in &self.routines.entries {
            let level = self
                .routines
                .info
                .get(&e.name)
                .map_or(RoutineLevel::Seq, |i| i.level);
            for s in &e.sites {
                let name = format!("{level:?}").to_lowercase();
                if s.caller_level.is_some_and(|c| c < level) {
                    self.out.error(crate::diag::Diagnostic::error(
                        Some(s.loc.clone()),
                        format!("'{}' is a '{name}' routine and cannot be called from a routine of a lower level", e.name),
                    ));
                }
            }
        }
    }

    /// The IR device function for entry `i`.
    fn device_function(&mut self, i: usize, file: &super::scope::Scope) -> DResult<DeviceFunction> {
        let (name, sig) = (
            self.routines.entries[i].name.clone(),
            self.routines.entries[i].sig.clone(),
        );
        let first_site = self.routines.entries[i]
            .sites
            .first()
            .map(|s| s.loc.clone());
        let info = self.routines.info.get(&name).cloned();
        let def = self.unit.fn_defs.get(&name).copied();
        let loc = info
            .as_ref()
            .map(|i| i.loc.clone())
            .or(first_site.clone())
            .or_else(|| def.map(|d| self.unit.sm.loc(d.span.start)))
            .unwrap_or_default();
        let err = |m: String| Err(Diagnostics::one(Some(loc.clone()), m));
        let (ptypes, ret, sret) = match ir_signature(&sig) {
            Ok(s) => s,
            Err(m) => {
                return err(format!(
                    "function '{name}' cannot be compiled for the device: {m}"
                ))
            }
        };
        let level = info.as_ref().map_or(RoutineLevel::Seq, |i| i.level);
        let function =
            |body: Function, params: Vec<LocalId>, linkage, sym: String| DeviceFunction {
                name: sym,
                loc: loc.clone(),
                guards: guard_params(&params),
                params,
                ret: ret.clone(),
                level,
                linkage,
                body,
            };
        let declared_params = |f: &mut Function| -> Vec<LocalId> {
            ptypes
                .iter()
                .enumerate()
                .map(|(k, t)| f.new_local(&format!("p{k}"), t.clone()))
                .collect()
        };
        if let Some((target, ident)) = info.as_ref().and_then(|i| i.bind.clone()) {
            let mut body = Function::default();
            let params = declared_params(&mut body);
            if !ident {
                return Ok(function(body, params, Linkage::Import, target));
            }
            // bind(g): this function's device version calls g's.
            let Some(gsig) = function_sig(file, &target) else {
                return err(format!("'{target}' in 'bind' is not a declared function"));
            };
            if gsig != sig {
                return err(format!(
                    "'{target}' in 'bind' does not have the type of '{name}'"
                ));
            }
            let g = self.routines.index_of(&target, &gsig);
            let args = params.iter().map(|p| body.read(*p)).collect();
            let result = (ret != Type::Void).then(|| body.new_local("r", ret.clone()));
            body.body.push(Stmt::Call {
                func: g,
                args,
                result,
                loc: crate::ir::SrcLoc::default(),
            });
            let rv = result.map(|r| body.read(r));
            body.body.push(Stmt::Return(rv));
            return Ok(function(body, params, Linkage::Internal, symbol(&name)));
        }
        let Some(def) = def else {
            if self.unit.opaque_definitions.contains(&name) {
                // Defined here, in code only the host compiler compiles: not
                // a routine another file provides.
                let what = match info {
                    Some(_) => "is a routine",
                    None => "is called in device code",
                };
                return err(format!(
                    "function '{name}' {what}, but accc cannot parse its definition in this file"
                ));
            }
            if info.is_some() {
                let mut body = Function::default();
                let params = declared_params(&mut body);
                return Ok(function(body, params, Linkage::Import, symbol(&name)));
            }
            return Err(Diagnostics::one(
                first_site,
                format!("function '{name}' is called in device code but has no device version: put '#pragma acc routine seq' before its declaration and compile its definition with accc, or define it in this file"),
            ));
        };
        let is_static = def.node.specifiers.iter().any(|s| {
            matches!(&s.node, DeclarationSpecifier::StorageClass(c) if c.node == StorageClassSpecifier::Static)
        });
        let linkage = if info.is_some() && !is_static {
            Linkage::Export
        } else {
            Linkage::Internal
        };
        let (body, params) = self.lower_definition(def, &name, &sig, level, sret, file)?;
        Ok(function(body, params, linkage, symbol(&name)))
    }

    /// Lowers the body of definition `def` of function `name`.
    fn lower_definition(
        &mut self,
        def: &Node<FunctionDefinition>,
        name: &str,
        sig: &FnType,
        level: RoutineLevel,
        sret: bool,
        file: &super::scope::Scope,
    ) -> DResult<(Function, Vec<LocalId>)> {
        // Its loop directives' levels (up to the routine's own) are
        // `schedule::plan_levels`'s.
        let loops = self.loop_specs(&def.node.statement, &[], crate::ir::ComputeKind::Parallel)?;
        let mut scope = file.clone();
        let mut lower = Lower::new(
            self.unit,
            &mut scope,
            &mut self.routines,
            &loops,
            Mode::Region,
        );
        let decls = parameters(&def.node.declarator);
        let ptypes: Vec<CType> = sig.params.clone().unwrap_or_default();
        let span = def.span;
        let mut params = vec![];
        let mut named = vec![];
        for (k, pt) in ptypes.iter().enumerate() {
            let pname = decls
                .get(k)
                .and_then(|p| p.node.declarator.as_ref())
                .and_then(declarator_name);
            let ir = match pt {
                t if t.by_address() => pt.pointee_ir().map(|t| t.ptr_to()),
                t => t.to_ir(),
            };
            let Some(ir) = ir else {
                return lower.err(
                    span,
                    format!("a parameter of type '{pt}' is not supported in device code"),
                );
            };
            let l = lower.new_local(pname.as_deref().unwrap_or("unnamed"), ir);
            params.push(l);
            if let Some(n) = pname {
                let b = if pt.by_address() {
                    Binding::Indirect(l)
                } else {
                    Binding::Local(l)
                };
                lower.bind(&n, b.clone(), pt.clone());
                named.push((n, b, pt.clone()));
            }
        }
        let sret_local = sret.then(|| {
            let t = sig
                .ret
                .pointee_ir()
                .map(|t| t.ptr_to())
                .unwrap_or(Type::U64);
            lower.new_local("sret", t)
        });
        params.extend(sret_local);
        params.extend(["single.x", "single.y", "single.z"].map(|g| lower.new_local(g, Type::BOOL)));
        lower.set_mode(Mode::Routine {
            name: name.to_string(),
            ret: sig.ret.clone(),
            level,
            sret: sret_local,
        });
        // Variable-length array parameters: their sizes from the lengths.
        for (n, b, t) in named {
            if t.has_vla() {
                let t = lower.materialize_lengths(&t, span)?;
                lower.bind(&n, b, t);
            }
        }
        lower.stmt(&def.node.statement)?;
        if let Some(at) = lower.take_narrowed() {
            self.out.remark(at, super::lower::NARROWED.into());
        }
        for (at, r) in lower.take_cache_remarks() {
            self.out.remark(at, r);
        }
        let (body, _, _) = lower.finish();
        Ok((body, params))
    }
}

/// The signature of function `name` as declared in `scope`.
fn function_sig(scope: &super::scope::Scope, name: &str) -> Option<FnType> {
    match scope.lookup(name) {
        Some(s) if s.kind == super::scope::SymKind::Function => match &s.ty {
            CType::Function(f) => Some((**f).clone()),
            _ => None,
        },
        _ => None,
    }
}
