//! Async queues (OpenACC 3.3 2.16): which queue an async argument names,
//! the stream of each queue, waits and tests.
//!
//! Every (device, queue) pair has one stream, made the first time work goes
//! to the queue (non-blocking: the synchronous work of the legacy default
//! stream neither waits for the queues nor holds them up). A queue that was
//! never used has no stream: waiting for it or testing it does nothing.
//! Waits between queues never block the host: an event recorded on the
//! awaited queue's stream is waited for by the waiting queue's stream. The
//! host waits only where the program does (`acc_wait*`, the `wait`
//! directive or `wait` clause of synchronous work); after a host wait the
//! device gives back the pinned pieces and device memory whose queued use
//! has completed ([`crate::asyncmem`]) and reads the `PTXRT_TIME` timings
//! of the work that completed ([`crate::timing::settle`]).
//!
//! Owns: the meaning of async arguments (`acc_async_sync` and
//! `PTXRT_ASYNC_NONE`: synchronous; `acc_async_noval` and
//! `acc_async_default`: the thread's default queue; n >= 0: queue n; any
//! other value is an error), [`Queues`] (the streams and the event pool of
//! a device), [`prepare`] (a construct's `async` and `wait` clauses),
//! [`run`] (the one function through which a construct's data work goes to
//! its queue), host waits and tests.
//! Nothing here takes the runtime lock: every function is given the device
//! (or the runtime, for waits that name other devices) it works on.
//! May call: [`crate::icv`], [`crate::device`] (the state it is given),
//! [`crate::plugin`] (through the device state), [`crate::asyncmem`],
//! [`crate::timing`], [`crate::error`].

use crate::abi::{Async, SrcLoc};
use crate::device::{Dev, DeviceState};
use crate::error::{fatal_at, Failure};
use crate::icv;
use crate::runtime::Runtime;
use std::collections::BTreeMap;
use std::ffi::{c_int, c_void};

/// `acc_async_noval`.
pub const ASYNC_NOVAL: c_int = -1;
/// `acc_async_sync` (also `PTXRT_ASYNC_NONE`).
pub const ASYNC_SYNC: c_int = -2;
/// `acc_async_default`: the default queue (OpenACC 3.3).
pub const ASYNC_DEFAULT: c_int = -3;

/// A queue of a device.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Queue {
    /// No queue: the work is done before the construct returns.
    Sync,
    /// Async queue n.
    Id(u32),
}

/// The queue an async argument names (for the calling thread).
pub fn resolve(arg: c_int) -> Result<Queue, Failure> {
    match arg {
        ASYNC_SYNC => Ok(Queue::Sync),
        ASYNC_NOVAL | ASYNC_DEFAULT => match icv::default_async() {
            ASYNC_SYNC => Ok(Queue::Sync),
            q => Ok(Queue::Id(u32::try_from(q).unwrap_or(0))),
        },
        n if n >= 0 => Ok(Queue::Id(n as u32)),
        n => Err(Failure::new(format!("invalid async argument {n}"))),
    }
}

/// The queue a wait argument names: like [`resolve`], but `acc_async_sync`
/// is no queue to wait for (`None`).
pub fn awaited(arg: c_int) -> Result<Option<u32>, Failure> {
    Ok(match resolve(arg)? {
        Queue::Sync => None,
        Queue::Id(q) => Some(q),
    })
}

/// The stream of one queue.
#[derive(Debug)]
struct Stream {
    handle: usize,
    /// Made here (destroyed at shutdown), or the program's
    /// (`acc_set_cuda_stream`: left alone).
    owned: bool,
}

/// The streams of a device's queues and its pool of events.
#[derive(Debug, Default)]
pub struct Queues {
    streams: BTreeMap<u32, Stream>,
    /// Each queue's drain stream (made with its first copy to pageable
    /// memory): the host copies out of the pinned ring run there, after the
    /// DMA they copy, so that the queue's next work does not wait for them.
    /// The host's waits and tests and other queues' waits cover it too.
    drains: BTreeMap<u32, usize>,
    /// The last kernel queued on each queue, as messages name it.
    last_kernel: BTreeMap<u32, String>,
    /// Events made and not in use.
    free_events: Vec<usize>,
}

