//! The emulated device's memory: global allocations (host memory behind
//! device addresses of their own) and the encoding of addresses.
//!
//! An address is 64 bits: the top four name the space — [`GLOBAL`],
//! [`SHARED`] (the block's shared memory), [`LOCAL`] (the thread's local
//! memory) — the rest is the place in it. A global address is
//! `GLOBAL | id << 36 | offset`: allocation number `id` (never reused, so
//! an address into freed memory is recognised as such) and a byte offset
//! below 64 GiB. Address 0 (and anything that decodes to no live
//! allocation, or past the end of one) is an illegal address.
//!
//! Owns: [`Memory`] (allocate, free, resolve ranges for the host's copies,
//! describe an address for messages) and [`Region`]. New allocations hold
//! the byte 0xAB, as garbage. Device code reaches region bytes through raw
//! pointers with relaxed atomic loads and stores ([`crate::exec`]), so
//! blocks running on several host threads never race in Rust's sense.
//! May call: nothing.

use std::alloc::{alloc, dealloc, Layout};

/// Space tag of global memory (top four bits of an address).
pub const GLOBAL: u64 = 1 << 60;
/// Space tag of the block's shared memory.
pub const SHARED: u64 = 2 << 60;
/// Space tag of the thread's local memory.
pub const LOCAL: u64 = 3 << 60;
/// Mask of the space tag.
pub const SPACE: u64 = 0xf << 60;
/// Bits of a global offset.
pub const OFFSET_BITS: u32 = 36;
/// The largest allocation.
pub const MAX_ALLOC: u64 = 1 << OFFSET_BITS;
const ID_MASK: u64 = (1 << 24) - 1;
/// Alignment of every allocation (as cuMemAlloc's 256 bytes).
pub const ALIGN: usize = 256;

/// The global address of byte `offset` of allocation `id`.
pub fn global_addr(id: u32, offset: u64) -> u64 {
    GLOBAL | (u64::from(id) << OFFSET_BITS) | offset
}

/// (allocation id, offset) of a global address.
pub fn split_global(addr: u64) -> (u32, u64) {
    (
        ((addr >> OFFSET_BITS) & ID_MASK) as u32,
        addr & (MAX_ALLOC - 1),
    )
}

/// One allocation.
pub struct Region {
    /// The bytes (null once freed).
    ptr: *mut u8,
    layout: Layout,
    /// Bytes asked for.
    pub size: u64,
    /// What it is, for messages ("allocation", "global __accc_cell_x").
    pub what: String,
}

impl Region {
    /// Whether it has not been freed.
    pub fn live(&self) -> bool {
        !self.ptr.is_null()
    }

    /// The address of its first byte (null once freed).
    pub fn base(&self) -> *mut u8 {
        self.ptr
    }
}

/// Why a range of global memory cannot be accessed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Bad {
    /// The address decodes to no allocation (or is not global).
    Nowhere,
    /// The allocation was freed.
    Freed { id: u32 },
    /// The range runs past the allocation's end.
    PastEnd { id: u32, offset: u64, size: u64 },
}

/// Every allocation of one device.
pub struct Memory {
    /// Index = allocation id; id 0 is never used (so a null-ish address is
    /// nowhere).
    regions: Vec<Region>,
    in_use: u64,
    /// Bytes the device offers.
    pub capacity: u64,
}

// SAFETY: regions are only reached through raw pointers with atomic
// accesses (device code) or while the owner holds the device exclusively
// (the host's copies); allocation and free need `&mut`.
unsafe impl Send for Memory {}
unsafe impl Sync for Memory {}

impl Drop for Memory {
    fn drop(&mut self) {
        for r in &mut self.regions {
            if r.live() {
                // SAFETY: allocated with this layout, freed once.
                unsafe { dealloc(r.ptr, r.layout) };
                r.ptr = std::ptr::null_mut();
            }
        }
    }
}

impl Memory {
    /// A device of `capacity` bytes.
    pub fn new(capacity: u64) -> Memory {
        let none = Region {
            ptr: std::ptr::null_mut(),
            layout: Layout::new::<u8>(),
            size: 0,
            what: "nothing".into(),
        };
        Memory {
            regions: vec![none],
            in_use: 0,
            capacity,
        }
    }

    /// Bytes allocated now.
    pub fn in_use(&self) -> u64 {
        self.in_use
    }

    /// A new allocation of `size` bytes (filled with 0xAB); its address.
    pub fn alloc(&mut self, size: u64, what: &str) -> Result<u64, String> {
        if size == 0 || size >= MAX_ALLOC || self.in_use.saturating_add(size) > self.capacity {
            return Err(format!(
                "CUDA_ERROR_OUT_OF_MEMORY: out of memory ({size} bytes asked, {} of {} in use)",
                self.in_use, self.capacity
            ));
        }
        if self.regions.len() as u64 > ID_MASK {
            return Err("CUDA_ERROR_OUT_OF_MEMORY: too many allocations".into());
        }
        let rounded = (size as usize).div_ceil(16) * 16;
        let layout = Layout::from_size_align(rounded, ALIGN)
            .map_err(|_| format!("CUDA_ERROR_OUT_OF_MEMORY: {size} bytes"))?;
        // SAFETY: the layout has a non-zero size.
        let ptr = unsafe { alloc(layout) };
        if ptr.is_null() {
            return Err(format!(
                "CUDA_ERROR_OUT_OF_MEMORY: the host has no {size} bytes for the emulated device"
            ));
        }
        // SAFETY: fresh allocation of `rounded` bytes.
        unsafe { std::ptr::write_bytes(ptr, 0xAB, rounded) };
        let id = self.regions.len() as u32;
        self.regions.push(Region {
            ptr,
            layout,
            size,
            what: what.to_string(),
        });
        self.in_use += size;
        Ok(global_addr(id, 0))
    }

