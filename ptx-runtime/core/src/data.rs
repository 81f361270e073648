//! Data clauses of structured constructs and host → device address translation.
//!
//! Owns: `__ptxrt_data_begin` / `__ptxrt_data_end` (make each clause item
//! present in order — allocate and copy in, or count another structured
//! reference — and undo it in reverse order: copy out and free when the last
//! reference goes) and `__ptxrt_deviceptr`. A region handle is a boxed
//! [`Region`]; null stands for a region begun in host mode (nothing to undo).
//! In host mode (no device in use) data clauses do nothing and `deviceptr`
//! returns its argument: host and "device" share memory.
//! May call: [`crate::device`] (state, plugin), [`crate::present`],
//! [`crate::error`], [`crate::notify`].

use crate::abi::{cstr_or, Loc, Map, MapKind, SrcLoc};
use crate::device::{lock, DeviceState};
use crate::error::{fatal_at, guard};
use crate::notify;
use crate::present::Lookup;
use std::ffi::{c_char, c_int, c_void};
use std::ptr;

/// One clause item as begun.
struct Item {
    name: String,
    host: usize,
    bytes: usize,
    kind: MapKind,
    /// Key (host begin) of the present range it holds a reference to; None
    /// for a zero-length section.
    key: Option<usize>,
}

/// An active structured data region.
pub struct Region {
    loc: SrcLoc,
    items: Vec<Item>,
}

fn begin_item(
    dev: &mut DeviceState,
    loc: &SrcLoc,
    name: String,
    host: usize,
    bytes: usize,
    kind: MapKind,
) -> Item {
    if bytes == 0 {
        dev.present.add_zero_len(host);
        return Item {
            name,
            host,
            bytes,
            kind,
            key: None,
        };
    }
    match dev.present.lookup(host, bytes) {
        Lookup::Contained { key, .. } => {
            if let Some(e) = dev.present.get_mut(key) {
                e.structured += 1;
            }
            Item { name, host, bytes, kind, key: Some(key) }
        }
        Lookup::PartlyPresent { begin, end } => fatal_at(
            loc,
            "only partly present on the device",
            Some(&name),
            Some(&format!(
                "the section is {bytes} bytes at {host:#x}, the present data {} bytes at {begin:#x}",
                end - begin
            )),
        ),
        Lookup::Absent if kind == MapKind::Present => fatal_at(loc, "not present on the device", Some(&name), None),
        Lookup::Absent => {
            let d = match dev.plugin.mem_alloc(dev.ordinal, bytes) {
                Ok(d) => d,
                Err(e) => fatal_at(
                    loc,
                    &format!("cannot allocate {bytes} bytes of device memory"),
                    Some(&name),
                    Some(&e),
                ),
            };
            if let Err(e) = dev.present.insert(host, bytes, d, 1, 0) {
                fatal_at(loc, &format!("internal error: present table: {e:?}"), Some(&name), None);
            }
            if kind.copies_in() {
                notify::transfer("upload", &name, bytes, loc);
                // SAFETY: the compiler passes a host section of `bytes` bytes.
                if let Err(e) = unsafe { dev.plugin.htod(dev.ordinal, d, host as *const c_void, bytes) } {
                    fatal_at(loc, "copy to the device failed", Some(&name), Some(&e));
                }
            }
            Item { name, host, bytes, kind, key: Some(host) }
        }
    }
}

fn end_item(dev: &mut DeviceState, loc: &SrcLoc, it: &Item) {
    let Some(key) = it.key else {
        dev.present.remove_zero_len(it.host);
        return;
    };
    // Gone already (acc_shutdown in between): nothing to undo.
    let Some(e) = dev.present.get_mut(key) else {
        return;
    };
    e.structured = e.structured.saturating_sub(1);
    if !e.unreferenced() {
        return;
    }
    let e = *e;
    if it.kind.copies_out() {
        notify::transfer("download", &it.name, it.bytes, loc);
        // SAFETY: the host section of `bytes` bytes is the clause's own.
        if let Err(err) = unsafe {
            dev.plugin.dtoh(
                dev.ordinal,
                it.host as *mut c_void,
                e.device_of(it.host),
                it.bytes,
            )
        } {
            fatal_at(
                loc,
                "copy from the device failed",
                Some(&it.name),
                Some(&err),
            );
        }
    }
    if let Err(err) = dev.plugin.mem_free(dev.ordinal, e.device) {
        fatal_at(loc, "cannot free device memory", Some(&it.name), Some(&err));
    }
    dev.present.remove(key);
}

