//! Statement layout: a writer that places C statements and blocks either
//! one per line, indented (a generated file of its own: the CUDA-C back
//! end), or all on one line (code spliced into the user's preprocessed
//! text, where every original line must keep its number).
//!
//! Owns: [`CWriter`], [`Layout`]. May call: nothing.

/// How [`CWriter`] lays statements out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// One statement a line, blocks indented by four spaces.
    Lines,
    /// Everything on the current line, statements separated by a space.
    OneLine,
}

/// Writes C statements with the layout it was made with.
#[derive(Debug)]
pub struct CWriter {
    out: String,
    depth: usize,
    layout: Layout,
    newlines: usize,
}

impl CWriter {
    pub fn new(layout: Layout) -> CWriter {
        CWriter {
            out: String::new(),
            depth: 0,
            layout,
            newlines: 0,
        }
    }

    fn start(&mut self) {
        match self.layout {
            Layout::Lines => {
                for _ in 0..self.depth {
                    self.out.push_str("    ");
                }
            }
            // After text written as it is: a blank between.
            Layout::OneLine => {
                if self.out.ends_with(|c: char| !c.is_whitespace()) {
                    self.out.push(' ');
                }
            }
        }
    }

    fn end(&mut self) {
        if self.layout == Layout::Lines {
            self.out.push('\n');
            self.newlines += 1;
        } else {
            self.out.push(' ');
        }
    }

    /// The number of lines ended so far (for `#line` bookkeeping).
    pub fn lines(&self) -> usize {
        self.newlines
    }

    /// One statement or declaration, `;` included.
    pub fn line(&mut self, stmt: &str) {
        self.start();
        self.out.push_str(stmt);
        self.end();
    }

    /// `head {` (or `{` for an empty `head`), then statements one level in.
    pub fn open(&mut self, head: &str) {
        self.start();
        if !head.is_empty() {
            self.out.push_str(head);
            self.out.push(' ');
        }
        self.out.push('{');
        self.end();
        self.depth += 1;
    }

    /// `} mid {` between two blocks (`} else {`).
    pub fn reopen(&mut self, mid: &str) {
        self.depth = self.depth.saturating_sub(1);
        self.start();
        self.out.push_str("} ");
        self.out.push_str(mid);
        self.out.push_str(" {");
        self.end();
        self.depth += 1;
    }

    /// The `}` of the innermost open block.
    pub fn close(&mut self) {
        self.depth = self.depth.saturating_sub(1);
        self.start();
        self.out.push('}');
        self.end();
    }

    /// Text written as it is (the user's code, spliced in).
    pub fn raw(&mut self, text: &str) {
        self.out.push_str(text);
        self.newlines += text.matches('\n').count();
    }

    /// What was written.
    pub fn finish(self) -> String {
        self.out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(layout: Layout) -> String {
        let mut w = CWriter::new(layout);
        w.open("if (c)");
        w.line("x = 1;");
        w.reopen("else");
        w.open("");
        w.line("y = 2;");
        w.close();
        w.close();
        w.finish()
    }

    #[test]
    fn lines_are_indented() {
        let mut w = CWriter::new(Layout::Lines);
        w.open("if (c)");
        w.raw("#line 3\n");
        w.close();
        assert_eq!(w.lines(), 3);
        assert_eq!(
            sample(Layout::Lines),
            "if (c) {\n    x = 1;\n} else {\n    {\n        y = 2;\n    }\n}\n"
        );
    }

    #[test]
    fn one_line_keeps_line_numbers() {
        assert_eq!(
            sample(Layout::OneLine),
            "if (c) { x = 1; } else { { y = 2; } } "
        );
        let mut w = CWriter::new(Layout::OneLine);
        w.raw("int a;\n");
        w.open("");
        w.raw("f();");
        w.close();
        assert_eq!(w.lines(), 1);
        assert_eq!(w.finish(), "int a;\n{ f(); } ");
    }
}
