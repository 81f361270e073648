//! Syntax error messages: what the parser found, what it expected there (in
//! words, not grammar symbols), and which construct it was in — `in the
//! condition of 'if' in function 'main': expected ')' or an operator, found
//! 'y'`.
//!
//! Owns: [`message`]. May call: `split`.

use super::split::{self, Lexer, TokKind, Token};

/// The message for a syntax error at byte `offset`, in the external
/// declaration starting at `decl_start`, where the parser expected the
/// tokens or token classes `expected` (lang-c's names).
pub fn message(text: &str, decl_start: usize, offset: usize, expected: &[&str]) -> String {
    let found = found(text, decl_start, offset);
    let context = context(text, decl_start, offset);
    let expected = expected_words(expected);
    match expected {
        Some(e) => format!("{context}: expected {e}, found {found}"),
        None => format!("{context}: unexpected {found}"),
    }
}

/// The token at `offset` in words.
fn found(text: &str, from: usize, offset: usize) -> String {
    let tok = Lexer::new(text, from).find(|t| t.end > offset);
    let Some(t) = tok else {
        return "the end of the file".to_string();
    };
    let s = t.text(text);
    match t.kind {
        TokKind::Str => "a string literal".to_string(),
        TokKind::Char => format!("the character constant {s}"),
        TokKind::Number => format!("the number '{s}'"),
        _ => format!("'{s}'"),
    }
}

/// Binary and postfix operators: a set holding several of them says "an
/// operator" could continue the expression.
const OPERATORS: &[&str] = &[
    "!=", "%", "%=", "&", "&&", "&=", "*", "*=", "+", "++", "+=", "-", "--", "-=", "->", ".", "/",
    "/=", "<", "<<", "<<=", "<=", "=", "==", ">", ">=", ">>", ">>=", "?", "^", "^=", "|", "|=",
    "||",
];

/// What the parser expected, in words (`';' or an operator`); `None` when
/// nothing useful is left.
fn expected_words(expected: &[&str]) -> Option<String> {
    let operators = expected.iter().filter(|e| OPERATORS.contains(e)).count() >= 3;
    let mut words: Vec<(u8, String)> = vec![];
    let mut add = |rank: u8, w: String| {
        if !words.iter().any(|(_, x)| *x == w) {
            words.push((rank, w));
        }
    };
    for &e in expected {
        match e {
            _ if operators && (OPERATORS.contains(&e) || e == "(" || e == "[") => {
                add(15, "an operator".into())
            }
            "identifier" => add(11, "an identifier".into()),
            "<typedef_name>" => add(12, "a type name".into()),
            "\"" => add(13, "a string literal".into()),
            "asm" => add(16, "'asm'".into()),
            // Character classes and other grammar details ("[0-9]", "<character>").
            _ if (e.starts_with('[') && e.len() > 1) || e.starts_with('<') || e.len() > 3 => {}
            _ => {
                let rank = [";", ")", "]", "}", ",", ":", "=", "{", "(", "[", "*"]
                    .iter()
                    .position(|p| *p == e)
                    .map_or(14, |r| r as u8);
                add(rank, format!("'{e}'"))
            }
        }
    }
    words.sort();
    let mut w: Vec<String> = words.into_iter().map(|(_, w)| w).collect();
    w.truncate(5);
    match w.len() {
        0 => None,
        1 => w.pop(),
        _ => {
            let last = w.pop().unwrap_or_default();
            Some(format!("{} or {last}", w.join(", ")))
        }
    }
}

/// One open bracket on the way to the error, and what it opened.
#[derive(Clone, Debug)]
enum Open {
    /// `if (`, `while (`, `switch (`, `for (`.
    Condition(String),
    /// The arguments of a call.
    Call(String),
    /// A parameter list (of the function being declared, when at the top).
    Params(Option<String>),
    /// `__attribute__((`, `__asm__(`, `__typeof__(` …
    Keyword(String),
    /// Parentheses of an expression or a declarator.
    Paren,
    /// `[`.
    Bracket,
    /// A function body (the function's name).
    Body(String),
    /// `struct tag {`, `union tag {`, `enum tag {`.
    Members(String),
    /// An initializer list.
    Initializer,
    /// A block inside a body.
    Block,
}

