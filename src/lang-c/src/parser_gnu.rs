//! accc's fork of lang-c: GNU C extensions the generated grammar lacks, and a
//! driver that parses a translation unit one external declaration at a time.
//!
//! Each `__parse_*` function here wraps the generated rule of the same name
//! (renamed `*_generated` in `parser.rs`): the generated rule runs first, and
//! only where it fails (or, for attributes after `struct`/`enum`, where it
//! would succeed wrongly) does the extension apply, so every construct lang-c
//! parsed before still gets the same tree.
//!
//! Extensions: `__int128`, `__float128`, `__float80`, `__auto_type`,
//! `__thread`; `typeof` of a type name that starts like an expression;
//! `__extension__` before a cast expression; `__real__` and `__imag__`; statement attributes (`__attribute__((fallthrough));`);
//! computed goto (`goto *p;`) and label addresses (`&&label`); `asm` with
//! several qualifiers and `asm goto`; attributes between `struct`, `union` or
//! `enum` and the tag.

use super::*;

/// A keyword: `kw` not followed by an identifier character (quiet: a
/// failed keyword never shows among the expected tokens).
fn keyword(input: &str, state: &mut ParseState, pos: usize, kw: &'static str) -> RuleResult<()> {
    let end = pos + kw.len();
    if input.len() >= end && &input.as_bytes()[pos..end] == kw.as_bytes() {
        let next = input.as_bytes().get(end).copied().unwrap_or(b' ');
        if !(next == b'_' || next.is_ascii_alphanumeric()) {
            return Matched(end, ());
        }
    }
    let _ = state;
    Failed
}

/// One of several keywords; the index of the one found.
fn keywords(input: &str, state: &mut ParseState, pos: usize, kws: &[&'static str]) -> RuleResult<usize> {
    for (i, kw) in kws.iter().enumerate() {
        if let Matched(p, ()) = keyword(input, state, pos, kw) {
            return Matched(p, i);
        }
    }
    Failed
}

/// Whitespace (and line directives after a newline).
fn ws<'input>(input: &'input str, state: &mut ParseState<'input>, pos: usize, env: &mut Env) -> usize {
    match __parse__(input, state, pos, env) {
        Matched(p, ()) => p,
        Failed => pos,
    }
}

/// A punctuator (recorded among the expected tokens when missing).
fn punct(input: &str, state: &mut ParseState, pos: usize, p: &'static str) -> RuleResult<()> {
    slice_eq(input, state, pos, p)
}

macro_rules! try_match {
    ($e:expr) => {
        match $e {
            Matched(p, v) => (p, v),
            Failed => return Failed,
        }
    };
}

pub(super) fn __parse_statement0<'input>(input: &'input str, state: &mut ParseState<'input>, pos: usize, env: &mut Env) -> RuleResult<Statement> {
    if let Matched(p, s) = __parse_statement0_generated(input, state, pos, env) {
        return Matched(p, s);
    }
    if !env.extensions_gnu {
        return Failed;
    }
    if let Matched(p, s) = computed_goto(input, state, pos, env) {
        return Matched(p, s);
    }
    if let Matched(p, s) = attribute_statement(input, state, pos, env) {
        return Matched(p, s);
    }
    asm_statement(input, state, pos, env)
}

/// `goto * expression ;`
fn computed_goto<'input>(input: &'input str, state: &mut ParseState<'input>, pos: usize, env: &mut Env) -> RuleResult<Statement> {
    let (p, ()) = try_match!(keyword(input, state, pos, "goto"));
    let p = ws(input, state, p, env);
    let (p, ()) = try_match!(punct(input, state, p, "*"));
    let p = ws(input, state, p, env);
    let (p, e) = try_match!(__parse_expression(input, state, p, env));
    let p = ws(input, state, p, env);
    let (p, ()) = try_match!(punct(input, state, p, ";"));
    Matched(p, Statement::ComputedGoto(e))
}

