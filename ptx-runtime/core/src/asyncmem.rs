//! Memory work queued on an async queue: copies between host and device
//! memory, zeroing, device copies, and frees that wait for the queue.
//!
//! A copy from or to page-locked memory is queued as it is. A copy to
//! pageable memory is DMA'd into a piece of the device's pinned ring
//! ([`crate::ring`]) and then copied out by a host function on the queue's
//! drain stream, which waits for the DMA: the queue's next work does not
//! wait for that host copy (the driver runs every host function on one
//! thread), while the host's waits and tests of the queue, and other
//! queues' waits for it, cover the drain stream too — a queue has completed
//! only when the bytes are in the program's memory. A copy from pageable
//! memory is copied into a piece by the calling thread at once, while the
//! device works, and DMA'd from there; where a queued copy out still
//! writes those bytes (an `update self` then an `update device` of the
//! same memory on one queue), the calling thread first waits for that copy
//! out, so program memory is read as the queue would find it. (The
//! runtime's own values, e.g. a pointer to attach, are copied at once:
//! [`Fill::Now`].)
//! Device memory released by work on a queue ([`DeviceState::free`] while
//! the queue runs) is not reused before the queue gets there: the block and
//! an event recorded on the queue wait in a list, and go back to the
//! allocator once the event has completed ([`DeviceState::reclaim`], at
//! every allocation and after host waits). An allocation that finds the
//! device full waits for those blocks first.
//! Owns: [`AsyncMem`] (the ring's memory and the pending frees) and the
//! `_on` methods of [`DeviceState`] that [`crate::devmem`] calls for work
//! of an async queue.
//! May call: [`crate::ring`], [`crate::queue`] (streams, events),
//! [`crate::hostcopy`], [`crate::staging`] (copy-thread settings),
//! [`crate::pipeline`] (chunks), [`crate::plugin`] (through the device
//! state), [`crate::error`].

use crate::device::Dev;
use crate::device::DeviceState;
use crate::error::Failure;
use crate::queue::{Queue, Queues};
use crate::ring::{self, Ring};
use std::ffi::c_void;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// The pinned ring of a device.
#[derive(Debug, Default)]
enum RingState {
    /// Not needed yet.
    #[default]
    NotYet,
    Ready {
        base: usize,
        ring: Ring,
    },
    /// The pinned memory could not be had: async copies of pageable
    /// memory are synchronous.
    Unavailable,
}

/// A device's async memory state.
#[derive(Debug, Default)]
pub struct AsyncMem {
    /// Bytes of the ring; 0: [`ring::ring_bytes`].
    ring_size: usize,
    ring: RingState,
    /// Device blocks released by queued work, each with the event after
    /// which it is free.
    pending: Vec<(u64, usize)>,
}

/// When the bytes of a copy to the device are read from host memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fill {
    /// When the queue gets there (program memory).
    InOrder,
    /// Before the call returns (a value of the runtime's, about to go).
    Now,
}

/// A host copy into or out of a ring piece, run by the driver in queue order.
struct HostCopy {
    dst: usize,
    src: usize,
    len: usize,
    threads: usize,
}

/// The host function of a [`HostCopy`] (never calls the driver).
unsafe extern "C" fn host_copy(data: *mut c_void) {
    let _ = catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: made by Box::into_raw in queue_host_copy, run once.
        let c = unsafe { Box::from_raw(data.cast::<HostCopy>()) };
        // SAFETY: one side is a ring piece of len bytes lent to this copy,
        // the other the program's memory, valid until the queue ends.
        unsafe { crate::hostcopy::copy(c.dst as *mut u8, c.src as *const u8, c.len, c.threads) }
    }));
}

/// Queue a host copy of `len` bytes from `src` to `dst` on stream `s`.
fn queue_host_copy(
    d: Dev,
    s: *mut c_void,
    dst: usize,
    src: usize,
    len: usize,
) -> Result<(), String> {
    let threads = crate::staging::settings().threads;
    let job = Box::into_raw(Box::new(HostCopy {
        dst,
        src,
        len,
        threads,
    }));
    // SAFETY: host_copy takes the box back when it runs; if it cannot be
    // queued, the box is freed here.
    unsafe {
        d.plugin
            .launch_host_func(d.ordinal, s, host_copy, job.cast())
            .inspect_err(|_| drop(Box::from_raw(job)))
    }
}

