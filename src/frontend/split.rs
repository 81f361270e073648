//! Splitting preprocessed C without parsing it: a token scanner, the end of
//! an external declaration the parser could not parse, and the names such a
//! declaration declares (so later declarations still know its typedef
//! names, and device code that uses its names gets a clear error).
//!
//! Owns: [`Lexer`], [`Token`], [`declaration_end`], [`declared_names`].
//! May call: nothing.

/// What a token is, as far as splitting and diagnostics need.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokKind {
    /// An identifier or keyword.
    Ident,
    /// A number (pp-number).
    Number,
    /// A string literal (any prefix).
    Str,
    /// A character constant.
    Char,
    /// A punctuator (longest match).
    Punct,
    /// A byte that starts no token (`@`, a stray `\`).
    Other,
}

/// One token: its kind and byte range in the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    pub kind: TokKind,
    pub start: usize,
    pub end: usize,
}

impl Token {
    /// The token's text.
    pub fn text<'t>(&self, text: &'t str) -> &'t str {
        &text[self.start..self.end]
    }
}

/// Punctuators, longest first within each leading character.
const PUNCTS: &[&str] = &[
    "<<=", ">>=", "...", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "*=",
    "/=", "%=", "+=", "-=", "&=", "^=", "|=", "##", "<:", ":>", "<%", "%>",
];

/// Tokens of preprocessed text from a position on; white space and
/// preprocessor lines (a `#` first on its line) are skipped.
pub struct Lexer<'t> {
    text: &'t str,
    pos: usize,
}

impl<'t> Lexer<'t> {
    pub fn new(text: &'t str, pos: usize) -> Lexer<'t> {
        Lexer { text, pos }
    }

    fn skip_blank(&mut self) {
        let b = self.text.as_bytes();
        while self.pos < b.len() {
            match b[self.pos] {
                b' ' | b'\t' | b'\n' | b'\r' | b'\x0b' | b'\x0c' => self.pos += 1,
                b'#' if self.at_line_start() => {
                    self.pos = self.text[self.pos..]
                        .find('\n')
                        .map_or(b.len(), |n| self.pos + n);
                }
                b'/' if b.get(self.pos + 1) == Some(&b'*') => {
                    self.pos = self.text[self.pos + 2..]
                        .find("*/")
                        .map_or(b.len(), |n| self.pos + 2 + n + 2);
                }
                b'/' if b.get(self.pos + 1) == Some(&b'/') => {
                    self.pos = self.text[self.pos..]
                        .find('\n')
                        .map_or(b.len(), |n| self.pos + n);
                }
                _ => return,
            }
        }
    }

    /// Only blanks between the line's start and `pos`.
    fn at_line_start(&self) -> bool {
        self.text[..self.pos]
            .bytes()
            .rev()
            .take_while(|&c| c != b'\n')
            .all(|c| c == b' ' || c == b'\t')
    }

    /// The end of a quoted literal starting at `start` (its opening quote).
    fn quoted_end(&self, start: usize, quote: u8) -> usize {
        let b = self.text.as_bytes();
        let mut i = start + 1;
        while i < b.len() {
            match b[i] {
                b'\\' => i += 2,
                b'\n' => return i,
                c if c == quote => return i + 1,
                _ => i += 1,
            }
        }
        b.len()
    }
}

impl Iterator for Lexer<'_> {
    type Item = Token;