    /// Frees the allocation at `addr` (its first byte).
    pub fn free(&mut self, addr: u64) -> Result<(), String> {
        let (id, off) = split_global(addr);
        let ok = addr & SPACE == GLOBAL && off == 0;
        match self.regions.get_mut(id as usize) {
            Some(r) if ok && id != 0 && r.live() => {
                // SAFETY: allocated with this layout, freed once (ptr nulled).
                unsafe { dealloc(r.ptr, r.layout) };
                r.ptr = std::ptr::null_mut();
                self.in_use -= r.size;
                Ok(())
            }
            _ => Err(format!(
                "CUDA_ERROR_INVALID_VALUE: {addr:#x} is not the start of a live allocation"
            )),
        }
    }

    /// Allocation `id`, if it exists (live or freed).
    pub fn region(&self, id: u32) -> Option<&Region> {
        self.regions.get(id as usize).filter(|_| id != 0)
    }

    /// The host address of the `len` bytes at global `addr`.
    pub fn resolve(&self, addr: u64, len: u64) -> Result<*mut u8, Bad> {
        if addr & SPACE != GLOBAL {
            return Err(Bad::Nowhere);
        }
        let (id, offset) = split_global(addr);
        let Some(r) = self.region(id) else {
            return Err(Bad::Nowhere);
        };
        if !r.live() {
            return Err(Bad::Freed { id });
        }
        match offset.checked_add(len) {
            Some(end) if end <= r.size => {
                // SAFETY: offset + len is within the allocation.
                Ok(unsafe { r.ptr.add(offset as usize) })
            }
            _ => Err(Bad::PastEnd {
                id,
                offset,
                size: r.size,
            }),
        }
    }

    /// The host slice of `len` bytes at `addr` for a copy, or the error of
    /// the driver call `call`.
    pub fn host_range(&self, call: &str, addr: u64, len: usize) -> Result<*mut u8, String> {
        if len == 0 {
            return Ok(std::ptr::NonNull::dangling().as_ptr());
        }
        self.resolve(addr, len as u64).map_err(|b| {
            format!(
                "{call}: CUDA_ERROR_INVALID_VALUE: {len} bytes at {addr:#x}: {}",
                self.describe_bad(addr, &b)
            )
        })
    }

    /// What is wrong with an access at `addr`, in words.
    pub fn describe_bad(&self, addr: u64, b: &Bad) -> String {
        match *b {
            Bad::Nowhere if addr == 0 => "a null address".to_string(),
            Bad::Nowhere => match addr & SPACE {
                GLOBAL => "outside any allocation".to_string(),
                SHARED => "past the end of the block's shared memory".to_string(),
                LOCAL => "outside the thread's local memory".to_string(),
                _ => "not a device address".to_string(),
            },
            Bad::Freed { id } => match self.region(id) {
                Some(r) => format!("in a freed {} of {} bytes", r.what, r.size),
                None => "in freed memory".to_string(),
            },
            Bad::PastEnd { id, offset, size } => {
                let what = self.region(id).map_or("allocation", |r| r.what.as_str());
                if offset >= size {
                    format!(
                        "{} bytes past the end of a {size}-byte {what}",
                        offset - size
                    )
                } else {
                    format!("at offset {offset} of a {size}-byte {what}, running past its end")
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_name_their_allocation() {
        let mut m = Memory::new(1 << 20);
        let a = m.alloc(100, "allocation").unwrap();
        let b = m.alloc(8, "global cell").unwrap();
        assert_eq!(split_global(a), (1, 0));
        assert_eq!(split_global(b + 4), (2, 4));
        assert!(m.resolve(a + 96, 4).is_ok());
        assert_eq!(
            m.resolve(a + 100, 4),
            Err(Bad::PastEnd {
                id: 1,
                offset: 100,
                size: 100
            })
        );
        assert_eq!(m.resolve(0, 4), Err(Bad::Nowhere));
        assert_eq!(m.resolve(a.wrapping_sub(8), 8), Err(Bad::Nowhere));
        m.free(a).unwrap();
        assert_eq!(m.resolve(a, 4), Err(Bad::Freed { id: 1 }));
        assert!(m.free(a).is_err());
        assert!(m.free(b + 8).is_err());
        assert_eq!(m.in_use(), 8);
        assert_eq!(
            m.describe_bad(a, &Bad::Freed { id: 1 }),
            "in a freed allocation of 100 bytes"
        );
        assert_eq!(
            m.describe_bad(
                b + 8,
                &Bad::PastEnd {
                    id: 2,
                    offset: 12,
                    size: 8
                }
            ),
            "4 bytes past the end of a 8-byte global cell"
        );
        assert!(m.alloc(1 << 21, "allocation").is_err());
    }
}