/// Whether event `e` of `d` has completed (an error counts as not yet:
/// the wait that follows reports it).
fn done(d: Dev, e: usize) -> bool {
    // SAFETY: an event of this device.
    unsafe { d.plugin.event_query(d.ordinal, e as *mut c_void) }.is_ok_and(|done| done != 0)
}

/// Wait for event `e` of `d`.
fn wait(d: Dev, e: usize) -> Result<(), String> {
    // SAFETY: an event of this device.
    unsafe { d.plugin.event_synchronize(d.ordinal, e as *mut c_void) }
}

impl AsyncMem {
    /// Async memory state with a ring of `bytes` (tests: small rings).
    pub fn with_ring(bytes: usize) -> AsyncMem {
        AsyncMem {
            ring_size: bytes,
            ..AsyncMem::default()
        }
    }

    fn ring_size(&self) -> usize {
        match self.ring_size {
            0 => ring::ring_bytes(),
            n => n,
        }
    }

    /// The longest piece one copy takes at a time.
    fn max_piece(&self) -> usize {
        ring::max_piece(self.ring_size())
    }

    /// The ring (made on first use), or `None` when there is none.
    fn ring(&mut self, d: Dev) -> Option<(usize, &mut Ring)> {
        if let RingState::NotYet = self.ring {
            let bytes = self.ring_size();
            // SAFETY: plain values.
            self.ring = match unsafe { d.plugin.host_alloc(d.ordinal, bytes) } {
                Ok(p) => RingState::Ready {
                    base: p as usize,
                    ring: Ring::new(bytes),
                },
                Err(e) => {
                    crate::notify::debug(&format!(
                        "no pinned ring, async copies of pageable memory are synchronous: {e}"
                    ));
                    RingState::Unavailable
                }
            };
        }
        match &mut self.ring {
            RingState::Ready { base, ring } => Some((*base, ring)),
            _ => None,
        }
    }

    /// Shutdown (after the device was synchronised): every pending block
    /// to `free`, the ring's events to the pool, the ring's memory back.
    pub fn close(&mut self, d: Dev, queues: &mut Queues, free: &mut dyn FnMut(u64)) {
        for (p, e) in self.pending.drain(..) {
            free(p);
            queues.give_back(e);
        }
        if let RingState::Ready { base, mut ring } = std::mem::take(&mut self.ring) {
            ring.drain(&mut |e| queues.give_back(e));
            // SAFETY: allocated by host_alloc, freed once (taken).
            let _ = unsafe { d.plugin.host_free(d.ordinal, base as *mut c_void) };
        }
    }
}

impl DeviceState {
    /// A piece of the ring for `len` bytes: (ring base, offset).
    fn piece(&mut self, len: usize) -> Result<Option<(usize, usize)>, Failure> {
        let d = self.dev();
        let queues = &mut self.queues;
        let Some((base, ring)) = self.asyncmem.ring(d) else {
            return Ok(None);
        };
        let off = ring
            .take(len, &mut |e| done(d, e), &mut |e| wait(d, e), &mut |e| {
                queues.give_back(e)
            })
            .map_err(|e| Failure::with("an async copy failed", e))?;
        Ok(Some((base, off)))
    }

    /// Lend the ring piece at `off` to the work queued on stream `s` so far
    /// (which writes program memory `writes`, when it copies out).
    fn lend(
        &mut self,
        s: *mut c_void,
        off: usize,
        len: usize,
        writes: (usize, usize),
    ) -> Result<(), Failure> {
        // SAFETY: the caller passes a stream of a queue of this device.
        let e = unsafe { self.queues.mark_stream(self.dev(), s) }?;
        if let RingState::Ready { ring, .. } = &mut self.asyncmem.ring {
            ring.lend(off, len, e, writes);
        }
        Ok(())
    }

