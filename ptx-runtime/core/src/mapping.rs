//! The data clause actions of OpenACC 3.3 (2.7.2) on one device: the one
//! place where a host range becomes present ([`acquire`]) and where a
//! reference to it is dropped and its lifetime ends ([`release`],
//! [`remove_range`]), plus attach/detach (2.6.8), update, `acc_map_data` /
//! `acc_unmap_data`, and keeping the device address cells of declared
//! globals current ([`refresh_cells`]).
//!
//! Owns: the rules that move the reference counts and attachment counters.
//! Every construct and API routine goes through these functions (data,
//! compute, enter/exit data, update, host_data, declare, `acc_*`). They
//! return [`Failure`]s; the caller reports them with its construct and
//! variable. [`Site`] says, for the profiling events (and so
//! `PTXRT_NOTIFY`'s lines) and `PTXRT_TIME` records, where a transfer comes
//! from (its name built lazily: nothing is formatted unless a client takes
//! the event); every transfer the program asks for (clauses, update,
//! `acc_*` copies) goes through [`upload`] / [`download`], which emit its
//! enqueue events, time the copy and record it.
//!
//! Rules (2.6.7, 2.7.2): a range is present while its structured or dynamic
//! count is nonzero; `acc_map_data` and global declares set the dynamic count
//! to [`INFINITE`], which exit data and the API never lower (only
//! `acc_unmap_data` does, for a mapped range). When both counts reach zero,
//! the range is copied out (if the clause says so: only the section the
//! clause names), the pointers attached inside it keep their host values in
//! host memory (an immediate detach), its cells are cleared, and its device
//! memory is freed unless the program owns it. A null host address is no
//! action; a zero-length section is never a reference (a structured one is
//! remembered so a kernel can translate it). A section that overlaps a
//! present range without lying inside it is "partly present": an error.
//! A bare pointer in a clause (`PTXRT_MAP_BLOCK | PTXRT_MAP_NO_EXTENT`)
//! stands for the whole present range that contains its target, an
//! implicit section (`PTXRT_MAP_BLOCK`) for it when there is one
//! ([`locate`]); `alwaysin` and
//! `alwaysout` copy a section that stays present ([`always_in`],
//! [`always_out`]).
//!
//! A device that shares the program's memory (the host device,
//! [`DeviceState::shares_memory`]) keeps the same table and counts, as
//! libgomp's host device and LLVM offload's host plugin go through the
//! same mapping interface: a range maps to itself ([`Owner::Shared`]), so
//! making it present allocates and copies nothing, ending it frees
//! nothing, and the copies of clauses and updates are no-ops. What
//! OpenACC says for shared memory holds: every host address is accessible
//! on such a device, so a section not in the table is present at its own
//! address ([`translate`], [`is_present`]; a `present` clause maps it to
//! itself), and no section is "partly present" there.
//! The profiling interface's data events ([`crate::prof`]: alloc, create,
//! enqueue_upload/download start and end, delete, free) are emitted here,
//! where the actions happen (not on a device that shares memory, where
//! nothing is allocated or copied).
//! May call: [`crate::present`], [`crate::devmem`] (through the device
//! state), [`crate::error`], [`crate::timing`],
//! [`crate::prof`].

use crate::abi::SrcLoc;
use crate::device::DeviceState;
use crate::error::Failure;
use crate::present::{Attachment, Entry, Lookup, Owner, INFINITE};
use crate::prof;
use crate::profile::Op;
use crate::timing;
use std::ffi::c_void;

/// Which reference count an action moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ref {
    /// Data and compute constructs.
    Structured,
    /// Enter/exit data, `acc_copyin`, `acc_copyout`, ...
    Dynamic,
    /// Global declares: present until shutdown (dynamic count [`INFINITE`]).
    Infinite,
}

