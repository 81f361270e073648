//! Device memory of one device: allocation (through the caching allocator)
//! and every copy between host and device memory.
//!
//! Owns: the `impl DeviceState` methods that allocate, free, zero and copy
//! device memory — the only code that calls the plugin's memory and copy
//! entry points — and the device's staging resources ([`Staging`]: two
//! pinned buffers, their events and a stream, made on the first large
//! transfer, released at shutdown). A copy of at least
//! [`staging::MIN_STAGED`] bytes from or to pageable host memory goes
//! through [`crate::pipeline`]'s double-buffered pipeline over them; smaller ones, copies from
//! pinned memory, and every copy when staging is off or its buffers cannot
//! be had go straight to the driver. Work of an async queue (the device's
//! [`DeviceState::queue`], set by [`crate::queue::run`]) goes to
//! [`crate::asyncmem`] instead. Errors are [`Failure`]s whose detail is
//! the driver's error.
//! May call: [`crate::plugin`] (through the device state), [`crate::alloc`],
//! [`crate::staging`], [`crate::pipeline`], [`crate::hostcopy`],
//! [`crate::asyncmem`], [`crate::error`], [`crate::deferred`] (copies to
//! the host and frees wait for the synchronous kernels not yet waited for).

use crate::alloc::RawMemory;
use crate::asyncmem::Fill;
use crate::device::DeviceState;
use crate::error::Failure;
use crate::pipeline::{self, Pipeline};
use crate::plugin::Plugin;
use crate::queue::Queue;
use crate::staging;
use std::ffi::c_void;

/// The driver's allocation calls for one device.
struct Raw<'a> {
    plugin: &'a Plugin,
    ordinal: i32,
}

impl RawMemory for Raw<'_> {
    fn raw_alloc(&self, bytes: usize) -> Result<u64, String> {
        // SAFETY: plain values.
        unsafe { self.plugin.mem_alloc(self.ordinal, bytes) }
    }
    fn raw_free(&self, p: u64) -> Result<(), String> {
        // SAFETY: p came from raw_alloc (the allocator's contract).
        unsafe { self.plugin.mem_free(self.ordinal, p) }
    }
}

/// The pinned buffers of a device (addresses as integers: the device state
/// moves between threads under the runtime lock).
#[derive(Debug)]
pub struct Pinned {
    bufs: [usize; 2],
    events: [usize; 2],
    stream: usize,
    chunk: usize,
}

/// The staging resources of a device.
#[derive(Debug, Default)]
pub enum Staging {
    /// Not needed yet.
    #[default]
    NotYet,
    Ready(Pinned),
    /// Off (`PTXRT_STAGING=0`) or the buffers could not be made: copies go
    /// straight to the driver.
    Unavailable,
}

/// The staging [`Pipeline`] over the plugin: the two pinned buffers
/// taken in turn, their events and stream. A buffer whose event was
/// recorded is waited for before it is used again or drained.
struct Ops<'a> {
    plugin: &'a Plugin,
    ordinal: i32,
    p: &'a Pinned,
    threads: usize,
    /// Buffers whose event was recorded and not waited for yet.
    pending: [bool; 2],
}

impl<'a> Ops<'a> {
    fn new(plugin: &'a Plugin, ordinal: i32, p: &'a Pinned) -> Ops<'a> {
        Ops {
            plugin,
            ordinal,
            p,
            threads: staging::settings().threads,
            pending: [false; 2],
        }
    }

    /// Wait for buffer `buf`'s event if it was recorded.
    fn settle(&mut self, buf: usize) -> Result<(), String> {
        if !std::mem::take(&mut self.pending[buf]) {
            return Ok(());
        }
        let e = self.p.events[buf] as *mut c_void;
        // SAFETY: made by make_pinned on this device.
        unsafe { self.plugin.event_synchronize(self.ordinal, e) }
    }
}

