//! Dynamic data lifetimes: the enter data and exit data directives (2.6.6).
//!
//! Owns: `__ptxrt_enter_data` / `__ptxrt_exit_data` and [`enter`] / [`exit`],
//! their logic on one device. Enter data takes a dynamic reference for each
//! copyin/create item (copying in / allocating when absent), then attaches
//! its `attach` items (after the copies, as the spec schedules them; they are
//! never detached implicitly). Exit data first detaches its `detach` items
//! (immediately with `finalize`; before the copies, as the spec schedules
//! them), then drops the dynamic reference of each copyout/delete item (to
//! zero with `finalize`), copying out and freeing a range when both of its
//! counts are zero. An item that is not present is no action. A bare
//! pointer's item stands for the present block holding its target; a
//! section of pointers followed by rows maps (and attaches, detaches) the
//! rows too ([`crate::rows`]); `alwaysin`/`alwaysout` copy sections that
//! stay present. The async
//! arguments select a queue ([`crate::queue`]); the work is done on it.
//! May call: [`crate::runtime`], [`crate::device`], [`crate::mapping`], [`crate::data`] (item
//! kinds), [`crate::queue`], [`crate::abi`], [`crate::error`], [`crate::prof`]
//! (enter_data / exit_data start and end events around the items).

use crate::abi::{
    slice_of, Async, Loc, Map, MapKind, SrcLoc, MAP_ALWAYSOUT, MAP_BLOCK, MAP_NO_EXTENT,
};
use crate::data::{acquire_section, attach_hint, item_action, kind_of, section_of, with_rows};
use crate::device::DeviceState;
use crate::error::{guard, report, Failure};
use crate::mapping::{self, Located, Ref, Site, Target};
use crate::prof;
use crate::queue;
use crate::runtime::lock;
use std::ffi::c_int;

fn not_allowed(kind: MapKind, directive: &str) -> Failure {
    Failure::new(format!(
        "internal error: {} on an {directive} directive",
        kind.clause()
    ))
}

fn check_pointer(m: &Map) -> Result<(), Failure> {
    if m.bytes == std::mem::size_of::<u64>() {
        Ok(())
    } else {
        Err(Failure::new(format!(
            "internal error: attach/detach of {} bytes (not a pointer)",
            m.bytes
        )))
    }
}

/// Enter data on `dev`. On failure, the index of the item and why.
pub fn enter(dev: &mut DeviceState, loc: &SrcLoc, maps: &[Map]) -> Result<(), (usize, Failure)> {
    let mut attaches = Vec::new();
    for (i, m) in maps.iter().enumerate() {
        let kind = kind_of(m).map_err(|f| (i, f))?;
        match kind {
            MapKind::Copyin | MapKind::Create | MapKind::Copy => {
                let action = item_action(kind, m.flags)
                    .ok_or_else(|| (i, not_allowed(kind, "enter data")))?;
                let name = || m.name_str();
                let site = Site { loc, name: &name };
                let Some((host, bytes)) = section_of(dev, m, action).map_err(|f| (i, f))? else {
                    continue;
                };
                for (host, bytes, slot) in with_rows(maps, i, host, bytes) {
                    acquire_section(dev, &site, kind, m.flags, (host, bytes), Ref::Dynamic)
                        .map_err(|f| (i, f))?;
                    if let Some(slot) = slot {
                        attaches.push((i, slot, Target::Row(host)));
                    }
                }
            }
            MapKind::Attach => {
                check_pointer(m).map_err(|f| (i, f))?;
                let how = attach_hint(maps, i).map_or(Target::Value, Target::Before);
                attaches.push((i, m.host as usize, how));
            }
            MapKind::Deviceptr | MapKind::Rows => {}
            _ => return Err((i, not_allowed(kind, "enter data"))),
        }
    }
    for (i, ptr, hint) in attaches {
        mapping::attach(dev, ptr, hint).map_err(|f| (i, f))?;
    }
    Ok(())
}

