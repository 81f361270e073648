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
//! The copies through the ring run the chunked pipeline of
//! [`crate::pipeline`] ([`RingOps`] is its ring implementation, as the
//! staged synchronous copies of [`crate::devmem`] are its staging one).
//! Owns: [`AsyncMem`] (the ring's memory and the pending frees), the ring
//! pipeline [`RingOps`], and the `_on` methods of [`DeviceState`] that
//! [`crate::devmem`] calls for work of an async queue.
//! May call: [`crate::ring`], [`crate::queue`] (streams, events),
//! [`crate::hostcopy`], [`crate::staging`] (copy-thread settings),
//! [`crate::pipeline`], [`crate::plugin`] (through the device
//! state), [`crate::error`].

use crate::device::Dev;
use crate::device::DeviceState;
use crate::error::Failure;
use crate::pipeline::{self, Pipeline};
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

/// The async copies' [`Pipeline`] on queue `q`: a slot is a piece of the
/// pinned ring taken for its chunk (waiting, at worst, for the oldest
/// pieces) and lent to the queue once its work is queued; nothing is
/// waited for at the end. A chunk to the device is filled now by the
/// calling thread (after any queued copy out that still writes its
/// bytes, for program memory); a chunk to the host is drained by a host
/// function on the queue's drain stream, after the chunk's DMA.
struct RingOps<'a> {
    dev: &'a mut DeviceState,
    q: u32,
    /// The queue's stream.
    stream: *mut c_void,
    /// The ring's memory.
    base: usize,
    fill: Fill,
    /// A copy to the host (else to the device).
    to_host: bool,
    /// Per slot (the chunk's index): the piece's ring offset and length,
    /// and for a copy to the host the event after its DMA.
    pieces: Vec<(usize, usize, Option<usize>)>,
    /// A failure of the runtime's own (not a driver call's), reported as is.
    failure: Option<Failure>,
}

impl<'a> RingOps<'a> {
    fn new(
        dev: &'a mut DeviceState,
        q: u32,
        stream: *mut c_void,
        base: usize,
        fill: Fill,
        to_host: bool,
    ) -> Self {
        RingOps {
            dev,
            q,
            stream,
            base,
            fill,
            to_host,
            pieces: Vec::new(),
            failure: None,
        }
    }

    /// Keep failure `f` to report, and stop the pipeline.
    fn stop<T>(&mut self, r: Result<T, Failure>) -> Result<T, String> {
        r.map_err(|f| {
            let text = f.what.clone();
            self.failure = Some(f);
            text
        })
    }

    /// The ring offset and length of slot `slot`'s piece.
    fn piece(&self, slot: usize) -> Result<(usize, usize), String> {
        self.pieces
            .get(slot)
            .map(|p| (p.0, p.1))
            .ok_or_else(|| format!("internal error: no ring piece for chunk {slot}"))
    }

    fn at(&self, slot: usize) -> Result<usize, String> {
        self.piece(slot).map(|p| p.0)
    }
}

impl Drop for RingOps<'_> {
    /// The events of chunks a failure left undrained go back to the pool.
    fn drop(&mut self) {
        for e in self.pieces.iter().filter_map(|p| p.2) {
            self.dev.queues.give_back(e);
        }
    }
}

