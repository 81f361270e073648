//! Diagnostic output switched on by the environment.
//!
//! Owns: `PTXRT_NOTIFY=1` (one stderr line per launch and per transfer) and
//! `PTXRT_DEBUG=1` (why the device was or was not chosen). Each variable is
//! read once. May call: nothing else in the crate.

use crate::abi::SrcLoc;
use std::sync::OnceLock;

fn flag(name: &str) -> bool {
    matches!(std::env::var(name), Ok(v) if !v.is_empty() && v != "0")
}

pub fn notify_enabled() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    *ON.get_or_init(|| flag("PTXRT_NOTIFY"))
}

pub fn debug_enabled() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    *ON.get_or_init(|| flag("PTXRT_DEBUG"))
}

pub fn launch(kernel: &str, loc: &SrcLoc, grid: [u32; 3], block: [u32; 3]) {
    if notify_enabled() {
        eprintln!(
            "ptxrt: launch {kernel} {}:{} grid=({},{},{}) block=({},{},{})",
            loc.file, loc.line, grid[0], grid[1], grid[2], block[0], block[1], block[2]
        );
    }
}

/// `dir` is "upload" or "download"; `loc` a construct's location or an API
/// routine ([`SrcLoc::routine`]: no file).
pub fn transfer(dir: &str, name: &str, bytes: usize, loc: &SrcLoc) {
    if notify_enabled() {
        if loc.file.is_empty() {
            eprintln!("ptxrt: {dir} {name} {bytes} bytes {}", loc.construct);
        } else {
            eprintln!(
                "ptxrt: {dir} {name} {bytes} bytes {}:{}",
                loc.file, loc.line
            );
        }
    }
}

pub fn debug(msg: &str) {
    if debug_enabled() {
        eprintln!("ptxrt: {msg}");
    }
}
