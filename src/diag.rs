//! Diagnostics: `file:line:col: error: message`, the source line and a caret,
//! like gcc and clang print them (in their colours on a terminal).
//!
//! Owns: [`Diagnostic`], [`Severity`], [`Diagnostics`] (the error type of every
//! compile stage, so a stage can report all its errors at once) and rendering.
//! May call: nothing else in accc (it reads the source file to show the line).

use crate::ir::SrcLoc;
use std::fmt;

/// How bad a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    Error,
    Warning,
    Note,
}

/// One message about the user's program.
#[derive(Clone, Debug, PartialEq)]
pub struct Diagnostic {
    pub severity: Severity,
    /// Where; `None` for messages about no particular place (a missing file).
    pub loc: Option<SrcLoc>,
    pub message: String,
    /// Further lines, each a note at a place.
    pub notes: Vec<Diagnostic>,
}

impl Diagnostic {
    /// An error at `loc`.
    pub fn error(loc: Option<SrcLoc>, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            loc,
            message: message.into(),
            notes: vec![],
        }
    }

    /// Adds a note.
    pub fn with_note(mut self, loc: Option<SrcLoc>, message: impl Into<String>) -> Diagnostic {
        self.notes.push(Diagnostic {
            severity: Severity::Note,
            loc,
            message: message.into(),
            notes: vec![],
        });
        self
    }

    /// Renders the message with the source line and a caret under the column
    /// (when the file can be read), the way gcc does; `colour`: with gcc's
    /// colours (bold position, red error, magenta warning, cyan note,
    /// green caret).
    pub fn render(&self, colour: bool) -> String {
        let mut out = String::new();
        self.render_into(&mut out, colour);
        for n in &self.notes {
            n.render_into(&mut out, colour);
        }
        out
    }

    fn render_into(&self, out: &mut String, colour: bool) {
        let (sev, hue) = match self.severity {
            Severity::Error => ("error", "31"),
            Severity::Warning => ("warning", "35"),
            Severity::Note => ("note", "36"),
        };
        let paint = |code: &str, text: &str| {
            if colour {
                format!("\x1b[{code}m{text}\x1b[0m")
            } else {
                text.to_string()
            }
        };
        let sev = paint(&format!("1;{hue}"), &format!("{sev}:"));
        match &self.loc {
            Some(loc) => {
                let at = paint("1", &format!("{loc}:"));
                out.push_str(&format!("{at} {sev} {}\n", self.message));
                if let Some(line) = source_line(loc) {
                    let caret: String = line
                        .chars()
                        .take(loc.col.saturating_sub(1) as usize)
                        .map(|c| if c == '\t' { '\t' } else { ' ' })
                        .collect();
                    out.push_str(&format!(" {line}\n {caret}{}\n", paint("1;32", "^")));
                }
            }
            None => out.push_str(&format!("{} {sev} {}\n", paint("1", "accc:"), self.message)),
        }
    }
}

fn source_line(loc: &SrcLoc) -> Option<String> {
    if loc.line == 0 {
        return None;
    }
    let text = std::fs::read_to_string(&loc.file).ok()?;
    text.lines()
        .nth(loc.line as usize - 1)
        .map(|l| l.trim_end().to_string())
}

/// A list of diagnostics; the error type of the compile stages.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Diagnostics(pub Vec<Diagnostic>);

impl Diagnostics {
    /// All of them, rendered ([`Diagnostic::render`]).
    pub fn render(&self, colour: bool) -> String {
        self.0.iter().map(|d| d.render(colour)).collect()
    }

    /// One error.
    pub fn one(loc: Option<SrcLoc>, message: impl Into<String>) -> Diagnostics {
        Diagnostics(vec![Diagnostic::error(loc, message)])
    }
}

impl From<Diagnostic> for Diagnostics {
    fn from(d: Diagnostic) -> Diagnostics {
        Diagnostics(vec![d])
    }
}

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.render(false))
    }
}

impl std::error::Error for Diagnostics {}

/// Shorthand for a stage's result.
pub type DResult<T> = Result<T, Diagnostics>;
