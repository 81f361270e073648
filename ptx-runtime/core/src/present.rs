//! The present table of one device: which host ranges have device copies.
//!
//! Owns: the one map from host ranges to device ranges, keyed by host begin
//! address (a `BTreeMap`, so lookups are O(log n)), with the structured and
//! dynamic reference counts and the owner of each range's device memory; the
//! reverse index from device addresses (`acc_hostptr`); the zero-length
//! sections that data constructs currently map; and the attachment counters
//! of the pointers (inside present ranges) whose device copies were attached.
//! Ranges never overlap and are never empty. Lookups say whether a section is
//! contained in one range, only partly present (overlaps a range without
//! being inside it: an error for the caller to report), or absent. Like LLVM
//! offload's `MappingInfoTy` and libgomp's splay tree, but one type with one
//! owner (the device state in [`crate::device`], behind the runtime's mutex in
//! [`crate::runtime`]).
//! The rules that move the counts are [`crate::mapping`]'s.
//! May call: nothing else in the crate (plain data, no device calls).

use std::collections::BTreeMap;

/// Dynamic count of a range mapped with `acc_map_data` or by a global
/// `declare` directive: never dropped by exit data or API routines.
pub const INFINITE: u64 = u64::MAX;

/// Who owns a range's device memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Owner {
    /// The runtime allocated it: freed when the range goes.
    Runtime,
    /// The program mapped it (`acc_map_data`): never freed by the runtime.
    User,
    /// There is no device copy: a device that shares the program's memory
    /// (the host device) maps a range to itself.
    Shared,
}

/// One present range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// First host byte.
    pub host_begin: usize,
    /// One past the last host byte (`> host_begin`).
    pub host_end: usize,
    /// Device address of `host_begin`.
    pub device: u64,
    /// References from structured data lifetimes (data constructs, compute
    /// constructs' clauses).
    pub structured: u64,
    /// References from dynamic lifetimes (enter data, `acc_copyin`, ...;
    /// [`INFINITE`] for `acc_map_data` and global declares).
    pub dynamic: u64,
    pub owner: Owner,
}

impl Entry {
    /// A range of `bytes` host bytes at `host`, device copy at `device`,
    /// without references yet.
    pub fn new(host: usize, bytes: usize, device: u64, owner: Owner) -> Entry {
        Entry {
            host_begin: host,
            host_end: host.saturating_add(bytes),
            device,
            structured: 0,
            dynamic: 0,
            owner,
        }
    }
    pub fn len(&self) -> usize {
        self.host_end - self.host_begin
    }
    pub fn is_empty(&self) -> bool {
        self.host_end == self.host_begin
    }
    /// Device address of host address `p` (wrapping, so `p` may lie outside).
    pub fn device_of(&self, p: usize) -> u64 {
        self.device
            .wrapping_add((p as u64).wrapping_sub(self.host_begin as u64))
    }
    /// No references left: the device copy can go.
    pub fn unreferenced(&self) -> bool {
        self.structured == 0 && self.dynamic == 0
    }
}

/// Result of looking up a host section.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lookup {
    /// The section lies inside the range keyed `key`; `device` is the device
    /// address of the section's first byte.
    Contained { key: usize, device: u64 },
    /// The section overlaps present range `[begin, end)` without lying inside it.
    PartlyPresent { begin: usize, end: usize },
    /// No byte of the section is present.
    Absent,
}

/// Why an insertion was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InsertError {
    Empty,
    Overlaps { begin: usize, end: usize },
}

/// The attachment of one pointer (2.6.8): how many attach actions hold it,
/// and the device address its device copy was given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Attachment {
    pub count: u64,
    pub target: u64,
}

/// The present table of one device.
#[derive(Debug, Default)]
pub struct PresentTable {
    ranges: BTreeMap<usize, Entry>,
    /// (device begin, host begin) of every range, for device → host lookups.
    by_device: BTreeMap<(u64, usize), ()>,
    /// Zero-length sections mapped by active data regions (address → count).
    zero_len: BTreeMap<usize, u64>,
    /// Attached pointers, by the host address of the pointer.
    attached: BTreeMap<usize, Attachment>,
}

impl PresentTable {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn len(&self) -> usize {
        self.ranges.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ranges.is_empty()
    }

    /// The range with the greatest begin `<= p`, if it contains `p`, or
    /// ends exactly at `p` when `at_end_ok`.
    fn containing(&self, p: usize, at_end_ok: bool) -> Option<&Entry> {
        let (_, e) = self.ranges.range(..=p).next_back()?;
        if p < e.host_end || (at_end_ok && p == e.host_end) {
            Some(e)
        } else {
            None
        }
    }