/// What [`acquire`] does when no byte of the section is present.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IfAbsent {
    /// Allocate (copyin: and copy the host data in; zero: zero it).
    Create { copyin: bool, zero: bool },
    /// `present`: an error.
    Error,
    /// `no_create`: nothing.
    Skip,
}

/// What [`acquire`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Acquired {
    /// A reference to the range containing the section was taken.
    Range,
    /// A zero-length section, remembered for translation (structured only).
    ZeroLen,
    /// Nothing (null, zero-length dynamic, or absent with [`IfAbsent::Skip`]).
    Nothing,
}

/// Where a transfer comes from, for `PTXRT_NOTIFY` and `PTXRT_TIME`.
pub struct Site<'a> {
    pub loc: &'a SrcLoc,
    /// The item as written; called only when a line is printed.
    pub name: &'a dyn Fn() -> String,
}

/// A data event of a site: where, on what, about which bytes.
pub struct SiteEvent<'a> {
    ctx: prof::Ctx<'a>,
    data: prof::Data<'a>,
}

impl SiteEvent<'_> {
    /// Emit event `e` (with `tool` from its start event): the `tool_info` left.
    pub fn data(&self, e: i32, tool: *mut c_void) -> *mut c_void {
        prof::data(e, &self.ctx, &self.data, tool)
    }
}

impl<'a> Site<'a> {
    /// The profiling interface's view of `bytes` at host `host` and device
    /// `device` of `dev`, for this site.
    pub fn event(
        &self,
        dev: &DeviceState,
        host: usize,
        device: u64,
        bytes: usize,
    ) -> SiteEvent<'a> {
        SiteEvent {
            ctx: prof::Ctx::of(self.loc, dev),
            data: prof::Data {
                name: self.name,
                bytes,
                host,
                device,
                implicit: false,
            },
        }
    }
}

/// Copy `bytes` from host `src` to device `dst` on the device's queue, for
/// `site`: its profiling events (`PTXRT_NOTIFY`'s line), the copy, its
/// `PTXRT_TIME` record.
///
/// # Safety
/// `src` must be readable for `bytes` bytes (until the queue gets there,
/// for an async queue).
pub unsafe fn upload(
    dev: &mut DeviceState,
    site: &Site,
    dst: u64,
    src: *const c_void,
    bytes: usize,
) -> Result<(), Failure> {
    if dev.shares_memory() {
        // SAFETY: per the caller; device memory is host memory.
        unsafe { shared_copy(dst as usize as *mut c_void, src, bytes) };
        return Ok(());
    }
    let op = Op::ToDevice(bytes as u64);
    let ev = site.event(dev, src as usize, dst, bytes);
    let tool = ev.data(prof::ev::ENQUEUE_UPLOAD_START, std::ptr::null_mut());
    let r = timing::measure(dev, dev.queue, site.loc, op, |dev| {
        // SAFETY: per the caller.
        unsafe { dev.to_device(dst, src, bytes) }
    });
    ev.data(prof::ev::ENQUEUE_UPLOAD_END, tool);
    r
}

/// Copy `bytes` from device `src` to host `dst` on the device's queue, for
/// `site` (as [`upload`]).
///
/// # Safety
/// `dst` must be writable for `bytes` bytes (until the queue gets there,
/// for an async queue).
pub unsafe fn download(
    dev: &mut DeviceState,
    site: &Site,
    dst: *mut c_void,
    src: u64,
    bytes: usize,
) -> Result<(), Failure> {
    if dev.shares_memory() {
        // SAFETY: per the caller; device memory is host memory.
        unsafe { shared_copy(dst, src as usize as *const c_void, bytes) };
        return Ok(());
    }
    let op = Op::ToHost(bytes as u64);
    let ev = site.event(dev, dst as usize, src, bytes);
    let tool = ev.data(prof::ev::ENQUEUE_DOWNLOAD_START, std::ptr::null_mut());
    let r = timing::measure(dev, dev.queue, site.loc, op, |dev| {
        // SAFETY: per the caller.
        unsafe { dev.to_host(dst, src, bytes) }
    });
    ev.data(prof::ev::ENQUEUE_DOWNLOAD_END, tool);
    r
}