/// A null statement with attributes: `__attribute__((fallthrough));`. The
/// attributes GCC takes there (`fallthrough`, `assume`) change nothing a
/// statement does, so the tree is a plain null statement.
fn attribute_statement<'input>(input: &'input str, state: &mut ParseState<'input>, pos: usize, env: &mut Env) -> RuleResult<Statement> {
    let (p, _) = try_match!(__parse_attribute_specifier(input, state, pos, env));
    let p = ws(input, state, p, env);
    let (p, _) = try_match!(__parse_attribute_specifier_list(input, state, p, env));
    let p = ws(input, state, p, env);
    let (p, ()) = try_match!(punct(input, state, p, ";"));
    Matched(p, Statement::Expression(None))
}

/// `asm` with any of the qualifiers `volatile`, `inline`, `goto` (in any
/// order) and, for `asm goto`, a fifth section of labels.
fn asm_statement<'input>(input: &'input str, state: &mut ParseState<'input>, pos: usize, env: &mut Env) -> RuleResult<Statement> {
    let start = pos;
    let (mut p, _) = try_match!(keywords(input, state, pos, &["asm", "__asm__", "__asm"]));
    let mut volatile = None;
    let mut goto = false;
    loop {
        p = ws(input, state, p, env);
        let q = p;
        match keywords(input, state, p, &["volatile", "__volatile__", "__volatile", "inline", "__inline__", "__inline", "goto"]) {
            Matched(np, i) => {
                if i < 3 {
                    volatile = Some(Node::new(TypeQualifier::Volatile, Span::span(q, np)));
                }
                goto |= i == 6;
                p = np;
            }
            Failed => break,
        }
    }
    let (p, ()) = try_match!(punct(input, state, p, "("));
    let p = ws(input, state, p, env);
    let (mut p, template) = try_match!(__parse_string_literal(input, state, p, env));
    let mut sections = 0;
    let (mut outputs, mut inputs, mut clobbers, mut labels) = (vec![], vec![], vec![], vec![]);
    loop {
        p = ws(input, state, p, env);
        let np = match punct(input, state, p, ":") {
            Matched(np, ()) => ws(input, state, np, env),
            Failed => break,
        };
        sections += 1;
        p = match sections {
            1 | 2 => {
                let (np, list) = try_match!(__parse_asm_operand_list(input, state, np, env));
                if sections == 1 {
                    outputs = list;
                } else {
                    inputs = list;
                }
                np
            }
            3 => {
                let (np, list) = try_match!(comma_list(input, state, np, env, __parse_string_literal));
                clobbers = list;
                np
            }
            4 if goto => {
                let (np, list) = try_match!(comma_list(input, state, np, env, __parse_identifier));
                labels = list;
                np
            }
            _ => return Failed,
        };
    }
    let (p, ()) = try_match!(punct(input, state, p, ")"));
    let p = ws(input, state, p, env);
    let (p, ()) = try_match!(punct(input, state, p, ";"));
    let asm = if sections == 0 && !goto {
        AsmStatement::GnuBasic(template)
    } else {
        AsmStatement::GnuExtended(GnuExtendedAsmStatement {
            qualifier: volatile,
            template,
            outputs,
            inputs,
            clobbers,
            labels,
        })
    };
    Matched(p, Statement::Asm(Node::new(asm, Span::span(start, p))))
}

/// `item , item …` (possibly empty).
fn comma_list<'input, T>(
    input: &'input str,
    state: &mut ParseState<'input>,
    pos: usize,
    env: &mut Env,
    item: fn(&'input str, &mut ParseState<'input>, usize, &mut Env) -> RuleResult<T>,
) -> RuleResult<Vec<T>> {
    let mut out = vec![];
    let mut p = pos;
    loop {
        match item(input, state, p, env) {
            Matched(np, v) => {
                out.push(v);
                let np = ws(input, state, np, env);
                match punct(input, state, np, ",") {
                    Matched(np, ()) => p = ws(input, state, np, env),
                    Failed => return Matched(np, out),
                }
            }
            Failed if out.is_empty() => return Matched(p, out),
            Failed => return Failed,
        }
    }
}

