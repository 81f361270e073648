//! GNU attributes that change a type: `vector_size` (a vector type, which
//! device code cannot use), `aligned(N)` on a struct or union (a larger
//! alignment, applied to the layout), and `packed`, `aligned` on a member,
//! `ms_struct`, `scalar_storage_order` (not applied: the type's layout is the
//! host compiler's, so device code may not use it). A packed enum is smaller
//! than `int`: a type device code cannot use.
//!
//! Owns: the attribute lookups and the type rules above. May call: `ctype`,
//! `declare` (constant expressions), `record`, `scope`, `source`.

use super::ctype::CType;
use super::declare::{const_int, type_specifiers};
use super::record::StructRef;
use super::scope::Scope;
use super::source::SourceMap;
use lang_c::ast::*;
use lang_c::span::Node;

/// The first attribute among `ext` named one of `names` (spelled with or
/// without the surrounding `__`), with the name as listed.
pub fn find<'e, 'n>(
    ext: &'e [Node<Extension>],
    names: &[&'n str],
) -> Option<(&'n str, &'e Attribute)> {
    ext.iter().find_map(|e| match &e.node {
        Extension::Attribute(a) => {
            let n = a.name.node.trim_matches('_');
            names.iter().copied().find(|&w| w == n).map(|w| (w, a))
        }
        _ => None,
    })
}

/// Layout attributes accc does not apply.
const UNAPPLIED: &[&str] = &["packed", "ms_struct", "scalar_storage_order", "aligned"];

/// The attributes among declaration specifiers (`struct S {…}
/// __attribute__((packed)) s;`).
fn specifier_attributes(specs: &[Node<DeclarationSpecifier>]) -> Vec<Node<Extension>> {
    specs
        .iter()
        .filter_map(|s| match &s.node {
            DeclarationSpecifier::Extension(e) => Some(e.clone()),
            _ => None,
        })
        .flatten()
        .collect()
}

/// `base` as a declarator with attributes `ext` makes it: a vector type
/// (`typedef float v4sf __attribute__((vector_size(16)));`) or itself.
pub fn declarator_type(ext: &[Node<Extension>], base: CType) -> CType {
    match find(ext, &["vector_size"]) {
        Some(_) => CType::Unsupported(format!("a vector of {base}")),
        None => base,
    }
}

/// The type of an enum with attributes `ext`.
pub fn enum_type(ext: &[Node<Extension>]) -> CType {
    match find(ext, &["packed"]) {
        Some((a, _)) => CType::Unsupported(format!("an enum with the attribute '{a}'")),
        None => CType::INT,
    }
}

/// Applies the attributes `ext` of the just defined struct or union `s`.
pub fn struct_attributes(
    s: &StructRef,
    ext: &[Node<Extension>],
    scope: &mut Scope,
    sm: &SourceMap,
) {
    for e in ext {
        let Extension::Attribute(a) = &e.node else {
            continue;
        };
        let name = a.name.node.trim_matches('_');
        let align = match (name, a.arguments.as_slice()) {
            ("aligned", [n]) => const_int(n, scope, sm).ok().filter(|v| v.count_ones() == 1),
            _ => None,
        };
        match align {
            Some(n) => s.align_to(n as u64),
            None if UNAPPLIED.contains(&name) => forbid(s, name),
            None => {}
        }
    }
}

/// Makes `s` unusable on the device because of attribute `name`.
fn forbid(s: &StructRef, name: &str) {
    s.forbid(format!(
        "'{}' has the attribute '{name}', whose layout device code does not support",
        s.name()
    ));
}

/// Layout attributes on the members of `s` (`int x __attribute__((aligned(8)))`),
/// which accc does not apply.
pub fn member_attributes(s: &StructRef, decls: &[Node<StructDeclaration>]) {
    let found = decls.iter().find_map(|d| match &d.node {
        StructDeclaration::Field(f) => f.node.declarators.iter().find_map(|sd| {
            let d = sd.node.declarator.as_ref()?;
            find(&d.node.extensions, UNAPPLIED).map(|(n, _)| n)
        }),
        _ => None,
    });
    if let Some(n) = found {
        forbid(s, n);
    }
}

/// The type of declaration specifiers `specs` (whose type specifiers name
/// `ty`) with the attributes after a struct or enum body they define
/// applied (`struct S {…} __attribute__((aligned(16)));`).
pub fn apply_type_attributes(
    specs: &[Node<DeclarationSpecifier>],
    ty: CType,
    scope: &mut Scope,
    sm: &SourceMap,
) -> CType {
    let attrs = specifier_attributes(specs);
    if attrs.is_empty() {
        return ty;
    }
    let defines = |enums: bool| {
        type_specifiers(specs).iter().any(|t| match &t.node {
            TypeSpecifier::Struct(st) => !enums && st.node.declarations.is_some(),
            TypeSpecifier::Enum(e) => enums && !e.node.enumerators.is_empty(),
            _ => false,
        })
    };
    match &ty {
        CType::Struct(s) if defines(false) => struct_attributes(s, &attrs, scope, sm),
        CType::Int(_) if defines(true) => return enum_type(&attrs),
        _ => {}
    }
    ty
}
