//! The pinned ring: page-locked host memory lent, piece by piece, to the
//! copies that async queues make between pageable host memory and the
//! device.
//!
//! A DMA engine reads and writes only page-locked memory; the driver's own
//! copy from pageable memory waits for the stream first, so it would make
//! every async copy synchronous. An async copy to the device therefore
//! copies its bytes into a piece of the ring at once (host work, while the
//! device runs earlier work) and queues the DMA from the piece; a copy to the
//! host queues the DMA into a piece and, after it, a host function that
//! copies the piece out to the user's memory. Each piece is given back when
//! the event recorded after its last use has completed.
//!
//! Pieces are taken in order around the ring; a piece that would overlap
//! one still in use waits for the oldest pieces first (in the order they
//! were taken), so the ring never lends memory that a queued copy still
//! reads or writes. Taking never fails: at worst it waits until every
//! earlier piece is free.
//! Owns: [`Ring`] (the bookkeeping; the memory and the events are the
//! caller's, so it is tested without a device) and the ring's settings.
//! May call: nothing else in the crate.

use std::collections::VecDeque;

/// Pieces start at multiples of this (good for DMA).
pub const ALIGN: usize = 256;

/// Default ring size in MiB (`PTXRT_ASYNC_MIB`).
pub const DEFAULT_MIB: usize = 256;

/// The largest piece one copy takes at a time: longer copies go in
/// several pieces, so one big copy does not hold the whole ring.
pub fn max_piece(ring: usize) -> usize {
    (ring / 8).max(ALIGN)
}

/// Bytes of the ring, from `PTXRT_ASYNC_MIB` (1 to 4096), read once.
pub fn ring_bytes() -> usize {
    static S: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *S.get_or_init(|| {
        std::env::var("PTXRT_ASYNC_MIB")
            .ok()
            .and_then(|v| v.trim().parse::<usize>().ok())
            .filter(|m| (1..=4096).contains(m))
            .unwrap_or(DEFAULT_MIB)
            << 20
    })
}

/// A piece lent out: its bytes, the event that says it is free again, and
/// the program memory a copy out of it writes (empty: none).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Piece {
    start: usize,
    len: usize,
    event: usize,
    writes: (usize, usize),
}

/// The bookkeeping of a ring of `size` bytes.
#[derive(Debug)]
pub struct Ring {
    size: usize,
    /// Where the next piece starts, if it fits before the end.
    head: usize,
    /// The pieces lent out, oldest first.
    live: VecDeque<Piece>,
}

impl Ring {
    pub fn new(size: usize) -> Ring {
        Ring {
            size,
            head: 0,
            live: VecDeque::new(),
        }
    }

    pub fn size(&self) -> usize {
        self.size
    }

    /// The offset of a piece of `len` bytes (1 ≤ len ≤ size): the pieces
    /// that have completed (`done`) are given back first; pieces in the way
    /// are waited for (`wait`), oldest first. Every event of a piece given
    /// back is passed to `freed`. The piece is the caller's until it calls
    /// [`Ring::lend`] with its event.
    pub fn take(
        &mut self,
        len: usize,
        done: &mut dyn FnMut(usize) -> bool,
        wait: &mut dyn FnMut(usize) -> Result<(), String>,
        freed: &mut dyn FnMut(usize),
    ) -> Result<usize, String> {
        let len = len.next_multiple_of(ALIGN).min(self.size);
        while let Some(p) = self.live.front() {
            if !done(p.event) {
                break;
            }
            freed(p.event);
            self.live.pop_front();
        }
        loop {
            let start = if self.head + len <= self.size {
                self.head
            } else {
                0
            };
            let end = start + len;
            if !self
                .live
                .iter()
                .any(|p| p.start < end && start < p.start + p.len)
            {
                self.head = end;
                return Ok(start);
            }
            // Some piece is in the way: free the oldest and look again.
            if let Some(p) = self.live.pop_front() {
                wait(p.event)?;
                freed(p.event);
            }
        }
    }

    /// Lend the piece at `start` of `len` bytes until `event` completes;
    /// `writes`: the program memory `[a, b)` its copy out writes (empty
    /// for a copy in).
    pub fn lend(&mut self, start: usize, len: usize, event: usize, writes: (usize, usize)) {
        self.live.push_back(Piece {
            start,
            len: len.next_multiple_of(ALIGN).min(self.size),
            event,
            writes,
        });
    }

    /// The events of the lent pieces whose copies out write program
    /// memory in `[a, b)`.
    pub fn writers(&self, a: usize, b: usize) -> Vec<usize> {
        self.live
            .iter()
            .filter(|p| p.writes.0 < b && a < p.writes.1)
            .map(|p| p.event)
            .collect()
    }