/// Exit data on `dev`. On failure, the index of the item and why.
pub fn exit(
    dev: &mut DeviceState,
    loc: &SrcLoc,
    maps: &[Map],
    finalize: bool,
) -> Result<(), (usize, Failure)> {
    // First the detaches (of detach items and of the rows' pointers), then
    // the releases, rows before the pointers that point to them.
    let mut releases = Vec::with_capacity(maps.len());
    for (i, m) in maps.iter().enumerate() {
        let kind = kind_of(m).map_err(|f| (i, f))?;
        match kind {
            MapKind::Detach => {
                check_pointer(m).map_err(|f| (i, f))?;
                mapping::detach(dev, m.host as usize, finalize).map_err(|f| (i, f))?;
            }
            MapKind::Copyout | MapKind::Delete | MapKind::Copy => {
                // Not present (a bare pointer's target): no action.
                let (block, no_extent) = (m.flags & MAP_BLOCK != 0, m.flags & MAP_NO_EXTENT != 0);
                let Located::Section { host, bytes } =
                    mapping::locate(dev, m.host as usize, m.bytes, block, no_extent)
                else {
                    continue;
                };
                let sections = with_rows(maps, i, host, bytes);
                for &(_, _, slot) in &sections {
                    if let Some(slot) = slot {
                        mapping::detach(dev, slot, finalize).map_err(|f| (i, f))?;
                    }
                }
                releases.push((i, kind, sections));
            }
            MapKind::Deviceptr | MapKind::Rows => {}
            _ => return Err((i, not_allowed(kind, "exit data"))),
        }
    }
    for (i, kind, sections) in releases {
        let m = &maps[i];
        let name = || m.name_str();
        let site = Site { loc, name: &name };
        let copyout = kind.copies_out();
        for &(host, bytes, _) in sections.iter().rev() {
            mapping::release(dev, &site, host, bytes, Ref::Dynamic, finalize, copyout)
                .map_err(|f| (i, f))?;
            if copyout && m.flags & MAP_ALWAYSOUT != 0 {
                mapping::always_out(dev, &site, host, bytes).map_err(|f| (i, f))?;
            }
        }
    }
    Ok(())
}

/// `void __ptxrt_enter_data(loc, maps, n, a)`.
///
/// # Safety
/// `maps` must point at `n` valid maps; `a` is null or a valid
/// `struct __ptxrt_async`.
#[no_mangle]
pub unsafe extern "C" fn __ptxrt_enter_data(
    loc: *const Loc,
    maps: *const Map,
    n: c_int,
    a: *const Async,
) {
    guard(|| {
        // SAFETY: the compiler passes a valid __ptxrt_loc or null.
        let loc = unsafe { SrcLoc::from_c(loc) };
        // SAFETY: the compiler passes n maps and a valid async struct or null.
        let (maps, a) = unsafe { (slice_of(maps, n), Async::from_c(a)) };
        let mut rt = lock();
        let q = queue::prepare(&mut rt, &loc, a);
        let dev = rt.current();
        let ctx = prof::Ctx::on(&loc, dev.id(), q);
        let span = prof::Span::start(prof::ev::ENTER_DATA_START, &ctx, false);
        let r = queue::run(dev, q, |dev| enter(dev, &loc, maps));
        span.end(prof::ev::ENTER_DATA_END, &ctx, false);
        if let Err((i, f)) = r {
            report(&loc, &maps[i].name_str(), &f);
        }
    })
}

/// `void __ptxrt_exit_data(loc, maps, n, finalize, a)`.
///
/// # Safety
/// As for `__ptxrt_enter_data`.
#[no_mangle]
pub unsafe extern "C" fn __ptxrt_exit_data(
    loc: *const Loc,
    maps: *const Map,
    n: c_int,
    finalize: c_int,
    a: *const Async,
) {
    guard(|| {
        // SAFETY: the compiler passes a valid __ptxrt_loc or null.
        let loc = unsafe { SrcLoc::from_c(loc) };
        // SAFETY: the compiler passes n maps and a valid async struct or null.
        let (maps, a) = unsafe { (slice_of(maps, n), Async::from_c(a)) };
        let mut rt = lock();
        let q = queue::prepare(&mut rt, &loc, a);
        let dev = rt.current();
        let ctx = prof::Ctx::on(&loc, dev.id(), q);
        let span = prof::Span::start(prof::ev::EXIT_DATA_START, &ctx, false);
        let r = queue::run(dev, q, |dev| exit(dev, &loc, maps, finalize != 0));
        span.end(prof::ev::EXIT_DATA_END, &ctx, false);
        if let Err((i, f)) = r {
            report(&loc, &maps[i].name_str(), &f);
        }
    })
}