impl Queues {
    /// The stream of queue `q`, made on first use.
    pub fn stream(&mut self, d: Dev, q: u32) -> Result<*mut c_void, Failure> {
        if let Some(s) = self.streams.get(&q) {
            return Ok(s.handle as *mut c_void);
        }
        // SAFETY: plain values.
        let s = unsafe { d.plugin.stream_create(d.ordinal, 1) }.map_err(|e| {
            Failure::with(format!("cannot create the stream of async queue {q}"), e)
        })?;
        self.streams.insert(
            q,
            Stream {
                handle: s as usize,
                owned: true,
            },
        );
        Ok(s)
    }

    /// Remember `what` as the last kernel queued on `q` (for the message
    /// when the queue fails).
    pub fn note_kernel(&mut self, q: u32, what: String) {
        self.last_kernel.insert(q, what);
    }

    /// Why queue `q` failed: `error`, naming the last kernel queued on it.
    pub fn failed(&self, q: u32, error: String) -> Failure {
        match self.last_kernel.get(&q) {
            Some(k) => Failure::with(
                format!("async queue {q} failed (its last kernel: {k})"),
                error,
            ),
            None => Failure::with(format!("async queue {q} failed"), error),
        }
    }

    /// The drain stream of queue `q`, made on first use.
    pub fn drain_stream(&mut self, d: Dev, q: u32) -> Result<*mut c_void, Failure> {
        if let Some(&s) = self.drains.get(&q) {
            return Ok(s as *mut c_void);
        }
        // SAFETY: plain values.
        let s = unsafe { d.plugin.stream_create(d.ordinal, 1) }
            .map_err(|e| Failure::with(format!("cannot create a stream for async queue {q}"), e))?;
        self.drains.insert(q, s as usize);
        Ok(s)
    }

    /// Every stream that holds work of queue `q`: its own and its drain
    /// stream (none when the queue was never used).
    pub fn streams_of(&self, q: u32) -> Vec<*mut c_void> {
        self.existing(q)
            .into_iter()
            .chain(self.drains.get(&q).map(|&s| s as *mut c_void))
            .collect()
    }

    /// The stream of queue `q` if it was ever used.
    pub fn existing(&self, q: u32) -> Option<*mut c_void> {
        self.streams.get(&q).map(|s| s.handle as *mut c_void)
    }

    /// The queues used so far, with their streams.
    pub fn used(&self) -> Vec<(u32, *mut c_void)> {
        self.streams
            .iter()
            .map(|(&q, s)| (q, s.handle as *mut c_void))
            .collect()
    }

    /// Make queue `q` use the program's stream `s` (`acc_set_cuda_stream`):
    /// the queue's own stream, if any, is waited for and destroyed first.
    pub fn set_stream(&mut self, d: Dev, q: u32, s: *mut c_void) -> Result<(), Failure> {
        if let Some(old) = self.streams.remove(&q) {
            let h = old.handle as *mut c_void;
            // SAFETY: a stream of this device.
            unsafe { d.plugin.stream_synchronize(d.ordinal, h) }
                .map_err(|e| Failure::with(format!("async queue {q} failed"), e))?;
            if old.owned {
                // SAFETY: made by stream_create, destroyed once (removed).
                let _ = unsafe { d.plugin.stream_destroy(d.ordinal, h) };
            }
        }
        self.streams.insert(
            q,
            Stream {
                handle: s as usize,
                owned: false,
            },
        );
        Ok(())
    }

    /// An event from the pool (made when the pool is empty).
    pub fn event(&mut self, d: Dev) -> Result<usize, Failure> {
        match self.free_events.pop() {
            Some(e) => Ok(e),
            // SAFETY: plain value.
            None => unsafe { d.plugin.event_create(d.ordinal) }
                .map(|e| e as usize)
                .map_err(|e| Failure::with("cannot create an event", e)),
        }
    }

    /// Give an event back to the pool.
    pub fn give_back(&mut self, e: usize) {
        self.free_events.push(e);
    }

    /// An event recorded on queue `q`'s stream now (the caller gives it back).
    pub fn mark(&mut self, d: Dev, q: u32) -> Result<usize, Failure> {
        let s = self.stream(d, q)?;
        // SAFETY: the queue's own stream.
        unsafe { self.mark_stream(d, s) }
    }