pub(super) fn __parse_unary_expression0<'input>(input: &'input str, state: &mut ParseState<'input>, pos: usize, env: &mut Env) -> RuleResult<Expression> {
    // `__extension__ (T)(U){…}`: the operand is a cast expression (the
    // generated rule takes a unary expression, and its parenthesised
    // expression accepts a type name, so it reads `(T)(U)` as a call).
    if env.extensions_gnu {
        if let Matched(p, ()) = keyword(input, state, pos, "__extension__") {
            let p = ws(input, state, p, env);
            return __parse_cast_expression0(input, state, p, env);
        }
    }
    if let Matched(p, e) = __parse_unary_expression0_generated(input, state, pos, env) {
        return Matched(p, e);
    }
    if !env.extensions_gnu {
        return Failed;
    }
    // `__real__ x`, `__imag__ x`: parts of a complex number.
    if let Matched(p, i) = keywords(input, state, pos, &["__real__", "__real", "__imag__", "__imag"]) {
        let op = Node::new(if i < 2 { UnaryOperator::Real } else { UnaryOperator::Imag }, Span::span(pos, p));
        let p = ws(input, state, p, env);
        let (p, e) = try_match!(__parse_cast_expression(input, state, p, env));
        return Matched(p, Expression::UnaryOperator(Box::new(Node::new(
            UnaryOperatorExpression { operator: op, operand: e },
            Span::span(pos, p),
        ))));
    }
    // `&&label`: the address of a label.
    let (p, ()) = try_match!(punct(input, state, pos, "&&"));
    let p = ws(input, state, p, env);
    let (p, id) = try_match!(__parse_identifier(input, state, p, env));
    Matched(p, Expression::LabelAddress(Box::new(id)))
}

pub(super) fn __parse_type_specifier_nonunique<'input>(input: &'input str, state: &mut ParseState<'input>, pos: usize, env: &mut Env) -> RuleResult<TypeSpecifier> {
    if let Matched(p, t) = __parse_type_specifier_nonunique_generated(input, state, pos, env) {
        return Matched(p, t);
    }
    if !env.extensions_gnu {
        return Failed;
    }
    let (p, i) = try_match!(keywords(input, state, pos, &["__int128", "__float128", "__float80"]));
    let t = match i {
        0 => TypeSpecifier::Int128,
        // On x86-64 `__float128` is `_Float128` and `__float80` `_Float64x`.
        1 => TypeSpecifier::TS18661Float(TS18661FloatType {
            format: TS18661FloatFormat::BinaryInterchange,
            width: 128,
        }),
        _ => TypeSpecifier::TS18661Float(TS18661FloatType {
            format: TS18661FloatFormat::BinaryExtended,
            width: 64,
        }),
    };
    Matched(p, t)
}

pub(super) fn __parse_type_specifier_unique<'input>(input: &'input str, state: &mut ParseState<'input>, pos: usize, env: &mut Env) -> RuleResult<TypeSpecifier> {
    if let Matched(p, t) = __parse_type_specifier_unique_generated(input, state, pos, env) {
        return Matched(p, t);
    }
    if !env.extensions_gnu {
        return Failed;
    }
    let (p, ()) = try_match!(keyword(input, state, pos, "__auto_type"));
    Matched(p, TypeSpecifier::AutoType)
}

pub(super) fn __parse_storage_class_specifier0<'input>(input: &'input str, state: &mut ParseState<'input>, pos: usize, env: &mut Env) -> RuleResult<StorageClassSpecifier> {
    if let Matched(p, s) = __parse_storage_class_specifier0_generated(input, state, pos, env) {
        return Matched(p, s);
    }
    if !env.extensions_gnu {
        return Failed;
    }
    let (p, ()) = try_match!(keyword(input, state, pos, "__thread"));
    Matched(p, StorageClassSpecifier::ThreadLocal)
}

