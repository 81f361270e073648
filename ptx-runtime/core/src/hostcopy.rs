//! Large host memory copies spread over a pool of threads.
//!
//! One thread copies about 10 GB/s; a PCIe 5 DMA engine moves 50 GB/s. The
//! host-side copies of staged transfers ([`crate::staging`]) are therefore
//! split into parts copied at once by the calling thread and by workers of a
//! process-wide pool, made on first use and kept (a thread spawn per part
//! would cost more than a megabyte's copy). A worker that cannot be started
//! or has gone leaves its parts to the calling thread, so a copy always
//! completes.
//! Owns: the pool ([`copy`]). May call: nothing else in the crate.

use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::{Mutex, OnceLock};

/// Parts are at least this big (smaller copies stay on the calling thread).
pub const MIN_PART: usize = 1 << 20;

/// One part to copy; `done` is told when it is copied.
struct Job {
    dst: usize,
    src: usize,
    len: usize,
    done: Sender<()>,
}

/// The workers' job queues (one per worker).
struct Pool {
    workers: Vec<Sender<Job>>,
}

fn worker(jobs: Receiver<Job>) {
    while let Ok(j) = jobs.recv() {
        // SAFETY: the submitter keeps both ranges valid and disjoint from
        // every other part until it has heard `done`.
        unsafe { std::ptr::copy_nonoverlapping(j.src as *const u8, j.dst as *mut u8, j.len) };
        let _ = j.done.send(());
    }
}

/// The pool, grown to `n` workers if it has fewer (as many as could be started).
fn pool(n: usize) -> &'static Mutex<Pool> {
    static POOL: OnceLock<Mutex<Pool>> = OnceLock::new();
    let p = POOL.get_or_init(|| {
        Mutex::new(Pool {
            workers: Vec::new(),
        })
    });
    let mut g = p.lock().unwrap_or_else(|e| e.into_inner());
    while g.workers.len() < n {
        let (tx, rx) = channel();
        let spawned = std::thread::Builder::new()
            .name("ptxrt-copy".into())
            .spawn(move || worker(rx));
        if spawned.is_err() {
            break;
        }
        g.workers.push(tx);
    }
    drop(g);
    p
}

/// Copy `len` bytes from `src` to `dst` with up to `threads` threads (the
/// caller and `threads - 1` workers), each taking a contiguous part of at
/// least [`MIN_PART`] bytes.
///
/// # Safety
/// `src` readable and `dst` writable for `len` bytes; the ranges do not overlap.
pub unsafe fn copy(dst: *mut u8, src: *const u8, len: usize, threads: usize) {
    let parts = threads.clamp(1, (len / MIN_PART).max(1));
    if parts == 1 {
        // SAFETY: per the caller.
        unsafe { std::ptr::copy_nonoverlapping(src, dst, len) };
        return;
    }
    // Parts are multiples of 4 KiB (page-aligned splits when the ends are).
    let part = len.div_ceil(parts).next_multiple_of(4096);
    let (d, s) = (dst as usize, src as usize);
    let (done_tx, done_rx) = channel();
    let mut queued = 0;
    let mut own = vec![(0usize, part.min(len))];
    {
        let p = pool(parts - 1).lock().unwrap_or_else(|e| e.into_inner());
        for k in 1..parts {
            let off = k * part;
            if off >= len {
                break;
            }
            let n = part.min(len - off);
            let job = Job {
                dst: d + off,
                src: s + off,
                len: n,
                done: done_tx.clone(),
            };
            match p.workers.get(k - 1).map(|w| w.send(job)) {
                Some(Ok(())) => queued += 1,
                _ => own.push((off, n)),
            }
        }
    }
    drop(done_tx);
    for (off, n) in own {
        // SAFETY: a disjoint part of the caller's ranges.
        unsafe { std::ptr::copy_nonoverlapping(src.add(off), dst.add(off), n) };
    }
    let mut heard = 0;
    while heard < queued && done_rx.recv().is_ok() {
        heard += 1;
    }
    if heard < queued {
        // A worker died without saying: copy everything again here.
        // SAFETY: per the caller.
        unsafe { std::ptr::copy_nonoverlapping(src, dst, len) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pattern(n: usize) -> Vec<u8> {
        (0..n).map(|i| (i * 7 + i / 251) as u8).collect()
    }

    #[test]
    fn copies_with_any_number_of_threads() {
        for (n, t) in [
            (0usize, 4usize),
            (100, 4),
            (3 << 20, 4),
            ((5 << 20) + 123, 3),
            (8 << 20, 1),
            ((16 << 20) + 4097, 16),
        ] {
            let src = pattern(n);
            let mut dst = vec![0u8; n];
            unsafe { copy(dst.as_mut_ptr(), src.as_ptr(), n, t) };
            assert!(dst == src, "n={n} t={t}");
        }
    }

    #[test]
    fn concurrent_copies_share_the_pool() {
        let hs: Vec<_> = (0..4)
            .map(|k| {
                std::thread::spawn(move || {
                    let n = (4 << 20) + k * 999;
                    let src = pattern(n);
                    let mut dst = vec![0u8; n];
                    for _ in 0..5 {
                        unsafe { copy(dst.as_mut_ptr(), src.as_ptr(), n, 4) };
                    }
                    dst == src
                })
            })
            .collect();
        for h in hs {
            assert!(h.join().unwrap());
        }
    }
}
