//! The race detector: shadow memory that remembers, for every 4-byte
//! granule of global and shared memory, the last write and up to two reads
//! since, with who made them and when; an access that conflicts with one of
//! them and is not ordered after it is a data race.
//!
//! Two accesses of one launch conflict when they touch a common byte, come
//! from different threads, at least one writes and not both are atomic.
//! They are ordered when
//! * both threads are in one block and a block barrier lies between them
//!   (the block-barrier epoch of the first is smaller), or both are in one
//!   row (same `tid.y`, `tid.z`) and a row barrier (named barrier or warp
//!   sync) lies between them (the row epoch of the first is smaller);
//! * the threads are in different blocks, the first block executed a fence
//!   after the first access and then an atomic on some location, and the
//!   second block executed an atomic on that location before the second
//!   access (the "last block done" pattern: publish, fence, count in).
//!
//! Nothing else orders blocks. Accesses of different launches never race
//! (records carry the launch's stamp; shared-memory records the block's).
//! Limits, all on the side of missing a race, never of inventing one: a
//! granule keeps one writer (a write to some of its bytes replaces a write
//! to others), at most two unordered readers, and a block's acquisitions
//! count for all its threads.
//!
//! Owns: [`RaceState`] (per device: shadows, stamps, the current block's
//! synchronisation state), [`Who`], [`Race`]. Blocks are checked one after
//! the other ([`crate::launch`] runs them sequentially when checking).
//! May call: nothing.

use std::collections::HashMap;

/// One remembered access.
#[derive(Clone, Copy, Default, Debug)]
struct Rec {
    /// Launch (global) or block instance (shared) stamp; 0 = empty.
    stamp: u32,
    block: u32,
    thread: u32,
    /// Block-barrier and row-barrier epochs of the thread.
    bep: u32,
    rep: u32,
    /// The block's release clock at the access.
    clock: u32,
    /// Program-wide site of the instruction.
    site: u32,
    /// Bytes of the granule (low 4 bits), atomic (bit 4), write (bit 5).
    flags: u8,
}

const ATOMIC: u8 = 1 << 4;
const WRITE: u8 = 1 << 5;

/// The shadow of one 4-byte granule.
#[derive(Clone, Copy, Default, Debug)]
struct Granule {
    w: Rec,
    r: [Rec; 2],
}

/// The thread making an access, and when.
#[derive(Clone, Copy, Debug)]
pub struct Who {
    /// Linear index of the block in the grid.
    pub block: u32,
    /// Linear index of the thread in the block.
    pub thread: u32,
    pub bep: u32,
    pub rep: u32,
    /// Threads per row (`ntid.x`): threads `t / row` share a row.
    pub row: u32,
    /// Program-wide site of the instruction.
    pub site: u32,
}

/// One side of a race.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Side {
    pub block: u32,
    pub thread: u32,
    pub site: u32,
    pub write: bool,
    pub atomic: bool,
}

/// A data race: `first` happened before `second` in the emulator's order,
/// unordered on the device.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Race {
    /// An address both touched (the granule's first common byte).
    pub addr: u64,
    pub first: Side,
    pub second: Side,
}

/// The synchronisation state of the block being checked.
#[derive(Default)]
struct BlockSync {
    block: u32,
    /// Release clock: bumped by each fence.
    clock: u32,
    /// The clock of the last fence (0: none yet).
    fenced: u32,
    /// Locations this block made atomic accesses to (acquisitions).
    acquired: Vec<u64>,
}

/// What orders accesses of different threads.
#[derive(Default)]
struct Order {
    cur: BlockSync,
    /// Per atomic location: the latest fenced clock of each block that
    /// made an atomic access to it after a fence.
    sync: HashMap<u64, HashMap<u32, u32>>,
}

/// The race detector's state of one device.
pub struct RaceState {
    stamp: u32,
    shared_stamp: u32,
    /// Shadows of global allocations, indexed by allocation id (empty
    /// until the allocation is first accessed by a checked launch).
    globals: Vec<Vec<Granule>>,
    shared: Vec<Granule>,
    order: Order,
}

