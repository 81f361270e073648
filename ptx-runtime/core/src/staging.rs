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
//! Owns: when a transfer is staged ([`MIN_STAGED`]) and in which chunk
//! size ([`chunk_for`]), the tuning knobs (environment, read once:
//! `PTXRT_STAGING=0` turns staging off, `PTXRT_STAGING_MIB` sets the buffer
//! size, default [`DEFAULT_MIB`], `PTXRT_COPY_THREADS` the threads of a host
//! copy, default one per core up to [`MAX_DEFAULT_THREADS`]). The
//! double-buffered pipelines themselves are [`crate::pipeline`]'s, run by
//! [`crate::devmem`] over the two pinned buffers.
//! May call: nothing else in the crate.

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_settings() {
        let s = settings();
        assert!(s.chunk >= 1 << 20 && s.threads >= 1);
    }
}
