//! Structured data lifetimes (data constructs and the data clauses of
//! compute constructs) and host → device address translation.
//!
//! Owns: `__ptxrt_data_begin` / `__ptxrt_data_end` / `__ptxrt_data_cleanup`
//! and `__ptxrt_deviceptr`; [`begin`] and [`end`], the region logic on one
//! device (tested with a fake plugin); [`item_action`], which says what each
//! map kind does when it makes a section present (shared with enter data).
//! At begin, the data items are processed in order (a bare pointer's item
//! stands for the present block holding its target; a section of pointers
//! is followed by the rows they point to, see [`crate::rows`]), then the
//! `attach` items and the rows' pointers (the spec schedules pointer
//! updates after the copies of the same directive); at end, the attached pointers are detached first, then the
//! data items are released in reverse order (copy out and free when the last
//! reference goes). A region handle is a boxed [`Region`]; null stands for a
//! region begun on a device that shares the program's memory (the host
//! device: nothing to undo). There data clauses do nothing and `deviceptr`
//! returns its argument.
//! Profiling events ([`crate::prof`]): a compute construct's region is
//! compute_construct_start … end, with implicit enter_data and exit_data
//! pairs around its clauses; a data construct's, enter_data at begin and
//! exit_data at end. A synchronous compute construct's end event waits
//! for its kernels only when a callback is registered for it.
//! May call: [`crate::runtime`], [`crate::device`], [`crate::mapping`], [`crate::rows`],
//! [`crate::abi`], [`crate::error`], [`crate::deferred`] (a synchronous
//! construct's begin and end leave the kernels before them running),
//! [`crate::prof`].

use crate::abi::{
    cstr_or, slice_of, Async, Loc, Map, MapKind, SrcLoc, MAP_ALWAYSIN, MAP_ALWAYSOUT, MAP_BLOCK,
    MAP_NO_EXTENT, MAP_ZERO,
};
use crate::deferred;
use crate::device::{DeviceId, DeviceState};
use crate::error::{fatal_at, guard, report, Failure};
use crate::mapping::{self, Acquired, IfAbsent, Located, Ref, Site, Target};
use crate::prof;
use crate::queue::{self, Queue};
use crate::rows;
use crate::runtime::{lock, lock_deferred};
use std::ffi::{c_char, c_int, c_void};
use std::ptr;

/// What a data kind does when its section is absent; `None` for the kinds
/// that are not data items (attach, detach, delete, deviceptr, rows).
pub fn item_action(kind: MapKind, flags: c_int) -> Option<IfAbsent> {
    Some(match kind {
        MapKind::Copy | MapKind::Copyin => IfAbsent::Create {
            copyin: true,
            zero: false,
        },
        MapKind::Copyout | MapKind::Create => IfAbsent::Create {
            copyin: false,
            zero: flags & MAP_ZERO != 0,
        },
        MapKind::Present => IfAbsent::Error,
        MapKind::NoCreate => IfAbsent::Skip,
        MapKind::Delete
        | MapKind::Attach
        | MapKind::Detach
        | MapKind::Deviceptr
        | MapKind::Rows => return None,
    })
}

/// The kind of map `m`, or an internal error naming the value.
pub fn kind_of(m: &Map) -> Result<MapKind, Failure> {
    MapKind::from_c(m.kind).ok_or_else(|| {
        Failure::new(format!(
            "internal error: unknown data clause kind {}",
            m.kind
        ))
    })
}

/// The host address of the section that the item before `maps[i]` (and
/// its rows) names, when that is a data item: where an `attach` item's pointer target is
/// looked up if the pointer's own value is not present (ptxrt.h).
pub fn attach_hint(maps: &[Map], i: usize) -> Option<usize> {
    // (Past the rows of a section of pointers: `s->a[0:n][0:m]`.)
    let prev = maps[..i]
        .iter()
        .rev()
        .find(|m| MapKind::from_c(m.kind) != Some(MapKind::Rows))?;
    let k = MapKind::from_c(prev.kind)?;
    (item_action(k, prev.flags).is_some() && !prev.host.is_null()).then_some(prev.host as usize)
}