/// A copy on a device that shares the program's memory: none when a range
/// is copied to itself (a mapped range), else a `memmove`.
///
/// # Safety
/// Both must be host ranges of `bytes` bytes.
unsafe fn shared_copy(dst: *mut c_void, src: *const c_void, bytes: usize) {
    if dst.cast_const() != src && bytes > 0 {
        // SAFETY: per the caller.
        unsafe { std::ptr::copy(src.cast::<u8>(), dst.cast::<u8>(), bytes) };
    }
}

/// The device address of host address `host`, found through the present
/// range that holds `section` (the start of the section `host` lies in):
/// on a device that shares memory, an address not in the table is its
/// own. `None`: not present.
pub fn translate(dev: &DeviceState, host: usize, section: usize) -> Option<u64> {
    dev.present
        .translate(host, section)
        .or_else(|| (dev.shares_memory() && host != 0).then_some(host as u64))
}

/// The host address of device address `device` (`None`: no present data
/// there); on a device that shares memory, an address not in the table is
/// its own.
pub fn host_of(dev: &DeviceState, device: u64) -> Option<usize> {
    dev.present
        .host_of(device)
        .or_else(|| (dev.shares_memory() && device != 0).then_some(device as usize))
}

fn partly(host: usize, bytes: usize, begin: usize, end: usize) -> Failure {
    Failure::with(
        "only partly present on the device",
        format!(
            "the section is {bytes} bytes at {host:#x}, the present data {} bytes at {begin:#x}",
            end - begin
        ),
    )
}

fn internal(what: String) -> Failure {
    Failure::new(format!("internal error: {what}"))
}

fn count(e: &mut Entry, r: Ref) {
    match r {
        Ref::Structured => e.structured += 1,
        Ref::Dynamic if e.dynamic != INFINITE => e.dynamic += 1,
        Ref::Dynamic => {}
        Ref::Infinite => e.dynamic = INFINITE,
    }
}

/// Make `[host, host + bytes)` present with one more reference of kind `r`
/// (present increment action, or create/copyin action when absent).
pub fn acquire(
    dev: &mut DeviceState,
    site: &Site,
    host: usize,
    bytes: usize,
    if_absent: IfAbsent,
    r: Ref,
) -> Result<Acquired, Failure> {
    if host == 0 {
        return Ok(Acquired::Nothing);
    }
    if bytes == 0 {
        if r == Ref::Structured {
            dev.present.add_zero_len(host);
            return Ok(Acquired::ZeroLen);
        }
        return Ok(Acquired::Nothing);
    }
    match dev.present.lookup(host, bytes) {
        Lookup::Contained { key, .. } => {
            let e = dev
                .present
                .get_mut(key)
                .ok_or_else(|| internal(format!("present range {key:#x} vanished")))?;
            count(e, r);
            Ok(Acquired::Range)
        }
        // Shared memory: every byte is accessible, none partly.
        Lookup::PartlyPresent { .. } if dev.shares_memory() => Ok(Acquired::Nothing),
        Lookup::PartlyPresent { begin, end } => Err(partly(host, bytes, begin, end)),
        Lookup::Absent => match if_absent {
            // Shared memory: present at its own address.
            IfAbsent::Error if dev.shares_memory() => {
                create(dev, site, host, bytes, false, false, r)?;
                Ok(Acquired::Range)
            }
            IfAbsent::Error => Err(Failure::new("not present on the device")),
            IfAbsent::Skip => Ok(Acquired::Nothing),
            IfAbsent::Create { copyin, zero } => {
                create(dev, site, host, bytes, copyin, zero, r)?;
                Ok(Acquired::Range)
            }
        },
    }
}