    /// Forget every piece (after waiting for all of them), giving each
    /// event to `freed`.
    pub fn drain(&mut self, freed: &mut dyn FnMut(usize)) {
        for p in self.live.drain(..) {
            freed(p.event);
        }
        self.head = 0;
    }

    /// The events of the pieces lent out, oldest first.
    pub fn events(&self) -> impl Iterator<Item = usize> + '_ {
        self.live.iter().map(|p| p.event)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::RefCell;

    /// A ring whose events complete when the test says (a set of done ids).
    fn take(
        r: &mut Ring,
        len: usize,
        done: &RefCell<Vec<usize>>,
        waited: &RefCell<Vec<usize>>,
    ) -> usize {
        let mut freed = vec![];
        let off = r
            .take(
                len,
                &mut |e| done.borrow().contains(&e),
                &mut |e| {
                    waited.borrow_mut().push(e);
                    Ok(())
                },
                &mut |e| freed.push(e),
            )
            .unwrap();
        off
    }

    #[test]
    fn pieces_go_round_and_wait_only_for_what_is_in_the_way() {
        let mut r = Ring::new(4096);
        let done = RefCell::new(vec![]);
        let waited = RefCell::new(vec![]);
        let a = take(&mut r, 1000, &done, &waited); // 0..1024
        r.lend(a, 1000, 1, (0, 0));
        let b = take(&mut r, 2048, &done, &waited); // 1024..3072
        r.lend(b, 2048, 2, (0, 0));
        let c = take(&mut r, 1024, &done, &waited); // 3072..4096: fits
        r.lend(c, 1024, 3, (0, 0));
        assert_eq!((a, b, c), (0, 1024, 3072));
        assert!(waited.borrow().is_empty());
        // Nothing left before the end: wrap to 0, which piece 1 holds.
        let d = take(&mut r, 1024, &done, &waited);
        r.lend(d, 1024, 4, (0, 0));
        assert_eq!(d, 0);
        assert_eq!(*waited.borrow(), vec![1]);
        // Piece 2 completed: given back without waiting, and reused.
        done.borrow_mut().push(2);
        let e = take(&mut r, 2048, &done, &waited);
        r.lend(e, 2048, 5, (0, 0));
        assert_eq!(e, 1024);
        assert_eq!(*waited.borrow(), vec![1]);
        // The whole ring: waits for the others, oldest first.
        let f = take(&mut r, 4096, &done, &waited);
        assert_eq!(f, 0);
        assert_eq!(*waited.borrow(), vec![1, 3, 4, 5]);
    }

    #[test]
    fn lent_pieces_never_overlap() {
        // Random lengths; every lent piece must be disjoint from the live ones.
        let mut r = Ring::new(1 << 16);
        let done = RefCell::new(vec![]);
        let waited = RefCell::new(vec![]);
        let mut live: Vec<(usize, usize, usize)> = vec![];
        let mut x: u64 = 12345;
        for ev in 0..2000usize {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let len = 1 + (x >> 33) as usize % (1 << 14);
            let off = take(&mut r, len, &done, &waited);
            let waited_now: Vec<usize> = waited.borrow_mut().drain(..).collect();
            live.retain(|l| !waited_now.contains(&l.2) && !done.borrow().contains(&l.2));
            let end = off + len.next_multiple_of(ALIGN);
            assert!(end <= 1 << 16);
            assert!(live.iter().all(|&(s, n, _)| end <= s || s + n <= off));
            r.lend(off, len, ev, (0, 0));
            live.push((off, len.next_multiple_of(ALIGN), ev));
            if x.is_multiple_of(3) {
                done.borrow_mut().push(ev.saturating_sub(3));
            }
        }
    }

    #[test]
    fn pending_writes_of_copies_out() {
        let mut r = Ring::new(4096);
        let done = RefCell::new(vec![]);
        let waited = RefCell::new(vec![]);
        let a = take(&mut r, 512, &done, &waited);
        r.lend(a, 512, 1, (1000, 1512));
        let b = take(&mut r, 512, &done, &waited);
        r.lend(b, 512, 2, (0, 0));
        assert_eq!(r.writers(1500, 1600), vec![1]);
        assert!(r.writers(1512, 2000).is_empty());
        assert!(r.writers(0, 999).is_empty());
    }

    #[test]
    fn max_piece_is_an_eighth() {
        assert_eq!(max_piece(256 << 20), 32 << 20);
        assert_eq!(max_piece(100), ALIGN);
    }
}