/// The section a data item of kind `action` stands for ([`mapping::locate`]):
/// `None` when it is no action (a bare pointer of a `no_create` item whose
/// target is absent); an error for a bare pointer whose target is absent
/// where the clause must find or allocate it.
pub fn section_of(
    dev: &DeviceState,
    m: &Map,
    action: IfAbsent,
) -> Result<Option<(usize, usize)>, Failure> {
    let (block, no_extent) = (m.flags & MAP_BLOCK != 0, m.flags & MAP_NO_EXTENT != 0);
    match mapping::locate(dev, m.host as usize, m.bytes, block, no_extent) {
        Located::Section { host, bytes } => Ok(Some((host, bytes))),
        // Shared memory: the target is accessible where it is.
        Located::Unknown if dev.shares_memory() => Ok(None),
        Located::Unknown => match action {
            IfAbsent::Create { .. } => Err(mapping::no_extent()),
            IfAbsent::Error => Err(Failure::new("not present on the device")),
            IfAbsent::Skip => Ok(None),
        },
    }
}

/// The sections of a data item: its own (`host`, `bytes`), then, for a
/// sub-array through pointers to pointers, every row below it with the
/// host address of the pointer to attach to it (see [`crate::rows`]).
pub fn with_rows(
    maps: &[Map],
    i: usize,
    host: usize,
    bytes: usize,
) -> Vec<(usize, usize, Option<usize>)> {
    let mut out = vec![(host, bytes, None)];
    let levels = rows::levels_after(maps, i);
    if !levels.is_empty() {
        // SAFETY: the item is a section of pointers of the program (the
        // clause says so), and so is every row but the last level's.
        let rs = unsafe { rows::rows(host, bytes, &levels) };
        out.extend(rs.into_iter().map(|r| (r.host, r.bytes, Some(r.slot))));
    }
    out
}

/// One thing a region holds, to undo at its end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hold {
    /// A structured reference to the range containing the section.
    Range {
        item: usize,
        host: usize,
        bytes: usize,
        copyout: bool,
        /// `alwaysout`: copy the section out at the end even if it stays.
        always_out: bool,
    },
    /// A zero-length section.
    ZeroLen { host: usize },
    /// An attachment of the pointer at `ptr`.
    Attached { item: usize, ptr: usize },
}

/// Make one section of data item `item` (kind `kind`, flags `flags`)
/// present with a reference of kind `r`; copy it in when it was present
/// and the item says `alwaysin`. Returns what [`mapping::acquire`] did.
pub fn acquire_section(
    dev: &mut DeviceState,
    site: &Site,
    kind: MapKind,
    flags: c_int,
    (host, bytes): (usize, usize),
    r: Ref,
) -> Result<Acquired, Failure> {
    let action = item_action(kind, flags).ok_or_else(|| {
        Failure::new(format!(
            "internal error: {} is not a data item",
            kind.clause()
        ))
    })?;
    let was_present = mapping::is_present(dev, host, bytes);
    let got = mapping::acquire(dev, site, host, bytes, action, r)?;
    if flags & MAP_ALWAYSIN != 0 && kind.copies_in() {
        mapping::always_in(dev, site, host, bytes, was_present)?;
    }
    Ok(got)
}

