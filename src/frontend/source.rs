//! The source map of a preprocessed translation unit: byte offset in the
//! preprocessed text → original `file:line:col`, through the line markers the
//! preprocessor writes (`# 12 "x.c" 2`, `#line 12 "x.c"`).
//!
//! Owns: [`SourceMap`]. May call: nothing.

use crate::ir::SrcLoc;

/// Maps offsets of preprocessed text to original positions.
#[derive(Clone, Debug, Default)]
pub struct SourceMap {
    /// Offset of the first byte of every line of the preprocessed text.
    line_starts: Vec<usize>,
    /// For each preprocessed line: (index into `files`, original line number).
    lines: Vec<(usize, u32)>,
    files: Vec<String>,
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
        map
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
        SrcLoc {
            file: self.files.get(file).cloned().unwrap_or_default(),
            line,
            col: col as u32,
        }
    }
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
}
