//! The source map of a preprocessed translation unit: byte offset in the
//! preprocessed text → original `file:line:col`, through the line markers the
//! preprocessor writes (`# 12 "x.c" 2`, `#line 12 "x.c"`).
//!
//! A `#pragma` continued over several lines with `\\` reaches the
//! preprocessed text as one line, its whitespace collapsed; positions in
//! it are mapped back token by token to the line and column of the
//! original file (read on demand), so a clause on a continuation line is
//! reported where it is written.
//!
//! Owns: [`SourceMap`]. May call: nothing.

use crate::ir::SrcLoc;
use std::sync::OnceLock;

/// Maps offsets of preprocessed text to original positions.
#[derive(Clone, Debug, Default)]
pub struct SourceMap {
    /// Offset of the first byte of every line of the preprocessed text.
    line_starts: Vec<usize>,
    /// For each preprocessed line: (index into `files`, original line number).
    lines: Vec<(usize, u32)>,
    files: Vec<String>,
    /// The `#pragma acc` lines: (where the directive text starts, the
    /// text), by offset.
    pragmas: Vec<(usize, String)>,
    /// Each file's text, read the first time a continued pragma needs it.
    sources: Vec<OnceLock<Option<String>>>,
}

impl SourceMap {
    /// Builds the map for `text`; `main_file` names lines before any marker.
    pub fn new(text: &str, main_file: &str) -> SourceMap {
        let mut map = SourceMap {
            files: vec![main_file.to_string()],
            ..SourceMap::default()
        };
        let (mut file, mut line) = (0usize, 1u32);
        let mut start = 0;
        for raw in text.split_inclusive('\n') {
            map.line_starts.push(start);
            map.lines.push((file, line));
            start += raw.len();
            if let Some((n, name)) = parse_marker(raw) {
                file = match map.files.iter().position(|f| *f == name) {
                    Some(i) => i,
                    None => {
                        map.files.push(name);
                        map.files.len() - 1
                    }
                };
                line = n;
            } else {
                line += 1;
            }
        }
        map.sources = vec![OnceLock::new(); map.files.len()];
        map
    }

    /// Notes the directive texts of the `#pragma acc` lines, (start offset,
    /// text), so positions inside continued ones map to their own lines.
    pub fn note_pragmas(&mut self, pragmas: impl IntoIterator<Item = (usize, String)>) {
        self.pragmas = pragmas.into_iter().collect();
        self.pragmas.sort_by_key(|p| p.0);
    }

    /// The original position of byte `offset`.
    pub fn loc(&self, offset: usize) -> SrcLoc {
        let idx = match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(0) => 0,
            Err(i) => i - 1,
        };
        let (file, line) = self.lines.get(idx).copied().unwrap_or((0, 1));
        let col = offset.saturating_sub(self.line_starts.get(idx).copied().unwrap_or(0)) + 1;
        let (line, col) = self
            .continued(idx, file, line, offset)
            .unwrap_or((line, col as u32));
        SrcLoc {
            file: self.files.get(file).cloned().unwrap_or_default(),
            line,
            col,
        }
    }

    /// Where byte `offset` of preprocessed line `idx` (original `file`,
    /// `line`) is written, when that line is a pragma continued with `\\`
    /// in the original and its tokens up to `offset` read the same there.
    fn continued(&self, idx: usize, file: usize, line: u32, offset: usize) -> Option<(u32, u32)> {
        let at = self
            .pragmas
            .partition_point(|p| p.0 <= offset)
            .checked_sub(1)?;
        let (start, text) = &self.pragmas[at];
        let line_end = self.line_starts.get(idx + 1).copied().unwrap_or(usize::MAX);
        if *start < self.line_starts[idx] || *start >= line_end {
            return None;
        }
        let source = self.sources.get(file)?.get_or_init(|| {
            let name = self.files.get(file)?;
            std::fs::read_to_string(name).ok()
        });
        let lines: Vec<&str> = source.as_deref()?.lines().collect();
        let first = lines.get(line.checked_sub(1)? as usize)?;
        if !first.trim_end().ends_with('\\') {
            return None;
        }
        let original = directive_chars(&lines, line)?;
        map_by_tokens(text, offset - start, &original)
    }
}