impl Default for RaceState {
    fn default() -> Self {
        RaceState::new()
    }
}

fn masks(offset: u64, bytes: u64) -> impl Iterator<Item = (usize, u8)> {
    let first = offset / 4;
    let last = (offset + bytes.max(1) - 1) / 4;
    (first..=last).map(move |g| {
        let lo = (g * 4).max(offset);
        let hi = (g * 4 + 4).min(offset + bytes);
        let mut m = 0u8;
        for b in lo..hi {
            m |= 1 << (b - g * 4);
        }
        (g as usize, m)
    })
}

impl RaceState {
    pub fn new() -> RaceState {
        RaceState {
            stamp: 0,
            shared_stamp: 0,
            globals: Vec::new(),
            shared: vec![],
            order: Order::default(),
        }
    }

    /// A new launch: earlier accesses no longer race.
    pub fn begin_launch(&mut self) {
        self.stamp = self.stamp.wrapping_add(1).max(1);
        if self.stamp == 1 {
            // Wrapped (or first): forget everything.
            for v in &mut self.globals {
                v.fill(Granule::default());
            }
        }
        self.order.sync.clear();
    }

    /// A new block of `shared_bytes` bytes of shared memory.
    pub fn begin_block(&mut self, block: u32, shared_bytes: usize) {
        self.shared_stamp = self.shared_stamp.wrapping_add(1).max(1);
        let n = shared_bytes.div_ceil(4);
        if self.shared.len() < n || self.shared_stamp == 1 {
            self.shared = vec![Granule::default(); n];
        }
        self.order.cur = BlockSync {
            block,
            clock: 1,
            fenced: 0,
            acquired: vec![],
        };
    }

    /// Allocation `id` was freed: drop its shadow.
    pub fn forget(&mut self, id: u32) {
        if let Some(v) = self.globals.get_mut(id as usize) {
            *v = Vec::new();
        }
    }

    /// A fence by a thread of the current block.
    pub fn fence(&mut self) {
        let c = &mut self.order.cur;
        c.fenced = c.clock;
        c.clock += 1;
    }

    /// An atomic access by the current block to `addr`: publish what its
    /// last fence covered, and acquire what others published there.
    pub fn atomic_sync(&mut self, addr: u64) {
        let o = &mut self.order;
        let b = o.cur.block;
        if o.cur.fenced > 0 {
            let e = o.sync.entry(addr).or_default().entry(b).or_insert(0);
            *e = (*e).max(o.cur.fenced);
        }
        if !o.cur.acquired.contains(&addr) {
            o.cur.acquired.push(addr);
        }
    }

    /// Records an access of `bytes` bytes at byte `offset` of allocation
    /// `id` (whose size is `size`, whose first byte is at `base_addr`);
    /// the first race it makes, if any.
    #[allow(clippy::too_many_arguments)]
    pub fn global(
        &mut self,
        id: u32,
        size: u64,
        base_addr: u64,
        offset: u64,
        bytes: u64,
        who: &Who,
        write: bool,
        atomic: bool,
    ) -> Option<Race> {
        let i = id as usize;
        if self.globals.len() <= i {
            self.globals.resize_with(i + 1, Vec::new);
        }
        let shadow = &mut self.globals[i];
        if shadow.is_empty() {
            *shadow = vec![Granule::default(); size.div_ceil(4) as usize];
        }
        let a = Access {
            base_addr,
            offset,
            bytes,
            write,
            atomic,
        };
        self.order.check(shadow, self.stamp, &a, who)
    }

    /// Records an access to the current block's shared memory (whose
    /// first byte is at `base_addr`).
    pub fn shared(
        &mut self,
        base_addr: u64,
        offset: u64,
        bytes: u64,
        who: &Who,
        write: bool,
        atomic: bool,
    ) -> Option<Race> {
        let a = Access {
            base_addr,
            offset,
            bytes,
            write,
            atomic,
        };
        self.order
            .check(&mut self.shared, self.shared_stamp, &a, who)
    }
}