/// Begin a region on `dev`: take a structured reference for each data item
/// of `maps` (and each row below a section of pointers) and attach its
/// `attach` items (and the pointers of those rows). On failure, the index
/// of the item and why.
pub fn begin(
    dev: &mut DeviceState,
    loc: &SrcLoc,
    maps: &[Map],
) -> Result<Vec<Hold>, (usize, Failure)> {
    let mut holds = Vec::with_capacity(maps.len());
    // (item, pointer, where its target is looked up if not at its value)
    let mut attaches = Vec::new();
    for (i, m) in maps.iter().enumerate() {
        let kind = kind_of(m).map_err(|f| (i, f))?;
        let Some(action) = item_action(kind, m.flags) else {
            match kind {
                MapKind::Attach => {
                    if m.bytes != std::mem::size_of::<u64>() {
                        let what = format!(
                            "internal error: attach of {} bytes (not a pointer)",
                            m.bytes
                        );
                        return Err((i, Failure::new(what)));
                    }
                    let how = attach_hint(maps, i).map_or(Target::Value, Target::Before);
                    attaches.push((i, m.host as usize, how));
                }
                MapKind::Deviceptr | MapKind::Rows => {}
                _ => {
                    return Err((
                        i,
                        Failure::new(format!(
                            "internal error: {} on a structured construct",
                            kind.clause()
                        )),
                    ))
                }
            }
            continue;
        };
        let name = || m.name_str();
        let site = Site { loc, name: &name };
        let Some((host, bytes)) = section_of(dev, m, action).map_err(|f| (i, f))? else {
            continue;
        };
        for (host, bytes, slot) in with_rows(maps, i, host, bytes) {
            let got = acquire_section(dev, &site, kind, m.flags, (host, bytes), Ref::Structured)
                .map_err(|f| (i, f))?;
            match got {
                Acquired::Range => holds.push(Hold::Range {
                    item: i,
                    host,
                    bytes,
                    copyout: kind.copies_out(),
                    always_out: m.flags & MAP_ALWAYSOUT != 0,
                }),
                Acquired::ZeroLen => holds.push(Hold::ZeroLen { host }),
                // (no_create of an absent row: its pointer stays as it is.)
                Acquired::Nothing if host != 0 => continue,
                Acquired::Nothing => {}
            }
            if let Some(slot) = slot {
                attaches.push((i, slot, Target::Row(host)));
            }
        }
    }
    for (i, ptr, hint) in attaches {
        match mapping::attach(dev, ptr, hint) {
            Ok(true) => holds.push(Hold::Attached { item: i, ptr }),
            Ok(false) => {}
            Err(f) => return Err((i, f)),
        }
    }
    Ok(holds)
}

/// End a region on `dev`: detach its attachments, then release its
/// references in reverse order (`alwaysout` sections that stay present are
/// copied out too). `name(i)` is item i as written (for `PTXRT_NOTIFY`).
/// On failure, the item index and why.
pub fn end(
    dev: &mut DeviceState,
    loc: &SrcLoc,
    holds: &[Hold],
    name: &dyn Fn(usize) -> String,
) -> Result<(), (usize, Failure)> {
    for h in holds.iter().rev() {
        if let Hold::Attached { item, ptr } = *h {
            mapping::detach(dev, ptr, false).map_err(|f| (item, f))?;
        }
    }
    for h in holds.iter().rev() {
        match *h {
            Hold::Range {
                item,
                host,
                bytes,
                copyout,
                always_out,
            } => {
                let n = || name(item);
                let site = Site { loc, name: &n };
                mapping::release(dev, &site, host, bytes, Ref::Structured, false, copyout)
                    .map_err(|f| (item, f))?;
                if always_out {
                    mapping::always_out(dev, &site, host, bytes).map_err(|f| (item, f))?;
                }
            }
            Hold::ZeroLen { host } => dev.present.remove_zero_len(host),
            Hold::Attached { .. } => {}
        }
    }
    Ok(())
}

/// An active structured data region.
pub struct Region {
    loc: SrcLoc,
    /// The items' names as written (static strings of the program).
    names: Vec<*const c_char>,
    /// The device it was begun on, and which opening of it.
    device: DeviceId,
    epoch: u64,
    /// The queue of its `async` clause: its end goes there too.
    queue: Queue,
    holds: Vec<Hold>,
    /// The profiling interface's compute_construct_start (a compute
    /// construct's region) or enter_data_start `tool_info`.
    span: Option<prof::Span>,
}

impl Region {
    fn name(&self, i: usize) -> String {
        match self.names.get(i) {
            // SAFETY: the compiler's item names are static C strings (or null).
            Some(&p) => unsafe { cstr_or(p, "<unnamed>") },
            None => "<unnamed>".to_string(),
        }
    }
}

