//! Measuring kernels and transfers for `PTXRT_TIME=1` ([`crate::profile`]
//! keeps the records and prints the table).
//!
//! Synchronous work is timed on the host clock: a synchronous launch from
//! before the launch until its completion ([`clock`], [`kernel_done`]), a
//! synchronous copy around the copy ([`measure`]). Work of an async queue
//! returns before it runs: [`measure`] records a timed device event on the
//! queue's stream before and after it, and the pair waits in the device's
//! [`Timing`] until the queue has got there. Pairs are read lazily
//! ([`settle`]): when the host waits for or tests a queue
//! ([`crate::queue`]), when the device is shut down, when many are
//! pending, and at exit. The time of async work is the device's (from the
//! end of the queue's earlier work to the end of this work).
//!
//! The exit report: the first construct (or routine) that asks for the
//! device registers, once, a C `atexit` hook ([`arm`]) that has the runtime
//! wait for every open device and read the pending pairs
//! ([`crate::runtime`]'s `settle_all`, which takes the runtime lock with a
//! time limit and not at all after a fatal error), then prints the table
//! on stderr. It never panics (a panic is caught) and never calls the
//! driver when the hook was registered before the driver was loaded (the
//! driver's own exit handlers would have run first). Nothing here takes the
//! runtime lock: every function is given the device it works on.
//!
//! With `PTXRT_TRACE` ([`crate::trace`]) the same measures are on and each
//! also becomes a span of the trace's device rows: an async pair at its
//! device times, converted to the host clock by the device's calibration
//! event ([`Timing`]'s, recorded and waited for once, at the first async
//! measure); synchronous work at its host times.
//!
//! Off (`PTXRT_TIME` and `PTXRT_TRACE` unset, the usual case) nothing here makes an event or
//! reads a clock: each entry point checks one cached flag.
//!
//! Owns: [`Timing`] (a device's pending event pairs and its pool of timed
//! events), [`measure`], [`clock`] / [`kernel_done`], [`settle`], the exit
//! hook.
//! May call: [`crate::device`] (the device state it is given, never the
//! runtime lock), [`crate::plugin`] (through the device state),
//! [`crate::queue`] (streams), [`crate::profile`], [`crate::trace`].

use crate::abi::SrcLoc;
use crate::device::DeviceState;
use crate::device::{Dev, DeviceId};
use crate::profile::{self, Key, Op};
use crate::queue::Queue;
use std::ffi::{c_int, c_void};
use std::io::Write;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Once, OnceLock};
use std::time::Instant;

/// Pending pairs beyond which [`measure`] reads the completed ones.
const SETTLE_AT: usize = 256;

/// Async work waiting to be timed: its events and what it was.
#[derive(Debug)]
struct Pending {
    start: usize,
    end: usize,
    key: Key,
    op: Op,
    /// The async queue.
    queue: u32,
}

/// A device's timing state.
#[derive(Debug, Default)]
pub struct Timing {
    /// Timed events made and not in use.
    free: Vec<usize>,
    /// Pairs recorded around async work, not read yet.
    pending: Vec<Pending>,
    /// The trace's calibration: a timed event and the host time it had
    /// completed by.
    calib: Option<(usize, crate::trace::Calibration)>,
}

impl Timing {
    /// Pairs not read yet.
    pub fn pending(&self) -> usize {
        self.pending.len()
    }

    /// A timed event from the pool (made when the pool is empty).
    fn event(&mut self, d: Dev) -> Option<usize> {
        match self.free.pop() {
            Some(e) => Some(e),
            // SAFETY: plain value.
            None => unsafe { d.plugin.event_create_timed(d.ordinal) }
                .ok()
                .map(|e| e as usize),
        }
    }

    /// Shutdown (after [`settle`] with waiting): destroy the timed events.
    fn close(&mut self, d: Dev) {
        for p in self.pending.drain(..) {
            self.free.extend([p.start, p.end]);
        }
        self.free.extend(self.calib.take().map(|(e, _)| e));
        for e in self.free.drain(..) {
            // SAFETY: timed events of this device, destroyed once (drained).
            let _ = unsafe { d.plugin.event_destroy(d.ordinal, e as *mut c_void) };
        }
    }
}