    fn next(&mut self) -> Option<Token> {
        self.skip_blank();
        let b = self.text.as_bytes();
        let start = self.pos;
        let c = *b.get(start)?;
        let ident = |c: u8| c == b'_' || c == b'$' || c.is_ascii_alphanumeric() || c >= 0x80;
        let (kind, end) = if ident(c) && !c.is_ascii_digit() {
            let mut e = start;
            while e < b.len() && ident(b[e]) {
                e += 1;
            }
            // An encoding prefix makes a string or character literal.
            match (b.get(e), &self.text[start..e]) {
                (Some(b'"'), "L" | "u" | "U" | "u8") => (TokKind::Str, self.quoted_end(e, b'"')),
                (Some(b'\''), "L" | "u" | "U" | "u8") => (TokKind::Char, self.quoted_end(e, b'\'')),
                _ => (TokKind::Ident, e),
            }
        } else if c.is_ascii_digit()
            || (c == b'.' && b.get(start + 1).is_some_and(u8::is_ascii_digit))
        {
            // pp-number: digits, letters, '.', and signs after an exponent.
            let mut e = start + 1;
            while e < b.len() {
                let d = b[e];
                let sign =
                    (d == b'+' || d == b'-') && matches!(b[e - 1], b'e' | b'E' | b'p' | b'P');
                if !(ident(d) || d == b'.' || sign) {
                    break;
                }
                e += 1;
            }
            (TokKind::Number, e)
        } else if c == b'"' {
            (TokKind::Str, self.quoted_end(start, b'"'))
        } else if c == b'\'' {
            (TokKind::Char, self.quoted_end(start, b'\''))
        } else if let Some(p) = PUNCTS.iter().find(|p| self.text[start..].starts_with(**p)) {
            (TokKind::Punct, start + p.len())
        } else if c.is_ascii_punctuation() {
            (TokKind::Punct, start + 1)
        } else {
            let len = self.text[start..].chars().next().map_or(1, char::len_utf8);
            (TokKind::Other, start + len)
        };
        self.pos = end;
        Some(Token { kind, start, end })
    }
}

/// Keywords and GNU spellings that never name a declared entity.
pub fn is_keyword(s: &str) -> bool {
    matches!(
        s,
        "auto"
            | "break"
            | "case"
            | "char"
            | "const"
            | "continue"
            | "default"
            | "do"
            | "double"
            | "else"
            | "enum"
            | "extern"
            | "float"
            | "for"
            | "goto"
            | "if"
            | "inline"
            | "int"
            | "long"
            | "register"
            | "restrict"
            | "return"
            | "short"
            | "signed"
            | "sizeof"
            | "static"
            | "struct"
            | "switch"
            | "typedef"
            | "union"
            | "unsigned"
            | "void"
            | "volatile"
            | "while"
            | "_Alignas"
            | "_Alignof"
            | "_Atomic"
            | "_Bool"
            | "_Complex"
            | "_Generic"
            | "_Imaginary"
            | "_Noreturn"
            | "_Static_assert"
            | "_Thread_local"
            | "typeof"
            | "asm"
            | "bool"
            | "true"
            | "false"
            | "nullptr"
            | "constexpr"
            | "static_assert"
            | "thread_local"
            | "alignas"
            | "alignof"
    ) || (s.starts_with("__")
        && matches!(
            s.trim_matches('_'),
            "extension"
                | "inline"
                | "restrict"
                | "const"
                | "signed"
                | "volatile"
                | "thread"
                | "int128"
                | "float128"
                | "float80"
                | "ibm128"
                | "auto_type"
                | "complex"
                | "attribute"
                | "asm"
                | "typeof"
                | "alignof"
                | "label"
                | "real"
                | "imag"
                | "typeof_unqual"
                | "declspec"
        ))
        || s.starts_with("_Float")
        || s.starts_with("_Decimal")
}

/// A keyword whose parenthesised operand is no declarator:
/// `__attribute__((…))`, `__asm__("…")`, `__typeof__(…)`, `_Alignas(…)`.
fn takes_group(s: &str) -> bool {
    matches!(s, "asm" | "typeof" | "_Alignas" | "_Atomic" | "alignas")
        || (s.starts_with("__")
            && matches!(
                s.trim_matches('_'),
                "attribute" | "asm" | "typeof" | "typeof_unqual" | "declspec" | "alignof"
            ))
}

/// The tokens of `text[start..end]`.
pub fn tokens(text: &str, start: usize, end: usize) -> Vec<Token> {
    Lexer::new(text, start)
        .take_while(|t| t.start < end)
        .collect()
}