/// The operand of `typeof`: a type name when one is there (the generated
/// rule tries an expression first, which takes the `T` of `typeof(T *)` for
/// a variable and then fails), else an expression.
pub(super) fn __parse_typeof_specifier0<'input>(input: &'input str, state: &mut ParseState<'input>, pos: usize, env: &mut Env) -> RuleResult<TypeOf> {
    if let Matched(p, t) = __parse_type_name(input, state, pos, env) {
        let q = ws(input, state, p, env);
        if input.as_bytes().get(q) == Some(&b')') {
            return Matched(p, TypeOf::Type(t));
        }
    }
    __parse_typeof_specifier0_generated(input, state, pos, env)
}

/// Attributes right after `struct`/`union`/`enum` (none: `Failed`), and
/// the position after them.
fn tag_attributes<'input>(input: &'input str, state: &mut ParseState<'input>, pos: usize, env: &mut Env) -> RuleResult<Vec<Node<Extension>>> {
    if !env.extensions_gnu || !input[pos..].starts_with("__attribute") {
        return Failed;
    }
    let (p, attrs) = try_match!(__parse_attribute_specifier_list(input, state, pos, env));
    if attrs.is_empty() && p == pos {
        return Failed;
    }
    Matched(p, attrs)
}

pub(super) fn __parse_struct_or_union_specifier<'input>(input: &'input str, state: &mut ParseState<'input>, pos: usize, env: &mut Env) -> RuleResult<StructType> {
    let (p, kind) = try_match!(__parse_struct_or_union(input, state, pos, env));
    let kind = Node::new(kind, Span::span(pos, p));
    let p = ws(input, state, p, env);
    let (p, extensions) = match tag_attributes(input, state, p, env) {
        Matched(p, a) => (p, a),
        Failed => return __parse_struct_or_union_specifier_generated(input, state, pos, env),
    };
    let p = ws(input, state, p, env);
    let (p, identifier) = match __parse_identifier(input, state, p, env) {
        Matched(np, i) => (ws(input, state, np, env), Some(i)),
        Failed => (p, None),
    };
    let (p, declarations) = try_match!(__parse_struct_or_union_body(input, state, p, env));
    if identifier.is_none() && declarations.is_none() {
        return Failed;
    }
    Matched(p, StructType { kind, identifier, declarations, extensions })
}

pub(super) fn __parse_enum_specifier<'input>(input: &'input str, state: &mut ParseState<'input>, pos: usize, env: &mut Env) -> RuleResult<EnumType> {
    let (p, ()) = try_match!(keyword(input, state, pos, "enum"));
    let p = ws(input, state, p, env);
    let (p, extensions) = match tag_attributes(input, state, p, env) {
        Matched(p, a) => (p, a),
        Failed => return __parse_enum_specifier_generated(input, state, pos, env),
    };
    let p = ws(input, state, p, env);
    let (p, identifier) = match __parse_identifier(input, state, p, env) {
        Matched(np, i) => (ws(input, state, np, env), Some(i)),
        Failed => (p, None),
    };
    let Matched(mut p, ()) = punct(input, state, p, "{") else {
        return match identifier {
            Some(_) => Matched(p, EnumType { identifier, enumerators: vec![], extensions }),
            None => Failed,
        };
    };
    let mut enumerators = vec![];
    loop {
        p = ws(input, state, p, env);
        if !enumerators.is_empty() {
            if let Matched(np, ()) = punct(input, state, p, "}") {
                return Matched(np, EnumType { identifier, enumerators, extensions });
            }
        }
        let start = p;
        let (np, e) = try_match!(__parse_enumerator(input, state, p, env));
        enumerators.push(Node::new(e, Span::span(start, np)));
        p = ws(input, state, np, env);
        match punct(input, state, p, ",") {
            Matched(np, ()) => p = np,
            Failed => {
                let (np, ()) = try_match!(punct(input, state, p, "}"));
                return Matched(np, EnumType { identifier, enumerators, extensions });
            }
        }
    }
}

