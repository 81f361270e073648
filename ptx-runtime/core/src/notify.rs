//! Diagnostic output switched on by the environment.
//!
//! Owns: `PTXRT_NOTIFY=1` (one stderr line per launch and per transfer) and
//! `PTXRT_DEBUG=1` (where the plugin was looked for, why the device was or
//! was not chosen: a lock of its own, a leaf), and how such a
//! switch is read ([`flag`]: set, not empty and not "0"). Each variable is
//! read once. Lines:
//!
//! ```text
//! ptxrt: launch <kernel> <file>:<line> grid=(x,y,z) block=(x,y,z)[ async(n)]
//! ptxrt: upload|download <item> <bytes> bytes <file>:<line>[ async(n)]
//! ptxrt: upload|download <arguments> <bytes> bytes <routine>[ async(n)]
//! ptxrt: kernel <kernel> regs=<n> shared=<bytes> local=<bytes> max_threads=<n>[ blocks_per_sm=<n>@<threads>]
//! ```
//!
//! (The kernel line: what limits a kernel's launches, once per kernel and
//! block size the runtime asks the driver about.)
//!
//! ` async(n)` ends the line of work queued on async queue n. The launch
//! and transfer lines are a client of the profiling interface
//! ([`crate::prof`] calls [`launch`] and [`transfer`] at its
//! enqueue_launch_start, enqueue_upload_start and enqueue_download_start
//! events); the kernel line is not an OpenACC event ([`crate::occupancy`]
//! prints it).
//! May call: nothing else in the crate.

use crate::abi::SrcLoc;
use std::sync::{Mutex, OnceLock};

/// Whether environment variable `name` switches something on.
pub fn flag(name: &str) -> bool {
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

/// ` async(n)` for work of async queue `n`, "" for synchronous work.
fn queue_suffix(queue: Option<u32>) -> String {
    queue.map_or_else(String::new, |n| format!(" async({n})"))
}

/// The line of a kernel's limits (`threads`: the block size asked about;
/// 0: none).
pub fn limits_line(kernel: &str, threads: u32, l: &ptxrt_plugin_abi::FunctionLimits) -> String {
    let occupancy = match threads {
        0 => String::new(),
        t => format!(" blocks_per_sm={}@{t}", l.blocks_per_sm),
    };
    format!(
        "ptxrt: kernel {kernel} regs={} shared={} local={} max_threads={}{occupancy}",
        l.regs, l.static_shared, l.local_bytes, l.max_threads
    )
}

/// Print a kernel's limits when `PTXRT_NOTIFY` is set.
pub fn limits(kernel: &str, threads: u32, l: &ptxrt_plugin_abi::FunctionLimits) {
    if notify_enabled() {
        eprintln!("{}", limits_line(kernel, threads, l));
    }
}

/// The line of a launch (no newline).
pub fn launch_line(
    kernel: &str,
    loc: &SrcLoc,
    grid: [u32; 3],
    block: [u32; 3],
    queue: Option<u32>,
) -> String {
    format!(
        "ptxrt: launch {kernel} {}:{} grid=({},{},{}) block=({},{},{}){}",
        loc.file,
        loc.line,
        grid[0],
        grid[1],
        grid[2],
        block[0],
        block[1],
        block[2],
        queue_suffix(queue)
    )
}

/// A launch on async queue `queue` (`None`: synchronous).
pub fn launch(kernel: &str, loc: &SrcLoc, grid: [u32; 3], block: [u32; 3], queue: Option<u32>) {
    if notify_enabled() {
        eprintln!("{}", launch_line(kernel, loc, grid, block, queue));
    }
}

/// The line of a transfer (no newline).
pub fn transfer_line(
    dir: &str,
    name: &str,
    bytes: usize,
    loc: &SrcLoc,
    queue: Option<u32>,
) -> String {
    let q = queue_suffix(queue);
    if loc.file.is_empty() {
        format!("ptxrt: {dir} {name} {bytes} bytes {}{q}", loc.construct)
    } else {
        format!(
            "ptxrt: {dir} {name} {bytes} bytes {}:{}{q}",
            loc.file, loc.line
        )
    }
}

/// `dir` is "upload" or "download"; `name` gives the item (called only
/// when the line is printed); `loc` a construct's location or an API
/// routine ([`SrcLoc::routine`]: no file); `queue` the async queue.
pub fn transfer(
    dir: &str,
    name: &dyn Fn() -> String,
    bytes: usize,
    loc: &SrcLoc,
    queue: Option<u32>,
) {
    if notify_enabled() {
        eprintln!("{}", transfer_line(dir, &name(), bytes, loc, queue));
    }
}

pub fn debug(msg: &str) {
    if debug_enabled() {
        eprintln!("ptxrt: {msg}");
    }
}

/// A `PTXRT_DEBUG` line about where constructs run, printed only when it
/// differs from the last such line (constructs ask once each).
pub fn debug_choice(msg: impl FnOnce() -> String) {
    static LAST: Mutex<String> = Mutex::new(String::new());
    if debug_enabled() {
        let msg = msg();
        let mut last = LAST.lock().unwrap_or_else(|e| e.into_inner());
        if *last != msg {
            eprintln!("ptxrt: {msg}");
            *last = msg;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines() {
        let loc = SrcLoc {
            file: "t.c".into(),
            line: 7,
            construct: "parallel loop".into(),
        };
        assert_eq!(
            launch_line("k_7", &loc, [4, 1, 1], [128, 1, 1], None),
            "ptxrt: launch k_7 t.c:7 grid=(4,1,1) block=(128,1,1)"
        );
        assert_eq!(
            launch_line("k_7", &loc, [4, 1, 1], [128, 1, 1], Some(3)),
            "ptxrt: launch k_7 t.c:7 grid=(4,1,1) block=(128,1,1) async(3)"
        );
        assert_eq!(
            transfer_line("upload", "a[0:n]", 400, &loc, None),
            "ptxrt: upload a[0:n] 400 bytes t.c:7"
        );
        assert_eq!(
            transfer_line("download", "x", 8, &SrcLoc::routine("acc_copyout"), Some(0)),
            "ptxrt: download x 8 bytes acc_copyout async(0)"
        );
    }
}