/// The construct the parser was in at `offset`: a bracket scan of the
/// declaration from its start.
fn context(text: &str, start: usize, offset: usize) -> String {
    let toks: Vec<Token> = Lexer::new(text, start)
        .take_while(|t| t.start < offset)
        .collect();
    let mut stack: Vec<Open> = vec![];
    // The first declarator's name at the top level.
    let mut declared: Option<String> = None;
    // In the initialiser of a file-scope declarator (after a top-level `=`).
    let mut init = false;
    for (i, t) in toks.iter().enumerate() {
        let s = t.text(text);
        let prev = i.checked_sub(1).map(|k| toks[k].text(text));
        let prev2 = i.checked_sub(2).map(|k| toks[k].text(text));
        // In an expression: a body, an initialiser, an array size.
        let in_body = init
            || stack.iter().any(|o| {
                matches!(
                    o,
                    Open::Body(_) | Open::Block | Open::Bracket | Open::Initializer
                )
            });
        match s {
            "(" => {
                let o = match prev {
                    Some(k @ ("if" | "while" | "switch" | "for")) => Open::Condition(k.into()),
                    Some(k)
                        if k.contains("attribute")
                            || k.contains("asm")
                            || k.contains("typeof")
                            || k == "_Alignas" =>
                    {
                        Open::Keyword(k.trim_matches('_').into())
                    }
                    Some(_) if matches!(stack.last(), Some(Open::Keyword(_))) => Open::Paren,
                    Some(k) if toks[i - 1].kind == TokKind::Ident && !split::is_keyword(k) => {
                        if in_body {
                            Open::Call(k.into())
                        } else {
                            let top = stack.iter().all(|o| matches!(o, Open::Paren));
                            if top && declared.is_none() {
                                declared = Some(k.into());
                            }
                            Open::Params(top.then(|| k.to_string()))
                        }
                    }
                    Some(")") if !in_body => Open::Params(None),
                    _ => Open::Paren,
                };
                stack.push(o);
            }
            "[" => {
                // `int x[3]`: the declarator's name.
                if stack.is_empty() && i > 0 && toks[i - 1].kind == TokKind::Ident {
                    declared = prev.filter(|p| !split::is_keyword(p)).map(str::to_string);
                }
                stack.push(Open::Bracket);
            }
            "{" => {
                let in_body = stack
                    .iter()
                    .any(|o| matches!(o, Open::Body(_) | Open::Block));
                let o = if in_body && prev != Some("=") {
                    Open::Block
                } else if matches!(prev, Some("="))
                    || matches!(stack.last(), Some(Open::Initializer))
                {
                    Open::Initializer
                } else if matches!(prev, Some("struct" | "union" | "enum")) {
                    Open::Members(format!("an anonymous {}", prev.unwrap_or("struct")))
                } else if matches!(prev2, Some("struct" | "union" | "enum")) {
                    Open::Members(format!(
                        "'{} {}'",
                        prev2.unwrap_or("struct"),
                        prev.unwrap_or("")
                    ))
                } else if let Some(Open::Members(_)) = stack.last() {
                    Open::Block
                } else if stack.is_empty() && prev == Some(")") {
                    Open::Body(declared.clone().unwrap_or_default())
                } else if stack.is_empty() {
                    // `struct __attribute__((…)) tag {`
                    let tag = toks[..i]
                        .iter()
                        .rev()
                        .find(|t| t.kind == TokKind::Ident && !split::is_keyword(t.text(text)))
                        .map(|t| t.text(text).to_string());
                    Open::Members(tag.map_or("a struct".into(), |t| format!("'{t}'")))
                } else {
                    Open::Block
                };
                stack.push(o);
            }
            ")" | "]" | "}" => {
                stack.pop();
            }
            // The current declarator's name: the identifier before a
            // top-level `=`, `;` or `,` (or `(`, above).
            "=" | ";" | "," if stack.is_empty() => {
                init = s == "=";
                let name =
                    prev.filter(|p| toks[i - 1].kind == TokKind::Ident && !split::is_keyword(p));
                if let Some(n) = name {
                    declared = Some(n.to_string());
                }
            }
            _ => {}
        }
    }
    let function = stack.iter().find_map(|o| match o {
        Open::Body(f) if !f.is_empty() => Some(f.clone()),
        _ => None,
    });
    let members = stack.iter().rev().find_map(|o| match o {
        Open::Members(m) => Some(m.clone()),
        _ => None,
    });
    let within = |s: String| match (&function, &members, &declared) {
        (Some(f), _, _) => format!("{s} in function '{f}'"),
        (None, Some(m), _) => format!("{s} in the members of {m}"),
        (None, None, Some(d)) if init => format!("{s} in the initializer of '{d}'"),
        _ => s,
    };
    for o in stack.iter().rev() {
        return match o {
            Open::Condition(k) if k == "for" => within("in the header of 'for'".into()),
            Open::Condition(k) => within(format!("in the condition of '{k}'")),
            Open::Call(f) => within(format!("in the arguments of '{f}'")),
            Open::Params(Some(f)) => format!("in the parameters of '{f}'"),
            Open::Params(None) => within("in a parameter list".into()),
            Open::Keyword(k) => within(format!("in '__{k}__'")),
            Open::Paren | Open::Bracket => continue,
            Open::Body(_) | Open::Block => match &function {
                Some(f) => format!("in the body of function '{f}'"),
                None => "in a function body".into(),
            },
            Open::Members(m) => format!("in the members of {m}"),
            Open::Initializer => within("in an initializer".into()),
        };
    }
    match declared {
        Some(d) if init => format!("in the initializer of '{d}'"),
        Some(d) => format!("in the declaration of '{d}'"),
        None => "in a declaration".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn msg(src: &str, at: &str, expected: &[&str]) -> String {
        let offset = src.find(at).unwrap_or(0);
        message(src, 0, offset, expected)
    }

    #[test]
    fn names_found_expected_and_construct() {
        assert_eq!(
            msg(
                "int main(void) { int x = 1 y; }",
                "y;",
                &[";", ",", "+", "-", "*", "/", "%"]
            ),
            "in the body of function 'main': expected ';', ',' or an operator, found 'y'"
        );
        assert_eq!(
            msg(
                "int main(void) { if (x y) return; }",
                "y)",
                &[")", "+", "-", "==", "!="]
            ),
            "in the condition of 'if' in function 'main': expected ')' or an operator, found 'y'"
        );
        assert_eq!(
            msg("struct S { int a b; };", "b;", &[";", ",", ":", "[", "("]),
            "in the members of 'struct S': expected ';', ',', ':', '(' or '[', found 'b'"
        );
        assert_eq!(
            msg("int f(int a int b);", "int b", &[")", ",", "["]),
            "in the parameters of 'f': expected ')', ',' or '[', found 'int'"
        );
        assert_eq!(
            msg("int x = 3 4;", "4;", &[";", ","]),
            "in the initializer of 'x': expected ';' or ',', found the number '4'"
        );
        assert_eq!(
            msg("int y, x = f(int, 2);", "int, 2", &["identifier", "("]),
            "in the arguments of 'f' in the initializer of 'x': expected '(' or an identifier, found 'int'"
        );
        assert_eq!(
            msg("struct S { char t[f(int, 1)]; };", ", 1", &["identifier"]),
            "in the arguments of 'f' in the members of 'struct S': expected an identifier, found ','"
        );
        assert_eq!(
            msg("int x[3] y;", "y;", &[";", ",", "="]),
            "in the declaration of 'x': expected ';', ',' or '=', found 'y'"
        );
        assert_eq!(
            msg("int main(void) { f(1 2); }", "2)", &[")", ","]),
            "in the arguments of 'f' in function 'main': expected ')' or ',', found the number '2'"
        );
        assert_eq!(
            msg("int x = 1", "", &[]),
            "in a declaration: unexpected 'int'"
        );
    }
}