/// A syntax error: where the parser got furthest, and what it expected there.
#[derive(Debug, Clone, PartialEq)]
pub struct SyntaxError {
    /// Byte offset into the parsed text.
    pub offset: usize,
    /// The tokens and token classes expected at `offset`, sorted.
    pub expected: Vec<&'static str>,
}

impl SyntaxError {
    fn from_state(state: &ParseState) -> SyntaxError {
        let mut expected: Vec<&'static str> = state.expected.clone();
        expected.sort();
        expected.dedup();
        SyntaxError { offset: state.max_err_pos, expected }
    }
}

/// Parses one translation unit one external declaration at a time, so that
/// a caller can step over a declaration it cannot parse and go on. Spans are
/// offsets into the whole text; the typedef names seen so far are kept.
pub struct UnitParser {
    env: Env,
}

impl UnitParser {
    /// A parser for GNU C (GCC's extensions on).
    pub fn gnu() -> UnitParser {
        UnitParser { env: Env::with_gnu() }
    }

    /// The position of the next token at or after `pos` (whitespace and
    /// line directives skipped).
    pub fn skip_whitespace(&mut self, input: &str, mut pos: usize) -> usize {
        let mut state = ParseState::new();
        loop {
            pos = ws(input, &mut state, pos, &mut self.env);
            // A directive at the start of the text or of a line not reached
            // through a newline (the whitespace rule sees `\n#` only).
            let line_start = pos == 0 || input.as_bytes().get(pos - 1) == Some(&b'\n');
            if line_start && input.as_bytes().get(pos) == Some(&b'#') {
                pos = input[pos..].find('\n').map_or(input.len(), |n| pos + n);
                continue;
            }
            return pos;
        }
    }

    /// Parses the external declaration at `pos` (a token start); returns it
    /// and the offset just after it.
    pub fn external_declaration(&mut self, input: &str, pos: usize) -> Result<(Node<ExternalDeclaration>, usize), SyntaxError> {
        let mut state = ParseState::new();
        match __parse_external_declaration(input, &mut state, pos, &mut self.env) {
            Matched(end, d) => Ok((Node::new(d, Span::span(pos, end)), end)),
            Failed => Err(SyntaxError::from_state(&state)),
        }
    }

    /// The head of a function definition at `pos` (`__extension__`,
    /// specifiers, declarator and K&R parameter declarations), when it
    /// parses and a `{` follows; with the offset of the `{`.
    pub fn function_head(&mut self, input: &str, pos: usize) -> Option<(Vec<Node<DeclarationSpecifier>>, Node<Declarator>, usize)> {
        let mut state = ParseState::new();
        let env = &mut self.env;
        env.enter_scope();
        let head = (|| {
            let mut p = pos;
            if let Matched(np, ()) = keyword(input, &mut state, p, "__extension__") {
                p = ws(input, &mut state, np, env);
            }
            let (np, specifiers) = match __parse_declaration_specifiers(input, &mut state, p, env) {
                Matched(np, s) => (np, s),
                Failed => return None,
            };
            let p = ws(input, &mut state, np, env);
            let (np, declarator) = match __parse_declarator(input, &mut state, p, env) {
                Matched(np, d) => (np, d),
                Failed => return None,
            };
            let mut p = ws(input, &mut state, np, env);
            while let Matched(np, _) = __parse_declaration(input, &mut state, p, env) {
                p = ws(input, &mut state, np, env);
            }
            if input.as_bytes().get(p) == Some(&b'{') {
                Some((specifiers, declarator, p))
            } else {
                None
            }
        })();
        env.leave_scope();
        head
    }

    /// Declares `name` a typedef name (a declaration the caller could not
    /// parse defined it).
    pub fn add_typename(&mut self, name: &str) {
        self.env.add_symbol(name, Symbol::Typename);
    }

    /// Whether `name` is a typedef name where the parser stands.
    pub fn is_typename(&self, name: &str) -> bool {
        self.env.is_typename(name)
    }
}