    /// An event recorded on stream `s` of this device now.
    ///
    /// # Safety
    /// `s` must be a stream of the device `d` (one of [`Queues::streams_of`]).
    pub unsafe fn mark_stream(&mut self, d: Dev, s: *mut c_void) -> Result<usize, Failure> {
        let e = self.event(d)?;
        // SAFETY: an event of this device; s per the caller.
        unsafe { d.plugin.event_record(d.ordinal, e as *mut c_void, s) }
            .map_err(|err| Failure::with("cannot record an event on an async queue", err))?;
        Ok(e)
    }

    /// Shutdown: wait for every queue, destroy the streams made here and
    /// every event.
    pub fn close(&mut self, d: Dev) {
        for (_, s) in std::mem::take(&mut self.drains) {
            let h = s as *mut c_void;
            // SAFETY: streams made here, destroyed once (taken).
            unsafe {
                let _ = d.plugin.stream_synchronize(d.ordinal, h);
                let _ = d.plugin.stream_destroy(d.ordinal, h);
            }
        }
        for (_, s) in std::mem::take(&mut self.streams) {
            let h = s.handle as *mut c_void;
            // SAFETY: streams of this device, destroyed once (taken).
            unsafe {
                let _ = d.plugin.stream_synchronize(d.ordinal, h);
                if s.owned {
                    let _ = d.plugin.stream_destroy(d.ordinal, h);
                }
            }
        }
        for e in self.free_events.drain(..) {
            // SAFETY: events of this device, destroyed once (drained).
            let _ = unsafe { d.plugin.event_destroy(d.ordinal, e as *mut c_void) };
        }
    }
}

/// The queues `w` names on `dev`: one queue, or (`None`) every queue used.
fn targets(dev: &DeviceState, w: Option<u32>) -> Vec<u32> {
    match w {
        Some(q) => vec![q],
        None => dev.queues.used().into_iter().map(|(q, _)| q).collect(),
    }
}

/// The host waits for queue `w` of `dev` (`None`: every queue); a queue
/// never used is idle. Then the device takes back what completed work held.
pub fn host_wait(dev: &mut DeviceState, w: Option<u32>) -> Result<(), Failure> {
    let d = dev.dev();
    for q in targets(dev, w) {
        for s in dev.queues.streams_of(q) {
            // SAFETY: a stream of this device.
            unsafe { d.plugin.stream_synchronize(d.ordinal, s) }
                .map_err(|e| dev.queues.failed(q, e))?;
        }
    }
    after_wait(dev)
}

/// After the host waited for (or tested) queues of `dev`: read the
/// timings of completed work, take back what it held.
pub fn after_wait(dev: &mut DeviceState) -> Result<(), Failure> {
    crate::timing::settle(dev, false);
    dev.reclaim()
}

/// The streams the host waits on for queue `w` (`None`: every queue) of
/// `dev`, with their queues (for [`crate::runtime::host_wait_unlocked`],
/// which waits for them without the runtime lock).
pub fn streams_to_wait(dev: &DeviceState, w: Option<u32>) -> Vec<(u32, usize)> {
    targets(dev, w)
        .into_iter()
        .flat_map(|q| {
            let streams = dev.queues.streams_of(q);
            streams.into_iter().map(move |s| (q, s as usize))
        })
        .collect()
}

/// Wait for the `streams` ([`streams_to_wait`]) of device `d`; the first
/// failure with its queue.
pub fn wait_streams(d: Dev, streams: &[(u32, usize)]) -> Result<(), (u32, String)> {
    for &(q, s) in streams {
        // SAFETY: a stream of this device (streams are destroyed only at
        // shutdown, which a program must not do while it waits).
        unsafe { d.plugin.stream_synchronize(d.ordinal, s as *mut c_void) }.map_err(|e| (q, e))?;
    }
    Ok(())
}

