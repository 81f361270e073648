//! One translation unit through the front end: pragma capture, parsing
//! (one external declaration at a time: `parse.rs`), directive parsing and
//! attachment, and the walk over host functions that keeps the scope and
//! hands each construct to `construct.rs`. Declarations accc cannot parse
//! are opaque: the host compiler gets them unchanged, their typedef names
//! stay known, and an error about one of their names in device code gets a
//! note saying why accc does not know it.
//!
//! Owns: [`translate`], [`Translated`] and the host walk ([`Walker`]),
//! which holds one owner per concern: the unit as parsed (`parsed`,
//! read-only), what the walk produces (`output`), where it is in host code
//! (`place`), the scope of names (`scope`) and the device functions
//! (`routine`). The walk's steps (here and in `construct`, `compute`,
//! `data`, `routine`, `atomic`, `loops`, …) call those owners' methods.
//! May call: every other front-end module, `directive`, `ir`.

use super::attach::attach;
use super::ctype::CType;
use super::declare;
use super::output::Output;
use super::parse::{self, Opaque};
use super::parsed::Parsed;
use super::place::Place;
use super::pragma;
use super::scope::{Scope, SymKind, Symbol};
use super::source::SourceMap;
use crate::diag::{DResult, Diagnostic, Diagnostics};
use crate::directive::{self, Directive, DirectiveKind};
use crate::ir::Module;
use lang_c::ast::*;
use lang_c::span::Node;

/// The front end's result for one translation unit.
pub struct Translated {
    /// Device code: one kernel per compute construct (not yet
    /// scheduled), and the host plan that launches them.
    pub module: Module,
    /// The preprocessed text with the `#pragma acc` lines blanked.
    pub text: String,
    /// What the front end says where (`-Minfo=accel`), in the order it
    /// said it (the loops' levels are `schedule::plan_levels`'s: the
    /// driver puts them in source order together); their text names
    /// the launch sizes once `schedule` has computed them
    /// (`ir::render_remarks`).
    pub remarks: Vec<(crate::ir::SrcLoc, crate::ir::Remark)>,
    /// The declarations accc could not parse and left to the host compiler:
    /// where the parser gave up, and why.
    pub opaque: Vec<(crate::ir::SrcLoc, String)>,
}

/// Translates preprocessed C text; `main_file` names the source file.
/// (What the device's limits decide is `schedule`'s.)
pub fn translate(mut text: String, main_file: &str) -> DResult<Translated> {
    let pragmas = pragma::capture(&mut text);
    let mut sm = SourceMap::new(&text, main_file);
    sm.note_pragmas(pragmas.iter().map(|p| (p.text_start, p.text.clone())));
    let parse = parse::parse_unit(&text, &pragmas, &sm)?;
    let opaque_report = parse
        .opaque
        .iter()
        .map(|o| (sm.loc(o.error_at), o.error.clone()))
        .collect();
    let mut errors = vec![];
    let mut dirs = vec![];
    for p in &pragmas {
        match directive::parse(&p.text) {
            Ok(d) => dirs.push(Some(d)),
            Err(e) => {
                errors.push(Diagnostic::error(
                    Some(sm.loc(p.text_start + e.offset)),
                    e.message,
                ));
                dirs.push(None);
            }
        }
    }
    let att = attach(&text, &parse.unit, &pragmas);
    // A directive before a declaration or before nothing is a standalone
    // one (handled where it is: see `Walker::standalone`), a routine
    // (handled with the declaration), or misplaced.
    let mut misplaced = att.unattached.clone();
    for idx in att.by_decl.values() {
        misplaced.extend(idx);
    }
    misplaced.retain(|&i| {
        let kind = dirs[i].as_ref().map(|d| &d.kind);
        // A `cache` directive may head a declaration (lowering checks it).
        let heads_decl =
            matches!(kind, Some(DirectiveKind::Cache { .. })) && !att.unattached.contains(&i);
        !matches!(kind, Some(DirectiveKind::Routine(_)) | None)
            && !kind.is_some_and(|k| k.is_standalone())
            && !heads_decl
    });
    misplaced.sort();
    for &i in &misplaced {
        if let Some(d) = &dirs[i] {
            let loc = Some(sm.loc(pragmas[i].text_start + d.kind_span.start));
            let msg = match d.kind {
                DirectiveKind::Parallel
                | DirectiveKind::Kernels
                | DirectiveKind::Serial
                | DirectiveKind::Data
                | DirectiveKind::HostData
                | DirectiveKind::Loop
                | DirectiveKind::ParallelLoop
                | DirectiveKind::KernelsLoop
                | DirectiveKind::SerialLoop
                | DirectiveKind::Atomic(_) => {
                    format!(
                        "'#pragma acc {}' must be followed by a statement",
                        d.kind.name()
                    )
                }
                DirectiveKind::Cache { .. } => {
                    "'#pragma acc cache' must be at the top of a loop body".to_string()
                }
                DirectiveKind::Routine(Some(_)) => continue, // stands alone
                DirectiveKind::Routine(None) => "'#pragma acc routine' without a name must be followed by a function declaration or definition".to_string(),
                _ => format!("the '{}' directive is not supported yet", d.kind.name()),
            };
            errors.push(Diagnostic::error(loc, msg));
        }
    }
    if !errors.is_empty() {
        return Err(Diagnostics(errors));
    }
    let dirs: Vec<Directive> = dirs.into_iter().flatten().collect();
    let unit = Parsed::new(&text, &sm, &pragmas, &dirs, &att, &parse, main_file);
    let mut w = Walker {
        unit: &unit,
        out: Output::new(main_file),
        place: Place::default(),
        scope: Scope::default(),
        routines: Default::default(),
    };
    w.builtin_typedefs();
    w.named_routines();
    // The declarations that parsed and those that did not, in source order.
    let mut opaque = parse.opaque.iter().peekable();
    for ext in &parse.unit.0 {
        while let Some(o) = opaque.next_if(|o| o.start < ext.span.start) {
            w.opaque(o);
        }
        w.external(ext);
    }
    for o in opaque {
        w.opaque(o);
    }
    w.file_scope_directives();
    w.finish_routines();
    w.atomic_host_versions(&parse.unit);
    let (module, remarks) = w.out.finish()?;
    Ok(Translated {
        module,
        text,
        remarks,
        opaque: opaque_report,
    })
}

