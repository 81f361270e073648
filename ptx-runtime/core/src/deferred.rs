//! Deferred waits of synchronous kernels (issue 18, item 6).
//!
//! A synchronous compute construct's kernel runs on the device's null
//! stream. The host need not wait for it where the construct ends: nothing
//! of it is visible to the host until the host next observes device data,
//! and every such observation goes through the runtime. So `__ptxrt_launch`
//! records the launch here ([`defer`]) instead of waiting, and the wait
//! happens at the next point that needs it ([`settle`]):
//!
//! - every runtime entry point, except the few that only queue more work
//!   behind it on the null stream (a synchronous construct's device test,
//!   its data begin and end, its device pointers and reduction scratch, its
//!   launch): [`crate::runtime::lock`] settles before it takes the lock;
//! - within those, a copy to the host and a free of device memory
//!   ([`crate::devmem`]), and the host fallback of a construct
//!   (`__ptxrt_use_device(0)`): so a reduction or copyout result comes
//!   back after the kernel, as before;
//! - the program's exit (an `atexit` hook registered with the first
//!   deferred launch);
//! - any fatal error ([`crate::error`]'s blame hook): a failure that a later
//!   call reports (the driver's errors are sticky) is reported as the
//!   failure of the construct whose kernel caused it.
//!
//! The host runs ahead of the device by a few synchronous kernels at most
//! ([`run_ahead`]: an event after every few deferred launches, and a wait
//! for the oldest when too many are in flight). So a wall clock read after
//! a construct (a program timing its own steps) is late by a few kernels
//! at most, never by a queue of thousands.
//!
//! Work that follows on the null stream (launches, copies to the device,
//! the pinned staging stream, which is a blocking stream) is ordered behind
//! the pending kernels by CUDA itself; work on async queues (non-blocking
//! streams) is not, so entry points on an async queue settle first.
//!
//! The failing construct is named exactly when all pending launches come
//! from one construct; otherwise the message names the last one and the
//! others, and `CUDA_LAUNCH_BLOCKING=1` (which also makes this module wait
//! at every construct's end) finds which. `PTXRT_TIME` times each
//! synchronous kernel to its completion, so it keeps the wait too.
//!
//! Owns: `__ptxrt_settle` (the compiler's wait after a construct whose
//! kernel prints: its output reaches the host without a runtime call), the
//! list of pending synchronous launches (a leaf lock: taken with
//! or without the runtime lock, never holding another but the plugin's).
//! May call: [`crate::plugin`], [`crate::error`], [`crate::notify`],
//! [`crate::profile`].

use crate::abi::SrcLoc;
use crate::error;
use crate::plugin::Plugin;
use std::collections::VecDeque;
use std::ffi::{c_int, c_void};
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard, Once, OnceLock};

/// One construct with launches not waited for.
struct Construct {
    loc: SrcLoc,
    kernel: String,
}

/// How many synchronous kernels the host may run ahead of on one device
/// (`PTXRT_RUN_AHEAD`, default [`RUN_AHEAD`]; 0: no bound): an event is
/// recorded after every `n / 2`-th deferred launch, and the host waits for
/// the oldest when more than two are in flight. A host clock read after a
/// construct is then late by fewer than `n + n / 2` kernels: short ones,
/// back to back, cost the host about their launch; a long one is waited
/// for soon after.
pub fn run_ahead() -> usize {
    static N: OnceLock<usize> = OnceLock::new();
    *N.get_or_init(|| {
        std::env::var("PTXRT_RUN_AHEAD")
            .ok()
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or(RUN_AHEAD)
    })
}

/// The default of [`run_ahead`].
pub const RUN_AHEAD: usize = 8;

/// Deferred launches between two events, for a run-ahead of `n` (> 0).
pub fn mark_every(n: usize) -> usize {
    (n / 2).max(1)
}

/// One device with launches not waited for.
struct Device {
    plugin: &'static Plugin,
    ordinal: i32,
    /// Whether launches are pending (since the last wait for all).
    launched: bool,
    /// Deferred launches since the last event.
    since_mark: usize,
    /// The events recorded after every [`mark_every`]-th pending launch,
    /// oldest first.
    inflight: VecDeque<usize>,
    /// Events to record again.
    free: Vec<usize>,
}

/// The launches not waited for.
struct Pending {
    devices: Vec<Device>,
    /// Distinct constructs, in the order of their first launch, the last
    /// launched last.
    constructs: Vec<Construct>,
}

static PENDING: Mutex<Pending> = Mutex::new(Pending {
    devices: Vec::new(),
    constructs: Vec::new(),
});

