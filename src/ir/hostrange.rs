//! Host ranges: the addresses and byte counts of data the host plan maps,
//! updates and passes to kernels, as small typed forms rather than C
//! text, so a pass can tell a whole variable from a section or an
//! implicit section and split a range into chunks without re-parsing C.
//! Only the user's expressions (subscripts of an [`Lvalue`], counts
//! [`Scaled::count`]) are C text; an [`Lvalue`]'s structure is typed, down
//! to the objects a variable-length array's hidden size parameter measures
//! (`frontend::lower`, `HostVar::size_of`).
//!
//! Owns: [`Lvalue`], [`Scaled`], [`HostAddr`], [`HostBytes`]. May call:
//! nothing outside `ir`. The front end builds them (`frontend::clauses`,
//! `frontend::implicit`, `frontend::data`); `codegen::host` renders them.

use super::UserExpr;

/// An object of the user's program, as the host sees it in the construct's
/// scope: a variable, a member, an element, built from names and checked
/// clause expressions. It stands for the object (under `&` and `sizeof`)
/// or, for a pointer or an array, for its value. Its C spelling
/// ([`Lvalue::c_spelling`]: `a`, `(s).p`, `(a)[(i)]`, `((p)[0])[0]`,
/// `(*(p))`) is also its text form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Lvalue {
    /// A variable, by its C name.
    Var(String),
    /// A member of a struct or union (`arrow`: of the one `base` points
    /// to).
    Member {
        base: Box<Lvalue>,
        name: String,
        arrow: bool,
    },
    /// An element of the array or pointer `base`, one subscript a
    /// dimension: the user's expressions (checked C text, self-contained).
    Index {
        base: Box<Lvalue>,
        subscripts: Vec<String>,
    },
    /// What pointer `base` points to (`*base`): the pointee whose size a
    /// variable-length array's hidden parameter carries, for a pointer to
    /// such an array.
    Deref(Box<Lvalue>),
}

impl Lvalue {
    /// The variable `name`.
    pub fn var(name: &str) -> Lvalue {
        Lvalue::Var(name.to_string())
    }

    /// Element `subscripts` of `self`.
    pub fn index(self, subscripts: Vec<String>) -> Lvalue {
        Lvalue::Index {
            base: Box::new(self),
            subscripts,
        }
    }

    /// Member `name` of `self` (`arrow`: of what `self` points to).
    pub fn member(self, name: &str, arrow: bool) -> Lvalue {
        Lvalue::Member {
            base: Box::new(self),
            name: name.to_string(),
            arrow,
        }
    }

    /// What pointer `self` points to.
    pub fn deref(self) -> Lvalue {
        Lvalue::Deref(Box::new(self))
    }

    /// The variable the object is (part of, or reached through): `s` of
    /// `s.p[i]`.
    pub fn root_var(&self) -> &str {
        match self {
            Lvalue::Var(n) => n,
            Lvalue::Member { base, .. } | Lvalue::Index { base, .. } | Lvalue::Deref(base) => {
                base.root_var()
            }
        }
    }

    /// The C expression of the object: `name`, `(base).name`,
    /// `(base)->name`, `(base)[s]…`, `(*(base))`.
    pub fn c_spelling(&self) -> String {
        match self {
            Lvalue::Var(n) => n.clone(),
            Lvalue::Deref(base) => format!("(*({}))", base.c_spelling()),
            Lvalue::Member { base, name, arrow } => {
                let op = if *arrow { "->" } else { "." };
                format!("({}){op}{name}", base.c_spelling())
            }
            Lvalue::Index { base, subscripts } => {
                let subs: String = subscripts.iter().map(|s| format!("[{s}]")).collect();
                format!("({}){subs}", base.c_spelling())
            }
        }
    }

    /// The lvalue C spelling `text` denotes: the inverse of
    /// [`Lvalue::c_spelling`] (`None` for a spelling it does not give).
    pub fn parse(text: &str) -> Option<Lvalue> {
        parse(text)
    }
}