/// The walk over host code: it reads the translation unit as parsed
/// (`unit`), keeps the scope of names (`scope`) and where it is in host
/// code (`place`), and adds what it finds to `out` and (device functions)
/// to `routines`. Each field is an owner with methods of its own: the
/// walk's steps in the other files of the front end call those, never
/// writing inside them.
pub struct Walker<'a> {
    pub(super) unit: &'a Parsed<'a>,
    pub(super) out: Output,
    pub(super) place: Place,
    pub(super) scope: Scope,
    /// Device functions: requested by calls, declared by routine directives.
    pub(super) routines: super::routine::Routines,
}

impl<'a> Walker<'a> {
    /// GCC's predefined typedef names, as types device code cannot use.
    fn builtin_typedefs(&mut self) {
        for (name, what) in [
            ("__int128_t", "__int128"),
            ("__uint128_t", "unsigned __int128"),
            ("__builtin_va_list", "va_list"),
            ("__builtin_ms_va_list", "va_list"),
            ("__builtin_sysv_va_list", "va_list"),
        ] {
            self.scope.insert(Symbol {
                name: name.into(),
                ty: CType::Unsupported(what.into()),
                kind: SymKind::Typedef,
                readonly: false,
                restrict: false,
            });
        }
    }

    /// A declaration accc could not parse: its typedef names become types
    /// device code cannot use, a function whose head parses is declared, and
    /// every name it declares is remembered for [`Self::note_opaque_names`].
    fn opaque(&mut self, o: &'a Opaque) {
        let loc = self.unit.sm.loc(o.error_at);
        for tag in &o.declared.tags {
            self.out
                .opaque_name(tag.clone(), loc.clone(), o.error.clone());
        }
        for name in &o.declared.names {
            self.out
                .opaque_name(name.clone(), loc.clone(), o.error.clone());
            if o.declared.typedef {
                self.scope.insert(Symbol {
                    name: name.clone(),
                    ty: CType::Unsupported(name.clone()),
                    kind: SymKind::Typedef,
                    readonly: false,
                    restrict: false,
                });
            }
        }
        if let Some(head) = &o.head {
            // The function's type is known even though its body is not:
            // host code may call it, device code gets a clear error.
            // (A head sema cannot type declares nothing: device code that
            // calls the function gets the note instead.)
            let _ = self.declaration(head, SymKind::Global);
        }
    }

