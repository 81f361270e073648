//! Globals in `acc declare` directives (2.13) and the device address cells
//! through which device code reaches them.
//!
//! Owns: the registry of declared globals (`__ptxrt_register_declare`, called
//! by constructors, possibly before any device is open and more than once for
//! one range), making the create/copyin ones present on every device when it
//! is opened (copyin: filled from the host then; dynamic count infinite, so
//! nothing but shutdown frees them), and binding the cells of a module when
//! it is loaded or linked on a device ([`bind_cells`]: look each cell's
//! symbol up in the module, remember it in the device's cell index, store the
//! global's device address or 0). Cells of `link` globals, which have no
//! device copy of their own, then follow the data clauses that map or unmap
//! them ([`crate::mapping::refresh_cells`]).
//! May call: [`crate::runtime`], [`crate::device`], [`crate::mapping`], [`crate::abi`],
//! [`crate::error`].

use crate::abi::{cstr_or, Declare, Image, SrcLoc, DECLARE_LINK};
use crate::device::DeviceState;
use crate::error::{guard, report};
use crate::mapping::{self, IfAbsent, Ref, Site};
use crate::runtime::lock;
use std::ffi::{c_int, CStr};

/// `PTXRT_MAP_COPYIN` and `PTXRT_MAP_CREATE` of ptxrt.h.
const MAP_COPYIN: c_int = 1;
const MAP_CREATE: c_int = 3;

/// What a declared global gets on a device.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeclareKind {
    /// A device copy, allocated when the device is opened.
    Create,
    /// A device copy, allocated and filled from the host when the device is opened.
    Copyin,
    /// No copy of its own: its cells follow the data clauses that map it.
    Link,
}

/// One declared global.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Declared {
    pub name: String,
    pub host: usize,
    pub bytes: usize,
    pub kind: DeclareKind,
    pub loc: SrcLoc,
}

/// The declared globals of the program, in registration order.
#[derive(Debug, Default)]
pub struct Declares {
    list: Vec<Declared>,
}

impl Declares {
    pub const fn new() -> Declares {
        Declares { list: Vec::new() }
    }

    /// Add `d` unless its range is registered already; whether it was new.
    pub fn add(&mut self, d: Declared) -> bool {
        if self
            .list
            .iter()
            .any(|o| o.host == d.host && o.bytes == d.bytes)
        {
            return false;
        }
        self.list.push(d);
        true
    }

    pub fn iter(&self) -> impl Iterator<Item = &Declared> {
        self.list.iter()
    }
}

/// Make declared global `g` present on `dev` for good (nothing for `link`).
/// A failure stops the program at the declare directive.
pub fn establish_one(dev: &mut DeviceState, g: &Declared) {
    let copyin = match g.kind {
        DeclareKind::Link => return,
        DeclareKind::Create => false,
        DeclareKind::Copyin => true,
    };
    let name = || g.name.clone();
    let site = Site {
        loc: &g.loc,
        name: &name,
    };
    let action = IfAbsent::Create {
        copyin,
        zero: false,
    };
    if let Err(f) = mapping::acquire(dev, &site, g.host, g.bytes, action, Ref::Infinite) {
        report(&g.loc, &g.name, &f);
    }
}

/// Make every create/copyin global present on a device just opened.
pub fn establish(dev: &mut DeviceState, declares: &Declares) {
    for g in declares.iter() {
        establish_one(dev, g);
    }
}

/// Bind the cells of `images`, whose code is `module` on `dev`: index each
/// and store its global's device address (0 when it has none).
pub fn bind_cells(dev: &mut DeviceState, module: usize, images: &[&Image]) -> Result<(), String> {
    for img in images {
        for cell in img.cells_slice() {
            if cell.symbol.is_null() {
                return Err(format!(
                    "a device address cell of {} has no symbol",
                    img.source_name()
                ));
            }
            // SAFETY: the compiler's cell symbols are NUL-terminated strings.
            let sym = unsafe { CStr::from_ptr(cell.symbol) };
            // SAFETY: the module was loaded or linked on this device.
            let (addr, size) = unsafe {
                dev.plugin.module_get_global(
                    dev.ordinal,
                    module as *mut std::ffi::c_void,
                    sym.as_ptr(),
                )
            }?;
            if size != std::mem::size_of::<u64>() {
                return Err(format!(
                    "the device address cell {} of {} has {size} bytes, not 8",
                    sym.to_string_lossy(),
                    img.source_name()
                ));
            }
            let host = cell.host as usize;
            let cells = dev.cells.entry(host).or_default();
            if !cells.contains(&addr) {
                cells.push(addr);
            }
            let value = mapping::cell_value(dev, host);
            dev.write_pointer(addr, value).map_err(|f| {
                let d = f.detail.unwrap_or_default();
                format!("{}: {d}", f.what)
            })?;
        }
    }
    Ok(())
}

/// `void __ptxrt_register_declare(const struct __ptxrt_declare *d)`.
///
/// # Safety
/// `d` must point at a valid `struct __ptxrt_declare` (its strings
/// NUL-terminated or null).
#[no_mangle]
pub unsafe extern "C" fn __ptxrt_register_declare(d: *const Declare) {
    guard(|| {
        // SAFETY: the compiler passes a static declare record.
        let Some(d) = (unsafe { d.as_ref() }) else {
            return;
        };
        // SAFETY: the record's location and name are the compiler's.
        let loc = unsafe { SrcLoc::from_c(&d.loc) };
        // SAFETY: as above.
        let name = unsafe { cstr_or(d.name, "<unnamed>") };
        let kind = match d.kind {
            MAP_CREATE => DeclareKind::Create,
            MAP_COPYIN => DeclareKind::Copyin,
            DECLARE_LINK => DeclareKind::Link,
            k => report(
                &loc,
                &name,
                &crate::error::Failure::new(format!("internal error: unknown declare kind {k}")),
            ),
        };
        if d.host.is_null() || d.bytes == 0 {
            return;
        }
        let g = Declared {
            name,
            host: d.host as usize,
            bytes: d.bytes,
            kind,
            loc,
        };
        let mut rt = lock();
        if !rt.declares.add(g.clone()) {
            return;
        }
        // Devices already open (a library loaded late) get it now.
        for dev in rt.open_devices() {
            establish_one(dev, &g);
        }
    })
}
