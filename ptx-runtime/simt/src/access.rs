//! Memory accesses of device code: the space, bounds and alignment checks
//! of every load, store, copy and atomic, the race records they make, and
//! the reads and writes of the bytes themselves (relaxed atomic loads and
//! stores, so blocks on several host threads never race in Rust's sense;
//! compare-and-swap loops for atomic instructions, 1- and 2-byte ones on
//! their aligned 32-bit word).
//!
//! Owns: the memory half of [`Ctx`]. May call: [`crate::mem`],
//! [`crate::race`], [`crate::arith`].

use crate::arith;
use crate::code::Ty;
use crate::exec::{Ctx, Thread};
use crate::fault::{Fault, Kind};
use crate::mem::{self, Bad};
use crate::race::{Race, Who};
use std::sync::atomic::{AtomicU16, AtomicU32, AtomicU64, AtomicU8, Ordering::Relaxed};

/// Reads `n` (1, 2, 4, 8) bytes at `p` (aligned to `n`).
///
/// # Safety
/// `p` points at `n` readable bytes aligned to `n`.
unsafe fn read(p: *mut u8, n: u64) -> u64 {
    // SAFETY: per the caller.
    unsafe {
        match n {
            1 => u64::from(AtomicU8::from_ptr(p).load(Relaxed)),
            2 => u64::from(AtomicU16::from_ptr(p.cast()).load(Relaxed)),
            4 => u64::from(AtomicU32::from_ptr(p.cast()).load(Relaxed)),
            _ => AtomicU64::from_ptr(p.cast()).load(Relaxed),
        }
    }
}

/// Writes the low `n` bytes of `v` at `p` (aligned to `n`).
///
/// # Safety
/// `p` points at `n` writable bytes aligned to `n`.
unsafe fn write(p: *mut u8, n: u64, v: u64) {
    // SAFETY: per the caller.
    unsafe {
        match n {
            1 => AtomicU8::from_ptr(p).store(v as u8, Relaxed),
            2 => AtomicU16::from_ptr(p.cast()).store(v as u16, Relaxed),
            4 => AtomicU32::from_ptr(p.cast()).store(v as u32, Relaxed),
            _ => AtomicU64::from_ptr(p.cast()).store(v, Relaxed),
        }
    }
}

/// Atomically replaces the `n`-byte value at `p` by `f(old)`; returns old.
/// 1- and 2-byte values go through their aligned 32-bit word.
///
/// # Safety
/// `p` is aligned to `n` and its aligned 4-byte word (8 for `n` = 8) is
/// writable.
unsafe fn rmw(p: *mut u8, n: u64, f: impl Fn(u64) -> u64) -> u64 {
    // SAFETY: per the caller.
    unsafe {
        if n == 8 {
            let a = AtomicU64::from_ptr(p.cast());
            let mut cur = a.load(Relaxed);
            loop {
                match a.compare_exchange_weak(cur, f(cur), Relaxed, Relaxed) {
                    Ok(_) => return cur,
                    Err(x) => cur = x,
                }
            }
        }
        let addr = p as usize;
        let word = (addr & !3) as *mut u32;
        let shift = ((addr & 3) * 8) as u32;
        let mask: u32 = match n {
            1 => 0xff,
            2 => 0xffff,
            _ => u32::MAX,
        };
        let a = AtomicU32::from_ptr(word);
        let mut cur = a.load(Relaxed);
        loop {
            let old = u64::from((cur >> shift) & mask);
            let new = (f(old) as u32) & mask;
            let next = (cur & !(mask << shift)) | (new << shift);
            match a.compare_exchange_weak(cur, next, Relaxed, Relaxed) {
                Ok(_) => return old,
                Err(x) => cur = x,
            }
        }
    }
}

impl Ctx<'_, '_> {
    pub(crate) fn fault(&self, t: &Thread, kind: Kind, site: Option<u32>) -> Fault {
        let base = self
            .prog
            .site_base
            .get(t.func as usize)
            .copied()
            .unwrap_or(0);
        Fault {
            kind,
            thread: t.lin,
            func: t.func,
            site: site.map(|s| base + s),
        }
    }

    fn who(&self, t: &Thread, site: u32) -> Who {
        let base = self
            .prog
            .site_base
            .get(t.func as usize)
            .copied()
            .unwrap_or(0);
        Who {
            block: self.block,
            thread: t.lin,
            bep: t.bep,
            rep: t.rep,
            row: self.ntid[0],
            site: base + site,
        }
    }

    /// A race found by an access: a fault, or (warn mode) noted once.
    fn raced(&mut self, t: &Thread, race: Race, site: u32) -> Result<(), Fault> {
        let Some(c) = self.race.as_deref_mut() else {
            return Ok(());
        };
        if !c.warn {
            return Err(self.fault(t, Kind::Race(race), Some(site)));
        }
        if c.seen.insert((race.first.site, race.second.site)) {
            c.found.push(race);
        }
        Ok(())
    }