fn is_name(s: &str) -> bool {
    s.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The byte after the bracket that closes the one `s` starts with (quotes
/// skipped).
fn close(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    let mut depth = 0usize;
    let mut quote: Option<u8> = None;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        match quote {
            Some(q) => {
                if c == b'\\' {
                    i += 1;
                } else if c == q {
                    quote = None;
                }
            }
            None => match c {
                b'"' | b'\'' => quote = Some(c),
                b'(' | b'[' => depth += 1,
                b')' | b']' => {
                    depth = depth.checked_sub(1)?;
                    if depth == 0 {
                        return Some(i + 1);
                    }
                }
                _ => {}
            },
        }
        i += 1;
    }
    None
}

fn parse(s: &str) -> Option<Lvalue> {
    if is_name(s) {
        return Some(Lvalue::var(s));
    }
    if !s.starts_with('(') {
        return None;
    }
    let end = close(s)?;
    if let Some(inner) = s.strip_prefix("(*").filter(|_| end == s.len()) {
        // `(*(base))`.
        let inner = &inner[..inner.len() - 1];
        return (inner.starts_with('(') && close(inner) == Some(inner.len()))
            .then(|| parse(&inner[1..inner.len() - 1]))
            .flatten()
            .map(Lvalue::deref);
    }
    let base = parse(&s[1..end - 1])?;
    let rest = &s[end..];
    for (op, arrow) in [(".", false), ("->", true)] {
        if let Some(name) = rest.strip_prefix(op) {
            return is_name(name).then(|| base.member(name, arrow));
        }
    }
    let mut subscripts = vec![];
    let mut rest = rest;
    while rest.starts_with('[') {
        let e = close(rest)?;
        subscripts.push(rest[1..e - 1].to_string());
        rest = &rest[e..];
    }
    (rest.is_empty() && !subscripts.is_empty()).then(|| base.index(subscripts))
}

/// `count * sizeof(elem)`, in the type of `count` (a number of bytes when
/// `elem` is `None`). `elem` is only measured, never evaluated.
#[derive(Clone, Debug, PartialEq)]
pub struct Scaled {
    pub count: UserExpr,
    pub elem: Option<Lvalue>,
}

/// An address the host computes (a `const void *` for the runtime).
#[derive(Clone, Debug, PartialEq)]
pub enum HostAddr {
    /// The address of the object: `&lv`.
    Of(Lvalue),
    /// The value of the pointer or array `lv`.
    Value(Lvalue),
    /// `by` bytes past the target of pointer `ptr`, in integer arithmetic
    /// (the address may lie outside the object); a null `ptr` stays null.
    /// An implicit section's start.
    Offset { ptr: Lvalue, by: Scaled },
    /// The sum of the terms as an integer, passed where an address goes:
    /// the byte offset of each row from its pointer's target, in a
    /// [`MapKind::Rows`] map (`0` when empty).
    ///
    /// [`MapKind::Rows`]: super::host::MapKind::Rows
    Bytes(Vec<Scaled>),
}

impl HostAddr {
    /// The variable the address is in or derived from ([`Lvalue::root_var`]);
    /// `None` for [`HostAddr::Bytes`].
    pub fn root_var(&self) -> Option<&str> {
        match self {
            HostAddr::Of(lv) | HostAddr::Value(lv) | HostAddr::Offset { ptr: lv, .. } => {
                Some(lv.root_var())
            }
            HostAddr::Bytes(_) => None,
        }
    }
}

/// A length in bytes the host computes (an `unsigned long`).
#[derive(Clone, Debug, PartialEq)]
pub enum HostBytes {
    /// None: a bare pointer standing for its present block.
    Zero,
    /// `sizeof(lv)`: the whole object.
    SizeOf(Lvalue),
    /// A section's length.
    Scaled(Scaled),
}

#[cfg(test)]
mod tests {
    use super::Lvalue;

    /// The spellings the front end makes read back as their structure,
    /// and each spells itself again; other spellings do not read.
    #[test]
    fn spellings_read_back_as_their_structure() {
        let a = || Lvalue::var("a");
        let cases = [
            ("a", a()),
            ("(a)[(0)]", a().index(vec!["(0)".into()])),
            (
                "((a)[0])[0]",
                a().index(vec!["0".into()]).index(vec!["0".into()]),
            ),
            (
                "(a)[(i + 1)][0]",
                a().index(vec!["(i + 1)".into(), "0".into()]),
            ),
            ("(s).p", Lvalue::var("s").member("p", false)),
            (
                "((s)->q)[(f(x[1], \"])\"))]",
                Lvalue::var("s")
                    .member("q", true)
                    .index(vec!["(f(x[1], \"])\"))".into()]),
            ),
            ("(*(b))", Lvalue::var("b").deref()),
            (
                "(*(((*(b)))[0]))",
                Lvalue::var("b").deref().index(vec!["0".into()]).deref(),
            ),
        ];
        for (text, want) in cases {
            let got = Lvalue::parse(text);
            assert_eq!(got.as_ref(), Some(&want), "{text}");
            assert_eq!(want.c_spelling(), text);
        }
        for bad in ["(a)", "(a)[0]x", "*(b)", "(*b)", "(*(b)", "(*(b))[", "a b"] {
            assert_eq!(Lvalue::parse(bad), None, "{bad}");
        }
    }
}
