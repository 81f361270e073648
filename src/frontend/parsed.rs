//! The translation unit as parsed, read-only during the host walk: the
//! preprocessed text and its source map, the `#pragma acc` lines and their
//! directives, where each directive attaches, the function definitions,
//! the `atomic` directives by statement, the unit's tag and the functions
//! whose definitions accc could not parse.
//!
//! Owns: [`Parsed`] (plain data: built once by `unit::translate`, then
//! only read, through a shared reference). May call: `attach`, `atomic`
//! (the atomic specs), `source`, `pragma`, `directive`.

use super::atomic::{self, AtomicSpec};
use super::attach::Attached;
use super::parse::ParsedUnit;
use super::pragma::Pragma;
use super::source::SourceMap;
use crate::directive::Directive;
use crate::ir::SrcLoc;
use lang_c::ast::*;
use lang_c::span::Node;
use std::collections::{HashMap, HashSet};

/// One translation unit as the parser and the directive parser left it.
pub struct Parsed<'a> {
    /// The preprocessed text with the `#pragma acc` lines blanked.
    pub text: &'a str,
    pub sm: &'a SourceMap,
    /// The `#pragma acc` lines, in order; `dirs[i]` is `pragmas[i]`'s directive.
    pub pragmas: &'a [Pragma],
    pub dirs: &'a [Directive],
    /// The statement or declaration each directive applies to.
    pub att: &'a Attached,
    /// The function definitions of the translation unit, by name.
    pub fn_defs: HashMap<String, &'a Node<FunctionDefinition>>,
    /// The `atomic` directives of the file, by statement start.
    pub atomics: HashMap<usize, AtomicSpec>,
    /// The `cache` directives of the file, by the start of the statement
    /// or declaration they head.
    pub caches: HashMap<usize, Vec<super::cachedir::CacheDir>>,
    /// A short hash of the source file's name, part of every kernel name so
    /// kernels of different files never clash when their images are linked
    /// together (static functions of the same name and line).
    pub unit_tag: String,
    /// The functions whose definitions here accc could not parse.
    pub opaque_definitions: HashSet<String>,
}

impl<'a> Parsed<'a> {
    /// Gathers what the walk reads of `parse` (of the file `main_file`).
    pub fn new(
        text: &'a str,
        sm: &'a SourceMap,
        pragmas: &'a [Pragma],
        dirs: &'a [Directive],
        att: &'a Attached,
        parse: &'a ParsedUnit,
        main_file: &str,
    ) -> Self {
        let mut fn_defs = HashMap::new();
        for ext in &parse.unit.0 {
            if let ExternalDeclaration::FunctionDefinition(f) = &ext.node {
                if let Some(name) = super::routine::defined_name(f) {
                    fn_defs.insert(name, f);
                }
            }
        }
        let opaque_definitions = parse
            .opaque
            .iter()
            .filter(|o| o.declared.function)
            .filter_map(|o| o.declared.names.first().cloned())
            .collect();
        let mut p = Parsed {
            text,
            sm,
            pragmas,
            dirs,
            att,
            fn_defs,
            atomics: HashMap::new(),
            caches: super::cachedir::specs(sm, pragmas, dirs, att),
            unit_tag: unit_tag(main_file),
            opaque_definitions,
        };
        p.atomics = atomic::specs(&p);
        p
    }

    /// The source position of byte `offset` of pragma `p`'s directive text.
    pub fn pragma_loc(&self, p: usize, offset: usize) -> SrcLoc {
        self.sm.loc(self.pragmas[p].text_start + offset)
    }

    /// The directives (pragma indices) attached to the declaration at
    /// `start`.
    pub fn on_decl(&self, start: usize) -> &'a [usize] {
        self.att.by_decl.get(&start).map_or(&[], Vec::as_slice)
    }

    /// Whether a directive lies in `start..end`.
    pub fn holds_pragma(&self, start: usize, end: usize) -> bool {
        self.pragmas
            .iter()
            .any(|p| start <= p.start && p.start < end)
    }
}

/// 32-bit FNV-1a of the file name, in hex.
fn unit_tag(file: &str) -> String {
    let mut h: u32 = 0x811c_9dc5;
    for b in file.bytes() {
        h = (h ^ u32::from(b)).wrapping_mul(0x0100_0193);
    }
    format!("{h:08x}")
}