    /// Wait until no queued copy out still writes program memory in
    /// `[a, b)`.
    fn wait_for_writers(&self, a: usize, b: usize) -> Result<(), Failure> {
        let d = self.dev();
        if let RingState::Ready { ring, .. } = &self.asyncmem.ring {
            for e in ring.writers(a, b) {
                if !done(d, e) {
                    wait(d, e).map_err(|err| Failure::with("an async copy failed", err))?;
                }
            }
        }
        Ok(())
    }

    /// No ring: wait for queue `q`, so that a synchronous copy keeps its order.
    fn settle(&mut self, q: u32) -> Result<(), Failure> {
        crate::queue::host_wait(self, Some(q))
    }

    fn is_pinned(&self, host: *const c_void) -> bool {
        // SAFETY: the address is only looked up.
        unsafe { self.plugin.host_is_pinned(self.ordinal, host) }.is_ok_and(|p| p != 0)
    }

    /// Queue a copy of `bytes` from host `src` to device `dst` on queue `q`
    /// (the bytes are read when `fill` says).
    ///
    /// # Safety
    /// `src` must be readable for `bytes` bytes (until the queue gets there
    /// unless `fill` is [`Fill::Now`]).
    pub(crate) unsafe fn copy_in_on(
        &mut self,
        q: u32,
        dst: u64,
        src: *const c_void,
        bytes: usize,
        fill: Fill,
    ) -> Result<(), Failure> {
        let d = self.dev();
        let s = self.queues.stream(d, q)?;
        let fail = |e: String| Failure::with("copy to the device failed", e);
        if fill == Fill::InOrder && self.is_pinned(src) {
            // SAFETY: per the caller.
            return unsafe { d.plugin.memcpy_htod_async(d.ordinal, dst, src, bytes, s) }
                .map_err(fail);
        }
        let threads = crate::staging::settings().threads;
        let max = self.asyncmem.max_piece();
        for (off, len) in crate::pipeline::chunks(bytes, max) {
            let Some((base, at)) = self.piece(len)? else {
                self.settle(q)?;
                // SAFETY: per the caller.
                return unsafe {
                    d.plugin.memcpy_htod(
                        d.ordinal,
                        dst + off as u64,
                        src.byte_add(off),
                        bytes - off,
                    )
                }
                .map_err(fail);
            };
            let buf = base + at;
            let from = src as usize + off;
            // Program memory that no queued copy out still writes has the
            // bytes the queue would read: copied now, by this thread, while
            // the device works; where a queued copy out still writes it,
            // after that copy (the host waits).
            if fill == Fill::InOrder {
                self.wait_for_writers(from, from + len)?;
            }
            // SAFETY: the piece holds len bytes and no queued copy uses it;
            // src readable per the caller.
            unsafe { crate::hostcopy::copy(buf as *mut u8, from as *const u8, len, threads) }
            // SAFETY: the piece is filled before the DMA (now or in queue order).
            unsafe {
                d.plugin
                    .memcpy_htod_async(d.ordinal, dst + off as u64, buf as *const c_void, len, s)
                    .map_err(fail)?;
            }
            self.lend(s, at, len, (0, 0))?;
        }
        Ok(())
    }