impl Pipeline for Ops<'_> {
    fn acquire(&mut self, index: usize, _: usize) -> Result<usize, String> {
        let buf = index % 2;
        self.settle(buf)?;
        Ok(buf)
    }
    unsafe fn fill(&mut self, buf: usize, src: *const u8, len: usize) -> Result<(), String> {
        // SAFETY: the buffer holds `chunk >= len` bytes; src per the caller.
        unsafe { crate::hostcopy::copy(self.p.bufs[buf] as *mut u8, src, len, self.threads) };
        Ok(())
    }
    unsafe fn drain(&mut self, buf: usize, dst: *mut u8, len: usize) -> Result<(), String> {
        self.settle(buf)?;
        // SAFETY: as for fill.
        unsafe { crate::hostcopy::copy(dst, self.p.bufs[buf] as *const u8, len, self.threads) };
        Ok(())
    }
    fn dma_to_device(&mut self, buf: usize, dst: u64, len: usize) -> Result<(), String> {
        let src = self.p.bufs[buf] as *const c_void;
        // SAFETY: the pinned buffer stays valid until the stream is synchronised.
        unsafe {
            self.plugin
                .memcpy_htod_async(self.ordinal, dst, src, len, self.p.stream as *mut c_void)
        }
    }
    fn dma_to_host(&mut self, buf: usize, src: u64, len: usize) -> Result<(), String> {
        let dst = self.p.bufs[buf] as *mut c_void;
        // SAFETY: as above.
        unsafe {
            self.plugin
                .memcpy_dtoh_async(self.ordinal, dst, src, len, self.p.stream as *mut c_void)
        }
    }
    fn record(&mut self, buf: usize) -> Result<(), String> {
        let (e, s) = (self.p.events[buf], self.p.stream);
        // SAFETY: made by make_pinned on this device.
        unsafe {
            self.plugin
                .event_record(self.ordinal, e as *mut c_void, s as *mut c_void)
        }?;
        self.pending[buf] = true;
        Ok(())
    }
    fn finish(&mut self) -> Result<(), String> {
        self.pending = [false; 2];
        let s = self.p.stream as *mut c_void;
        // SAFETY: made by make_pinned on this device.
        unsafe { self.plugin.stream_synchronize(self.ordinal, s) }
    }
}

/// Make the pinned buffers, events and stream of a device (all or nothing).
fn make_pinned(plugin: &Plugin, ordinal: i32, chunk: usize) -> Result<Pinned, String> {
    let mut p = Pinned {
        bufs: [0; 2],
        events: [0; 2],
        stream: 0,
        chunk,
    };
    // SAFETY: plain values; the handles are kept in `p`.
    let made = (|| -> Result<(), String> {
        for i in 0..2 {
            p.bufs[i] = unsafe { plugin.host_alloc(ordinal, chunk) }? as usize;
            p.events[i] = unsafe { plugin.event_create(ordinal) }? as usize;
        }
        p.stream = unsafe { plugin.stream_create(ordinal, 0) }? as usize;
        Ok(())
    })();
    match made {
        Ok(()) => Ok(p),
        Err(e) => {
            free_pinned(plugin, ordinal, &p);
            Err(e)
        }
    }
}

/// Release what [`make_pinned`] made (the zero handles are skipped).
fn free_pinned(plugin: &Plugin, ordinal: i32, p: &Pinned) {
    // SAFETY: the handles were made by make_pinned on this device and are
    // released once (the caller drops `p`).
    unsafe {
        for i in 0..2 {
            if p.bufs[i] != 0 {
                let _ = plugin.host_free(ordinal, p.bufs[i] as *mut c_void);
            }
            if p.events[i] != 0 {
                let _ = plugin.event_destroy(ordinal, p.events[i] as *mut c_void);
            }
        }
        if p.stream != 0 {
            let _ = plugin.stream_destroy(ordinal, p.stream as *mut c_void);
        }
    }
}

impl DeviceState {
    /// `bytes` (> 0) of device memory: out of memory is a failure naming
    /// the size. Blocks that async queues have finished with are taken back
    /// first; when the device is full, after waiting for the others.
    pub fn alloc(&mut self, bytes: usize) -> Result<u64, Failure> {
        self.reclaim()?;
        let raw = Raw {
            plugin: self.plugin,
            ordinal: self.ordinal,
        };
        let mut r = self.alloc.alloc(&raw, bytes);
        if r.is_err() && self.reclaim_all()? {
            r = self.alloc.alloc(&raw, bytes);
        }
        r.map_err(|e| {
            Failure::with(
                format!("out of device memory: cannot allocate {bytes} bytes"),
                e,
            )
        })
    }

    /// Give back device memory from [`DeviceState::alloc`] (on an async
    /// queue: once the queue has got past the work queued so far).
    pub fn free(&mut self, d: u64) -> Result<(), Failure> {
        match self.queue {
            Queue::Id(q) => self.free_on(q, d),
            Queue::Sync => self.release_block(d),
        }
    }

    /// Give block `d` back to the allocator now (after the synchronous
    /// kernels not yet waited for, which may use it).
    pub(crate) fn release_block(&mut self, d: u64) -> Result<(), Failure> {
        crate::deferred::settle();
        let raw = Raw {
            plugin: self.plugin,
            ordinal: self.ordinal,
        };
        self.alloc
            .free(&raw, d)
            .map_err(|e| Failure::with("cannot free device memory", e))
    }

    /// Zero `bytes` of device memory at `d`.
    pub fn zero(&mut self, d: u64, bytes: usize) -> Result<(), Failure> {
        if let Queue::Id(q) = self.queue {
            return self.zero_on(q, d, bytes);
        }
        // SAFETY: plain values (the device range is the caller's).
        unsafe { self.plugin.memset_zero(self.ordinal, d, bytes) }
            .map_err(|e| Failure::with("cannot zero device memory", e))
    }