    fn external(&mut self, ext: &'a Node<ExternalDeclaration>) {
        match &ext.node {
            ExternalDeclaration::Declaration(d) => {
                let r = self.declaration(d, SymKind::Global);
                self.out.report(r);
            }
            ExternalDeclaration::FunctionDefinition(f) => {
                if let Some(name) = super::routine::defined_name(f) {
                    self.routines.define(&name);
                    self.routine_on_decl(ext.span.start, &[name]);
                }
                self.function_definition(f);
            }
            ExternalDeclaration::StaticAssert(_) => {}
        }
    }

    /// Declares the names of a declaration in the current scope.
    fn declaration(&mut self, d: &Node<Declaration>, kind: SymKind) -> DResult<()> {
        let typedef = d.node.specifiers.iter().any(|s| {
            matches!(&s.node, DeclarationSpecifier::StorageClass(c) if c.node == StorageClassSpecifier::Typedef)
        });
        let base = declare::base_type(
            &declare::type_specifiers(&d.node.specifiers),
            &mut self.scope,
            self.unit.sm,
        );
        // Types accc cannot use on the device (long double, structs) are kept
        // as opaque: an error comes only if a region uses them.
        let base = base.unwrap_or(CType::Unsupported("an unsupported type".into()));
        let base = super::exprtype::auto_type(d, &mut self.scope, self.unit.sm).unwrap_or(base);
        let base = super::attrs::apply_type_attributes(
            &d.node.specifiers,
            base,
            &mut self.scope,
            self.unit.sm,
        );
        let base = match declare::atomic_qualified(&d.node.specifiers) {
            true => CType::Unsupported(format!("_Atomic {base}")),
            false => base,
        };
        let readonly = d.node.specifiers.iter().any(|s| {
            matches!(&s.node, DeclarationSpecifier::TypeQualifier(q) if q.node == TypeQualifier::Const)
        });
        let mut names = vec![];
        for id in &d.node.declarators {
            let r = declare::apply_declarator(
                base.clone(),
                &id.node.declarator,
                &mut self.scope,
                self.unit.sm,
            );
            let (name, ty) = match r {
                Ok((Some(n), t)) => (n.node.name, t),
                Ok((None, _)) => continue,
                Err(e) => {
                    // Host code the host compiler compiles as it is; device
                    // code that uses the name gets an error noting why.
                    let Some(n) = super::routine::declarator_name(&id.node.declarator) else {
                        continue;
                    };
                    if let Some(first) = e.0.first() {
                        let loc = first
                            .loc
                            .clone()
                            .unwrap_or_else(|| self.unit.sm.loc(id.span.start));
                        self.out.opaque_name(
                            n.clone(),
                            loc,
                            format!("accc cannot work out its type: {}", first.message),
                        );
                    }
                    (n.clone(), CType::Unsupported(format!("the type of '{n}'")))
                }
            };
            let kind = if typedef {
                SymKind::Typedef
            } else if matches!(ty, CType::Function(_)) {
                names.push(name.clone());
                SymKind::Function
            } else {
                kind.clone()
            };
            self.scope.insert(Symbol {
                name,
                ty,
                kind,
                readonly: readonly && !declare::declares_pointer(&id.node.declarator),
                restrict: declare::restrict_pointer(&id.node.declarator),
            });
        }
        self.routine_on_decl(d.span.start, &names);
        Ok(())
    }

    fn function_definition(&mut self, f: &Node<FunctionDefinition>) {
        let base = declare::base_type(
            &declare::type_specifiers(&f.node.specifiers),
            &mut self.scope,
            self.unit.sm,
        )
        .unwrap_or(CType::Void);
        let decl = &f.node.declarator;
        let r = declare::apply_declarator(base, decl, &mut self.scope, self.unit.sm);
        // A function without directives is the host compiler's alone: what
        // sema cannot type there is no error (a call from device code gets
        // one).
        let r = match r {
            Err(_) if !self.unit.holds_pragma(f.span.start, f.span.end) => return,
            r => r,
        };
        let Some((Some(name), ty)) = self.out.report(r) else {
            return;
        };
        let in_routine = self.routines.is_routine(&name.node.name);
        self.place
            .enter_function(name.node.name.clone(), in_routine);
        self.scope.insert(Symbol {
            name: name.node.name.clone(),
            ty,
            kind: SymKind::Function,
            readonly: false,
            restrict: false,
        });
        if !self.unit.holds_pragma(f.span.start, f.span.end) {
            return; // nothing in the body for accc to do
        }
        self.scope.push();
        // Parameters: from the function declarator (the innermost one).
        let mut d = decl;
        loop {
            for dd in &d.node.derived {
                if let DerivedDeclarator::Function(fd) = &dd.node {
                    for p in &fd.node.parameters {
                        self.parameter(p);
                    }
                }
            }
            match &d.node.kind.node {
                DeclaratorKind::Declarator(inner) => d = inner,
                _ => break,
            }
        }
        self.stmt(&f.node.statement);
        self.scope.pop();
    }

