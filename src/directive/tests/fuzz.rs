//! No input makes the parser panic: truncations and mutations of every test
//! line, and random token soups. Successful parses must have in-bounds spans
//! and print text that parses again; errors must point inside the text.

use crate::directive::{parse, Access, ClauseKind, Directive, DirectiveKind, VarRef};

/// A small deterministic PRNG (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Pieces random inputs are made of.
const VOCAB: &[&str] = &[
    "parallel",
    "serial",
    "kernels",
    "loop",
    "data",
    "enter",
    "exit",
    "host_data",
    "cache",
    "atomic",
    "read",
    "update",
    "capture",
    "declare",
    "init",
    "shutdown",
    "set",
    "wait",
    "routine",
    "end",
    "async",
    "num_gangs",
    "num_workers",
    "vector_length",
    "device_type",
    "dtype",
    "if",
    "self",
    "reduction",
    "private",
    "firstprivate",
    "copy",
    "copyin",
    "copyout",
    "create",
    "pcopy",
    "present_or_copyin",
    "no_create",
    "present",
    "deviceptr",
    "attach",
    "detach",
    "delete",
    "finalize",
    "if_present",
    "default",
    "none",
    "use_device",
    "device_resident",
    "link",
    "host",
    "device",
    "collapse",
    "force",
    "gang",
    "worker",
    "vector",
    "seq",
    "independent",
    "auto",
    "tile",
    "nohost",
    "bind",
    "device_num",
    "default_async",
    "readonly",
    "zero",
    "devnum",
    "queues",
    "num",
    "static",
    "dim",
    "length",
    "max",
    "min",
    "a",
    "n",
    "s",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    ",",
    ":",
    "::",
    "?",
    "*",
    "+",
    "&&",
    "||",
    "&",
    "|",
    "^",
    "-",
    "->",
    ".",
    "\"",
    "'",
    "\\",
    "/*",
    "*/",
    "//",
    " ",
    "  ",
    "\t",
    "\n",
    "0",
    "42",
    "é",
    "€",
    "\u{1F600}",
    "\"s)\"",
    "'('",
];

/// Checks the invariants of one input.
fn check(text: &str) {
    match parse(text) {
        Ok(d) => check_ok(text, &d),
        Err(e) => {
            assert!(
                e.offset <= text.len(),
                "{text:?}: offset {} out of range",
                e.offset
            );
            assert!(
                text.is_char_boundary(e.offset),
                "{text:?}: offset inside a char"
            );
            assert!(!e.message.is_empty());
        }
    }
}

/// Asserts `span` is a valid slice of `text`.
fn span_ok(text: &str, span: &std::ops::Range<usize>) {
    assert!(
        text.get(span.clone()).is_some(),
        "{text:?}: bad span {span:?}"
    );
}

/// Checks spans of a successful parse and that its printed form reparses.
fn check_ok(text: &str, d: &Directive) {
    span_ok(text, &d.kind_span);
    let var = |v: &VarRef| {
        span_ok(text, &v.span);
        assert_eq!(&text[v.span.clone()], v.text);
        for a in &v.path {
            if let Access::Section { span, .. } = a {
                span_ok(text, span);
            }
        }
    };
    if let DirectiveKind::Cache { vars, .. } = &d.kind {
        vars.iter().for_each(var);
    }
    for c in &d.clauses {
        span_ok(text, &c.span);
        match &c.kind {
            ClauseKind::Data(dc) => dc.vars.iter().for_each(var),
            ClauseKind::Private(vs) | ClauseKind::FirstPrivate(vs) => vs.iter().for_each(var),
            ClauseKind::Reduction { vars, .. } => vars.iter().for_each(var),
            _ => {}
        }
    }
    let printed = d.to_string();
    match parse(&printed) {
        Ok(again) => assert_eq!(again.to_string(), printed, "from {text:?}"),
        Err(e) => panic!(
            "{text:?} printed as {printed:?}, which fails: {}",
            e.message
        ),
    }
}

/// Every test line of the other test files.
fn seeds() -> Vec<&'static str> {
    let mut v: Vec<&str> = super::roundtrip::CASES
        .iter()
        .flat_map(|(a, b)| [*a, *b])
        .collect();
    v.extend(super::errors::CASES.iter().map(|c| c.0));
    v
}

#[test]
fn truncations_do_not_panic() {
    for s in seeds() {
        for (i, _) in s.char_indices() {
            check(&s[..i]);
            check(&s[i..]);
        }
    }
}

#[test]
fn mutations_do_not_panic() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let seeds = seeds();
    for _ in 0..20_000 {
        let mut s = seeds[rng.below(seeds.len())].to_string();
        for _ in 0..1 + rng.below(4) {
            let cuts: Vec<usize> = s.char_indices().map(|(i, _)| i).chain([s.len()]).collect();
            let at = cuts[rng.below(cuts.len())];
            match rng.below(3) {
                0 => s.insert_str(at, VOCAB[rng.below(VOCAB.len())]),
                1 if at < s.len() => {
                    let end = s[at..].chars().next().map_or(at, |c| at + c.len_utf8());
                    s.replace_range(at..end, "");
                }
                _ => {
                    let end = s[at..].chars().next().map_or(at, |c| at + c.len_utf8());
                    s.replace_range(at..end, VOCAB[rng.below(VOCAB.len())]);
                }
            }
        }
        check(&s);
    }
}

#[test]
fn token_soup_does_not_panic() {
    let mut rng = Rng(12345);
    for _ in 0..20_000 {
        let n = rng.below(12);
        let mut s = String::new();
        for _ in 0..n {
            s.push_str(VOCAB[rng.below(VOCAB.len())]);
            if rng.below(2) == 0 {
                s.push(' ');
            }
        }
        check(&s);
    }
}

#[test]
fn raw_bytes_do_not_panic() {
    let mut rng = Rng(777);
    for _ in 0..5_000 {
        let bytes: Vec<u8> = (0..rng.below(40)).map(|_| rng.below(128) as u8).collect();
        check(&String::from_utf8_lossy(&bytes));
    }
}
