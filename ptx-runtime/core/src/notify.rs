//! Diagnostic output switched on by the environment.
//!
//! Owns: `PTXRT_NOTIFY=1` (one stderr line per launch and per transfer) and
//! `PTXRT_DEBUG=1` (where the plugin was looked for, why the device was or
//! was not chosen: a lock of its own, a leaf), nvc's names for them
//! ([`switches`]), and how such a switch is read ([`flag`]: set, not empty
//! and not "0"; [`alias_flag`]: the first of accc's name and nvc's that is
//! set decides, so accc's own name wins when both are). Each variable is
//! read once. nvc's:
//! * `NV_ACC_NOTIFY`: a bit mask, 1 the launch lines, 2 the transfer lines
//!   (3 both); its other bits (region entry and exit, waits, allocations)
//!   accc has no lines for and ignores; a value that is no number is
//!   `PTXRT_NOTIFY`'s on or off;
//! * `NV_ACC_DEBUG`: accc's closest output, `PTXRT_DEBUG`'s lines and
//!   every launch and transfer line (nvc's lists each runtime call), unless
//!   `PTXRT_DEBUG`, `PTXRT_NOTIFY` or `NV_ACC_NOTIFY` say otherwise;
//! * `NV_ACC_TIME` (`PTXRT_TIME`'s, read by [`crate::profile`]).
//!
//! Lines:
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

/// The environment as the switches read it: a variable's value, `None`
/// when it is unset (tests give their own).
pub type Getenv<'a> = &'a dyn Fn(&str) -> Option<String>;

/// The process's environment.
pub fn process_env(name: &str) -> Option<String> {
    std::env::var(name).ok()
}

/// Whether a switch's value turns it on: not empty and not "0".
fn on(v: &str) -> bool {
    !v.is_empty() && v != "0"
}

/// Whether environment variable `name` switches something on.
pub fn flag(name: &str) -> bool {
    alias_flag(&[name], &process_env)
}

/// Whether the first of `names` that `get` has set (accc's own name
/// first, then its aliases) switches something on.
pub fn alias_flag(names: &[&str], get: Getenv) -> bool {
    names.iter().find_map(|n| get(n)).is_some_and(|v| on(&v))
}

/// What the environment asks this module to print.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Switches {
    /// The launch lines (and the kernel limits lines).
    pub launches: bool,
    /// The transfer lines.
    pub transfers: bool,
    /// The `PTXRT_DEBUG` lines.
    pub debug: bool,
}

/// The switches environment `get` sets: `PTXRT_NOTIFY`, `PTXRT_DEBUG`
/// and nvc's `NV_ACC_NOTIFY`, `NV_ACC_DEBUG` (see the module's doc).
pub fn switches(get: Getenv) -> Switches {
    let nv_debug = get("PTXRT_DEBUG").is_none() && alias_flag(&["NV_ACC_DEBUG"], get);
    let (launches, transfers) = match (get("PTXRT_NOTIFY"), get("NV_ACC_NOTIFY")) {
        (Some(v), _) => (on(&v), on(&v)),
        (None, Some(v)) => match parse_mask(&v) {
            Some(mask) => (mask & 1 != 0, mask & 2 != 0),
            None => (on(v.trim()), on(v.trim())),
        },
        (None, None) => (nv_debug, nv_debug),
    };
    Switches {
        launches,
        transfers,
        debug: nv_debug || alias_flag(&["PTXRT_DEBUG"], get),
    }
}

/// A bit mask as nvc's variables write it: decimal, or hexadecimal after
/// `0x`.
fn parse_mask(v: &str) -> Option<u64> {
    let v = v.trim();
    match v.strip_prefix("0x").or_else(|| v.strip_prefix("0X")) {
        Some(hex) => u64::from_str_radix(hex, 16).ok(),
        None => v.parse().ok(),
    }
}

/// The process's switches (read once).
fn process_switches() -> Switches {
    static S: OnceLock<Switches> = OnceLock::new();
    *S.get_or_init(|| switches(&process_env))
}