/// The index just after the group that `toks[i]` opens (`(`, `[` or `{`),
/// or `toks.len()` when it is not closed.
pub fn group_end(text: &str, toks: &[Token], i: usize) -> usize {
    let mut depth = 0usize;
    for (k, t) in toks.iter().enumerate().skip(i) {
        match t.text(text) {
            "(" | "[" | "{" => depth += 1,
            ")" | "]" | "}" => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return k + 1;
                }
            }
            _ => {}
        }
    }
    toks.len()
}

/// The end (byte offset) of the external declaration that starts at
/// `start`: after its `;`, or after the `}` of a function body (and any
/// `;` right after it), or the end of the text. A `{` at the top level
/// opens a function body when a parameter list precedes it (or K&R
/// parameter declarations do), else a struct, union or enum body or an
/// initializer, which a `;` ends later.
pub fn declaration_end(text: &str, start: usize) -> usize {
    let mut depth = 0usize;
    let mut prev: Option<&str> = None;
    // The keyword before the last top-level `(` group, and whether `=`
    // came at the top level (an initializer: no function body follows).
    let mut group_of: Option<&str> = None;
    let mut opened_by: Option<&str> = None;
    let (mut init, mut knr, mut body) = (false, false, false);
    // The identifiers of the last top-level group when it holds only
    // identifiers and commas (a K&R parameter list), else `None`.
    let mut ident_list: Option<(usize, bool)> = None;
    // K&R parameter declarations seen, and where the first one ended (the
    // declaration's end if they turn out not to be K&R declarations).
    let (mut knr_decls, mut first_semi) = (0usize, None);
    let mut lexer = Lexer::new(text, start).peekable();
    while let Some(t) = lexer.next() {
        let s = t.text(text);
        if depth == 1 && opened_by.is_some() {
            // (count, whether an identifier comes next)
            ident_list = match (ident_list, t.kind, s) {
                (Some((n, true)), TokKind::Ident, _) if !is_keyword(s) => Some((n + 1, false)),
                (Some((n, false)), _, ",") => Some((n, true)),
                (Some((n, _)), _, ")") => Some((n, false)),
                _ => None,
            };
        }
        match s {
            "(" | "[" => {
                if depth == 0 && s == "(" {
                    opened_by = prev;
                    ident_list = Some((0, true));
                }
                depth += 1;
            }
            "{" => {
                if depth == 0 {
                    let after_params = prev == Some(")") && !group_of.is_some_and(takes_group);
                    body = !init && (knr || after_params);
                }
                depth += 1;
            }
            ")" | "]" => {
                depth = depth.saturating_sub(1);
                if depth == 0 && s == ")" {
                    group_of = opened_by;
                    // `int f(a, b) int a; double b; { … }`: K&R parameter
                    // declarations follow the identifier list.
                    if let Some(n) = lexer.peek() {
                        let ns = n.text(text);
                        knr |= !init
                            && ident_list.is_some_and(|(n, _)| n > 0)
                            && prev.is_some_and(|p| p != "(")
                            && opened_by.is_some_and(|o| !is_keyword(o) && !takes_group(o))
                            && n.kind == TokKind::Ident
                            && !takes_group(ns);
                    }
                    opened_by = None;
                }
            }
            "}" => {
                depth = depth.saturating_sub(1);
                if depth == 0 && body {
                    let mut end = t.end;
                    while let Some(n) = lexer.peek() {
                        if n.text(text) != ";" {
                            break;
                        }
                        end = n.end;
                        lexer.next();
                    }
                    return end;
                }
            }
            ";" if depth == 0 && !knr => return t.end,
            ";" if depth == 0 => {
                // More declarations than parameters: these were no K&R
                // parameter declarations (`int f(T) MACRO; …`).
                knr_decls += 1;
                first_semi.get_or_insert(t.end);
                if knr_decls > ident_list.map_or(0, |(n, _)| n) {
                    return first_semi.unwrap_or(t.end);
                }
            }
            "=" if depth == 0 && knr => return first_semi.unwrap_or(t.end),
            "=" if depth == 0 => init = true,
            _ => {}
        }
        prev = Some(s);
    }
    text.len()
}

