//! The update directive (2.14.4) and the host_data construct (2.8).
//!
//! Owns: `__ptxrt_update` (copy each present section to the device or to
//! the host, in order, on the construct's queue; a section that is not
//! present is an error, or no action with `if_present`; a bare pointer's
//! item is the present block holding its target) and
//! `__ptxrt_host_data_ptr` (the device address of a host address, for
//! `use_device`). On a device that shares the program's memory (the host
//! device) both do nothing / return their argument.
//! May call: [`crate::runtime`], [`crate::device`], [`crate::mapping`], [`crate::queue`],
//! [`crate::abi`], [`crate::error`], [`crate::prof`] (update start and end events).

use crate::abi::{cstr_or, slice_of, Async, Loc, SrcLoc, Update, UPDATE_BLOCK};
use crate::device::DeviceState;
use crate::error::{guard, report, Failure};
use crate::mapping::{self, Located, Site};
use crate::prof;
use crate::queue;
use crate::runtime::lock;
use std::ffi::{c_char, c_int, c_void};

/// Run the update items on `dev`. On failure, the index of the item and why.
pub fn update(
    dev: &mut DeviceState,
    loc: &SrcLoc,
    items: &[Update],
    if_present: bool,
) -> Result<(), (usize, Failure)> {
    for (i, u) in items.iter().enumerate() {
        let name = || u.name_str();
        let site = Site { loc, name: &name };
        let block = u.to_device & UPDATE_BLOCK != 0;
        let (host, bytes) = match mapping::locate(dev, u.host as usize, u.bytes, block, block) {
            Located::Section { host, bytes } => (host, bytes),
            Located::Unknown if if_present || dev.shares_memory() => continue,
            Located::Unknown => return Err((i, Failure::new("not present on the device"))),
        };
        mapping::update(dev, &site, host, bytes, u.to_device & 1 != 0, if_present)
            .map_err(|f| (i, f))?;
    }
    Ok(())
}

/// The device address of host address `p` (use_device), `None` when it is
/// not present; a null `p` is null.
pub fn device_address(dev: &DeviceState, p: usize) -> Option<u64> {
    if p == 0 {
        return Some(0);
    }
    mapping::translate(dev, p, p)
}

/// `void __ptxrt_update(loc, items, n, if_present, a)`.
///
/// # Safety
/// `items` must point at `n` valid items; `a` is null or a valid
/// `struct __ptxrt_async`.
#[no_mangle]
pub unsafe extern "C" fn __ptxrt_update(
    loc: *const Loc,
    items: *const Update,
    n: c_int,
    if_present: c_int,
    a: *const Async,
) {
    guard(|| {
        // SAFETY: the compiler passes a valid __ptxrt_loc or null.
        let loc = unsafe { SrcLoc::from_c(loc) };
        // SAFETY: the compiler passes n items and a valid async struct or null.
        let (items, a) = unsafe { (slice_of(items, n), Async::from_c(a)) };
        let mut rt = lock();
        let q = queue::prepare(&mut rt, &loc, a);
        let dev = rt.current();
        let ctx = prof::Ctx::on(&loc, dev.id(), q);
        let span = prof::Span::start(prof::ev::UPDATE_START, &ctx, false);
        let r = queue::run(dev, q, |dev| update(dev, &loc, items, if_present != 0));
        span.end(prof::ev::UPDATE_END, &ctx, false);
        if let Err((i, f)) = r {
            report(&loc, &items[i].name_str(), &f);
        }
    })
}

/// `void *__ptxrt_host_data_ptr(loc, name, p, if_present)`.
///
/// # Safety
/// `name` must be NUL-terminated or null; `p` is only looked up.
#[no_mangle]
pub unsafe extern "C" fn __ptxrt_host_data_ptr(
    loc: *const Loc,
    name: *const c_char,
    p: *const c_void,
    if_present: c_int,
) -> *mut c_void {
    guard(|| {
        let mut rt = lock();
        let dev = rt.current();
        match device_address(dev, p as usize) {
            Some(d) => d as usize as *mut c_void,
            None if if_present != 0 => p.cast_mut(),
            None => report(
                // SAFETY: the compiler passes a valid __ptxrt_loc or null.
                unsafe { &SrcLoc::from_c(loc) },
                // SAFETY: the name is NUL-terminated or null.
                &unsafe { cstr_or(name, "<unnamed>") },
                &Failure::new("not present on the device"),
            ),
        }
    })
}
