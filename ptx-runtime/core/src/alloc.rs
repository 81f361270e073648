//! The caching allocator of device memory.
//!
//! Owns: every device allocation the runtime makes (present ranges,
//! `acc_malloc`) on one device. Requests are rounded up to a size class
//! ([`size_class`]); a freed block goes to the free list of its class
//! (while the cache holds at most `cap` bytes) and the next request of that
//! class reuses it, so repeated enter/exit data or `acc_create` of the same
//! sizes does not call the driver each time (`cuMemAlloc`/`cuMemFree`
//! synchronise the device). When the driver cannot allocate, the cache is
//! released and the allocation tried once more before it is reported as out
//! of memory; shutdown releases everything. Like the caching allocators of
//! PyTorch and of LLVM offload's `MemoryManager`.
//! May call: the driver only through [`RawMemory`] (the device plugin, or a
//! fake in tests); nothing else in the crate.

use std::collections::HashMap;

/// The driver's allocation calls.
pub trait RawMemory {
    fn raw_alloc(&self, bytes: usize) -> Result<u64, String>;
    fn raw_free(&self, p: u64) -> Result<(), String>;
}

/// Smallest block handed out (the driver's own granularity for small blocks).
pub const MIN_BLOCK: usize = 512;
/// Largest rounding step: big blocks are rounded to 2 MiB, the driver's page.
pub const MAX_STEP: usize = 2 << 20;

/// The size class of a request of `bytes`: `bytes` rounded up to a multiple
/// of an eighth of the power of two at or below it (so a block wastes at
/// most 12.5%), at least [`MIN_BLOCK`], the step capped at [`MAX_STEP`].
pub fn size_class(bytes: usize) -> usize {
    if bytes <= MIN_BLOCK {
        return MIN_BLOCK;
    }
    let top = usize::BITS - 1 - bytes.leading_zeros(); // floor(log2(bytes))
    let step = (1usize << top.saturating_sub(3)).clamp(MIN_BLOCK, MAX_STEP);
    bytes.div_ceil(step).saturating_mul(step)
}

/// Counters of an allocator's work, for tests and `PTXRT_DEBUG`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Blocks allocated from the driver.
    pub driver_allocs: u64,
    /// Blocks returned to the driver.
    pub driver_frees: u64,
    /// Requests served from the cache.
    pub reused: u64,
}

/// The caching allocator of one device.
#[derive(Debug)]
pub struct Allocator {
    /// Free blocks by size class.
    free: HashMap<usize, Vec<u64>>,
    /// Live blocks: address → size class.
    live: HashMap<u64, usize>,
    /// Bytes in `free`.
    cached: usize,
    /// Most bytes `free` may hold.
    cap: usize,
    pub stats: Stats,
}

impl Allocator {
    /// An empty allocator whose cache holds at most `cap` bytes.
    pub fn new(cap: usize) -> Allocator {
        Allocator {
            free: HashMap::new(),
            live: HashMap::new(),
            cached: 0,
            cap,
            stats: Stats::default(),
        }
    }

    /// Bytes held in the cache (freed, not returned to the driver).
    pub fn cached_bytes(&self) -> usize {
        self.cached
    }

    /// Whether `p` is a live block of this allocator.
    pub fn is_live(&self, p: u64) -> bool {
        self.live.contains_key(&p)
    }

    /// A block of at least `bytes` (> 0) bytes: from the cache, or from the
    /// driver (after releasing the cache if the driver is out of memory).
    pub fn alloc(&mut self, raw: &dyn RawMemory, bytes: usize) -> Result<u64, String> {
        let class = size_class(bytes);
        if let Some(p) = self.free.get_mut(&class).and_then(Vec::pop) {
            self.cached -= class;
            self.live.insert(p, class);
            self.stats.reused += 1;
            return Ok(p);
        }
        let p = match raw.raw_alloc(class) {
            Ok(p) => p,
            Err(first) if self.cached > 0 => {
                self.release_cache(raw);
                raw.raw_alloc(class).map_err(|e| {
                    format!(
                        "{e} (after returning the runtime's cached device memory; before: {first})"
                    )
                })?
            }
            Err(e) => return Err(e),
        };
        self.stats.driver_allocs += 1;
        self.live.insert(p, class);
        Ok(p)
    }

    /// Give back block `p` (from [`Allocator::alloc`]): cached while the
    /// cache has room, else returned to the driver.
    pub fn free(&mut self, raw: &dyn RawMemory, p: u64) -> Result<(), String> {
        let Some(class) = self.live.remove(&p) else {
            return Err(format!(
                "internal error: device address {p:#x} is not a block of the allocator"
            ));
        };
        if self.cached + class <= self.cap {
            self.cached += class;
            self.free.entry(class).or_default().push(p);
            return Ok(());
        }
        self.stats.driver_frees += 1;
        raw.raw_free(p)
    }

    /// Return every cached block to the driver (errors are ignored: the
    /// memory is unusable to us either way).
    pub fn release_cache(&mut self, raw: &dyn RawMemory) {
        for (_, blocks) in self.free.drain() {
            for p in blocks {
                self.stats.driver_frees += 1;
                let _ = raw.raw_free(p);
            }
        }
        self.cached = 0;
    }