/// What an unparsed declaration declares.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Declared {
    /// Declared with `typedef`: the names are type names.
    pub typedef: bool,
    /// It is a function definition (the first name is the function's).
    pub function: bool,
    /// The declared names, in order.
    pub names: Vec<String>,
    /// The struct, union and enum types it defines (`struct tag`).
    pub tags: Vec<String>,
}

/// The names the declaration `text[start..end]` declares, by a token scan:
/// specifiers first (keywords, one type name, `struct` bodies, attribute
/// groups), then each declarator's identifier; parameter lists,
/// initializers and bodies are skipped. `is_type` says which identifiers
/// name types where the declaration begins.
pub fn declared_names(
    text: &str,
    start: usize,
    end: usize,
    is_type: &dyn Fn(&str) -> bool,
) -> Declared {
    let toks = tokens(text, start, end);
    let mut out = Declared::default();
    let mut seen_type = false;
    let mut i = 0;
    // Specifiers, up to the first declarator.
    while i < toks.len() {
        let s = toks[i].text(text);
        match s {
            "typedef" => {
                out.typedef = true;
                i += 1;
            }
            "struct" | "union" | "enum" => {
                seen_type = true;
                i += 1;
                while i < toks.len() && takes_group(toks[i].text(text)) {
                    i = skip_keyword_group(text, &toks, i);
                }
                let mut tag = None;
                if i < toks.len() && toks[i].kind == TokKind::Ident {
                    tag = Some(format!("{s} {}", toks[i].text(text)));
                    i += 1;
                }
                if i < toks.len() && toks[i].text(text) == "{" {
                    out.tags.extend(tag);
                    i = group_end(text, &toks, i);
                }
            }
            _ if takes_group(s) => {
                seen_type |= s.contains("typeof") || s == "_Atomic";
                i = skip_keyword_group(text, &toks, i);
            }
            _ if toks[i].kind == TokKind::Ident && is_keyword(s) => {
                seen_type |= !matches!(
                    s,
                    "const" | "volatile" | "static" | "extern" | "inline" | "register" | "auto"
                ) && !s.starts_with("__");
                seen_type |= matches!(s.trim_matches('_'), "int128" | "float128" | "auto_type");
                i += 1;
            }
            _ if toks[i].kind == TokKind::Ident && !seen_type && is_type(s) => {
                seen_type = true;
                i += 1;
            }
            _ => break,
        }
    }
    // Declarators: the first identifier of each, then skip to the next `,`.
    while i < toks.len() {
        let s = toks[i].text(text);
        if toks[i].kind == TokKind::Ident && !is_keyword(s) {
            out.names.push(s.to_string());
            i += 1;
            // The rest of this declarator (parameter lists, array sizes,
            // attributes, an initializer or a function body).
            let mut init = false;
            while i < toks.len() {
                match toks[i].text(text) {
                    "(" | "[" => i = group_end(text, &toks, i),
                    "{" => {
                        out.function |= !init && out.names.len() == 1;
                        i = group_end(text, &toks, i);
                    }
                    "=" => {
                        init = true;
                        i += 1;
                    }
                    "," => break,
                    _ => i += 1,
                }
            }
        } else if takes_group(s) {
            i = skip_keyword_group(text, &toks, i);
        } else {
            i += 1;
        }
    }
    out
}