/// `void *__ptxrt_data_begin(const struct __ptxrt_loc *loc, const struct __ptxrt_map *maps, int n)`.
///
/// # Safety
/// `maps` must point at `n` valid maps (or be null with `n == 0`).
#[no_mangle]
pub unsafe extern "C" fn __ptxrt_data_begin(
    loc: *const Loc,
    maps: *const Map,
    n: c_int,
) -> *mut c_void {
    guard(|| {
        let mut rt = lock();
        let Some(dev) = rt.active() else {
            return ptr::null_mut();
        };
        // SAFETY: the compiler passes a valid __ptxrt_loc or null.
        let loc = unsafe { SrcLoc::from_c(loc) };
        let n = usize::try_from(n).unwrap_or(0);
        let maps: &[Map] = if maps.is_null() || n == 0 {
            &[]
        } else {
            // SAFETY: the compiler passes an array of n maps.
            unsafe { std::slice::from_raw_parts(maps, n) }
        };
        let mut items = Vec::with_capacity(maps.len());
        for m in maps {
            let name = m.name_str();
            let Some(kind) = MapKind::from_c(m.kind) else {
                fatal_at(
                    &loc,
                    &format!("internal error: unknown data clause kind {}", m.kind),
                    Some(&name),
                    None,
                )
            };
            items.push(begin_item(dev, &loc, name, m.host as usize, m.bytes, kind));
        }
        Box::into_raw(Box::new(Region { loc, items })).cast::<c_void>()
    })
}

/// `void __ptxrt_data_end(void *region)`.
///
/// # Safety
/// `region` must be null or a handle from `__ptxrt_data_begin`, ended once.
#[no_mangle]
pub unsafe extern "C" fn __ptxrt_data_end(region: *mut c_void) {
    guard(|| {
        if region.is_null() {
            return;
        }
        // SAFETY: made by Box::into_raw in __ptxrt_data_begin.
        let region = unsafe { Box::from_raw(region.cast::<Region>()) };
        let mut rt = lock();
        let Some(dev) = rt.active() else {
            return;
        };
        for it in region.items.iter().rev() {
            end_item(dev, &region.loc, it);
        }
    })
}

/// `void __ptxrt_data_cleanup(void **region)`: `__ptxrt_data_end(*region)`
/// for a variable with `__attribute__((cleanup))`, which runs however
/// control leaves its block.
///
/// # Safety
/// `region` points at a handle from `__ptxrt_data_begin` (or null).
#[no_mangle]
pub unsafe extern "C" fn __ptxrt_data_cleanup(region: *mut *mut c_void) {
    if region.is_null() {
        return;
    }
    // SAFETY: the compiler passes the address of its handle variable.
    let r = unsafe { std::mem::replace(&mut *region, ptr::null_mut()) };
    // SAFETY: as __ptxrt_data_end.
    unsafe { __ptxrt_data_end(r) }
}

/// `void *__ptxrt_deviceptr(loc, name, p, section, if_present)`.
///
/// # Safety
/// Strings must be NUL-terminated or null; the pointers are only compared.
#[no_mangle]
pub unsafe extern "C" fn __ptxrt_deviceptr(
    loc: *const Loc,
    name: *const c_char,
    p: *const c_void,
    section: *const c_void,
    if_present: c_int,
) -> *mut c_void {
    guard(|| {
        if p.is_null() {
            return ptr::null_mut();
        }
        let mut rt = lock();
        let Some(dev) = rt.active() else {
            return p.cast_mut();
        };
        let s = if section.is_null() { p } else { section };
        match dev.present.translate(p as usize, s as usize) {
            Some(d) => d as usize as *mut c_void,
            None if if_present != 0 => p.cast_mut(),
            None => fatal_at(
                // SAFETY: as for __ptxrt_data_begin.
                unsafe { &SrcLoc::from_c(loc) },
                "not present on the device",
                // SAFETY: the name is NUL-terminated or null.
                Some(&unsafe { cstr_or(name, "<unnamed>") }),
                None,
            ),
        }
    })
}