/// `void *__ptxrt_data_begin(loc, maps, n, a)`: with an `async` clause
/// (`a`), the copies of the begin and of the end go to its queue.
///
/// # Safety
/// `maps` must point at `n` valid maps (or be null with `n == 0`); `a` is
/// null or a valid `struct __ptxrt_async`.
#[no_mangle]
pub unsafe extern "C" fn __ptxrt_data_begin(
    loc: *const Loc,
    maps: *const Map,
    n: c_int,
    a: *const Async,
) -> *mut c_void {
    guard(|| {
        let mut rt = lock_deferred();
        // SAFETY: the compiler passes a valid __ptxrt_loc or null.
        let loc = unsafe { SrcLoc::from_c(loc) };
        // SAFETY: the compiler passes an array of n maps, a valid async struct or null.
        let (maps, a) = unsafe { (slice_of(maps, n), Async::from_c(a)) };
        let queue = queue::prepare(&mut rt, &loc, a);
        if queue != Queue::Sync {
            // Its copies go to a stream not ordered after the null stream.
            deferred::settle();
        }
        let dev = rt.current();
        let (compute, ctx) = (
            prof::any() && prof::is_compute(&loc),
            prof::Ctx::on(&loc, dev.id(), queue),
        );
        let span =
            compute.then(|| prof::Span::start(prof::ev::COMPUTE_CONSTRUCT_START, &ctx, false));
        let enter = prof::Span::start(prof::ev::ENTER_DATA_START, &ctx, compute);
        let holds = match queue::run(dev, queue, |dev| begin(dev, &loc, maps)) {
            Ok(h) => h,
            Err((i, f)) => report(&loc, &maps[i].name_str(), &f),
        };
        enter.end(prof::ev::ENTER_DATA_END, &ctx, compute);
        let region = Region {
            names: maps.iter().map(|m| m.name).collect(),
            device: dev.id(),
            epoch: dev.epoch,
            queue,
            holds,
            span,
            loc,
        };
        Box::into_raw(Box::new(region)).cast::<c_void>()
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
        let mut region = unsafe { Box::from_raw(region.cast::<Region>()) };
        let compute = prof::any() && prof::is_compute(&region.loc);
        let ctx = prof::Ctx::on(&region.loc, region.device, region.queue);
        let exit = prof::Span::start(prof::ev::EXIT_DATA_START, &ctx, compute);
        {
            let mut rt = match region.queue {
                // Copies to the host and frees settle (crate::devmem).
                Queue::Sync => lock_deferred(),
                Queue::Id(_) => lock(),
            };
            // The device was shut down since (and maybe opened again): nothing to undo.
            if let Some(dev) = rt.get(region.device).filter(|d| d.epoch == region.epoch) {
                let name = |i: usize| region.name(i);
                let r = queue::run(dev, region.queue, |dev| {
                    end(dev, &region.loc, &region.holds, &name)
                });
                if let Err((i, f)) = r {
                    report(&region.loc, &region.name(i), &f);
                }
            }
        }
        exit.end(prof::ev::EXIT_DATA_END, &ctx, compute);
        if let Some(span) = region.span.take() {
            // The construct's end means its kernels are done only when a
            // tool asks for it (else they stay deferred: crate::deferred).
            if prof::tools_want(prof::ev::COMPUTE_CONSTRUCT_END) && region.queue == Queue::Sync {
                deferred::settle();
            }
            span.end(prof::ev::COMPUTE_CONSTRUCT_END, &ctx, false);
        }
    })
}

/// `void __ptxrt_data_cleanup(void **region)`.
///
/// # Safety
/// `region` must be null or point at null or at a handle from
/// `__ptxrt_data_begin` that was not ended.
#[no_mangle]
pub unsafe extern "C" fn __ptxrt_data_cleanup(region: *mut *mut c_void) {
    // SAFETY: per the contract above.
    if let Some(r) = unsafe { region.as_mut() } {
        let handle = std::mem::replace(r, ptr::null_mut());
        // SAFETY: a handle from __ptxrt_data_begin, ended once (taken).
        unsafe { __ptxrt_data_end(handle) };
    }
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
        let mut rt = lock_deferred();
        let dev = rt.active();
        let s = if section.is_null() { p } else { section };
        match mapping::translate(dev, p as usize, s as usize) {
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