/// One access to check.
struct Access {
    base_addr: u64,
    offset: u64,
    bytes: u64,
    write: bool,
    atomic: bool,
}

impl Order {
    fn ordered(&self, prev: &Rec, who: &Who) -> bool {
        if prev.block == who.block {
            if prev.thread == who.thread || prev.bep < who.bep {
                return true;
            }
            let row = who.row.max(1);
            return prev.thread / row == who.thread / row && prev.rep < who.rep;
        }
        self.cur.acquired.iter().any(|a| {
            self.sync
                .get(a)
                .and_then(|m| m.get(&prev.block))
                .is_some_and(|&c| c >= prev.clock)
        })
    }

    fn check(&self, shadow: &mut [Granule], stamp: u32, a: &Access, who: &Who) -> Option<Race> {
        let Access {
            base_addr,
            offset,
            bytes,
            write,
            atomic,
        } = *a;
        let mut race = None;
        for (g, mask) in masks(offset, bytes) {
            let Some(gr) = shadow.get_mut(g) else {
                break;
            };
            let flags = mask | if atomic { ATOMIC } else { 0 } | if write { WRITE } else { 0 };
            let cur = Rec {
                stamp,
                block: who.block,
                thread: who.thread,
                bep: who.bep,
                rep: who.rep,
                clock: self.cur.clock,
                site: who.site,
                flags,
            };
            let conflicts = |p: &Rec| {
                p.stamp == stamp
                    && p.flags & mask != 0
                    && !(atomic && p.flags & ATOMIC != 0)
                    && !self.ordered(p, who)
            };
            let side = |p: &Rec| Side {
                block: p.block,
                thread: p.thread,
                site: p.site,
                write: p.flags & WRITE != 0,
                atomic: p.flags & ATOMIC != 0,
            };
            let common = |p: &Rec| {
                let m = p.flags & mask;
                base_addr + g as u64 * 4 + u64::from(m.trailing_zeros())
            };
            let mut found = None;
            if conflicts(&gr.w) {
                found = Some(gr.w);
            } else if write {
                found = gr.r.iter().find(|r| conflicts(r)).copied();
            }
            if race.is_none() {
                if let Some(p) = found {
                    race = Some(Race {
                        addr: common(&p),
                        first: side(&p),
                        second: side(&cur),
                    });
                }
            }
            if write {
                gr.w = cur;
                for r in &mut gr.r {
                    if r.flags & 0xf & !mask == 0 {
                        *r = Rec::default();
                    }
                }
            } else {
                let slot = gr.r.iter().position(|r| {
                    r.stamp != stamp
                        || (r.block == who.block && r.thread == who.thread)
                        || self.ordered(r, who)
                });
                if let Some(s) = slot {
                    let mut rec = cur;
                    let old = gr.r[s];
                    if old.stamp == stamp && old.block == who.block && old.thread == who.thread {
                        rec.flags |= old.flags & 0xf;
                    }
                    gr.r[s] = rec;
                }
            }
        }
        race
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn who(block: u32, thread: u32, bep: u32) -> Who {
        Who {
            block,
            thread,
            bep,
            rep: 0,
            row: 32,
            site: thread,
        }
    }

    #[test]
    fn granule_masks() {
        let v: Vec<(usize, u8)> = masks(6, 4).collect();
        assert_eq!(v, [(1, 0b1100), (2, 0b0011)]);
        let v: Vec<(usize, u8)> = masks(8, 8).collect();
        assert_eq!(v, [(2, 0xf), (3, 0xf)]);
        let v: Vec<(usize, u8)> = masks(3, 1).collect();
        assert_eq!(v, [(0, 0b1000)]);
    }

    #[test]
    fn write_write_in_a_block_without_barrier() {
        let mut s = RaceState::new();
        s.begin_launch();
        s.begin_block(0, 64);
        assert!(s
            .global(1, 16, 100, 0, 4, &who(0, 0, 0), true, false)
            .is_none());
        let r = s
            .global(1, 16, 100, 0, 4, &who(0, 1, 0), true, false)
            .unwrap();
        assert_eq!(r.first.thread, 0);
        assert_eq!(r.second.thread, 1);
        assert_eq!(r.addr, 100);
        // After a barrier: ordered.
        assert!(s
            .global(1, 16, 100, 0, 4, &who(0, 2, 1), true, false)
            .is_none());
    }

    #[test]
    fn neighbours_and_own_bytes_do_not_race() {
        let mut s = RaceState::new();
        s.begin_launch();
        s.begin_block(0, 64);
        for t in 0..4 {
            assert!(s
                .global(1, 16, 0, t, 1, &who(0, t as u32, 0), true, false)
                .is_none());
        }
        assert!(s
            .global(1, 16, 0, 0, 1, &who(0, 0, 0), false, false)
            .is_none());
    }

    #[test]
    fn read_then_write_by_another_thread() {
        let mut s = RaceState::new();
        s.begin_launch();
        s.begin_block(0, 64);
        assert!(s.shared(0, 8, 4, &who(0, 3, 0), false, false).is_none());
        assert!(s.shared(0, 8, 4, &who(0, 5, 0), false, false).is_none());
        // Thread 5 writes what 3 and 5 read: races with 3's read.
        let r = s.shared(0, 8, 4, &who(0, 5, 0), true, false).unwrap();
        assert_eq!((r.first.thread, r.first.write), (3, false));
    }

    #[test]
    fn atomics_do_not_race_each_other_but_do_with_plain_accesses() {
        let mut s = RaceState::new();
        s.begin_launch();
        s.begin_block(0, 64);
        assert!(s.global(1, 8, 0, 0, 4, &who(0, 0, 0), true, true).is_none());
        s.begin_block(1, 64);
        assert!(s.global(1, 8, 0, 0, 4, &who(1, 0, 0), true, true).is_none());
        assert!(s
            .global(1, 8, 0, 0, 4, &who(1, 1, 0), false, false)
            .is_some());
    }

    #[test]
    fn blocks_are_ordered_only_by_fence_and_atomic() {
        let mut s = RaceState::new();
        s.begin_launch();
        // Block 0: write a slot, fence, count in.
        s.begin_block(0, 64);
        assert!(s
            .global(1, 64, 0, 0, 8, &who(0, 0, 0), true, false)
            .is_none());
        s.fence();
        s.atomic_sync(999);
        // Block 1 writes its own slot without fence; counts in.
        s.begin_block(1, 64);
        assert!(s
            .global(1, 64, 0, 8, 8, &who(1, 0, 0), true, false)
            .is_none());
        s.atomic_sync(999);
        // Block 2: counts in, reads both slots: block 0's is ordered
        // (fenced), block 1's is not.
        s.begin_block(2, 64);
        s.atomic_sync(999);
        assert!(s
            .global(1, 64, 0, 0, 8, &who(2, 5, 0), false, false)
            .is_none());
        let r = s
            .global(1, 64, 0, 8, 8, &who(2, 5, 0), false, false)
            .unwrap();
        assert_eq!(r.first.block, 1);
        // A new launch forgets everything.
        s.begin_launch();
        s.begin_block(0, 64);
        assert!(s
            .global(1, 64, 0, 8, 8, &who(0, 7, 0), true, false)
            .is_none());
    }

    #[test]
    fn row_barriers_order_only_their_row() {
        let mut s = RaceState::new();
        s.begin_launch();
        s.begin_block(0, 64);
        let mut a = who(0, 0, 0);
        a.row = 4;
        assert!(s.shared(0, 0, 4, &a, true, false).is_none());
        let mut b = who(0, 1, 0);
        b.row = 4;
        b.rep = 1;
        assert!(s.shared(0, 0, 4, &b, false, false).is_none());
        let mut c = who(0, 4, 0);
        c.row = 4;
        c.rep = 1;
        assert!(s.shared(0, 0, 4, &c, false, false).is_some());
    }
}