/// Work queued on queue `q` of `dev` from now on waits for the work queued
/// so far on queue `w` (`None`: every queue), without the host waiting.
pub fn queue_wait(dev: &mut DeviceState, q: u32, w: Option<u32>) -> Result<(), Failure> {
    let d = dev.dev();
    for x in targets(dev, w) {
        if x == q {
            continue;
        }
        // Its copies to host memory too: the program may read them once
        // it waited for queue q.
        for xs in dev.queues.streams_of(x) {
            // SAFETY: one of the queue's streams.
            let e = unsafe { dev.queues.mark_stream(d, xs) }?;
            let s = dev.queues.stream(d, q)?;
            // SAFETY: an event and a stream of this device.
            let r = unsafe { d.plugin.stream_wait_event(d.ordinal, s, e as *mut c_void) };
            dev.queues.give_back(e);
            r.map_err(|err| {
                Failure::with(format!("async queue {q} cannot wait for queue {x}"), err)
            })?;
        }
    }
    Ok(())
}

/// Whether queue `q` (`None`: every queue) of `dev` has completed its
/// work; if so, the device takes back what that work held.
pub fn test(dev: &mut DeviceState, q: Option<u32>) -> Result<bool, Failure> {
    let d = dev.dev();
    for x in targets(dev, q) {
        for s in dev.queues.streams_of(x) {
            // SAFETY: a stream of this device.
            let done = unsafe { d.plugin.stream_query(d.ordinal, s) }
                .map_err(|e| dev.queues.failed(x, e))?;
            if done == 0 {
                return Ok(false);
            }
        }
    }
    after_wait(dev)?;
    Ok(true)
}

/// The index of the first queue of `qs` (`None` entries: no queue, skipped)
/// that has completed its work on `dev` (`acc_wait_any` polls this); if one
/// has, the device takes back what its work held.
pub fn first_done(dev: &mut DeviceState, qs: &[Option<u32>]) -> Result<Option<usize>, Failure> {
    for (i, q) in qs.iter().enumerate() {
        if let Some(q) = q {
            if test(dev, Some(*q))? {
                return Ok(Some(i));
            }
        }
    }
    Ok(None)
}

/// The wait list of `a`: `None` for no wait clause, else the queues
/// (`None` in it: every queue).
pub fn wait_list(a: &Async) -> Result<Option<Vec<Option<u32>>>, Failure> {
    match a.nwaits {
        0 => Ok(None),
        n if n < 0 => Ok(Some(vec![None])),
        _ => {
            // SAFETY: the compiler passes nwaits queues (ptxrt.h).
            let waits = unsafe { crate::abi::slice_of(a.waits, a.nwaits) };
            let mut out = Vec::with_capacity(waits.len());
            for &w in waits {
                if let Some(q) = awaited(w)? {
                    out.push(Some(q));
                }
            }
            Ok(Some(out))
        }
    }
}

/// The device whose queues the wait list of `a` names: `a.wait_dev`
/// (`wait(devnum: …)`), the calling thread's when negative; a number the
/// driver has no device for is an error.
pub fn wait_device(rt: &mut Runtime, a: &Async) -> Result<i32, Failure> {
    let wdev = if a.wait_dev < 0 {
        icv::device_num()
    } else {
        a.wait_dev
    };
    let n = rt.device_count().unwrap_or(0);
    if !(0..n).contains(&wdev) {
        return Err(Failure::new(format!(
            "wait(devnum: {wdev}: …): no such device ({n} device(s))"
        )));
    }
    Ok(wdev)
}

