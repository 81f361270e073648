//! IR files as input, as cranelift's `clif-util` takes `.clif` files:
//! `accc --emit=FORM f.ir` reads a module in the IR's text form
//! (`--emit=ir` or `--emit=ir-unscheduled` output), validates it, and runs
//! the device stages on it (analysis, schedule when it is not yet
//! scheduled, the back ends) up to FORM.
//!
//! Owns: [`compile`] and how its errors are positioned: a read error at
//! its line and column of the file; a validation error at the line of the
//! kernel or device function it is in (the IR's own locations are the C
//! source's, shown after the message). May call: `ir`, the driver.

use super::{device, write_out, Args, Reported, Tools};
use anyhow::{bail, Context, Result};
use std::path::Path;

/// The forms an IR input can be taken to (no host C: an IR file has none).
const FORMS: &[&str] = &[
    "ir",
    "ir-unscheduled",
    "info",
    "llvm",
    "ptx",
    "simt",
    "cuda",
];

/// True for a file the driver reads as IR.
pub(super) fn is_ir(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "ir")
}

/// Compiles IR file `src` to the form `--emit` asks for.
pub(super) fn compile(tools: &Tools, args: &Args, src: &Path) -> Result<()> {
    let file = src.to_string_lossy().to_string();
    let emit = args.own.emit.as_deref().unwrap_or_default();
    if !FORMS.contains(&emit) {
        bail!(
            "{file}: an IR input needs --emit={} (not '{emit}')",
            FORMS.join("|")
        );
    }
    let text = std::fs::read_to_string(src).with_context(|| format!("cannot read {file}"))?;
    let mut m = match crate::ir::read_module(&text) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("{file}:{}:{}: error: {}", e.line, e.col, e.message);
            return Err(Reported.into());
        }
    };
    // Scheduled IR says so (`module "…" scheduled`).
    let lowered = !m.scheduled;
    let problems = crate::ir::validate(&m, !lowered);
    if !problems.is_empty() {
        for p in &problems {
            let (name, word) = match &p.owner {
                crate::ir::Owner::Kernel(n) => (n, "kernel"),
                crate::ir::Owner::Function(n) => (n, "function"),
            };
            let line = header_line(&text, word, name);
            let at =
                p.at.as_ref()
                    .map(|l| format!(" (at {l})"))
                    .unwrap_or_default();
            eprintln!("{file}:{line}:1: error: invalid IR: {p}{at}");
        }
        return Err(Reported.into());
    }
    if emit == "ir" && !lowered {
        return write_out(
            args.output.as_deref(),
            crate::ir::print_module(&m).as_bytes(),
        );
    }
    let remarks = if lowered {
        super::decide(args, &mut m, &[])?
    } else {
        vec![]
    };
    device(tools, args, &file, &mut m, lowered, &remarks)?;
    Ok(())
}

/// The 1-based line of the header of kernel or function `name` (`word`)
/// in `text`, else 1.
fn header_line(text: &str, word: &str, name: &str) -> usize {
    let at = format!("@{name}");
    text.lines()
        .position(|l| {
            l.starts_with(word)
                && l.split_whitespace()
                    .any(|w| w == at || w.strip_prefix(&at).is_some_and(|r| r.starts_with('(')))
        })
        .map_or(1, |i| i + 1)
}

#[cfg(test)]
mod tests {
    #[test]
    fn header_lines() {
        let text = "module \"x\"\n\nfunction internal Seq @f(%0 a: i32) -> void\nkernel @k \"parallel\"\nkernel @kk \"x\"\n";
        assert_eq!(super::header_line(text, "function", "f"), 3);
        assert_eq!(super::header_line(text, "kernel", "k"), 4);
        assert_eq!(super::header_line(text, "kernel", "kk"), 5);
        assert_eq!(super::header_line(text, "kernel", "none"), 1);
    }
}