    /// The present range containing host address `p` (its first byte and
    /// length), if any: what a bare pointer in a data clause stands for.
    pub fn block_containing(&self, p: usize) -> Option<(usize, usize)> {
        self.containing(p, false).map(|e| (e.host_begin, e.len()))
    }

    /// Look up section `[host, host + bytes)`. A zero-length section is
    /// contained in a range when its address is inside it or one past its end.
    pub fn lookup(&self, host: usize, bytes: usize) -> Lookup {
        if bytes == 0 {
            return match self.containing(host, true) {
                Some(e) => Lookup::Contained {
                    key: e.host_begin,
                    device: e.device_of(host),
                },
                None => Lookup::Absent,
            };
        }
        let end = host.saturating_add(bytes);
        if let Some((_, e)) = self.ranges.range(..=host).next_back() {
            if host < e.host_end {
                return if end <= e.host_end {
                    Lookup::Contained {
                        key: e.host_begin,
                        device: e.device_of(host),
                    }
                } else {
                    Lookup::PartlyPresent {
                        begin: e.host_begin,
                        end: e.host_end,
                    }
                };
            }
        }
        if let Some((_, e)) = self.ranges.range(host.saturating_add(1)..).next() {
            if e.host_begin < end {
                return Lookup::PartlyPresent {
                    begin: e.host_begin,
                    end: e.host_end,
                };
            }
        }
        Lookup::Absent
    }

    /// Add range `e` (its counts as given).
    pub fn insert(&mut self, e: Entry) -> Result<(), InsertError> {
        if e.is_empty() {
            return Err(InsertError::Empty);
        }
        match self.lookup(e.host_begin, e.len()) {
            Lookup::Absent => {}
            Lookup::Contained { key, .. } => {
                let o = &self.ranges[&key];
                return Err(InsertError::Overlaps {
                    begin: o.host_begin,
                    end: o.host_end,
                });
            }
            Lookup::PartlyPresent { begin, end } => {
                return Err(InsertError::Overlaps { begin, end })
            }
        }
        self.by_device.insert((e.device, e.host_begin), ());
        self.ranges.insert(e.host_begin, e);
        Ok(())
    }

    pub fn get(&self, key: usize) -> Option<&Entry> {
        self.ranges.get(&key)
    }

    pub fn get_mut(&mut self, key: usize) -> Option<&mut Entry> {
        self.ranges.get_mut(&key)
    }

    /// Remove the range keyed `key` and the attachments of the pointers in it.
    pub fn remove(&mut self, key: usize) -> Option<Entry> {
        let e = self.ranges.remove(&key)?;
        self.by_device.remove(&(e.device, e.host_begin));
        let inside: Vec<usize> = self
            .attached
            .range(e.host_begin..e.host_end)
            .map(|(p, _)| *p)
            .collect();
        for p in inside {
            self.attached.remove(&p);
        }
        Some(e)
    }

    /// Device address of host address `p`, found through the range that
    /// contains `section` (an address inside a present range, or one past
    /// its end): that range's device base plus `p - host base`, wrapping.
    /// A zero-length section mapped by an active region and not inside any
    /// range translates to 0 (null): nothing may be accessed through it.
    pub fn translate(&self, p: usize, section: usize) -> Option<u64> {
        match self.containing(section, true) {
            Some(e) => Some(e.device_of(p)),
            None if self.zero_len.contains_key(&section) => Some(0),
            None => None,
        }
    }

    /// The host address whose device copy is at device address `d` (inside
    /// a present range), if any.
    pub fn host_of(&self, d: u64) -> Option<usize> {
        let (&(dev, key), _) = self.by_device.range(..=(d, usize::MAX)).next_back()?;
        let e = self.ranges.get(&key)?;
        let off = usize::try_from(d - dev).ok()?;
        (off < e.len()).then(|| e.host_begin + off)
    }

    /// A data region maps a zero-length section at `host`.
    pub fn add_zero_len(&mut self, host: usize) {
        *self.zero_len.entry(host).or_insert(0) += 1;
    }

    /// The region that mapped a zero-length section at `host` ends.
    pub fn remove_zero_len(&mut self, host: usize) {
        if let Some(c) = self.zero_len.get_mut(&host) {
            *c -= 1;
            if *c == 0 {
                self.zero_len.remove(&host);
            }
        }
    }

    /// The attachment of the pointer at host address `ptr`, if attached.
    pub fn attachment(&self, ptr: usize) -> Option<Attachment> {
        self.attached.get(&ptr).copied()
    }

    /// Set (count > 0) or clear (count 0) the attachment of the pointer at `ptr`.
    pub fn set_attachment(&mut self, ptr: usize, a: Attachment) {
        if a.count == 0 {
            self.attached.remove(&ptr);
        } else {
            self.attached.insert(ptr, a);
        }
    }