    /// Queue a copy of `bytes` from device `src` to host `dst` on queue `q`
    /// (the bytes are in `dst` when the queue has got past it).
    ///
    /// # Safety
    /// `dst` must stay writable for `bytes` bytes until the queue gets there.
    pub(crate) unsafe fn copy_out_on(
        &mut self,
        q: u32,
        dst: *mut c_void,
        src: u64,
        bytes: usize,
    ) -> Result<(), Failure> {
        let d = self.dev();
        let s = self.queues.stream(d, q)?;
        let fail = |e: String| Failure::with("copy from the device failed", e);
        if self.is_pinned(dst) {
            // SAFETY: per the caller.
            return unsafe { d.plugin.memcpy_dtoh_async(d.ordinal, dst, src, bytes, s) }
                .map_err(fail);
        }
        let max = self.asyncmem.max_piece();
        for (off, len) in crate::pipeline::chunks(bytes, max) {
            let Some((base, at)) = self.piece(len)? else {
                self.settle(q)?;
                // SAFETY: per the caller.
                return unsafe {
                    d.plugin.memcpy_dtoh(
                        d.ordinal,
                        dst.byte_add(off),
                        src + off as u64,
                        bytes - off,
                    )
                }
                .map_err(fail);
            };
            let buf = base + at;
            // SAFETY: the piece holds len bytes; the host copy out of it
            // follows the DMA in queue order.
            unsafe {
                d.plugin
                    .memcpy_dtoh_async(d.ordinal, buf as *mut c_void, src + off as u64, len, s)
                    .map_err(fail)?;
            }
            // The host copy runs on the queue's drain stream once the DMA is
            // done: the queue's next work does not wait for it.
            // SAFETY: the queue's own stream.
            let e = unsafe { self.queues.mark_stream(d, s) }?;
            let ds = self.queues.drain_stream(d, q)?;
            // SAFETY: an event and a stream of this device.
            let r = unsafe { d.plugin.stream_wait_event(d.ordinal, ds, e as *mut c_void) };
            self.queues.give_back(e);
            r.map_err(fail)?;
            let to = dst as usize + off;
            queue_host_copy(d, ds, to, buf, len).map_err(fail)?;
            self.lend(ds, at, len, (to, to + len))?;
        }
        Ok(())
    }

    /// Queue the zeroing of `bytes` at `dst` on queue `q`.
    pub(crate) fn zero_on(&mut self, q: u32, dst: u64, bytes: usize) -> Result<(), Failure> {
        let d = self.dev();
        let s = self.queues.stream(d, q)?;
        // SAFETY: a stream of this device; the range is the caller's.
        unsafe { d.plugin.memset_zero_async(d.ordinal, dst, bytes, s) }
            .map_err(|e| Failure::with("cannot zero device memory", e))
    }

    /// Queue a device-to-device copy on queue `q`.
    pub(crate) fn device_copy_on(
        &mut self,
        q: u32,
        dst: u64,
        src: u64,
        bytes: usize,
    ) -> Result<(), Failure> {
        let d = self.dev();
        let s = self.queues.stream(d, q)?;
        // SAFETY: a stream of this device; the ranges are the caller's.
        unsafe { d.plugin.memcpy_dtod_async(d.ordinal, dst, src, bytes, s) }
            .map_err(|e| Failure::with("copy on the device failed", e))
    }

    /// Release block `p` once queue `q` has got past the work queued so far.
    pub(crate) fn free_on(&mut self, q: u32, p: u64) -> Result<(), Failure> {
        match self.queues.mark(self.dev(), q) {
            Ok(e) => {
                self.asyncmem.pending.push((p, e));
                Ok(())
            }
            Err(_) => {
                self.settle(q)?;
                crate::queue::run(self, Queue::Sync, |dev| dev.free(p))
            }
        }
    }

    /// Give back to the allocator the pending blocks whose queues got past
    /// their release, and to the ring the pieces whose copies completed.
    pub fn reclaim(&mut self) -> Result<(), Failure> {
        let d = self.dev();
        let mut i = 0;
        while i < self.asyncmem.pending.len() {
            let (p, e) = self.asyncmem.pending[i];
            if done(d, e) {
                self.asyncmem.pending.swap_remove(i);
                self.queues.give_back(e);
                self.release_block(p)?;
            } else {
                i += 1;
            }
        }
        Ok(())
    }

    /// Wait until every pending block is free and give them back (the
    /// device is out of memory).
    pub(crate) fn reclaim_all(&mut self) -> Result<bool, Failure> {
        let d = self.dev();
        let pending = std::mem::take(&mut self.asyncmem.pending);
        let any = !pending.is_empty();
        for (p, e) in pending {
            wait(d, e).map_err(|err| Failure::with("an async queue failed", err))?;
            self.queues.give_back(e);
            self.release_block(p)?;
        }
        Ok(any)
    }
}