    fn parameter(&mut self, p: &Node<ParameterDeclaration>) {
        let base = declare::base_type(
            &declare::type_specifiers(&p.node.specifiers),
            &mut self.scope,
            self.unit.sm,
        )
        .unwrap_or(CType::Unsupported("an unsupported type".into()));
        let Some(d) = &p.node.declarator else { return };
        let r = declare::apply_declarator(base, d, &mut self.scope, self.unit.sm);
        if let Some((Some(name), ty)) = self.out.report(r) {
            let ty = declare::adjust_parameter(ty);
            self.scope.insert(Symbol {
                name: name.node.name.clone(),
                ty,
                kind: SymKind::Param,
                readonly: false,
                restrict: declare::restrict_pointer(d),
            });
        }
    }

    /// Walks a host statement, handing attached directives to their constructs.
    pub fn stmt(&mut self, s: &Node<Statement>) {
        // Named routine directives stand alone (see `named_routines`).
        let attached: Vec<usize> = self
            .unit
            .att
            .by_stmt
            .get(&s.span.start)
            .into_iter()
            .flatten()
            .copied()
            .filter(|&i| !matches!(self.unit.dirs[i].kind, DirectiveKind::Routine(Some(_))))
            .collect();
        self.stmt_with(s, &attached);
    }

    /// Walks `s` with the directives `dirs` (pragma indices, outermost first).
    pub fn stmt_with(&mut self, s: &Node<Statement>, dirs: &[usize]) {
        if let Some((&first, rest)) = dirs.split_first() {
            self.construct(first, rest, s);
            return;
        }
        match &s.node {
            Statement::Compound(items) => {
                self.scope.push();
                self.place.enter_block(s.span.end.saturating_sub(1));
                for item in items {
                    match &item.node {
                        BlockItem::Declaration(d) => {
                            self.standalone_before(item.span.start);
                            let r = self.declaration(d, SymKind::Local);
                            self.out.report(r);
                        }
                        BlockItem::Statement(st) => self.stmt(st),
                        BlockItem::StaticAssert(_) => {}
                    }
                }
                // Standalone directives before the closing brace.
                let trailing: Vec<usize> = self
                    .unit
                    .att
                    .unattached
                    .iter()
                    .copied()
                    .filter(|&i| {
                        s.span.start < self.unit.pragmas[i].start
                            && self.unit.pragmas[i].end <= s.span.end
                    })
                    .collect();
                for i in trailing {
                    self.standalone_once(i);
                }
                self.place.leave_block();
                self.scope.pop();
            }
            Statement::If(i) => {
                self.stmt(&i.node.then_statement);
                if let Some(e) = &i.node.else_statement {
                    self.stmt(e);
                }
            }
            Statement::For(f) => {
                self.scope.push();
                if let ForInitializer::Declaration(d) = &f.node.initializer.node {
                    let r = self.declaration(d, SymKind::Local);
                    self.out.report(r);
                }
                self.stmt(&f.node.statement);
                self.scope.pop();
            }
            Statement::While(w) => self.stmt(&w.node.statement),
            Statement::DoWhile(w) => self.stmt(&w.node.statement),
            Statement::Switch(w) => self.stmt(&w.node.statement),
            Statement::Labeled(l) => self.stmt(&l.node.statement),
            _ => {}
        }
    }

    /// The standalone directives attached to the declaration at `start`.
    fn standalone_before(&mut self, start: usize) {
        for &p in self.unit.on_decl(start) {
            if self.unit.dirs[p].kind.is_standalone() {
                self.standalone_once(p);
            }
        }
    }

    /// Handles standalone directive `p` unless already done (an inner
    /// block handles those before its own closing brace first).
    fn standalone_once(&mut self, p: usize) {
        if self.place.first_time(p) {
            self.standalone(p);
        }
    }
}