    /// The attached pointers whose host address is in `[begin, end)`.
    pub fn attached_in(&self, begin: usize, end: usize) -> Vec<usize> {
        self.attached.range(begin..end).map(|(p, _)| *p).collect()
    }

    /// Remove every range (shutdown), returning them for freeing.
    pub fn drain(&mut self) -> Vec<Entry> {
        self.zero_len.clear();
        self.attached.clear();
        self.by_device.clear();
        std::mem::take(&mut self.ranges).into_values().collect()
    }

    /// All ranges in host order.
    pub fn entries(&self) -> impl Iterator<Item = &Entry> {
        self.ranges.values()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Insert a range with one structured reference.
    fn ins(t: &mut PresentTable, host: usize, bytes: usize, dev: u64) -> Result<(), InsertError> {
        let mut e = Entry::new(host, bytes, dev, Owner::Runtime);
        e.structured = 1;
        t.insert(e)
    }

    fn table() -> PresentTable {
        let mut t = PresentTable::new();
        ins(&mut t, 1000, 100, 0xD000).unwrap(); // [1000,1100)
        ins(&mut t, 2000, 50, 0xE000).unwrap(); // [2000,2050)
        t
    }

    #[test]
    fn exact_and_sub_sections_are_contained() {
        let t = table();
        assert_eq!(
            t.lookup(1000, 100),
            Lookup::Contained {
                key: 1000,
                device: 0xD000
            }
        );
        assert_eq!(
            t.lookup(1010, 20),
            Lookup::Contained {
                key: 1000,
                device: 0xD00A
            }
        );
        assert_eq!(
            t.lookup(1099, 1),
            Lookup::Contained {
                key: 1000,
                device: 0xD000 + 99
            }
        );
        assert_eq!(
            t.lookup(2049, 1),
            Lookup::Contained {
                key: 2000,
                device: 0xE000 + 49
            }
        );
    }

    #[test]
    fn absent_sections() {
        let t = table();
        assert_eq!(t.lookup(0, 10), Lookup::Absent);
        assert_eq!(t.lookup(1100, 900), Lookup::Absent); // between, touching both
        assert_eq!(t.lookup(990, 10), Lookup::Absent); // ends exactly at a begin
        assert_eq!(t.lookup(2050, 10), Lookup::Absent);
        assert_eq!(t.lookup(usize::MAX - 5, 10), Lookup::Absent);
    }

    #[test]
    fn partial_overlaps() {
        let t = table();
        let first = Lookup::PartlyPresent {
            begin: 1000,
            end: 1100,
        };
        assert_eq!(t.lookup(990, 20), first); // extends before
        assert_eq!(t.lookup(1090, 20), first); // extends after
        assert_eq!(t.lookup(900, 300), first); // covers it
        assert_eq!(t.lookup(1000, 101), first);
        assert_eq!(
            t.lookup(1500, 501),
            Lookup::PartlyPresent {
                begin: 2000,
                end: 2050
            }
        );
        assert_eq!(t.lookup(1050, 2000), first); // spans both: the first reported
    }

    #[test]
    fn zero_length_sections() {
        let t = table();
        assert_eq!(
            t.lookup(1000, 0),
            Lookup::Contained {
                key: 1000,
                device: 0xD000
            }
        );
        assert_eq!(
            t.lookup(1050, 0),
            Lookup::Contained {
                key: 1000,
                device: 0xD000 + 50
            }
        );
        assert_eq!(
            t.lookup(1100, 0),
            Lookup::Contained {
                key: 1000,
                device: 0xD000 + 100
            }
        );
        assert_eq!(t.lookup(1101, 0), Lookup::Absent);
        assert_eq!(t.lookup(999, 0), Lookup::Absent);
        let mut t = t;
        assert_eq!(ins(&mut t, 5000, 0, 1), Err(InsertError::Empty));
    }

    #[test]
    fn insert_rejects_overlap() {
        let mut t = table();
        assert_eq!(
            ins(&mut t, 1050, 10, 1),
            Err(InsertError::Overlaps {
                begin: 1000,
                end: 1100
            })
        );
        assert_eq!(
            ins(&mut t, 1950, 60, 1),
            Err(InsertError::Overlaps {
                begin: 2000,
                end: 2050
            })
        );
        assert_eq!(
            ins(&mut t, 1000, 100, 1),
            Err(InsertError::Overlaps {
                begin: 1000,
                end: 1100
            })
        );
        assert!(ins(&mut t, 1100, 900, 0xF000).is_ok()); // fills the gap exactly
        assert_eq!(t.len(), 3);
        assert_eq!(
            t.lookup(1100, 900),
            Lookup::Contained {
                key: 1100,
                device: 0xF000
            }
        );
        assert_eq!(
            t.lookup(1099, 2),
            Lookup::PartlyPresent {
                begin: 1000,
                end: 1100
            }
        );
    }

    #[test]
    fn translate_with_sub_array_offsets() {
        let mut t = PresentTable::new();
        // a[10:20] of a double array at 8000 is present: host [8080, 8240).
        ins(&mut t, 8080, 160, 0x10_0000).unwrap();
        // Pointer to a[0] translated through its section start: wraps below the base.
        assert_eq!(t.translate(8000, 8080), Some(0x10_0000 - 80));
        assert_eq!(t.translate(8080, 8080), Some(0x10_0000));
        assert_eq!(t.translate(8100, 8100), Some(0x10_0000 + 20));
        assert_eq!(t.translate(8000, 8000), None); // a[0] itself is not present
        let t0 = PresentTable::new();
        assert_eq!(t0.translate(16, 16), None);
        // Base at device address 0 still wraps without overflow panics.
        let mut t = PresentTable::new();
        ins(&mut t, 100, 10, 0).unwrap();
        assert_eq!(t.translate(50, 100), Some(0u64.wrapping_sub(50)));
    }

    #[test]
    fn zero_length_mapped_sections_translate_to_null() {
        let mut t = PresentTable::new();
        assert_eq!(t.translate(4000, 4000), None);
        t.add_zero_len(4000);
        t.add_zero_len(4000);
        assert_eq!(t.translate(4000, 4000), Some(0));
        t.remove_zero_len(4000);
        assert_eq!(t.translate(4000, 4000), Some(0));
        t.remove_zero_len(4000);
        assert_eq!(t.translate(4000, 4000), None);
        t.remove_zero_len(4000); // unbalanced removal is harmless
    }

    #[test]
    fn counts_and_removal() {
        let mut t = table();
        let e = t.get_mut(1000).unwrap();
        e.structured += 1;
        assert_eq!(e.structured, 2);
        e.structured -= 2;
        assert!(e.unreferenced());
        let removed = t.remove(1000).unwrap();
        assert_eq!((removed.len(), removed.device), (100, 0xD000));
        assert_eq!(t.lookup(1010, 5), Lookup::Absent);
        t.get_mut(2000).unwrap().dynamic = INFINITE;
        assert!(!t.get(2000).unwrap().unreferenced());
        assert_eq!(t.drain().len(), 1);
        assert!(t.is_empty());
    }

    #[test]
    fn device_to_host_and_attachments() {
        let mut t = table();
        assert_eq!(t.host_of(0xD000), Some(1000));
        assert_eq!(t.host_of(0xD000 + 99), Some(1099));
        assert_eq!(t.host_of(0xD000 + 100), None);
        assert_eq!(t.host_of(0xE000 + 49), Some(2049));
        assert_eq!(t.host_of(0xCFFF), None);
        let a = Attachment {
            count: 2,
            target: 0xE000,
        };
        t.set_attachment(1008, a);
        t.set_attachment(2040, Attachment { count: 1, ..a });
        assert_eq!(t.attachment(1008), Some(a));
        assert_eq!(t.attached_in(1000, 1100), [1008]);
        t.set_attachment(2040, Attachment { count: 0, ..a });
        assert_eq!(t.attachment(2040), None);
        // A range takes the attachments of its pointers with it.
        t.remove(1000);
        assert_eq!(t.attachment(1008), None);
        assert_eq!(t.host_of(0xD000), None);
    }

    #[test]
    fn blocks_containing_an_address() {
        let t = table();
        assert_eq!(t.block_containing(1000), Some((1000, 100)));
        assert_eq!(t.block_containing(1099), Some((1000, 100)));
        assert_eq!(t.block_containing(1100), None); // one past the end
        assert_eq!(t.block_containing(999), None);
        assert_eq!(t.block_containing(2010), Some((2000, 50)));
        assert_eq!(PresentTable::new().block_containing(1000), None);
    }

    #[test]
    fn many_ranges_lookup() {
        let mut t = PresentTable::new();
        for i in 0..10_000usize {
            ins(&mut t, i * 100, 64, (i * 1000) as u64).unwrap();
        }
        for i in (0..10_000usize).step_by(37) {
            assert_eq!(
                t.lookup(i * 100 + 8, 8),
                Lookup::Contained {
                    key: i * 100,
                    device: (i * 1000 + 8) as u64
                }
            );
            assert_eq!(t.lookup(i * 100 + 64, 36), Lookup::Absent);
            assert_eq!(
                t.lookup(i * 100 + 60, 8),
                Lookup::PartlyPresent {
                    begin: i * 100,
                    end: i * 100 + 64
                }
            );
        }
    }
}
