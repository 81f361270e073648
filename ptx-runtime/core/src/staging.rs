//! Large transfers between pageable host memory and the device at full
//! bandwidth: staged through two page-locked ("pinned") buffers.
//!
//! A DMA engine reads and writes only page-locked memory; for pageable
//! memory the driver copies through its own small staging buffers, one after
//! the other. Here the transfer is cut into chunks of the buffers' size and
//! double-buffered: while chunk k is DMA'd out of (or into) one buffer, the
//! host copies chunk k+1 into (or chunk k-1 out of) the other, so the host
//! copy and the DMA overlap and the transfer runs at the slower of the two
//! (the host copy is itself spread over a few threads, [`crate::hostcopy`]).
//!
//! Owns: the chunking ([`chunks`]), the two pipelines ([`to_device`],
//! [`to_host`]) written against [`StageOps`] so they are tested without a
//! GPU, the tuning knobs (environment, read once: `PTXRT_STAGING=0` turns
//! staging off, `PTXRT_STAGING_MIB` sets the buffer size, default
//! [`DEFAULT_MIB`], `PTXRT_COPY_THREADS` the threads of a host copy, default
//! one per core up to [`MAX_DEFAULT_THREADS`]).
//! May call: nothing else in the crate (the device side is [`StageOps`],
//! implemented over the plugin and [`crate::hostcopy`] by [`crate::devmem`]).

use std::sync::OnceLock;

/// Transfers smaller than this go straight to the driver.
pub const MIN_STAGED: usize = 1 << 20;

/// The staging settings of this process.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Stage at all.
    pub enabled: bool,
    /// Bytes of each of the two buffers.
    pub chunk: usize,
    /// Threads of one host copy.
    pub threads: usize,
}

fn env_usize(name: &str) -> Option<usize> {
    std::env::var(name).ok()?.trim().parse().ok()
}

/// Default threads of a host copy: one per core, at most 16. Measured on an
/// H100 over PCIe 5 (16 cores), 1 GiB from pageable memory: 4 threads 28
/// GB/s, 8 threads 34, 16 threads 50 (the pinned ceiling is 55).
pub const MAX_DEFAULT_THREADS: usize = 16;
/// Default staging buffer size in MiB (16 MiB buffers ran 5% slower, 64 MiB
/// ones no faster and less steadily).
pub const DEFAULT_MIB: usize = 32;

/// The settings, from the environment (read once).
pub fn settings() -> Settings {
    static S: OnceLock<Settings> = OnceLock::new();
    *S.get_or_init(|| {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        Settings {
            enabled: env_usize("PTXRT_STAGING") != Some(0),
            chunk: env_usize("PTXRT_STAGING_MIB")
                .filter(|m| (1..=1024).contains(m))
                .unwrap_or(DEFAULT_MIB)
                << 20,
            threads: env_usize("PTXRT_COPY_THREADS")
                .filter(|t| (1..=64).contains(t))
                .unwrap_or(cores.clamp(1, MAX_DEFAULT_THREADS)),
        }
    })
}

/// The chunk size for a transfer of `bytes` through buffers of `buffer`
/// bytes: the buffer size, or less for a transfer of fewer than four
/// buffers, so that it still has four chunks to overlap (never below
/// [`MIN_STAGED`] / 4; a multiple of 4 KiB).
pub fn chunk_for(bytes: usize, buffer: usize) -> usize {
    bytes
        .div_ceil(4)
        .next_multiple_of(4096)
        .clamp(MIN_STAGED / 4, buffer.max(MIN_STAGED / 4))
}

/// The chunks `(offset, length)` of a transfer of `bytes` in pieces of at
/// most `chunk` bytes (none for 0 bytes).
pub fn chunks(bytes: usize, chunk: usize) -> impl Iterator<Item = (usize, usize)> {
    let chunk = chunk.max(1);
    (0..bytes.div_ceil(chunk)).map(move |k| {
        let off = k * chunk;
        (off, chunk.min(bytes - off))
    })
}