/// Carry out the wait list of `a` (`wait` clause or directive) before work
/// of queue `q` on the calling thread's device: the host waits when `q` is
/// synchronous, else `q` waits on the device. The queues are those of
/// device `a.wait_dev` (`wait(devnum: …)`), the current one when negative.
pub fn do_waits(rt: &mut Runtime, a: &Async, q: Queue) -> Result<(), Failure> {
    let Some(list) = wait_list(a)? else {
        return Ok(());
    };
    let cur = icv::device_num();
    let wdev = wait_device(rt, a)?;
    match q {
        Queue::Sync => {
            if let Some(dev) = rt.device(wdev) {
                for w in list {
                    host_wait(dev, w)?;
                }
            }
        }
        Queue::Id(q) if wdev == cur => {
            if let Some(dev) = rt.device(cur) {
                for w in list {
                    queue_wait(dev, q, w)?;
                }
            }
        }
        Queue::Id(q) => {
            // Events of the other device, waited for by this device's stream.
            let mut marks = vec![];
            if let Some(other) = rt.device(wdev) {
                let d = other.dev();
                for w in list {
                    for x in targets(other, w) {
                        for xs in other.queues.streams_of(x) {
                            // SAFETY: one of the queue's streams.
                            marks.push(unsafe { other.queues.mark_stream(d, xs) }?);
                        }
                    }
                }
            }
            let mut r = Ok(());
            if let Some(dev) = rt.device(cur) {
                let d = dev.dev();
                let s = dev.queues.stream(d, q)?;
                for &e in &marks {
                    // SAFETY: a stream of this device; an event of another
                    // (the driver allows waiting for another device's event).
                    if let Err(err) =
                        unsafe { d.plugin.stream_wait_event(d.ordinal, s, e as *mut c_void) }
                    {
                        r = Err(Failure::with(
                            format!("async queue {q} cannot wait for device {wdev}"),
                            err,
                        ));
                    }
                }
            }
            if let Some(other) = rt.device(wdev) {
                for e in marks {
                    other.queues.give_back(e);
                }
            }
            r?;
        }
    }
    Ok(())
}

/// The queue of a construct's `async` clause, after its `wait` clause was
/// carried out (`a` null: synchronous, no waits). A bad argument or a
/// failed wait is a fatal error at `loc`.
pub fn prepare(rt: &mut Runtime, loc: &SrcLoc, a: Option<&Async>) -> Queue {
    let Some(a) = a else {
        return Queue::Sync;
    };
    let fail = |f: Failure| fatal_at(loc, &f.what, None, f.detail.as_deref());
    let q = resolve(a.async_).unwrap_or_else(fail);
    // A device whose queues are synchronous (the host) has nothing to wait for.
    if !rt.current().async_queues() {
        return q;
    }
    if let Err(f) = do_waits(rt, a, q) {
        fail(f);
    }
    q
}

/// Do `work` on queue `q` of `dev`: the copies, zeroing and frees it makes
/// go to that queue's stream (synchronous work: done before `run` returns).
pub fn run<T>(dev: &mut DeviceState, q: Queue, work: impl FnOnce(&mut DeviceState) -> T) -> T {
    let before = std::mem::replace(&mut dev.queue, q);
    let r = work(dev);
    dev.queue = before;
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn async_arguments() {
        assert_eq!(resolve(ASYNC_SYNC), Ok(Queue::Sync));
        assert_eq!(resolve(5), Ok(Queue::Id(5)));
        assert_eq!(
            resolve(ASYNC_NOVAL),
            Ok(Queue::Id(icv::INITIAL_DEFAULT_ASYNC as u32))
        );
        icv::set_default_async(9);
        assert_eq!(resolve(ASYNC_NOVAL), Ok(Queue::Id(9)));
        assert_eq!(resolve(ASYNC_DEFAULT), Ok(Queue::Id(9)));
        icv::set_default_async(ASYNC_SYNC);
        assert_eq!(resolve(ASYNC_NOVAL), Ok(Queue::Sync));
        assert_eq!(awaited(ASYNC_NOVAL), Ok(None));
        icv::set_default_async(icv::INITIAL_DEFAULT_ASYNC);
        assert_eq!(resolve(-7).unwrap_err().what, "invalid async argument -7");
        assert_eq!(awaited(3), Ok(Some(3)));
        assert!(awaited(-9).is_err());
    }

    #[test]
    fn wait_lists() {
        let w = [1, 2, ASYNC_SYNC];
        let a = |nwaits, waits: *const c_int| Async {
            async_: ASYNC_SYNC,
            wait_dev: -1,
            nwaits,
            waits,
        };
        assert_eq!(wait_list(&a(0, std::ptr::null())), Ok(None));
        assert_eq!(wait_list(&a(-1, std::ptr::null())), Ok(Some(vec![None])));
        assert_eq!(
            wait_list(&a(3, w.as_ptr())),
            Ok(Some(vec![Some(1), Some(2)]))
        );
        let bad = [4, -9];
        assert!(wait_list(&a(2, bad.as_ptr())).is_err());
    }
}