/// Whether [`PENDING`] holds launches (read without the lock).
static ANY: AtomicBool = AtomicBool::new(false);

impl Pending {
    /// The index of device `ordinal` of `plugin` in [`Pending::devices`].
    fn device(&self, plugin: &'static Plugin, ordinal: i32) -> Option<usize> {
        self.devices
            .iter()
            .position(|d| std::ptr::eq(d.plugin, plugin) && d.ordinal == ordinal)
    }
}

fn pending() -> MutexGuard<'static, Pending> {
    PENDING.lock().unwrap_or_else(|e| e.into_inner())
}

/// Whether synchronous kernels may be left running at a construct's end:
/// not with `CUDA_LAUNCH_BLOCKING=1`, nor with `PTXRT_TIME` (which times
/// each one to its completion).
pub fn enabled() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    *ON.get_or_init(|| !crate::notify::flag("CUDA_LAUNCH_BLOCKING")) && !crate::profile::enabled()
}

/// Kernel `kernel` of the construct at `loc` was launched on the null
/// stream of device `ordinal`; the host waits for it later ([`settle`]),
/// or now for an older one when it is too far ahead ([`run_ahead`]).
pub fn defer(plugin: &'static Plugin, ordinal: i32, loc: &SrcLoc, kernel: &str) {
    static HOOKS: Once = Once::new();
    HOOKS.call_once(|| {
        error::set_blame(blame);
        // SAFETY: registers a function that takes nothing and never unwinds.
        let _ = unsafe { atexit(settle_at_exit) };
    });
    let mut p = pending();
    // Each construct once, the last launched last (moved there, not copied
    // again: a loop of constructs launches the same few over and over).
    let same = |c: &Construct| c.loc == *loc && c.kernel == kernel;
    match p.constructs.iter().position(same) {
        Some(i) => {
            let n = p.constructs.len();
            p.constructs[i..n].rotate_left(1);
        }
        None => p.constructs.push(Construct {
            loc: loc.clone(),
            kernel: kernel.to_string(),
        }),
    }
    ANY.store(true, Ordering::SeqCst);
    let d = match p.device(plugin, ordinal) {
        Some(i) => i,
        None => {
            p.devices.push(Device {
                plugin,
                ordinal,
                launched: false,
                since_mark: 0,
                inflight: VecDeque::new(),
                free: Vec::new(),
            });
            p.devices.len() - 1
        }
    };
    let n = run_ahead();
    let dev = &mut p.devices[d];
    dev.launched = true;
    if n == 0 {
        return;
    }
    dev.since_mark += 1;
    if dev.since_mark < mark_every(n) {
        return;
    }
    dev.since_mark = 0;
    if let Err(e) = dev.mark() {
        // (No event to bound the run-ahead with: wait for everything.)
        let line = wait_all(&mut p).unwrap_or_else(|| {
            error::format_at(
                loc,
                "cannot record an event after a kernel",
                Some(kernel),
                Some(&e),
            )
        });
        error::die_line(&line);
    }
    if p.devices[d].inflight.len() > 2 {
        if let Err(e) = p.devices[d].wait_oldest() {
            let line = failure_line(&p.constructs, &e);
            error::die_line(&line);
        }
    }
}

impl Device {
    /// Record an event after the launch just made.
    fn mark(&mut self) -> Result<(), String> {
        let e = match self.free.pop() {
            Some(e) => e,
            // SAFETY: plain values.
            None => unsafe { self.plugin.event_create(self.ordinal) }? as usize,
        };
        // SAFETY: an event of this device; the null stream.
        match unsafe {
            self.plugin
                .event_record(self.ordinal, e as *mut c_void, std::ptr::null_mut())
        } {
            Ok(()) => {
                self.inflight.push_back(e);
                Ok(())
            }
            Err(err) => {
                self.free.push(e);
                Err(err)
            }
        }
    }

    /// Wait for the oldest launch in flight.
    fn wait_oldest(&mut self) -> Result<(), String> {
        let Some(e) = self.inflight.pop_front() else {
            return Ok(());
        };
        self.free.push(e);
        // SAFETY: an event of this device, recorded by `mark`.
        unsafe {
            self.plugin
                .event_synchronize(self.ordinal, e as *mut c_void)
        }
    }
}

/// Device `ordinal` of `plugin` is being closed (after a wait for all its
/// work): destroy the events kept for it.
pub fn forget(plugin: &'static Plugin, ordinal: i32) {
    let mut p = pending();
    if let Some(i) = p.device(plugin, ordinal) {
        let d = p.devices.remove(i);
        for e in d.inflight.into_iter().chain(d.free) {
            // SAFETY: events of this device, not used after this.
            let _ = unsafe { plugin.event_destroy(ordinal, e as *mut c_void) };
        }
    }
    if p.devices.is_empty() {
        p.constructs.clear();
        ANY.store(false, Ordering::SeqCst);
    }
}