/// The create (and copyin) action: allocate, fill, insert, update cells.
/// On a device that shares memory: insert the range mapped to itself
/// (nothing to allocate, copy in or zero: the data is the program's).
fn create(
    dev: &mut DeviceState,
    site: &Site,
    host: usize,
    bytes: usize,
    copyin: bool,
    zero: bool,
    r: Ref,
) -> Result<(), Failure> {
    if dev.shares_memory() {
        let mut e = Entry::new(host, bytes, host as u64, Owner::Shared);
        count(&mut e, r);
        return dev
            .present
            .insert(e)
            .map_err(|why| internal(format!("present table: {why:?}")));
    }
    let d = dev.alloc(bytes)?;
    let ev = site.event(dev, host, d, bytes);
    ev.data(prof::ev::ALLOC, std::ptr::null_mut());
    let mut filled = Ok(());
    if zero {
        filled = dev.zero(d, bytes);
    }
    if copyin && filled.is_ok() {
        // SAFETY: the section is the program's host data of `bytes` bytes.
        filled = unsafe { upload(dev, site, d, host as *const c_void, bytes) };
    }
    if let Err(f) = filled {
        let _ = dev.free(d);
        return Err(f);
    }
    let mut e = Entry::new(host, bytes, d, Owner::Runtime);
    count(&mut e, r);
    if let Err(why) = dev.present.insert(e) {
        let _ = dev.free(d);
        return Err(internal(format!("present table: {why:?}")));
    }
    ev.data(prof::ev::CREATE, std::ptr::null_mut());
    refresh_cells(dev, host, host.saturating_add(bytes))
}

/// Drop a reference of kind `r` to the present range containing
/// `[host, host + bytes)` (present decrement action; with `finalize`, the
/// dynamic count becomes zero). When no reference is left, the lifetime
/// ends ([`remove_range`]), copying the section out if `copyout`. Not
/// present, or no reference of that kind: no action.
pub fn release(
    dev: &mut DeviceState,
    site: &Site,
    host: usize,
    bytes: usize,
    r: Ref,
    finalize: bool,
    copyout: bool,
) -> Result<(), Failure> {
    if host == 0 || bytes == 0 {
        return Ok(());
    }
    let key = match dev.present.lookup(host, bytes) {
        Lookup::Contained { key, .. } => key,
        Lookup::PartlyPresent { .. } if dev.shares_memory() => return Ok(()),
        Lookup::PartlyPresent { begin, end } => return Err(partly(host, bytes, begin, end)),
        Lookup::Absent => return Ok(()),
    };
    let Some(e) = dev.present.get_mut(key) else {
        return Ok(());
    };
    match r {
        Ref::Structured if e.structured > 0 => e.structured -= 1,
        Ref::Dynamic if e.dynamic > 0 && e.dynamic != INFINITE => {
            e.dynamic = if finalize { 0 } else { e.dynamic - 1 };
        }
        _ => return Ok(()),
    }
    if !e.unreferenced() {
        return Ok(());
    }
    remove_range(dev, site, key, copyout.then_some((host, bytes)))
}

/// End the lifetime of the range keyed `key`: copy `copyout` (a section of
/// it) to the host — pointers attached inside the section get back their
/// host values — then forget the range and its attachments, clear its
/// cells, and free its device memory unless the program owns it.
pub fn remove_range(
    dev: &mut DeviceState,
    site: &Site,
    key: usize,
    copyout: Option<(usize, usize)>,
) -> Result<(), Failure> {
    let Some(e) = dev.present.get(key).copied() else {
        return Ok(());
    };
    if let Some((h, n)) = copyout {
        copy_out(dev, site, h, n, e.device_of(h))?;
    }
    let ev = (!dev.shares_memory())
        .then(|| site.event(dev, e.host_begin, e.device, e.host_end - e.host_begin));
    if let Some(ev) = &ev {
        ev.data(prof::ev::DELETE, std::ptr::null_mut());
    }
    dev.present.remove(key);
    refresh_cells(dev, e.host_begin, e.host_end)?;
    if e.owner == Owner::Runtime {
        dev.free(e.device)?;
        if let Some(ev) = &ev {
            ev.data(prof::ev::FREE, std::ptr::null_mut());
        }
    }
    Ok(())
}