/// The device-side operations of a staged transfer on one queue, with two
/// page-locked buffers (0 and 1) and one event per buffer.
pub trait StageOps {
    /// Copy `len` bytes from host `src` into buffer `buf` (host work).
    ///
    /// # Safety
    /// `src` must be readable for `len` bytes; `len` at most the buffer size.
    unsafe fn fill(&mut self, buf: usize, src: *const u8, len: usize);
    /// Copy `len` bytes from buffer `buf` to host `dst` (host work).
    ///
    /// # Safety
    /// `dst` must be writable for `len` bytes; `len` at most the buffer size.
    unsafe fn drain(&mut self, buf: usize, dst: *mut u8, len: usize);
    /// Queue a DMA of `len` bytes from buffer `buf` to device `dst`.
    fn dma_to_device(&mut self, buf: usize, dst: u64, len: usize) -> Result<(), String>;
    /// Queue a DMA of `len` bytes from device `src` into buffer `buf`.
    fn dma_to_host(&mut self, buf: usize, src: u64, len: usize) -> Result<(), String>;
    /// Record buffer `buf`'s event after the work queued so far.
    fn record(&mut self, buf: usize) -> Result<(), String>;
    /// Wait for buffer `buf`'s event.
    fn wait(&mut self, buf: usize) -> Result<(), String>;
    /// Wait for everything queued.
    fn finish(&mut self) -> Result<(), String>;
}

/// Copy `bytes` from host `src` to device `dst` through the two buffers of
/// `chunk` bytes: fill buffer k%2 (after its previous DMA is done), queue its
/// DMA, record its event; the fill of the next chunk overlaps that DMA.
///
/// # Safety
/// `src` must be readable for `bytes` bytes.
pub unsafe fn to_device(
    ops: &mut dyn StageOps,
    dst: u64,
    src: *const u8,
    bytes: usize,
    chunk: usize,
) -> Result<(), String> {
    let mut used = [false; 2];
    for (k, (off, len)) in chunks(bytes, chunk).enumerate() {
        let b = k % 2;
        if used[b] {
            if let Err(e) = ops.wait(b) {
                let _ = ops.finish();
                return Err(e);
            }
        }
        // SAFETY: off + len <= bytes, readable per the caller.
        unsafe { ops.fill(b, src.add(off), len) };
        let queued = ops
            .dma_to_device(b, dst + off as u64, len)
            .and_then(|()| ops.record(b));
        if let Err(e) = queued {
            let _ = ops.finish();
            return Err(e);
        }
        used[b] = true;
    }
    ops.finish()
}

/// Copy `bytes` from device `src` to host `dst` through the two buffers:
/// the DMA of chunk k+1 into one buffer is queued before the host drains
/// chunk k from the other.
///
/// # Safety
/// `dst` must be writable for `bytes` bytes.
pub unsafe fn to_host(
    ops: &mut dyn StageOps,
    dst: *mut u8,
    src: u64,
    bytes: usize,
    chunk: usize,
) -> Result<(), String> {
    let all: Vec<(usize, usize)> = chunks(bytes, chunk).collect();
    let queue = |ops: &mut dyn StageOps, k: usize| -> Result<(), String> {
        let (off, len) = all[k];
        ops.dma_to_host(k % 2, src + off as u64, len)?;
        ops.record(k % 2)
    };
    let run = |ops: &mut dyn StageOps| -> Result<(), String> {
        if all.is_empty() {
            return Ok(());
        }
        queue(ops, 0)?;
        for k in 0..all.len() {
            if k + 1 < all.len() {
                queue(ops, k + 1)?;
            }
            ops.wait(k % 2)?;
            let (off, len) = all[k];
            // SAFETY: off + len <= bytes, writable per the caller.
            unsafe { ops.drain(k % 2, dst.add(off), len) };
        }
        Ok(())
    };
    match run(ops) {
        Ok(()) => ops.finish(),
        Err(e) => {
            let _ = ops.finish();
            Err(e)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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

    impl StageOps for Fake {
        unsafe fn fill(&mut self, buf: usize, src: *const u8, len: usize) {
            assert!(
                !self.pending[buf],
                "buffer {buf} refilled while its DMA may run"
            );
            let s = unsafe { std::slice::from_raw_parts(src, len) };
            self.bufs[buf][..len].copy_from_slice(s);
            self.log.push(format!("fill {buf} {len}"));
        }
        unsafe fn drain(&mut self, buf: usize, dst: *mut u8, len: usize) {
            assert!(
                !self.pending[buf],
                "buffer {buf} drained before its DMA ended"
            );
            let d = unsafe { std::slice::from_raw_parts_mut(dst, len) };
            d.copy_from_slice(&self.bufs[buf][..len]);
            self.log.push(format!("drain {buf} {len}"));
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
        fn wait(&mut self, buf: usize) -> Result<(), String> {
            self.pending[buf] = false;
            self.log.push(format!("wait {buf}"));
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

    #[test]
    fn default_settings() {
        let s = settings();
        assert!(s.chunk >= 1 << 20 && s.threads >= 1);
    }
}