/// A timed event recorded on queue `q`'s stream now, if one can be had.
fn mark(dev: &mut DeviceState, q: u32) -> Option<usize> {
    let d = dev.dev();
    let s = dev.queues.stream(d, q).ok()?;
    let e = dev.timing.event(d)?;
    // SAFETY: a timed event and a stream of this device.
    match unsafe { d.plugin.event_record(d.ordinal, e as *mut c_void, s) } {
        Ok(()) => Some(e),
        Err(_) => {
            dev.timing.free.push(e);
            None
        }
    }
}

/// The trace's calibration of `dev`: a timed event recorded on the legacy
/// default stream and waited for, and the host time then (made once).
fn calibrate(dev: &mut DeviceState) {
    if dev.timing.calib.is_some() || !crate::trace::enabled() {
        return;
    }
    let d = dev.dev();
    let Some(e) = dev.timing.event(d) else {
        return;
    };
    // SAFETY: a timed event of this device, the legacy default stream.
    let done = unsafe {
        d.plugin
            .event_record(d.ordinal, e as *mut c_void, std::ptr::null_mut())
            .and_then(|()| d.plugin.event_synchronize(d.ordinal, e as *mut c_void))
    };
    match done {
        Ok(()) => {
            let host_us = crate::trace::now_us();
            dev.timing.calib = Some((e, crate::trace::Calibration { host_us }));
        }
        Err(_) => dev.timing.free.push(e),
    }
}

fn ms_since(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1e3
}

/// Do `work` (operation `op` of the construct or routine at `loc`, on
/// queue `q` of `dev`) and record it: timed on the host clock when `q` is
/// synchronous, between two device events on the queue's stream when not.
/// A failed operation is not recorded.
pub fn measure<T, E>(
    dev: &mut DeviceState,
    q: Queue,
    loc: &SrcLoc,
    op: Op,
    work: impl FnOnce(&mut DeviceState) -> Result<T, E>,
) -> Result<T, E> {
    if !profile::enabled() {
        return work(dev);
    }
    match q {
        Queue::Sync => {
            let t = Instant::now();
            let r = work(dev);
            if r.is_ok() {
                profile::record(loc, op, Some(ms_since(t)));
                host_span(dev.id(), loc, op, t);
            }
            r
        }
        Queue::Id(n) => {
            calibrate(dev);
            let start = mark(dev, n);
            let r = work(dev);
            match (&r, start) {
                (Ok(_), Some(start)) => {
                    profile::record(loc, op, None);
                    match mark(dev, n) {
                        Some(end) => {
                            let key = Key::of(loc);
                            dev.timing.pending.push(Pending {
                                start,
                                end,
                                key,
                                op,
                                queue: n,
                            });
                            if dev.timing.pending.len() >= SETTLE_AT {
                                settle(dev, false);
                            }
                        }
                        None => dev.timing.free.push(start),
                    }
                }
                (Ok(_), None) => profile::record(loc, op, None),
                (Err(_), Some(start)) => dev.timing.free.push(start),
                (Err(_), None) => {}
            }
            r
        }
    }
}

/// The host clock before a synchronous launch (`None` when off).
pub fn clock() -> Option<Instant> {
    profile::enabled().then(Instant::now)
}

/// A synchronous kernel of the construct at `loc` on device `id`,
/// launched at `started` ([`clock`]), has completed.
pub fn kernel_done(loc: &SrcLoc, id: DeviceId, started: Option<Instant>) {
    if let Some(t) = started {
        profile::record(loc, Op::Kernel, Some(ms_since(t)));
        host_span(id, loc, Op::Kernel, t);
    }
}

/// The trace's span of synchronous work `op` of `loc` on `id`, from `t`
/// until now.
fn host_span(id: DeviceId, loc: &SrcLoc, op: Op, t: Instant) {
    if crate::trace::enabled() {
        let ts = crate::trace::us_at(t);
        let dur = crate::trace::now_us() - ts;
        crate::trace::device_span(id, None, &Key::of(loc), op, ts, dur);
    }
}