/// Copy `bytes` at device address `device` to the host section `[host,
/// host + bytes)`. The pointers attached inside it keep their host values:
/// their device copies hold device addresses, which the host must not get.
fn copy_out(
    dev: &mut DeviceState,
    site: &Site,
    host: usize,
    bytes: usize,
    device: u64,
) -> Result<(), Failure> {
    let saved: Vec<(usize, u64)> = dev
        .present
        .attached_in(host, host.saturating_add(bytes))
        .into_iter()
        // SAFETY: an attached pointer lies in a present host range.
        .map(|p| (p, unsafe { std::ptr::read_unaligned(p as *const u64) }))
        .collect();
    // SAFETY: the section is the program's host data of `bytes` bytes.
    unsafe { download(dev, site, host as *mut c_void, device, bytes)? };
    for (p, v) in saved {
        // SAFETY: as above.
        unsafe { std::ptr::write_unaligned(p as *mut u64, v) };
    }
    Ok(())
}

/// Where a data item's section is, once `PTXRT_MAP_BLOCK` is resolved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Located {
    /// The section `[host, host + bytes)`: the item's own, or the present
    /// block that contains the item's first byte.
    Section { host: usize, bytes: usize },
    /// A block item (a bare pointer) with no extent of its own whose
    /// target is not present.
    Unknown,
}

/// The section item `[host, host + bytes)` stands for: with `block`
/// (`PTXRT_MAP_BLOCK`), the whole present range containing `host` when
/// there is one; else the item's own section, or [`Located::Unknown`]
/// when it has none (`no_extent`: `PTXRT_MAP_NO_EXTENT`, a bare pointer).
/// A null `host` is its own section.
pub fn locate(
    dev: &DeviceState,
    host: usize,
    bytes: usize,
    block: bool,
    no_extent: bool,
) -> Located {
    if host == 0 {
        return Located::Section { host, bytes };
    }
    match dev.present.block_containing(host) {
        Some((host, bytes)) if block => Located::Section { host, bytes },
        _ if no_extent => Located::Unknown,
        _ => Located::Section { host, bytes },
    }
}

/// Why a bare pointer whose target is not present cannot be mapped by a
/// clause that would allocate.
pub fn no_extent() -> Failure {
    Failure::with(
        "not present on the device",
        "the clause gives no extent to allocate (use a sub-array such as 'p[0:n]')",
    )
}

/// `alwaysin`: copy the section to the device when it was present already
/// (`was_present`: before the clause's action; a new copy was filled by it).
pub fn always_in(
    dev: &mut DeviceState,
    site: &Site,
    host: usize,
    bytes: usize,
    was_present: bool,
) -> Result<(), Failure> {
    if !was_present || host == 0 || bytes == 0 {
        return Ok(());
    }
    update(dev, site, host, bytes, true, true)
}

/// `alwaysout`: copy the section back to the host if it is still present
/// after the clause's release (a removed range was copied out already).
pub fn always_out(
    dev: &mut DeviceState,
    site: &Site,
    host: usize,
    bytes: usize,
) -> Result<(), Failure> {
    if host == 0 || bytes == 0 {
        return Ok(());
    }
    match dev.present.lookup(host, bytes) {
        Lookup::Contained { device, .. } => copy_out(dev, site, host, bytes, device),
        _ => Ok(()),
    }
}

/// Whether all of `[host, host + bytes)` is present.
pub fn is_present(dev: &DeviceState, host: usize, bytes: usize) -> bool {
    host != 0
        && bytes != 0
        && (dev.shares_memory()
            || matches!(dev.present.lookup(host, bytes), Lookup::Contained { .. }))
}