impl Pipeline for RingOps<'_> {
    fn acquire(&mut self, index: usize, len: usize) -> Result<usize, String> {
        let piece = self.dev.piece(len);
        let Some((_, at)) = self.stop(piece)? else {
            return Err("internal error: the pinned ring went away".to_string());
        };
        if self.pieces.len() <= index {
            self.pieces.resize(index + 1, (0, 0, None));
        }
        self.pieces[index] = (at, len, None);
        Ok(index)
    }
    unsafe fn fill(&mut self, slot: usize, src: *const u8, len: usize) -> Result<(), String> {
        let from = src as usize;
        // Program memory that no queued copy out still writes has the
        // bytes the queue would read: copied now, by this thread, while
        // the device works; where a queued copy out still writes it,
        // after that copy (the host waits).
        if self.fill == Fill::InOrder {
            let waited = self.dev.wait_for_writers(from, from + len);
            self.stop(waited)?;
        }
        let buf = self.base + self.at(slot)?;
        let threads = crate::staging::settings().threads;
        // SAFETY: the piece holds len bytes and no queued copy uses it; src
        // readable per the caller.
        unsafe { crate::hostcopy::copy(buf as *mut u8, src, len, threads) };
        Ok(())
    }
    fn dma_to_device(&mut self, slot: usize, dst: u64, len: usize) -> Result<(), String> {
        let buf = self.base + self.at(slot)?;
        let d = self.dev.dev();
        // SAFETY: the piece was filled before the DMA, which it outlives
        // (lent to the queue).
        unsafe {
            d.plugin
                .memcpy_htod_async(d.ordinal, dst, buf as *const c_void, len, self.stream)
        }
    }
    fn dma_to_host(&mut self, slot: usize, src: u64, len: usize) -> Result<(), String> {
        let buf = self.base + self.at(slot)?;
        let d = self.dev.dev();
        // SAFETY: the piece holds len bytes; its drain follows the DMA.
        unsafe {
            d.plugin
                .memcpy_dtoh_async(d.ordinal, buf as *mut c_void, src, len, self.stream)
        }
    }
    /// To the device: lend the piece to the work queued so far. To the
    /// host: mark the end of the chunk's DMA (its drain waits for it).
    fn record(&mut self, slot: usize) -> Result<(), String> {
        let (at, len) = self.piece(slot)?;
        if !self.to_host {
            let lent = self.dev.lend(self.stream, at, len, (0, 0));
            return self.stop(lent);
        }
        let d = self.dev.dev();
        // SAFETY: the queue's own stream.
        let e = unsafe { self.dev.queues.mark_stream(d, self.stream) };
        self.pieces[slot].2 = Some(self.stop(e)?);
        Ok(())
    }
    unsafe fn drain(&mut self, slot: usize, dst: *mut u8, len: usize) -> Result<(), String> {
        let (at, e) = (self.at(slot)?, self.pieces[slot].2.take());
        let d = self.dev.dev();
        let ds = self.dev.queues.drain_stream(d, self.q);
        let ds = self.stop(ds)?;
        if let Some(e) = e {
            // SAFETY: an event and a stream of this device.
            let r = unsafe { d.plugin.stream_wait_event(d.ordinal, ds, e as *mut c_void) };
            self.dev.queues.give_back(e);
            r?;
        }
        let to = dst as usize;
        queue_host_copy(d, ds, to, self.base + at, len)?;
        let lent = self.dev.lend(ds, at, len, (to, to + len));
        self.stop(lent)
    }
    fn finish(&mut self) -> Result<(), String> {
        Ok(())
    }
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
    /// (the bytes are read when `fill` says): straight from page-locked
    /// memory, else through the ring's pieces ([`RingOps`]), else (no
    /// ring) synchronously after the queue.
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
        if bytes == 0 {
            return Ok(());
        }
        let Some((base, _)) = self.asyncmem.ring(d) else {
            self.settle(q)?;
            // SAFETY: per the caller.
            return unsafe { d.plugin.memcpy_htod(d.ordinal, dst, src, bytes) }.map_err(fail);
        };
        let max = self.asyncmem.max_piece();
        let mut ops = RingOps::new(self, q, s, base, fill, false);
        // SAFETY: per the caller.
        let r = unsafe { pipeline::to_device(&mut ops, dst, src.cast(), bytes, max) };
        r.map_err(|e| ops.failure.take().unwrap_or_else(|| fail(e)))
    }

    /// Queue a copy of `bytes` from device `src` to host `dst` on queue `q`
    /// (the bytes are in `dst` when the queue has got past it): straight
    /// into page-locked memory, else through the ring's pieces
    /// ([`RingOps`]), else (no ring) synchronously after the queue.
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
        if bytes == 0 {
            return Ok(());
        }
        let Some((base, _)) = self.asyncmem.ring(d) else {
            self.settle(q)?;
            // SAFETY: per the caller.
            return unsafe { d.plugin.memcpy_dtoh(d.ordinal, dst, src, bytes) }.map_err(fail);
        };
        let max = self.asyncmem.max_piece();
        let mut ops = RingOps::new(self, q, s, base, Fill::InOrder, true);
        // SAFETY: per the caller.
        let r = unsafe { pipeline::to_host(&mut ops, dst.cast(), src, bytes, max) };
        r.map_err(|e| ops.failure.take().unwrap_or_else(|| fail(e)))
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
