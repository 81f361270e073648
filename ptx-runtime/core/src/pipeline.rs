//! The chunked copy-and-launch pipeline: the one interface through which a
//! transfer (and, later, the computation on it) is cut into chunks that
//! move through a few page-locked slots on one queue, so that the host's
//! copies, the DMAs and the device's work on different chunks overlap.
//!
//! A [`Pipeline`] is the device side of one such pipeline on one queue:
//! a slot for each chunk in flight ([`Pipeline::acquire`]: free for the
//! chunk once the slot's earlier use is over), filling and draining a slot
//! (host work, or work queued after the slot's DMA), DMAs between a slot
//! and the device and a launch on a chunk (queued work), marking the
//! slot's place in the queue, finishing. Implementations: the synchronous
//! staged copies of [`crate::devmem`] (two pinned buffers taken in turn,
//! each with an event; draining waits for it) and the async copies of
//! [`crate::asyncmem`] (slots are pieces of the pinned ring,
//! [`crate::ring`], lent per chunk; a drain is a host function queued
//! after the chunk's DMA, and nothing is waited for). A pipelined
//! out-of-core construct (PACC) is meant to implement
//! [`Pipeline::launch`] and run copy-in, launch and copy-out per chunk
//! through the same slots.
//!
//! Owns: [`chunks`], [`Pipeline`], the copy pipelines [`to_device`] and
//! [`to_host`] (written against the trait so they are tested without a
//! GPU).
//! May call: nothing else in the crate.

/// The chunks `(offset, length)` of a transfer of `bytes` in pieces of at
/// most `chunk` bytes (none for 0 bytes).
pub fn chunks(bytes: usize, chunk: usize) -> impl Iterator<Item = (usize, usize)> {
    let chunk = chunk.max(1);
    (0..bytes.div_ceil(chunk)).map(move |k| {
        let off = k * chunk;
        (off, chunk.min(bytes - off))
    })
}

/// The device side of a pipeline on one queue: slots (page-locked
/// buffers) that carry one chunk at a time.
pub trait Pipeline {
    /// The slot that carries chunk `index` (`len` bytes), once nothing
    /// queued before still uses it.
    fn acquire(&mut self, index: usize, len: usize) -> Result<usize, String>;
    /// Queue the computation on chunk `index` (bytes `offset..offset+len`
    /// of the transfer) after the work queued so far: for a pipeline that
    /// computes on each chunk (PACC); the copy pipelines here never call it.
    fn launch(&mut self, index: usize, offset: usize, len: usize) -> Result<(), String> {
        let _ = (index, offset, len);
        Err("this pipeline does not compute on its chunks".to_string())
    }
    /// Copy `len` bytes from host `src` into slot `slot` (host work).
    ///
    /// # Safety
    /// `src` must be readable for `len` bytes (as long as the pipeline
    /// says); `len` at most the slot's size.
    unsafe fn fill(&mut self, slot: usize, src: *const u8, len: usize) -> Result<(), String>;
    /// Queue a DMA of `len` bytes from slot `slot` to device `dst`.
    fn dma_to_device(&mut self, slot: usize, dst: u64, len: usize) -> Result<(), String>;
    /// Queue a DMA of `len` bytes from device `src` into slot `slot`.
    fn dma_to_host(&mut self, slot: usize, src: u64, len: usize) -> Result<(), String>;
    /// Mark slot `slot`'s place in the queue: after the work queued so far.
    fn record(&mut self, slot: usize) -> Result<(), String>;
    /// Copy `len` bytes of slot `slot` to host `dst`, after its DMA (the
    /// host waits for it, or the copy is queued after it).
    ///
    /// # Safety
    /// `dst` must be writable for `len` bytes (until the copy is done);
    /// `len` at most the slot's size.
    unsafe fn drain(&mut self, slot: usize, dst: *mut u8, len: usize) -> Result<(), String>;
    /// The end of the transfer (or of a failed one): wait for what the
    /// pipeline waits for (a synchronous one: everything queued).
    fn finish(&mut self) -> Result<(), String>;
}

/// Run `steps`, then [`Pipeline::finish`] (also after a failure, which
/// wins).
fn finished(
    ops: &mut dyn Pipeline,
    steps: impl FnOnce(&mut dyn Pipeline) -> Result<(), String>,
) -> Result<(), String> {
    match steps(ops) {
        Ok(()) => ops.finish(),
        Err(e) => {
            let _ = ops.finish();
            Err(e)
        }
    }
}

