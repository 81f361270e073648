//! The parse of a translation unit, one external declaration at a time
//! (lang-c's `UnitParser`, extended for GNU C in `src/lang-c`). A
//! declaration the parser rejects is stepped over and kept opaque — the host
//! compiler still gets its text unchanged — unless accc needs it: a
//! directive inside it, or an unnamed `routine` directive right before it.
//! There its syntax error is reported, naming what was found, what was
//! expected and in which construct.
//!
//! Owns: [`parse_unit`], [`ParsedUnit`], [`Opaque`]. May call: `split`,
//! `syntax`, `pragma`, `source`.

use super::pragma::Pragma;
use super::source::SourceMap;
use super::split::{self, Declared};
use super::syntax;
use crate::diag::{DResult, Diagnostic, Diagnostics};
use lang_c::ast::*;
use lang_c::span::{Node, Span};
use lang_c::UnitParser;

/// An external declaration the parser could not parse.
#[derive(Clone, Debug)]
pub struct Opaque {
    /// Where it starts in the text.
    pub start: usize,
    /// What it declares, as far as a token scan tells.
    pub declared: Declared,
    /// Where the parser gave up, and why.
    pub error_at: usize,
    pub error: String,
    /// For a function definition whose head parses: its declaration (the
    /// function's name and type, without the body).
    pub head: Option<Node<Declaration>>,
}

/// A parsed translation unit.
pub struct ParsedUnit {
    /// The external declarations that parsed, in order.
    pub unit: TranslationUnit,
    /// Those that did not, in order.
    pub opaque: Vec<Opaque>,
}

/// Whether the declaration `text[start..end]` (after the previous one,
/// ending at `prev_end`) must parse: a directive inside it, or an unnamed
/// `routine` directive (which applies to it) between the two.
fn needed(pragmas: &[Pragma], prev_end: usize, start: usize, end: usize) -> bool {
    pragmas.iter().any(|p| {
        (start <= p.start && p.start < end)
            || (prev_end <= p.start && p.end <= start && unnamed_routine(&p.text))
    })
}

/// `routine` without a name in parentheses.
fn unnamed_routine(directive: &str) -> bool {
    directive
        .strip_prefix("routine")
        .is_some_and(|rest| !rest.trim_start().starts_with('('))
}