/// The characters of the directive text of the pragma written from line
/// `line` (1-based) on: after `#pragma acc`, across lines continued with
/// `\\`, each with its line and column.
fn directive_chars(lines: &[&str], line: u32) -> Option<Vec<(char, u32, u32)>> {
    let first = lines.get(line as usize - 1)?;
    let mut skip = first.find('#')? + 1;
    for word in ["pragma", "acc"] {
        let rest = &first[skip..];
        let ws = rest.len() - rest.trim_start().len();
        skip += ws;
        if !first[skip..].starts_with(word) {
            return None;
        }
        skip += word.len();
    }
    let mut out = vec![];
    let mut n = line;
    let mut from = skip;
    loop {
        let l = lines.get(n as usize - 1)?.trim_end_matches('\r');
        let (body, more) = match l.trim_end().strip_suffix('\\') {
            Some(b) => (b, true),
            None => (l, false),
        };
        for (i, c) in body.char_indices().filter(|(i, _)| *i >= from) {
            out.push((c, n, i as u32 + 1));
        }
        if !more {
            return Some(out);
        }
        // The joined line has a blank where the newline was.
        out.push((' ', n, body.len() as u32 + 1));
        n += 1;
        from = 0;
    }
}

/// The position in `original` of byte `off` of `text` (the same tokens,
/// whitespace collapsed): `None` when a token up to it differs.
fn map_by_tokens(text: &str, off: usize, original: &[(char, u32, u32)]) -> Option<(u32, u32)> {
    let ours = tokens(text.char_indices().map(|(i, c)| (c, i)));
    let theirs = tokens(original.iter().enumerate().map(|(i, (c, _, _))| (*c, i)));
    // The token holding `off`, or the first after it.
    let k = ours.iter().position(|(s, t)| off < s + t.len())?;
    if theirs.len() <= k || ours[..=k].iter().zip(&theirs).any(|(a, b)| a.1 != b.1) {
        return None;
    }
    // Characters into the token (0 when `off` is in the blank before it).
    let delta = text.get(ours[k].0.min(off)..off)?.chars().count();
    let (_, l, c) = original.get(theirs[k].0 + delta)?;
    Some((*l, *c))
}

/// Runs of non-blank characters: (start, text).
fn tokens(chars: impl Iterator<Item = (char, usize)>) -> Vec<(usize, String)> {
    let mut out: Vec<(usize, String)> = vec![];
    let mut open = false;
    for (c, i) in chars {
        if c.is_whitespace() {
            open = false;
        } else if open {
            if let Some(t) = out.last_mut() {
                t.1.push(c);
            }
        } else {
            out.push((i, c.to_string()));
            open = true;
        }
    }
    out
}

/// Parses `# 12 "file" flags` or `#line 12 "file"`; returns the line number
/// of the next line and the file name.
fn parse_marker(line: &str) -> Option<(u32, String)> {
    let rest = line.trim_start().strip_prefix('#')?.trim_start();
    let rest = rest.strip_prefix("line").unwrap_or(rest).trim_start();
    let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
    if digits.is_empty() {
        return None;
    }
    let n: u32 = digits.parse().ok()?;
    let after = rest[digits.len()..].trim_start();
    let name = after
        .strip_prefix('"')
        .and_then(|s| s.find('"').map(|e| s[..e].to_string()));
    Some((n, name?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maps_through_markers() {
        let text = "# 1 \"a.c\"\nint x;\n# 10 \"b.h\" 1\nint y;\n  int z;\n";
        let m = SourceMap::new(text, "a.c");
        let l = m.loc(text.find("x").unwrap_or(0));
        assert_eq!((l.file.as_str(), l.line, l.col), ("a.c", 1, 5));
        let l = m.loc(text.find("z").unwrap_or(0));
        assert_eq!((l.file.as_str(), l.line, l.col), ("b.h", 11, 7));
    }

    #[test]
    fn continued_pragmas_map_token_by_token() {
        let lines = [
            "#  pragma acc parallel loop \\",
            "      num_gangs( n )\\",
            "  vector(4)",
        ];
        let original = directive_chars(&lines, 1).unwrap_or_default();
        let text = " parallel loop num_gangs( n ) vector(4)";
        let at = |needle: &str| map_by_tokens(text, text.find(needle).unwrap_or(0), &original);
        assert_eq!(at("parallel"), Some((1, 15)));
        assert_eq!(at("n )"), Some((2, 18)));
        assert_eq!(at("(4)"), Some((3, 9)));
        // Tokens that differ (a macro the preprocessor expanded): no answer.
        let expanded = " parallel loop num_gangs( 64 ) vector(4)";
        assert_eq!(
            map_by_tokens(expanded, expanded.find("vector").unwrap_or(0), &original),
            None
        );
        // A line not continued is not a continued pragma.
        assert!(directive_chars(&["#pragma omp parallel"], 1).is_none());
    }
}