/// Read the pending pairs of `dev` whose work has completed (`wait`: wait
/// for each first) into the profile, giving their events back to the pool.
/// A pair whose events report an error is dropped (its work stays untimed).
pub fn settle(dev: &mut DeviceState, wait: bool) {
    if dev.timing.pending.is_empty() {
        return;
    }
    let d = dev.dev();
    let mut times = Vec::new();
    let mut keep = Vec::new();
    for p in std::mem::take(&mut dev.timing.pending) {
        let end = p.end as *mut c_void;
        // SAFETY: timed events of this device, recorded by `mark`.
        let done = unsafe {
            if wait {
                d.plugin.event_synchronize(d.ordinal, end).map(|()| true)
            } else {
                d.plugin.event_query(d.ordinal, end).map(|done| done != 0)
            }
        };
        match done {
            Ok(false) => {
                keep.push(p);
                continue;
            }
            Ok(true) => {
                // SAFETY: as above; both completed (one stream, in order).
                let ms = unsafe {
                    d.plugin
                        .event_elapsed(d.ordinal, p.start as *mut c_void, end)
                };
                if let Ok(ms) = ms {
                    trace_pair(dev, &p, f64::from(ms));
                    times.push((p.key, p.op, f64::from(ms)));
                }
            }
            Err(_) => {}
        }
        dev.timing.free.extend([p.start, p.end]);
    }
    dev.timing.pending = keep;
    profile::record_times(&times);
}

/// The trace's span of the completed pair `p` (`ms` from start to end),
/// placed on the host clock by the device's calibration.
fn trace_pair(dev: &DeviceState, p: &Pending, ms: f64) {
    let Some((calib, c)) = dev.timing.calib.filter(|_| crate::trace::enabled()) else {
        return;
    };
    let d = dev.dev();
    // SAFETY: timed events of this device, both completed.
    let to_start = unsafe {
        d.plugin
            .event_elapsed(d.ordinal, calib as *mut c_void, p.start as *mut c_void)
    };
    if let Ok(to_start) = to_start {
        let (ts, dur) = c.span(f64::from(to_start), ms);
        crate::trace::device_span(dev.id(), Some(p.queue), &p.key, p.op, ts, dur);
    }
}

/// Shutdown of `dev` (after it was synchronised): read every pending pair,
/// destroy the timed events.
pub fn close(dev: &mut DeviceState) {
    settle(dev, true);
    let d = dev.dev();
    dev.timing.close(d);
}

extern "C" {
    fn atexit(f: extern "C" fn()) -> c_int;
}

/// Whether the driver was loaded when the hook was registered.
static DRIVER_FIRST: AtomicBool = AtomicBool::new(false);

/// What the exit hook calls first to read the pending pairs of every open
/// device ([`crate::runtime`]'s, which knows the devices and their lock).
static SETTLE_ALL: OnceLock<fn()> = OnceLock::new();

/// Register the exit report once, when profiling is on. `driver_loaded`:
/// the driver has been loaded (tried) already; `settle_all` waits for the
/// open devices and [`settle`]s them (called only when the driver was
/// loaded first).
pub fn arm(driver_loaded: bool, settle_all: fn()) {
    if !profile::enabled() {
        return;
    }
    static ARMED: Once = Once::new();
    ARMED.call_once(|| {
        DRIVER_FIRST.store(driver_loaded, Ordering::SeqCst);
        let _ = SETTLE_ALL.set(settle_all);
        // SAFETY: registers a function that takes nothing and never unwinds.
        let _ = unsafe { atexit(report_at_exit) };
    });
}

/// The `atexit` hook: the table on stderr.
extern "C" fn report_at_exit() {
    let _ = catch_unwind(AssertUnwindSafe(|| {
        if DRIVER_FIRST.load(Ordering::SeqCst) {
            if let Some(settle_all) = SETTLE_ALL.get() {
                settle_all();
            }
        }
        if !profile::table_enabled() {
            return;
        }
        let text = profile::report();
        let mut err = std::io::stderr().lock();
        let _ = err.write_all(text.as_bytes());
        let _ = err.flush();
    }));
}