/// Whether launch lines are printed (`PTXRT_NOTIFY`, `NV_ACC_NOTIFY` bit 1).
pub fn launches_enabled() -> bool {
    process_switches().launches
}

/// Whether transfer lines are printed (`PTXRT_NOTIFY`, `NV_ACC_NOTIFY` bit 2).
pub fn transfers_enabled() -> bool {
    process_switches().transfers
}

pub fn debug_enabled() -> bool {
    process_switches().debug
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

/// Print a kernel's limits with the launch lines.
pub fn limits(kernel: &str, threads: u32, l: &ptxrt_plugin_abi::FunctionLimits) {
    if launches_enabled() {
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
    if launches_enabled() {
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
    if transfers_enabled() {
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

    /// `switches` of the environment `vars`.
    fn of(vars: &[(&str, &str)]) -> Switches {
        switches(&|n| {
            vars.iter()
                .find(|(k, _)| *k == n)
                .map(|(_, v)| v.to_string())
        })
    }

    /// (launches, transfers, debug).
    fn s(launches: bool, transfers: bool, debug: bool) -> Switches {
        Switches {
            launches,
            transfers,
            debug,
        }
    }

    #[test]
    fn accc_switches() {
        assert_eq!(of(&[]), s(false, false, false));
        assert_eq!(of(&[("PTXRT_NOTIFY", "1")]), s(true, true, false));
        assert_eq!(of(&[("PTXRT_NOTIFY", "0")]), s(false, false, false));
        assert_eq!(of(&[("PTXRT_NOTIFY", "")]), s(false, false, false));
        assert_eq!(of(&[("PTXRT_DEBUG", "yes")]), s(false, false, true));
    }

    #[test]
    fn nv_acc_notify_is_a_bit_mask() {
        let nv = |v: &str| of(&[("NV_ACC_NOTIFY", v)]);
        assert_eq!(nv("1"), s(true, false, false));
        assert_eq!(nv("2"), s(false, true, false));
        assert_eq!(nv("3"), s(true, true, false));
        assert_eq!(nv(" 3 "), s(true, true, false));
        assert_eq!(nv("0"), s(false, false, false));
        // Bits accc has no lines for (4 region entry/exit, 8 waits, 16
        // allocations) are ignored.
        assert_eq!(nv("4"), s(false, false, false));
        assert_eq!(nv("31"), s(true, true, false));
        assert_eq!(nv("0x12"), s(false, true, false));
        assert_eq!(nv("yes"), s(true, true, false));
        assert_eq!(nv(""), s(false, false, false));
        // accc's own name wins.
        let both = |p: &str, n: &str| of(&[("PTXRT_NOTIFY", p), ("NV_ACC_NOTIFY", n)]);
        assert_eq!(both("0", "3"), s(false, false, false));
        assert_eq!(both("1", "2"), s(true, true, false));
    }

    #[test]
    fn nv_acc_debug_is_debug_and_notify() {
        assert_eq!(of(&[("NV_ACC_DEBUG", "1")]), s(true, true, true));
        assert_eq!(of(&[("NV_ACC_DEBUG", "0")]), s(false, false, false));
        let with = |k: &str, v: &str| of(&[("NV_ACC_DEBUG", "1"), (k, v)]);
        assert_eq!(with("NV_ACC_NOTIFY", "1"), s(true, false, true));
        assert_eq!(with("PTXRT_NOTIFY", "0"), s(false, false, true));
        assert_eq!(with("PTXRT_DEBUG", "0"), s(false, false, false));
    }

    #[test]
    fn aliases_in_order() {
        let get = |n: &str| match n {
            "PTXRT_TIME" => Some("0".to_string()),
            "NV_ACC_TIME" => Some("1".to_string()),
            _ => None,
        };
        assert!(!alias_flag(&["PTXRT_TIME", "NV_ACC_TIME"], &get));
        assert!(alias_flag(&["NV_ACC_TIME"], &get));
        assert!(alias_flag(&["UNSET", "NV_ACC_TIME"], &get));
        assert!(!alias_flag(&["UNSET"], &get));
    }

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
