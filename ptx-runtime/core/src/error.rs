//! Fatal error reporting and the panic guard.
//!
//! Owns: the format of every runtime error — one line on stderr,
//! `<file>:<line>: error: <construct>: <what>: '<variable>'[: <device error>]`
//! for errors at a construct; `accc runtime: error: <routine>: <what>:
//! '<arguments>'[: <device error>]` for an API routine (a location without a
//! file, [`SrcLoc::routine`]); `accc runtime: error: <what>` otherwise — and
//! exit status 1. Also [`Failure`], the error value of the data operations
//! (reported by their caller, who knows the construct and the variable), and
//! [`guard`], which every `extern "C"` function uses so a panic never unwinds
//! into C. Remembers that the program is ending on an error
//! ([`exiting_on_error`]: the exit report must not wait for the runtime
//! lock, which the failing thread may hold).
//! A hook set by [`crate::deferred`] ([`set_blame`]) is asked first, so an
//! error inherited from a kernel still running names that kernel. Before
//! the line is printed, the tools' `acc_ev_error` callbacks run
//! ([`crate::prof::error`]), with the line as the error message.
//! May call: [`crate::abi`], [`crate::prof`] (the error event).

use crate::abi::SrcLoc;
use std::io::Write;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;

/// Set when a fatal error ends the program.
static EXITING: AtomicBool = AtomicBool::new(false);

/// Whether a fatal error is ending the program.
pub fn exiting_on_error() -> bool {
    EXITING.load(Ordering::SeqCst)
}

/// Why a data operation failed: what went wrong, and the detail (the
/// driver's error, the present range that overlaps, ...), if any. The caller
/// adds the construct and the variable ([`report`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    pub what: String,
    pub detail: Option<String>,
}

impl Failure {
    pub fn new(what: impl Into<String>) -> Failure {
        Failure {
            what: what.into(),
            detail: None,
        }
    }

    pub fn with(what: impl Into<String>, detail: impl Into<String>) -> Failure {
        Failure {
            what: what.into(),
            detail: Some(detail.into()),
        }
    }
}

/// Stop the program with `f`, at `loc`, naming `variable`.
pub fn report(loc: &SrcLoc, variable: &str, f: &Failure) -> ! {
    fatal_at(loc, &f.what, Some(variable), f.detail.as_deref())
}

/// Text of one error line at a construct, or at an API routine when `loc`
/// has no file (no trailing newline).
pub fn format_at(
    loc: &SrcLoc,
    what: &str,
    variable: Option<&str>,
    device_error: Option<&str>,
) -> String {
    let mut s = if loc.file.is_empty() {
        format!("accc runtime: error: {}: {}", loc.construct, what)
    } else {
        format!(
            "{}:{}: error: {}: {}",
            loc.file, loc.line, loc.construct, what
        )
    };
    if let Some(v) = variable {
        s.push_str(&format!(": '{v}'"));
    }
    if let Some(d) = device_error {
        s.push_str(": ");
        s.push_str(d);
    }
    one_line(&s)
}

/// Newlines (e.g. from a JIT log) become "; " so the message stays one line.
pub fn one_line(s: &str) -> String {
    s.lines()
        .map(str::trim_end)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("; ")
}

/// What a fatal error asks first ([`set_blame`]).
static BLAME: OnceLock<fn() -> Option<String>> = OnceLock::new();

/// Set, once, the hook a fatal error asks first: when it returns a line
/// (an earlier failure that this error only inherited, as a kernel that
/// failed while its host went on: [`crate::deferred`]), that line is
/// reported instead.
pub fn set_blame(hook: fn() -> Option<String>) {
    let _ = BLAME.set(hook);
}

fn die(loc: Option<&SrcLoc>, line: &str) -> ! {
    let earlier = BLAME.get().and_then(|blame| blame());
    stop(loc, earlier.as_deref().unwrap_or(line))
}

/// Stop the program with the error line `line` as it is.
pub fn die_line(line: &str) -> ! {
    stop(None, line)
}

/// The tools' error callbacks, then the line, then exit status 1.
fn stop(loc: Option<&SrcLoc>, line: &str) -> ! {
    EXITING.store(true, Ordering::SeqCst);
    crate::prof::error(loc.filter(|l| !l.file.is_empty()), line);
    let mut err = std::io::stderr().lock();
    let _ = writeln!(err, "{line}");
    let _ = err.flush();
    std::process::exit(1)
}

/// Stop the program with an error at a construct.
pub fn fatal_at(loc: &SrcLoc, what: &str, variable: Option<&str>, device_error: Option<&str>) -> ! {
    die(Some(loc), &format_at(loc, what, variable, device_error))
}

/// Stop the program with an error that has no construct (environment, API).
pub fn fatal(what: &str) -> ! {
    die(None, &one_line(&format!("accc runtime: error: {what}")))
}

/// Run the body of an extern "C" function; a panic becomes a fatal error.
pub fn guard<T>(f: impl FnOnce() -> T) -> T {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(v) => v,
        Err(_) => fatal("internal error in libptxrt (panic)"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_error_line() {
        let loc = SrcLoc {
            file: "a.c".into(),
            line: 12,
            construct: "parallel loop".into(),
        };
        assert_eq!(
            format_at(&loc, "not present on the device", Some("a[0:n]"), None),
            "a.c:12: error: parallel loop: not present on the device: 'a[0:n]'"
        );
        assert_eq!(
            format_at(
                &loc,
                "kernel launch failed",
                Some("k"),
                Some("cuLaunchKernel: X\nlog")
            ),
            "a.c:12: error: parallel loop: kernel launch failed: 'k': cuLaunchKernel: X; log"
        );
        assert_eq!(
            format_at(
                &SrcLoc::routine("acc_free"),
                "not allocated by acc_malloc",
                Some("data_dev=0x1000"),
                None
            ),
            "accc runtime: error: acc_free: not allocated by acc_malloc: 'data_dev=0x1000'"
        );
    }
}
