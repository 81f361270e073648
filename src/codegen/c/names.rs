//! The name legaliser: turns the IR's names (a user's variable, a kernel,
//! a generated temporary) into identifiers valid in C, C++ and CUDA C,
//! stable from one run to the next and as close to the original as the
//! rules allow.
//!
//! Rules, in order: characters outside `[A-Za-z0-9_]` become `_`; a name
//! starting with a digit (or empty) gets a `v` in front; a keyword of C,
//! C++ or CUDA C, or a name CUDA C's headers define, gets a `_` after it;
//! a name in a reserved namespace (`__ptxrt_`, `__accc_`, the runtime's
//! and the generated code's own; `__nv`, `__cuda`) gets `v` in front; and
//! a name that is still taken (by an earlier name of the same writer, or
//! one reserved with [`Namer::reserve`]) gets `_1`, `_2`, … after it.
//!
//! Owns: [`Namer`], [`is_keyword`]. May call: nothing.

use std::collections::{HashMap, HashSet};

/// The keywords of C++ (C++20 included) and CUDA C, and the names CUDA C
/// predefines in device code; C's own (C11, GNU C) are lang-c's
/// ([`lang_c::strings`]), the parser's list.
const KEYWORDS: &[&str] = &[
    // C23 and GNU C beyond lang-c's lists
    "typeof",
    "typeof_unqual",
    "asm",
    "bool",
    "true",
    "false",
    "nullptr",
    "alignas",
    "alignof",
    "constexpr",
    "static_assert",
    "thread_local",
    // C++
    "and",
    "and_eq",
    "bitand",
    "bitor",
    "catch",
    "char8_t",
    "char16_t",
    "char32_t",
    "class",
    "co_await",
    "co_return",
    "co_yield",
    "compl",
    "concept",
    "const_cast",
    "consteval",
    "constinit",
    "decltype",
    "delete",
    "dynamic_cast",
    "explicit",
    "export",
    "friend",
    "mutable",
    "namespace",
    "new",
    "noexcept",
    "not",
    "not_eq",
    "operator",
    "or",
    "or_eq",
    "private",
    "protected",
    "public",
    "reinterpret_cast",
    "requires",
    "static_cast",
    "template",
    "this",
    "throw",
    "try",
    "typeid",
    "typename",
    "using",
    "virtual",
    "wchar_t",
    "xor",
    "xor_eq",
    // CUDA C
    "__global__",
    "__device__",
    "__host__",
    "__shared__",
    "__constant__",
    "__managed__",
    "__restrict__",
    "__noinline__",
    "__forceinline__",
    "__launch_bounds__",
    "threadIdx",
    "blockIdx",
    "blockDim",
    "gridDim",
    "warpSize",
    "__syncthreads",
    "__syncwarp",
    "__threadfence",
    "__threadfence_block",
    "atomicAdd",
    "atomicCAS",
    "atomicExch",
    "dim3",
    "uint3",
    "float2",
    "float4",
    "double2",
    "int2",
    "int4",
];

/// The namespaces of the runtime and of generated code.
const RESERVED_PREFIXES: &[&str] = &["__ptxrt_", "__accc_", "__nv", "__cuda"];

/// Whether `name` is a keyword of C, C++ or CUDA C (or a name CUDA C
/// predefines), which no generated identifier may be.
pub fn is_keyword(name: &str) -> bool {
    use lang_c::strings::{RESERVED_C11, RESERVED_GNU};
    [RESERVED_C11, RESERVED_GNU, KEYWORDS]
        .iter()
        .any(|list| list.contains(&name))
}

/// Gives legal, distinct identifiers to the names of one scope (a
/// translation unit's globals, a function's locals): the same name gets
/// the same identifier every time it is asked for.
#[derive(Debug, Default)]
pub struct Namer {
    given: HashMap<String, String>,
    taken: HashSet<String>,
}

impl Namer {
    pub fn new() -> Namer {
        Namer::default()
    }

    /// Marks `ident` as taken (a name the writer uses itself), so no
    /// legalised name becomes it.
    pub fn reserve(&mut self, ident: &str) {
        self.taken.insert(ident.to_string());
    }

    /// The identifier of `name` in this scope.
    pub fn name(&mut self, name: &str) -> String {
        if let Some(id) = self.given.get(name) {
            return id.clone();
        }
        let id = self.fresh(name);
        self.given.insert(name.to_string(), id.clone());
        id
    }

    /// A new identifier for `name`, distinct from every one given before
    /// (two locals of one source name, `red.e` and `red.e`, get `red_e`
    /// and `red_e_1`); [`Namer::name`] of the same name is not affected.
    pub fn fresh(&mut self, name: &str) -> String {
        let base = legal(name);
        let mut id = base.clone();
        let mut n = 1;
        while self.taken.contains(&id) {
            id = format!("{base}_{n}");
            n += 1;
        }
        self.taken.insert(id.clone());
        id
    }
}

/// `name` made a valid identifier outside the reserved words and
/// namespaces (not yet distinct: see [`Namer::name`]).
fn legal(name: &str) -> String {
    let mut s: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if s.is_empty() || s.starts_with(|c: char| c.is_ascii_digit()) {
        s.insert(0, 'v');
    }
    if is_keyword(&s) {
        s.push('_');
    }
    if RESERVED_PREFIXES.iter().any(|p| s.starts_with(p)) {
        s.insert(0, 'v');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keywords_of_every_dialect_are_renamed() {
        let mut n = Namer::new();
        assert_eq!(n.name("x"), "x");
        assert_eq!(n.name("int"), "int_");
        assert_eq!(n.name("class"), "class_");
        assert_eq!(n.name("threadIdx"), "threadIdx_");
        assert_eq!(n.name("__shared__"), "__shared___");
        assert_eq!(n.name("new"), "new_");
        // C11 and GNU C, from the parser's lists.
        assert_eq!(n.name("_Bool"), "_Bool_");
        assert_eq!(n.name("__attribute__"), "__attribute___");
        assert!(is_keyword("while") && is_keyword("__int128") && !is_keyword("main"));
    }

    #[test]
    fn invalid_characters_and_digits() {
        let mut n = Namer::new();
        assert_eq!(n.name("a.b"), "a_b");
        assert_eq!(n.name("3d"), "v3d");
        assert_eq!(n.name(""), "v");
        assert_eq!(n.name("é"), "_");
    }

    #[test]
    fn clashes_get_a_number_and_names_stay_stable() {
        let mut n = Namer::new();
        n.reserve("tmp");
        assert_eq!(n.name("__ptxrt_launch"), "v__ptxrt_launch");
        assert_eq!(n.name("__accc_r1"), "v__accc_r1");
        assert_eq!(n.name("tmp"), "tmp_1");
        assert_eq!(n.name("a.b"), "a_b");
        assert_eq!(n.name("a_b"), "a_b_1");
        assert_eq!(n.name("a-b"), "a_b_2");
        // `int_` is taken by `int` once it is asked for first.
        assert_eq!(n.name("int"), "int_");
        assert_eq!(n.name("int_"), "int__1");
        // The same name, the same identifier.
        assert_eq!(n.name("a.b"), "a_b");
        assert_eq!(n.name("tmp"), "tmp_1");
    }

    #[test]
    fn fresh_names_are_always_new() {
        let mut n = Namer::new();
        assert_eq!(n.fresh("red.e"), "red_e");
        assert_eq!(n.fresh("red.e"), "red_e_1");
        assert_eq!(n.name("red.e"), "red_e_2");
        assert_eq!(n.fresh("int"), "int_");
        assert_eq!(n.name("red.e"), "red_e_2");
    }
}
