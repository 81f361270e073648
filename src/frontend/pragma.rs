//! Pragma capture: finds every `#pragma acc` line of the preprocessed text,
//! keeps it in a side table and blanks it in place (same byte length, so every
//! lang-c span still indexes the preprocessed text).
//!
//! Owns: [`Pragma`] and [`capture`]. May call: nothing.

/// One captured `#pragma acc` line.
#[derive(Clone, Debug, PartialEq)]
pub struct Pragma {
    /// Offset of the `#`.
    pub start: usize,
    /// Offset of the end of the line (the newline, or the end of the text).
    pub end: usize,
    /// Offset where the directive text (after `acc`) begins.
    pub text_start: usize,
    /// The directive text, e.g. `parallel loop copyin(a[0:n])`.
    pub text: String,
}

/// Captures and blanks every `#pragma acc` line in `src`.
pub fn capture(src: &mut String) -> Vec<Pragma> {
    let mut found = vec![];
    let mut start = 0;
    for line in src.split_inclusive('\n') {
        let end = start + line.trim_end_matches(['\n', '\r']).len();
        if let Some(text_off) = acc_text_offset(line) {
            found.push(Pragma {
                start,
                end,
                text_start: start + text_off,
                text: src[start + text_off..end].to_string(),
            });
        }
        start += line.len();
    }
    // Blank in place: every byte of the line becomes a space.
    let mut bytes = std::mem::take(src).into_bytes();
    for p in &found {
        for b in &mut bytes[p.start..p.end] {
            *b = b' ';
        }
    }
    *src = String::from_utf8_lossy(&bytes).into_owned();
    found
}

/// For a `#pragma acc …` line, the offset of the text after `acc`.
fn acc_text_offset(line: &str) -> Option<usize> {
    let ws = |s: &str| s.len() - s.trim_start_matches([' ', '\t']).len();
    let mut off = ws(line);
    let rest = line[off..].strip_prefix('#')?;
    off += 1;
    off += ws(rest);
    let rest = line[off..].strip_prefix("pragma")?;
    if !rest.starts_with([' ', '\t']) {
        return None;
    }
    off += "pragma".len();
    off += ws(&line[off..]);
    let rest = line[off..].strip_prefix("acc")?;
    if !(rest.is_empty() || rest.starts_with([' ', '\t', '\n', '\r'])) {
        return None;
    }
    off += 3;
    off += ws(&line[off..]);
    Some(off)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn captures_and_blanks() {
        let mut s =
            "int a;\n  #  pragma acc parallel loop copy(a)\nfor(;;);\n#pragma once\n".to_string();
        let len = s.len();
        let p = capture(&mut s);
        assert_eq!(p.len(), 1);
        assert_eq!(p[0].text, "parallel loop copy(a)");
        assert_eq!(s.len(), len);
        assert!(!s.contains("acc"));
        assert!(s.contains("#pragma once"));
        assert!(s.find("for") == Some(p[0].end + 1));
    }

    #[test]
    fn ignores_accidental_prefixes() {
        let mut s = "#pragma accx foo\n#pragma omp parallel\n".to_string();
        assert!(capture(&mut s).is_empty());
    }
}