/// Copy the present section `[host, host + bytes)` to the device or to the
/// host (update). Not present: an error, or nothing with `if_present`.
pub fn update(
    dev: &mut DeviceState,
    site: &Site,
    host: usize,
    bytes: usize,
    to_device: bool,
    if_present: bool,
) -> Result<(), Failure> {
    // Shared memory: the data is where the program has it, nothing to copy.
    if host == 0 || bytes == 0 || dev.shares_memory() {
        return Ok(());
    }
    let d = match dev.present.lookup(host, bytes) {
        Lookup::Contained { device, .. } => device,
        Lookup::PartlyPresent { begin, end } => return Err(partly(host, bytes, begin, end)),
        Lookup::Absent if if_present => return Ok(()),
        Lookup::Absent => return Err(Failure::new("not present on the device")),
    };
    if to_device {
        // SAFETY: the section is the program's host data of `bytes` bytes.
        unsafe { upload(dev, site, d, host as *const c_void, bytes) }
    } else {
        // SAFETY: as above.
        unsafe { download(dev, site, host as *mut c_void, d, bytes) }
    }
}

const PTR: usize = std::mem::size_of::<u64>();

/// Where [`attach`] finds a pointer's target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// Through the pointer's value (a range that holds it, or ends there).
    Value,
    /// Through the value, or — when no range holds it and it lies before
    /// this address (a pointer member whose section starts later,
    /// `s->p[2:n]`, given as the section of the item before) — through the
    /// range holding this address.
    Before(usize),
    /// Through the range holding this address, the section the pointer's
    /// row was mapped at (pointer-to-pointer rows): rows next to each
    /// other in memory never take their neighbour's range.
    Row(usize),
}

/// The attach action for the pointer stored at host address `ptr`: its
/// device copy (if present) gets the device address of the pointer's
/// target (found as `how` says), counted per pointer. A null pointer gets
/// null. Returns whether the action was taken (the pointer is present). A
/// target that is not present is an error.
pub fn attach(dev: &mut DeviceState, ptr: usize, how: Target) -> Result<bool, Failure> {
    if ptr == 0 {
        return Ok(false);
    }
    let Lookup::Contained {
        device: ptr_dev, ..
    } = dev.present.lookup(ptr, PTR)
    else {
        return Ok(false);
    };
    // SAFETY: the pointer's storage is a present (so live) host range.
    let value = unsafe { std::ptr::read_unaligned(ptr as *const u64) } as usize;
    let p = &dev.present;
    let target = match how {
        _ if value == 0 => Some(0),
        Target::Row(s) => p.translate(value, s),
        Target::Value => p.translate(value, value),
        Target::Before(s) => p
            .block_containing(value)
            .map(|_| p.translate(value, value))
            .unwrap_or_else(|| {
                (value < s)
                    .then(|| p.translate(value, s))
                    .flatten()
                    .or_else(|| p.translate(value, value))
            }),
    };
    // Shared memory: the target is accessible where it is, and the pointer
    // already holds its address.
    let shared = dev.shares_memory();
    let Some(target) = target.or_else(|| shared.then_some(value as u64)) else {
        return Err(Failure::with(
            "the pointer's target is not present on the device",
            format!("the pointer holds {value:#x}"),
        ));
    };
    let a = match dev.present.attachment(ptr) {
        Some(a) if a.target == target => Attachment {
            count: a.count + 1,
            target,
        },
        _ => {
            if !shared {
                dev.write_pointer(ptr_dev, target)?;
            }
            Attachment { count: 1, target }
        }
    };
    dev.present.set_attachment(ptr, a);
    Ok(true)
}

