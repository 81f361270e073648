//! The race detector: shadow memory that remembers, for every granule of
//! global and shared memory, the last write and up to two reads since,
//! with who made them and when; an access that conflicts with one of them
//! and is not ordered after it is a data race. A granule is 4 bytes, or
//! fewer where an allocation (or the block's shared memory) is accessed in
//! smaller or unaligned pieces: its shadow is then split, copying each
//! record to the finer granules it covered (every record covers whole
//! granules, so the copies say nothing that did not happen), so two
//! threads writing neighbouring bytes never hide each other.
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
//! granule keeps at most two unordered readers, and a block's acquisitions
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
    /// Atomic (bit 0), write (bit 1).
    flags: u8,
}

const ATOMIC: u8 = 1;
const WRITE: u8 = 2;

/// The shadow of one granule.
#[derive(Clone, Copy, Default, Debug)]
struct Granule {
    w: Rec,
    r: [Rec; 2],
}

/// The shadow of one allocation (or of shared memory): granules of
/// `1 << shift` bytes (shift 2, 1 or 0).
#[derive(Default)]
struct Shadow {
    shift: u32,
    g: Vec<Granule>,
}

impl Shadow {
    /// A shadow of `size` bytes in 4-byte granules.
    fn new(size: u64) -> Shadow {
        Shadow {
            shift: 2,
            g: vec![Granule::default(); size.div_ceil(4) as usize],
        }
    }

    /// Makes the granules fine enough for an access of `bytes` bytes at
    /// `offset`; the granule range `[first, last]` it covers.
    fn fit(&mut self, offset: u64, bytes: u64) -> (usize, usize) {
        let need = (offset | bytes.max(1)).trailing_zeros().min(2);
        if need < self.shift {
            let (old, k) = (std::mem::take(&mut self.g), self.shift - need);
            self.g = old
                .iter()
                .flat_map(|gr| std::iter::repeat_n(*gr, 1 << k))
                .collect();
            self.shift = need;
        }
        let first = (offset >> self.shift) as usize;
        let last = ((offset + bytes.max(1) - 1) >> self.shift) as usize;
        (first, last)
    }
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
    globals: Vec<Shadow>,
    shared: Shadow,
    order: Order,
    /// The races reported (warn mode): (program, first site, second site).
    reported: std::collections::HashSet<(usize, u32, u32)>,
}

impl Default for RaceState {
    fn default() -> Self {
        RaceState::new()
    }
}

impl RaceState {
    pub fn new() -> RaceState {
        RaceState {
            stamp: 0,
            shared_stamp: 0,
            globals: Vec::new(),
            shared: Shadow::default(),
            order: Order::default(),
            reported: std::collections::HashSet::new(),
        }
    }

    /// A new launch: earlier accesses no longer race.
    pub fn begin_launch(&mut self) {
        self.stamp = self.stamp.wrapping_add(1).max(1);
        if self.stamp == 1 {
            // Wrapped (or first): forget everything.
            for v in &mut self.globals {
                v.g.fill(Granule::default());
            }
        }
        self.order.sync.clear();
    }

    /// A new block of `shared_bytes` bytes of shared memory.
    pub fn begin_block(&mut self, block: u32, shared_bytes: usize) {
        self.shared_stamp = self.shared_stamp.wrapping_add(1).max(1);
        // A fresh shadow for each block (records of other blocks never
        // meet it: the stamp differs), 4-byte granules again.
        if self.shared.shift != 2
            || self.shared.g.len() < shared_bytes.div_ceil(4)
            || self.shared_stamp == 1
        {
            self.shared = Shadow::new(shared_bytes as u64);
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
            *v = Shadow::default();
        }
    }

    /// Whether the race between `first` and `second` (program-wide sites
    /// of `program`) is reported for the first time on this device.
    pub fn first_report(&mut self, program: usize, first: u32, second: u32) -> bool {
        self.reported.insert((program, first, second))
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
            self.globals.resize_with(i + 1, Shadow::default);
        }
        let shadow = &mut self.globals[i];
        if shadow.g.is_empty() {
            *shadow = Shadow::new(size);
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

    fn check(&self, shadow: &mut Shadow, stamp: u32, a: &Access, who: &Who) -> Option<Race> {
        let Access {
            base_addr,
            offset,
            bytes,
            write,
            atomic,
        } = *a;
        let (first, last) = shadow.fit(offset, bytes);
        let shift = shadow.shift;
        let flags = if atomic { ATOMIC } else { 0 } | if write { WRITE } else { 0 };
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
            p.stamp == stamp && !(atomic && p.flags & ATOMIC != 0) && !self.ordered(p, who)
        };
        let side = |p: &Rec| Side {
            block: p.block,
            thread: p.thread,
            site: p.site,
            write: p.flags & WRITE != 0,
            atomic: p.flags & ATOMIC != 0,
        };
        let mut race = None;
        for g in first..=last {
            let Some(gr) = shadow.g.get_mut(g) else {
                break;
            };
            if race.is_none() {
                let found = if conflicts(&gr.w) {
                    Some(gr.w)
                } else if write {
                    gr.r.iter().find(|r| conflicts(r)).copied()
                } else {
                    None
                };
                if let Some(p) = found {
                    race = Some(Race {
                        addr: base_addr + ((g as u64) << shift),
                        first: side(&p),
                        second: side(&cur),
                    });
                }
            }
            if write {
                gr.w = cur;
                gr.r = [Rec::default(); 2];
            } else {
                let slot = gr.r.iter().position(|r| {
                    r.stamp != stamp
                        || (r.block == who.block && r.thread == who.thread)
                        || self.ordered(r, who)
                });
                if let Some(s) = slot {
                    gr.r[s] = cur;
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
    fn granules_split_for_smaller_accesses() {
        let mut sh = Shadow::new(16);
        assert_eq!(sh.fit(8, 8), (2, 3));
        assert_eq!((sh.shift, sh.g.len()), (2, 4));
        assert_eq!(sh.fit(6, 2), (3, 3));
        assert_eq!((sh.shift, sh.g.len()), (1, 8));
        assert_eq!(sh.fit(3, 1), (3, 3));
        assert_eq!((sh.shift, sh.g.len()), (0, 16));
        assert_eq!(sh.fit(0, 4), (0, 3));
    }

    #[test]
    fn neighbouring_shorts_written_by_two_blocks_are_told_apart() {
        // Block 0: threads 0 and 1 write the two shorts of one word; block
        // 1's thread 0 then reads the first: a race with block 0's thread 0.
        let mut s = RaceState::new();
        s.begin_launch();
        s.begin_block(0, 64);
        assert!(s
            .global(1, 8, 0, 0, 2, &who(0, 0, 0), true, false)
            .is_none());
        assert!(s
            .global(1, 8, 0, 2, 2, &who(0, 1, 0), true, false)
            .is_none());
        s.begin_block(1, 64);
        let r = s
            .global(1, 8, 0, 0, 2, &who(1, 0, 0), false, false)
            .unwrap();
        assert_eq!((r.first.block, r.first.thread), (0, 0));
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