    /// Copy `bytes` between device addresses.
    pub fn device_to_device(&mut self, dst: u64, src: u64, bytes: usize) -> Result<(), Failure> {
        if let Queue::Id(q) = self.queue {
            return self.device_copy_on(q, dst, src, bytes);
        }
        // SAFETY: plain values (the device ranges are the caller's).
        unsafe { self.plugin.memcpy_dtod(self.ordinal, dst, src, bytes) }
            .map_err(|e| Failure::with("copy on the device failed", e))
    }

    /// The staging buffers when a copy of `bytes` from or to host address
    /// `host` should be staged (made on first use).
    fn stage_for(&mut self, host: *const c_void, bytes: usize) -> Option<&Pinned> {
        let s = staging::settings();
        if bytes < staging::MIN_STAGED || !s.enabled {
            return None;
        }
        if let Staging::NotYet = self.staging {
            self.staging = match make_pinned(self.plugin, self.ordinal, s.chunk) {
                Ok(p) => Staging::Ready(p),
                Err(e) => {
                    crate::notify::debug(&format!(
                        "no staging buffers, copies go to the driver: {e}"
                    ));
                    Staging::Unavailable
                }
            };
        }
        // Pinned memory is DMA'd directly, faster without staging.
        // SAFETY: the address is only looked up.
        if unsafe { self.plugin.host_is_pinned(self.ordinal, host) }.is_ok_and(|p| p != 0) {
            return None;
        }
        match &self.staging {
            Staging::Ready(p) => Some(p),
            _ => None,
        }
    }

    /// Copy `bytes` from host `src` to device `dst`.
    ///
    /// # Safety
    /// `src` must be readable for `bytes` bytes.
    pub unsafe fn to_device(
        &mut self,
        dst: u64,
        src: *const c_void,
        bytes: usize,
    ) -> Result<(), Failure> {
        if let Queue::Id(q) = self.queue {
            // SAFETY: per the caller.
            return unsafe { self.copy_in_on(q, dst, src, bytes, Fill::InOrder) };
        }
        let (plugin, ordinal) = (self.plugin, self.ordinal);
        let r = match self.stage_for(src, bytes) {
            Some(p) => {
                let mut ops = Ops::new(plugin, ordinal, p);
                // SAFETY: src readable per the caller.
                unsafe {
                    pipeline::to_device(
                        &mut ops,
                        dst,
                        src.cast(),
                        bytes,
                        staging::chunk_for(bytes, p.chunk),
                    )
                }
            }
            // SAFETY: as above.
            None => unsafe { plugin.memcpy_htod(ordinal, dst, src, bytes) },
        };
        r.map_err(|e| Failure::with("copy to the device failed", e))
    }

    /// Copy `bytes` from device `src` to host `dst`.
    ///
    /// # Safety
    /// `dst` must be writable for `bytes` bytes.
    pub unsafe fn to_host(
        &mut self,
        dst: *mut c_void,
        src: u64,
        bytes: usize,
    ) -> Result<(), Failure> {
        // The host sees the results of the kernels not yet waited for.
        crate::deferred::settle();
        if let Queue::Id(q) = self.queue {
            // SAFETY: per the caller.
            return unsafe { self.copy_out_on(q, dst, src, bytes) };
        }
        let (plugin, ordinal) = (self.plugin, self.ordinal);
        let r = match self.stage_for(dst, bytes) {
            Some(p) => {
                let mut ops = Ops::new(plugin, ordinal, p);
                // SAFETY: dst writable per the caller.
                unsafe {
                    pipeline::to_host(
                        &mut ops,
                        dst.cast(),
                        src,
                        bytes,
                        staging::chunk_for(bytes, p.chunk),
                    )
                }
            }
            // SAFETY: as above.
            None => unsafe { plugin.memcpy_dtoh(ordinal, dst, src, bytes) },
        };
        r.map_err(|e| Failure::with("copy from the device failed", e))
    }

    /// Write one pointer-sized value into device memory at `d`.
    pub fn write_pointer(&mut self, d: u64, value: u64) -> Result<(), Failure> {
        let v = value;
        let p = (&v as *const u64).cast();
        match self.queue {
            // SAFETY: a local of 8 bytes, read before the call returns.
            Queue::Id(q) => unsafe { self.copy_in_on(q, d, p, 8, Fill::Now) },
            // SAFETY: as above.
            Queue::Sync => unsafe { self.to_device(d, p, 8) },
        }
    }

    /// Free and total memory of the device.
    pub fn mem_info(&self) -> Result<(u64, u64), String> {
        // SAFETY: plain value.
        unsafe { self.plugin.mem_get_info(self.ordinal) }
    }

    /// Shutdown: the staging resources and every allocation.
    pub fn release_memory(&mut self) {
        if let Staging::Ready(p) = std::mem::take(&mut self.staging) {
            free_pinned(self.plugin, self.ordinal, &p);
        }
        let raw = Raw {
            plugin: self.plugin,
            ordinal: self.ordinal,
        };
        self.alloc.release_all(&raw);
    }
}