    /// Shutdown: return the cache and every live block to the driver.
    pub fn release_all(&mut self, raw: &dyn RawMemory) {
        self.release_cache(raw);
        for (p, _) in self.live.drain() {
            self.stats.driver_frees += 1;
            let _ = raw.raw_free(p);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::RefCell;

    /// A driver with `limit` bytes that hands out increasing addresses.
    struct Fake {
        limit: usize,
        used: RefCell<HashMap<u64, usize>>,
        next: RefCell<u64>,
    }

    impl Fake {
        fn new(limit: usize) -> Fake {
            Fake {
                limit,
                used: RefCell::new(HashMap::new()),
                next: RefCell::new(0x1000_0000),
            }
        }
        fn in_use(&self) -> usize {
            self.used.borrow().values().sum()
        }
    }

    impl RawMemory for Fake {
        fn raw_alloc(&self, bytes: usize) -> Result<u64, String> {
            if self.in_use() + bytes > self.limit {
                return Err("cuMemAlloc: CUDA_ERROR_OUT_OF_MEMORY: out of memory".into());
            }
            let p = *self.next.borrow();
            *self.next.borrow_mut() += bytes as u64;
            self.used.borrow_mut().insert(p, bytes);
            Ok(p)
        }
        fn raw_free(&self, p: u64) -> Result<(), String> {
            self.used
                .borrow_mut()
                .remove(&p)
                .map(|_| ())
                .ok_or_else(|| "cuMemFree: bad pointer".to_string())
        }
    }

    #[test]
    fn size_classes() {
        assert_eq!(size_class(1), 512);
        assert_eq!(size_class(512), 512);
        assert_eq!(size_class(513), 1024); // step 512 below 4 KiB
        assert_eq!(size_class(4096), 4096);
        assert_eq!(size_class(4097), 4608); // step 512 = 4096 / 8
        assert_eq!(size_class(40_000), 40_960); // step 4096
        assert_eq!(size_class(1 << 30), 1 << 30);
        assert_eq!(size_class((1 << 30) + 1), (1 << 30) + MAX_STEP);
        for b in [1usize, 700, 5000, 123_456, 7_777_777, 300_000_000] {
            let c = size_class(b);
            assert!(
                c >= b && c - b <= (b / 8).clamp(MIN_BLOCK, MAX_STEP),
                "{b} -> {c}"
            );
            assert_eq!(size_class(c), c, "a class is its own class");
        }
    }

    #[test]
    fn freed_blocks_are_reused_by_class() {
        let raw = Fake::new(1 << 30);
        let mut a = Allocator::new(1 << 20);
        let p = a.alloc(&raw, 1000).unwrap();
        a.free(&raw, p).unwrap();
        assert_eq!(a.cached_bytes(), 1024);
        // Another request of the same class gets the same block.
        let q = a.alloc(&raw, 1020).unwrap();
        assert_eq!(q, p);
        assert_eq!(
            a.stats,
            Stats {
                driver_allocs: 1,
                driver_frees: 0,
                reused: 1
            }
        );
        // Another class does not.
        let r = a.alloc(&raw, 3000).unwrap();
        assert_ne!(r, p);
        // Repeated create/delete of the same size: one driver allocation.
        for _ in 0..100 {
            let x = a.alloc(&raw, 5000).unwrap();
            a.free(&raw, x).unwrap();
        }
        assert_eq!(a.stats.driver_allocs, 3);
        assert!(a.is_live(q) && !a.is_live(0x42));
        assert!(a.free(&raw, 0x42).unwrap_err().contains("not a block"));
    }

    #[test]
    fn cache_is_capped() {
        let raw = Fake::new(1 << 30);
        let mut a = Allocator::new(4096);
        let big = a.alloc(&raw, 8192).unwrap();
        let small = a.alloc(&raw, 4096).unwrap();
        a.free(&raw, big).unwrap(); // over the cap: back to the driver
        assert_eq!(a.cached_bytes(), 0);
        assert_eq!(a.stats.driver_frees, 1);
        a.free(&raw, small).unwrap();
        assert_eq!(a.cached_bytes(), 4096);
        assert_eq!(raw.in_use(), 4096);
    }

    #[test]
    fn out_of_memory_releases_the_cache_first() {
        let raw = Fake::new(10_000);
        let mut a = Allocator::new(1 << 20);
        let p = a.alloc(&raw, 4096).unwrap();
        let q = a.alloc(&raw, 4096).unwrap();
        a.free(&raw, p).unwrap();
        a.free(&raw, q).unwrap();
        // 8192 bytes cached; 6000 more do not fit beside them.
        let r = a.alloc(&raw, 6000).unwrap();
        assert_eq!(a.cached_bytes(), 0);
        assert_eq!(raw.in_use(), size_class(6000));
        // Truly too big: the driver's error, with nothing left to release.
        let e = a.alloc(&raw, 20_000).unwrap_err();
        assert!(e.contains("CUDA_ERROR_OUT_OF_MEMORY"), "{e}");
        a.free(&raw, r).unwrap();
        a.release_all(&raw);
        assert_eq!(raw.in_use(), 0);
    }

    #[test]
    fn release_all_frees_live_blocks() {
        let raw = Fake::new(1 << 20);
        let mut a = Allocator::new(1 << 20);
        let _p = a.alloc(&raw, 100).unwrap();
        let q = a.alloc(&raw, 100_000).unwrap();
        a.free(&raw, q).unwrap();
        a.release_all(&raw);
        assert_eq!(raw.in_use(), 0);
        assert_eq!(a.cached_bytes(), 0);
    }
}