/// Wait for every pending launch. A failure stops the program, naming the
/// construct ([`failure_line`]).
pub fn settle() {
    if !ANY.load(Ordering::SeqCst) {
        return;
    }
    if let Some(line) = wait_all(&mut pending()) {
        error::die_line(&line);
    }
}

/// `void __ptxrt_settle(void)`: wait for the synchronous kernels not yet
/// waited for (the compiler calls it after a construct whose kernel prints,
/// so its lines come out before the host's next ones).
#[no_mangle]
pub extern "C" fn __ptxrt_settle() {
    error::guard(settle)
}

/// Wait for the pending launches of `p` and forget them (keeping each
/// device's events); the error line when one failed.
fn wait_all(p: &mut Pending) -> Option<String> {
    let mut failed = None;
    for d in &mut p.devices {
        if !d.launched {
            continue;
        }
        // SAFETY: the legacy default stream of an open device.
        if let Err(e) = unsafe { d.plugin.stream_synchronize(d.ordinal, std::ptr::null_mut()) } {
            failed.get_or_insert(e);
        }
        d.free.extend(d.inflight.drain(..));
        d.since_mark = 0;
        d.launched = false;
    }
    let line = failed.map(|e| failure_line(&p.constructs, &e));
    p.constructs.clear();
    ANY.store(false, Ordering::SeqCst);
    line
}

/// The error line of a failure of the pending launches `cs` (the last
/// launched last): the construct itself when there is one, else the last
/// one and the others.
fn failure_line(cs: &[Construct], device_error: &str) -> String {
    let Some(last) = cs.last() else {
        return error::one_line(&format!(
            "accc runtime: error: kernel execution failed: {device_error}"
        ));
    };
    let what = match cs.len() {
        1 => "kernel execution failed".to_string(),
        n => {
            let others: Vec<String> = cs[..n - 1]
                .iter()
                .map(|c| format!("'{}' at {}:{}", c.kernel, c.loc.file, c.loc.line))
                .collect();
            format!(
                "kernel execution failed, here or in an earlier synchronous construct not yet waited for ({}; CUDA_LAUNCH_BLOCKING=1 tells which)",
                others.join(", ")
            )
        }
    };
    error::format_at(&last.loc, &what, Some(&last.kernel), Some(device_error))
}

/// [`error`]'s hook before a fatal error: when pending launches failed,
/// their error line (the first failure in program order). Never blocks
/// on the pending list (the failing thread may be settling it).
fn blame() -> Option<String> {
    if !ANY.load(Ordering::SeqCst) {
        return None;
    }
    let mut p = PENDING.try_lock().ok()?;
    wait_all(&mut p)
}

extern "C" {
    fn atexit(f: extern "C" fn()) -> c_int;
    fn _exit(status: c_int) -> !;
}

/// The `atexit` hook: a kernel that failed after the program's last
/// runtime call is still reported, and the exit status says so.
extern "C" fn settle_at_exit() {
    let line = std::panic::catch_unwind(|| {
        let mut p = PENDING.try_lock().ok()?;
        wait_all(&mut p)
    });
    if let Ok(Some(line)) = line {
        let mut err = std::io::stderr().lock();
        let _ = writeln!(err, "{line}");
        let _ = err.flush();
        // SAFETY: ends the process without running the exit hooks again.
        unsafe { _exit(1) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(file: &str, line: i32, kernel: &str) -> Construct {
        Construct {
            loc: SrcLoc {
                file: file.into(),
                line,
                construct: "parallel loop".into(),
            },
            kernel: kernel.into(),
        }
    }

    #[test]
    fn one_construct_is_named_exactly() {
        assert_eq!(
            failure_line(&[c("a.c", 12, "k12")], "cuStreamSynchronize: illegal address"),
            "a.c:12: error: parallel loop: kernel execution failed: 'k12': cuStreamSynchronize: illegal address"
        );
    }

    #[test]
    fn several_constructs_name_the_last_and_the_others() {
        let line = failure_line(
            &[c("a.c", 3, "k3"), c("b.c", 9, "k9")],
            "cuStreamSynchronize: illegal address",
        );
        assert_eq!(
            line,
            "b.c:9: error: parallel loop: kernel execution failed, here or in an earlier synchronous construct not yet waited for ('k3' at a.c:3; CUDA_LAUNCH_BLOCKING=1 tells which): 'k9': cuStreamSynchronize: illegal address"
        );
    }
}