/// The detach action (immediate with `finalize`) for the pointer at host
/// address `ptr`: one attachment less; at zero its device copy gets the
/// host pointer's value again. Not present or not attached: no action.
pub fn detach(dev: &mut DeviceState, ptr: usize, finalize: bool) -> Result<(), Failure> {
    if ptr == 0 {
        return Ok(());
    }
    let Lookup::Contained {
        device: ptr_dev, ..
    } = dev.present.lookup(ptr, PTR)
    else {
        return Ok(());
    };
    let Some(a) = dev.present.attachment(ptr) else {
        return Ok(());
    };
    let count = if finalize { 0 } else { a.count - 1 };
    if count == 0 && !dev.shares_memory() {
        // SAFETY: the pointer's storage is a present (so live) host range.
        let host_value = unsafe { std::ptr::read_unaligned(ptr as *const u64) };
        dev.write_pointer(ptr_dev, host_value)?;
    }
    dev.present.set_attachment(ptr, Attachment { count, ..a });
    Ok(())
}

/// `acc_map_data`: the program's device memory `device` becomes the device
/// copy of `[host, host + bytes)`, present until `acc_unmap_data`.
pub fn map_user(
    dev: &mut DeviceState,
    host: usize,
    device: u64,
    bytes: usize,
) -> Result<(), Failure> {
    if host == 0 || device == 0 {
        return Err(Failure::new("null pointer"));
    }
    if bytes == 0 {
        return Err(Failure::new("zero bytes"));
    }
    if dev.shares_memory() && device != host as u64 {
        return Err(Failure::new(
            "host memory is device memory here: data_dev must be data_arg",
        ));
    }
    match dev.present.lookup(host, bytes) {
        Lookup::Absent => {}
        Lookup::Contained { key, .. } => {
            let len = dev.present.get(key).map_or(0, Entry::len);
            return Err(Failure::with(
                "already present on the device",
                format!("the present data is {len} bytes at {key:#x}"),
            ));
        }
        Lookup::PartlyPresent { begin, end } => {
            return Err(Failure::with(
                "already partly present on the device",
                format!("the present data is {} bytes at {begin:#x}", end - begin),
            ))
        }
    }
    let mut e = Entry::new(host, bytes, device, Owner::User);
    e.dynamic = INFINITE;
    dev.present
        .insert(e)
        .map_err(|why| internal(format!("present table: {why:?}")))?;
    refresh_cells(dev, host, host.saturating_add(bytes))
}

/// `acc_unmap_data`: the range mapped at `host` by `acc_map_data` loses its
/// dynamic reference (its device memory is the program's: never freed).
/// While a data region still holds it, it stays present until that ends.
pub fn unmap_user(dev: &mut DeviceState, site: &Site, host: usize) -> Result<(), Failure> {
    let Some(e) = dev.present.get_mut(host).filter(|e| e.owner == Owner::User) else {
        return Err(Failure::new("not mapped with acc_map_data"));
    };
    e.dynamic = 0;
    if e.unreferenced() {
        remove_range(dev, site, host, None)?;
    }
    Ok(())
}

/// Store into every cell of a host global in `[begin, end)` the global's
/// device address (0 when it has no device copy).
pub fn refresh_cells(dev: &mut DeviceState, begin: usize, end: usize) -> Result<(), Failure> {
    let cells: Vec<(usize, u64)> = dev
        .cells
        .range(begin..end)
        .flat_map(|(h, cs)| cs.iter().map(move |c| (*h, *c)))
        .collect();
    for (host, cell) in cells {
        let value = cell_value(dev, host);
        dev.write_pointer(cell, value)?;
    }
    Ok(())
}

/// What a device address cell of the host global at `host` holds: the
/// global's device address, 0 when it has no device copy — on a device
/// that shares the program's memory (the multicore device), its own
/// address.
pub fn cell_value(dev: &DeviceState, host: usize) -> u64 {
    match dev.present.lookup(host, 1) {
        Lookup::Contained { device, .. } => device,
        _ if dev.shares_memory() => host as u64,
        _ => 0,
    }
}