/// The index after keyword `toks[i]` and the parenthesised group after it.
fn skip_keyword_group(text: &str, toks: &[Token], i: usize) -> usize {
    let j = i + 1;
    if j < toks.len() && toks[j].text(text) == "(" {
        group_end(text, toks, j)
    } else {
        j
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn end_of(s: &str) -> &str {
        &s[..declaration_end(s, 0)]
    }

    #[test]
    fn ends_of_declarations() {
        assert_eq!(end_of("int x = {1, 2}; int y;"), "int x = {1, 2};");
        assert_eq!(
            end_of("int f(void) { return 1; } int y;"),
            "int f(void) { return 1; }"
        );
        assert_eq!(
            end_of("int f(void) { return 1; };; int y;"),
            "int f(void) { return 1; };;"
        );
        assert_eq!(
            end_of("struct S { int a; } s; int y;"),
            "struct S { int a; } s;"
        );
        assert_eq!(
            end_of("typedef struct __attribute__((aligned(8))) t { char c; } t; int y;"),
            "typedef struct __attribute__((aligned(8))) t { char c; } t;"
        );
        assert_eq!(
            end_of("int f(a, b) int a; double b; { return a; } int y;"),
            "int f(a, b) int a; double b; { return a; }"
        );
        assert_eq!(end_of("int x = (int) y; int z;"), "int x = (int) y;");
        assert_eq!(
            end_of("int f(T a, U) NOTHROW; typedef int V; typedef int W; int g(void) { }"),
            "int f(T a, U) NOTHROW;"
        );
        assert_eq!(
            end_of("int f(a, b) NOTHROW; typedef int V; typedef int W; int g(void) { }"),
            "int f(a, b) NOTHROW;"
        );
        assert_eq!(
            end_of("int f(a) NOTHROW; int v = 1; int g(void) { }"),
            "int f(a) NOTHROW;"
        );
        assert_eq!(
            end_of("void g(void) __attribute__((noreturn)); int z;"),
            "void g(void) __attribute__((noreturn));"
        );
        assert_eq!(end_of("char *s = \"};\"; int z;"), "char *s = \"};\";");
        assert_eq!(
            end_of("int f(void) { l: goto *&&l; }"),
            "int f(void) { l: goto *&&l; }"
        );
        assert_eq!(end_of("int x"), "int x");
    }

    #[test]
    fn names_of_declarations() {
        let none = |_: &str| false;
        let t = |s: &str| s == "T";
        let d = declared_names("typedef unsigned __int128 u128;", 0, 31, &none);
        assert!(d.typedef && !d.function);
        assert_eq!(d.names, ["u128"]);
        let s = "typedef struct __attribute__((__aligned__ (sizeof (void *)))) omp_depend_t { char x[16]; } omp_depend_t;";
        let d = declared_names(s, 0, s.len(), &none);
        assert_eq!(
            (d.names, d.tags),
            (
                vec!["omp_depend_t".to_string()],
                vec!["struct omp_depend_t".to_string()]
            )
        );
        let s = "static T (*fp)(int a, T b), q[3] = {1}, r;";
        assert_eq!(declared_names(s, 0, s.len(), &t).names, ["fp", "q", "r"]);
        let s = "int x[] = {1, 2}, y;";
        let d = declared_names(s, 0, s.len(), &none);
        assert!(!d.function);
        assert_eq!(d.names, ["x", "y"]);
        let s = "int f(int a) { goto *p; }";
        let d = declared_names(s, 0, s.len(), &none);
        assert!(d.function);
        assert_eq!(d.names, ["f"]);
        let s = "typedef float __m128 __attribute__ ((__vector_size__ (16), __may_alias__));";
        assert_eq!(declared_names(s, 0, s.len(), &none).names, ["__m128"]);
        let s = "extern __inline __m128 __attribute__((__gnu_inline__)) _mm_add_ps (__m128 __A) { return __A; }";
        let m = |s: &str| s == "__m128";
        let d = declared_names(s, 0, s.len(), &m);
        assert_eq!(d.names, ["_mm_add_ps"]);
        assert!(d.function);
    }

    #[test]
    fn lexes_tokens() {
        let s = "a->b <<= 0x1p-3f u8\"x\\\"y\" '\\'' ...\n# 3 \"f.c\"\n@";
        let toks: Vec<&str> = Lexer::new(s, 0).map(|t| t.text(s)).collect();
        assert_eq!(
            toks,
            [
                "a",
                "->",
                "b",
                "<<=",
                "0x1p-3f",
                "u8\"x\\\"y\"",
                "'\\''",
                "...",
                "@"
            ]
        );
    }
}