/// Parses preprocessed `text` (its `#pragma acc` lines blanked, listed in
/// `pragmas`).
pub fn parse_unit(text: &str, pragmas: &[Pragma], sm: &SourceMap) -> DResult<ParsedUnit> {
    let mut parser = UnitParser::gnu();
    let mut decls = vec![];
    let mut opaque = vec![];
    let mut errors = vec![];
    let mut prev_end = 0;
    let mut pos = parser.skip_whitespace(text, 0);
    while pos < text.len() {
        match parser.external_declaration(text, pos) {
            Ok((d, end)) => {
                decls.push(d);
                prev_end = end;
                pos = parser.skip_whitespace(text, end);
                continue;
            }
            Err(e) => {
                // At least one token further, whatever the scan says.
                let next_token = split::Lexer::new(text, pos)
                    .next()
                    .map_or(text.len(), |t| t.end);
                let end = split::declaration_end(text, pos).max(next_token);
                let error = syntax::message(text, pos, e.offset, &e.expected);
                if needed(pragmas, prev_end, pos, end) {
                    errors.push(Diagnostic::error(Some(sm.loc(e.offset)), error));
                } else {
                    let declared =
                        split::declared_names(text, pos, end, &|n| parser.is_typename(n));
                    if declared.typedef {
                        for n in &declared.names {
                            parser.add_typename(n);
                        }
                    }
                    let head = if declared.function {
                        parser
                            .function_head(text, pos)
                            .map(|(specifiers, declarator, brace)| {
                                let span = Span::span(pos, brace);
                                let init = InitDeclarator {
                                    declarator,
                                    initializer: None,
                                };
                                Node::new(
                                    Declaration {
                                        specifiers,
                                        declarators: vec![Node::new(init, span)],
                                    },
                                    span,
                                )
                            })
                    } else {
                        None
                    };
                    opaque.push(Opaque {
                        start: pos,
                        declared,
                        error_at: e.offset,
                        error,
                        head,
                    });
                }
                prev_end = end;
                pos = parser.skip_whitespace(text, end);
            }
        }
    }
    if !errors.is_empty() {
        return Err(Diagnostics(errors));
    }
    Ok(ParsedUnit {
        unit: TranslationUnit(decls),
        opaque,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(src: &str) -> DResult<ParsedUnit> {
        let mut text = src.to_string();
        let pragmas = super::super::pragma::capture(&mut text);
        let sm = SourceMap::new(&text, "t.c");
        parse_unit(&text, &pragmas, &sm)
    }

    #[test]
    fn steps_over_what_it_cannot_parse() {
        let src = "typedef int T;\nstatic int bad(void) { return 1 2; }\nT ok(T x) { return x; }\n";
        let Ok(p) = parse(src) else {
            panic!("the unit should parse");
        };
        assert_eq!(p.unit.0.len(), 2);
        assert_eq!(p.opaque.len(), 1);
        assert_eq!(p.opaque[0].declared.names, ["bad"]);
        assert!(p.opaque[0].head.is_some());
        assert!(p.opaque[0].error.contains("in the body of function 'bad'"));
    }

    #[test]
    fn keeps_typedef_names_of_what_it_cannot_parse() {
        let src =
            "typedef struct __attribute__((oops oops)) s { int a; } S;\nS f(S x) { return x; }\n";
        let Ok(p) = parse(src) else {
            panic!("the unit should parse");
        };
        assert_eq!(p.unit.0.len(), 1);
        assert_eq!(p.opaque[0].declared.names, ["S"]);
        assert!(p.opaque[0].declared.typedef);
    }

    #[test]
    fn reports_what_a_directive_needs() {
        let src = "void f(int n) {\n#pragma acc parallel loop\n for (int i = 0; i < n; i++) ;\n n = 1 2;\n}\n";
        let Err(d) = parse(src) else {
            panic!("a syntax error in a function with a directive is an error");
        };
        let r = d.render(false);
        assert!(
            r.contains("t.c:4:8: error: in the body of function 'f'"),
            "{r}"
        );
        let src = "#pragma acc routine seq\nint g(int x) { return x 1; }\n";
        assert!(parse(src).is_err());
        let src = "int x;\n#pragma acc declare create(x)\nint g(int x) { return x 1; }\n";
        assert!(parse(src).is_ok());
    }

    #[test]
    fn parses_gnu_extensions() {
        let src = "typedef unsigned __int128 u128;\n\
                   struct __attribute__((aligned(16))) A { char c; };\n\
                   enum __attribute__((packed)) E { E0, E1, };\n\
                   __thread int tls;\n\
                   __float128 q; __float80 e; _Float128 r; _Float64x s;\n\
                   int f(int x) {\n\
                     static void *t[] = { &&a, &&b };\n\
                     __auto_type y = x;\n\
                     switch (x) { case 0: y++; __attribute__((fallthrough)); default: break; }\n\
                     asm goto (\"\" : : : : a);\n\
                     asm volatile inline (\"\");\n\
                     goto *t[y & 1];\n\
                   a: return 1;\n\
                   b: return 2;\n\
                   }\n\
                   int g(a, b) int a; double b; { __typeof__(__typeof__(a) *) p = &a; return *p; }\n";
        match parse(src) {
            Ok(p) => {
                let o: Vec<&String> = p.opaque.iter().map(|o| &o.error).collect();
                assert!(o.is_empty(), "{o:?}");
                assert_eq!(p.unit.0.len(), 10);
            }
            Err(d) => panic!("{}", d.render(false)),
        }
    }
}