    /// The host address of an access of `bytes` bytes at `addr` by `t`
    /// (checked: space, bounds, alignment `align`; recorded for races).
    #[allow(clippy::too_many_arguments)]
    fn access(
        &mut self,
        t: &mut Thread,
        addr: u64,
        bytes: u64,
        align: u64,
        write: bool,
        atomic: bool,
        site: u32,
    ) -> Result<*mut u8, Fault> {
        let bad = |ctx: &Self, t: &Thread, b: Bad| {
            let why = ctx.mem.describe_bad(addr, &b);
            ctx.fault(
                t,
                Kind::Illegal {
                    addr,
                    bytes,
                    write,
                    why,
                },
                Some(site),
            )
        };
        if align > 1 && !addr.is_multiple_of(align) {
            return Err(self.fault(t, Kind::Misaligned { addr, bytes, write }, Some(site)));
        }
        match addr & mem::SPACE {
            mem::GLOBAL => {
                let (id, off) = mem::split_global(addr);
                let Some(r) = self.mem.region(id) else {
                    return Err(bad(self, t, Bad::Nowhere));
                };
                if !r.live() {
                    return Err(bad(self, t, Bad::Freed { id }));
                }
                let size = r.size;
                if off.checked_add(bytes).is_none_or(|e| e > size) {
                    return Err(bad(
                        self,
                        t,
                        Bad::PastEnd {
                            id,
                            offset: off,
                            size,
                        },
                    ));
                }
                // SAFETY: off + bytes lies within the live allocation.
                let p = unsafe { r.base().add(off as usize) };
                if self.race.is_some() {
                    let who = self.who(t, site);
                    let found = self.race.as_deref_mut().and_then(|c| {
                        c.state
                            .global(id, size, addr - off, off, bytes, &who, write, atomic)
                    });
                    if let Some(race) = found {
                        self.raced(t, race, site)?;
                    }
                }
                Ok(p)
            }
            mem::SHARED => {
                let off = addr & !mem::SPACE;
                let len = self.shared.len() as u64 * 8;
                if off.checked_add(bytes).is_none_or(|e| e > len) {
                    return Err(bad(self, t, Bad::Nowhere));
                }
                if self.race.is_some() {
                    let who = self.who(t, site);
                    let found = self
                        .race
                        .as_deref_mut()
                        .and_then(|c| c.state.shared(mem::SHARED, off, bytes, &who, write, atomic));
                    if let Some(race) = found {
                        self.raced(t, race, site)?;
                    }
                }
                // SAFETY: off + bytes lies within the shared memory.
                Ok(unsafe { self.shared.as_mut_ptr().cast::<u8>().add(off as usize) })
            }
            mem::LOCAL => {
                let off = addr & !mem::SPACE;
                let len = t.local.len() as u64 * 8;
                if off.checked_add(bytes).is_none_or(|e| e > len) {
                    return Err(bad(self, t, Bad::Nowhere));
                }
                // SAFETY: off + bytes lies within the thread's local memory.
                Ok(unsafe { t.local.as_mut_ptr().cast::<u8>().add(off as usize) })
            }
            _ => Err(bad(self, t, Bad::Nowhere)),
        }
    }

    pub(crate) fn load(
        &mut self,
        t: &mut Thread,
        addr: u64,
        ty: Ty,
        site: u32,
        atomic: bool,
    ) -> Result<u64, Fault> {
        let n = u64::from(ty.bytes());
        let p = self.access(t, addr, n, n, false, atomic, site)?;
        // SAFETY: access checked n aligned bytes at p.
        Ok(arith::norm(ty, unsafe { read(p, n) }))
    }

    pub(crate) fn store(
        &mut self,
        t: &mut Thread,
        addr: u64,
        ty: Ty,
        v: u64,
        site: u32,
        atomic: bool,
    ) -> Result<(), Fault> {
        let n = u64::from(ty.bytes());
        let p = self.access(t, addr, n, n, true, atomic, site)?;
        // SAFETY: access checked n aligned bytes at p.
        unsafe { write(p, n, v) };
        Ok(())
    }

    /// An atomic read-modify-write of `ty` at `addr`: `f(old)` is stored;
    /// returns old.
    pub(crate) fn atomic(
        &mut self,
        t: &mut Thread,
        addr: u64,
        ty: Ty,
        site: u32,
        f: impl Fn(u64) -> u64,
    ) -> Result<u64, Fault> {
        let n = u64::from(ty.bytes());
        let p = self.access(t, addr, n, n, true, true, site)?;
        if let Some(c) = self.race.as_deref_mut() {
            c.state.atomic_sync(addr);
        }
        // SAFETY: access checked n aligned bytes at p; allocations are
        // whole 16-byte units, shared and local memory whole 8-byte ones,
        // so the aligned word around p is ours too.
        Ok(arith::norm(ty, unsafe { rmw(p, n, f) }))
    }

    pub(crate) fn copy(
        &mut self,
        t: &mut Thread,
        dst: u64,
        src: u64,
        bytes: u64,
        site: u32,
    ) -> Result<(), Fault> {
        if bytes == 0 {
            return Ok(());
        }
        let s = self.access(t, src, bytes, 1, false, false, site)?;
        let d = self.access(t, dst, bytes, 1, true, false, site)?;
        if s == d {
            return Ok(());
        }
        for i in 0..bytes as usize {
            // SAFETY: both ranges were checked; equal or disjoint (IR).
            unsafe { write(d.add(i), 1, read(s.add(i), 1)) };
        }
        Ok(())
    }

    /// The NUL-terminated string at `addr` (for `%s`), at most 4096 bytes.
    pub(crate) fn string_at(&mut self, t: &mut Thread, addr: u64) -> Option<Vec<u8>> {
        let saved = self.race.take();
        let mut out = vec![];
        for i in 0..4096u64 {
            match self.access(t, addr.wrapping_add(i), 1, 1, false, false, 0) {
                // SAFETY: one checked byte.
                Ok(p) => match unsafe { read(p, 1) } as u8 {
                    0 => break,
                    b => out.push(b),
                },
                Err(_) => {
                    self.race = saved;
                    return None;
                }
            }
        }
        self.race = saved;
        Some(out)
    }
}