/// Copy `bytes` from host `src` to device `dst` in chunks of `chunk`
/// bytes: per chunk, take a slot, fill it, queue its DMA, mark it; the
/// fill of the next chunk overlaps that DMA.
///
/// # Safety
/// `src` must be readable for `bytes` bytes (as long as `ops` says).
pub unsafe fn to_device(
    ops: &mut dyn Pipeline,
    dst: u64,
    src: *const u8,
    bytes: usize,
    chunk: usize,
) -> Result<(), String> {
    finished(ops, |ops| {
        for (k, (off, len)) in chunks(bytes, chunk).enumerate() {
            let slot = ops.acquire(k, len)?;
            // SAFETY: off + len <= bytes, readable per the caller.
            unsafe { ops.fill(slot, src.add(off), len) }?;
            ops.dma_to_device(slot, dst + off as u64, len)?;
            ops.record(slot)?;
        }
        Ok(())
    })
}

/// Copy `bytes` from device `src` to host `dst` in chunks of `chunk`
/// bytes: the DMA of chunk k+1 is queued before chunk k is drained.
///
/// # Safety
/// `dst` must be writable for `bytes` bytes (as long as `ops` says).
pub unsafe fn to_host(
    ops: &mut dyn Pipeline,
    dst: *mut u8,
    src: u64,
    bytes: usize,
    chunk: usize,
) -> Result<(), String> {
    finished(ops, |ops| {
        let mut last: Option<(usize, usize, usize)> = None;
        for (k, (off, len)) in chunks(bytes, chunk).enumerate() {
            let slot = ops.acquire(k, len)?;
            ops.dma_to_host(slot, src + off as u64, len)?;
            ops.record(slot)?;
            if let Some((s, o, l)) = last.replace((slot, off, len)) {
                // SAFETY: o + l <= bytes, writable per the caller.
                unsafe { ops.drain(s, dst.add(o), l) }?;
            }
        }
        match last {
            // SAFETY: as above.
            Some((s, o, l)) => unsafe { ops.drain(s, dst.add(o), l) },
            None => Ok(()),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::staging::chunk_for;

    /// A device of host memory: DMAs happen when queued, and the log says
    /// what was done, so the tests check the order of the pipeline.
    const BASE: u64 = 0x10_0000;

    struct Fake {
        device: Vec<u8>,
        bufs: [Vec<u8>; 2],
        log: Vec<String>,
        /// Events recorded and not waited for yet, per buffer.
        pending: [bool; 2],
        fail_dma_at: Option<usize>,
        dmas: usize,
    }

    impl Fake {
        fn new(bytes: usize, chunk: usize) -> Fake {
            Fake {
                device: vec![0; bytes],
                bufs: [vec![0; chunk], vec![0; chunk]],
                log: vec![],
                pending: [false; 2],
                fail_dma_at: None,
                dmas: 0,
            }
        }
        fn dev(&mut self, d: u64, len: usize) -> &mut [u8] {
            let o = (d - BASE) as usize;
            &mut self.device[o..o + len]
        }
        fn dma(&mut self) -> Result<(), String> {
            self.dmas += 1;
            if self.fail_dma_at == Some(self.dmas) {
                return Err("cuMemcpyHtoDAsync: CUDA_ERROR_LAUNCH_FAILED".into());
            }
            Ok(())
        }
    }

    impl Pipeline for Fake {
        /// Slot `index % 2`, after waiting for its event when recorded.
        fn acquire(&mut self, index: usize, _: usize) -> Result<usize, String> {
            let buf = index % 2;
            if self.pending[buf] {
                self.pending[buf] = false;
                self.log.push(format!("wait {buf}"));
            }
            Ok(buf)
        }
        unsafe fn fill(&mut self, buf: usize, src: *const u8, len: usize) -> Result<(), String> {
            assert!(
                !self.pending[buf],
                "buffer {buf} refilled while its DMA may run"
            );
            let s = unsafe { std::slice::from_raw_parts(src, len) };
            self.bufs[buf][..len].copy_from_slice(s);
            self.log.push(format!("fill {buf} {len}"));
            Ok(())
        }
        unsafe fn drain(&mut self, buf: usize, dst: *mut u8, len: usize) -> Result<(), String> {
            if self.pending[buf] {
                self.pending[buf] = false;
                self.log.push(format!("wait {buf}"));
            }
            let d = unsafe { std::slice::from_raw_parts_mut(dst, len) };
            d.copy_from_slice(&self.bufs[buf][..len]);
            self.log.push(format!("drain {buf} {len}"));
            Ok(())
        }
        fn dma_to_device(&mut self, buf: usize, dst: u64, len: usize) -> Result<(), String> {
            self.dma()?;
            let data = self.bufs[buf][..len].to_vec();
            self.dev(dst, len).copy_from_slice(&data);
            self.log.push(format!("dma {buf}->{:#x} {len}", dst - BASE));
            Ok(())
        }
        fn dma_to_host(&mut self, buf: usize, src: u64, len: usize) -> Result<(), String> {
            assert!(
                !self.pending[buf],
                "buffer {buf} overwritten before it was drained"
            );
            self.dma()?;
            let data = self.dev(src, len).to_vec();
            self.bufs[buf][..len].copy_from_slice(&data);
            self.log.push(format!("dma {:#x}->{buf} {len}", src - BASE));
            Ok(())
        }
        fn record(&mut self, buf: usize) -> Result<(), String> {
            self.pending[buf] = true;
            self.log.push(format!("record {buf}"));
            Ok(())
        }
        fn finish(&mut self) -> Result<(), String> {
            self.pending = [false; 2];
            self.log.push("finish".into());
            Ok(())
        }
    }

    fn pattern(n: usize) -> Vec<u8> {
        (0..n).map(|i| (i * 7 + i / 251) as u8).collect()
    }

    #[test]
    fn chunking() {
        assert_eq!(chunks(0, 16).count(), 0);
        assert_eq!(chunks(10, 16).collect::<Vec<_>>(), [(0, 10)]);
        assert_eq!(chunks(32, 16).collect::<Vec<_>>(), [(0, 16), (16, 16)]);
        assert_eq!(
            chunks(40, 16).collect::<Vec<_>>(),
            [(0, 16), (16, 16), (32, 8)]
        );
        let total: usize = chunks((1 << 30) + 5, 16 << 20).map(|c| c.1).sum();
        assert_eq!(total, (1 << 30) + 5);
        assert_eq!(chunks(1 << 30, 16 << 20).count(), 64);
    }

    #[test]
    fn small_transfers_still_overlap() {
        let buf = 32 << 20;
        assert_eq!(chunk_for(1 << 30, buf), buf);
        assert_eq!(chunk_for(128 << 20, buf), buf);
        assert_eq!(chunk_for(64 << 20, buf), 16 << 20);
        assert_eq!(chunk_for(1 << 20, buf), 256 << 10);
        assert_eq!(chunk_for((3 << 20) + 1, buf), (3 << 18) + 4096);
        assert_eq!(chunks(16 << 20, chunk_for(16 << 20, buf)).count(), 4);
    }

    #[test]
    fn to_device_double_buffers() {
        let src = pattern(40);
        let mut f = Fake::new(40, 16);
        unsafe { to_device(&mut f, BASE, src.as_ptr(), 40, 16) }.unwrap();
        assert_eq!(f.device, src);
        assert_eq!(
            f.log,
            [
                "fill 0 16",
                "dma 0->0x0 16",
                "record 0",
                "fill 1 16",
                "dma 1->0x10 16",
                "record 1",
                "wait 0",
                "fill 0 8",
                "dma 0->0x20 8",
                "record 0",
                "finish"
            ]
        );
    }

    #[test]
    fn to_host_queues_the_next_chunk_before_draining() {
        let mut f = Fake::new(40, 16);
        f.device = pattern(40);
        let mut dst = vec![0u8; 40];
        unsafe { to_host(&mut f, dst.as_mut_ptr(), BASE, 40, 16) }.unwrap();
        assert_eq!(dst, pattern(40));
        assert_eq!(
            f.log,
            [
                "dma 0x0->0 16",
                "record 0",
                "dma 0x10->1 16",
                "record 1",
                "wait 0",
                "drain 0 16",
                "dma 0x20->0 8",
                "record 0",
                "wait 1",
                "drain 1 16",
                "wait 0",
                "drain 0 8",
                "finish"
            ]
        );
    }

    #[test]
    fn big_transfers_round_trip() {
        let n = 1_000_003;
        let src = pattern(n);
        let mut f = Fake::new(n, 4096);
        unsafe { to_device(&mut f, BASE, src.as_ptr(), n, 4096) }.unwrap();
        let mut back = vec![0u8; n];
        unsafe { to_host(&mut f, back.as_mut_ptr(), BASE, n, 4096) }.unwrap();
        assert!(back == src);
        // Offsets inside the device range.
        let mut part = vec![0u8; 5000];
        unsafe { to_host(&mut f, part.as_mut_ptr(), BASE + 777, 5000, 4096) }.unwrap();
        assert!(part[..] == src[777..5777]);
    }

    #[test]
    fn errors_stop_the_pipeline_after_draining_the_queue() {
        let src = pattern(64);
        let mut f = Fake::new(64, 16);
        f.fail_dma_at = Some(2);
        let e = unsafe { to_device(&mut f, BASE, src.as_ptr(), 64, 16) }.unwrap_err();
        assert!(e.contains("CUDA_ERROR_LAUNCH_FAILED"));
        assert_eq!(f.log.last().map(String::as_str), Some("finish"));
        let mut f = Fake::new(64, 16);
        f.fail_dma_at = Some(3);
        let mut dst = vec![0u8; 64];
        assert!(unsafe { to_host(&mut f, dst.as_mut_ptr(), BASE, 64, 16) }.is_err());
        assert_eq!(f.log.last().map(String::as_str), Some("finish"));
    }
}
