//! The C structs and constants of `include/ptxrt.h` (`__ptxrt_image`,
//! `__ptxrt_cell`, `__ptxrt_loc`, `__ptxrt_map`, `__ptxrt_update`,
//! `__ptxrt_declare`, the map kinds and flags) and safe readers for their
//! string and array fields.
//! May call: nothing else in the crate.

use std::ffi::{c_char, c_int, c_void, CStr};

/// `PTXRT_ABI_VERSION` of ptxrt.h (2: `Image::relocatable` added; 3: the
/// data environment: `Image::cells`, `Map::flags`; 4: async queues:
/// [`Async`] arguments, the queue of launches and scratch, `__ptxrt_wait`;
/// 5: an image's code is a list of [`Code`] entries; 6: `Image::flags`).
pub const PTXRT_ABI_VERSION: u32 = 6;

/// `PTXRT_IMAGE_RECURSIVE`, a bit of [`Image::flags`]: the image's device
/// code has recursion (its stack is not known before it runs).
pub const PTXRT_IMAGE_RECURSIVE: u32 = 1;

/// `struct __ptxrt_image`.
#[repr(C)]
pub struct Image {
    pub abi_version: u32,
    /// Nonzero: link with the other relocatable images before loading
    /// (ptxrt.h says when).
    pub relocatable: u32,
    /// `PTXRT_IMAGE_*` bits.
    pub flags: u32,
    pub source: *const c_char,
    /// Its device code: `ncode` entries.
    pub code: *const Code,
    pub ncode: usize,
    pub plugin_dir: *const c_char,
    pub runtime_state: *mut c_void,
    /// Device address cells (`struct __ptxrt_cell`), `ncells` of them.
    pub cells: *const Cell,
    pub ncells: usize,
}

/// `struct __ptxrt_code`: one piece of an image's device code, of kind
/// `ptxrt_plugin_abi::CODE_*`.
#[repr(C)]
pub struct Code {
    pub kind: u32,
    /// The cubin's GPU architecture ("sm_90"), or null.
    pub arch: *const c_char,
    pub bytes: *const u8,
    pub len: usize,
}

impl Code {
    /// Its bytes (PTX without its NUL), or `None` when empty.
    pub fn bytes(&self) -> Option<&[u8]> {
        // SAFETY: an entry holds len bytes at bytes (ptxrt.h).
        (!self.bytes.is_null() && self.len > 0)
            .then(|| unsafe { std::slice::from_raw_parts(self.bytes, self.len) })
    }
    /// The cubin's arch, or "".
    pub fn arch_name(&self) -> String {
        // SAFETY: an entry's arch is NUL-terminated or null (ptxrt.h).
        unsafe { cstr_or(self.arch, "") }
    }
}

/// `struct __ptxrt_cell`: a pointer-sized device global of an image that
/// must hold the device address of a declared host global.
#[repr(C)]
pub struct Cell {
    pub symbol: *const c_char,
    pub host: *const c_void,
}

// The C layout of ptxrt.h on 64-bit targets (checked on the C side by
// ptx-runtime/core/tests/c_api.rs).
#[cfg(target_pointer_width = "64")]
const _: () = {
    assert!(std::mem::offset_of!(Image, relocatable) == 4);
    assert!(std::mem::offset_of!(Image, flags) == 8);
    assert!(std::mem::offset_of!(Image, source) == 16);
    assert!(std::mem::offset_of!(Image, code) == 24);
    assert!(std::mem::size_of::<Image>() == 72);
    assert!(std::mem::offset_of!(Image, runtime_state) == 48);
    assert!(std::mem::offset_of!(Image, cells) == 56);
    assert!(std::mem::size_of::<Code>() == 32);
    assert!(std::mem::size_of::<Map>() == 32);
    assert!(std::mem::size_of::<Update>() == 32);
    assert!(std::mem::size_of::<Declare>() == 56);
    assert!(std::mem::offset_of!(Declare, loc) == 32);
    assert!(std::mem::size_of::<Async>() == 24);
    assert!(std::mem::offset_of!(Async, waits) == 16);
};

/// `PTXRT_MAP_ZERO`: new device memory of a create/copyout item is zeroed.
pub const MAP_ZERO: c_int = 1;
/// `PTXRT_MAP_READONLY`: the item is only read on the device.
pub const MAP_READONLY: c_int = 2;
/// `PTXRT_MAP_ALWAYSIN`: copy in even when the section is present already
/// (OpenACC 3.4 `alwaysin`/`always`).
pub const MAP_ALWAYSIN: c_int = 4;
/// `PTXRT_MAP_ALWAYSOUT`: copy out at the end (exit data) even when the
/// section stays present (OpenACC 3.4 `alwaysout`/`always`).
pub const MAP_ALWAYSOUT: c_int = 8;
/// `PTXRT_MAP_BLOCK`: the item stands for the whole present block that
/// contains its first byte, when one does (a bare pointer in a clause, an
/// implicit section derived from loop bounds); see ptxrt.h.
pub const MAP_BLOCK: c_int = 16;
/// `PTXRT_MAP_NO_EXTENT`: the item has no extent of its own (`bytes` is
/// not used): only the present block containing `host` (a bare pointer).
pub const MAP_NO_EXTENT: c_int = 32;
/// `PTXRT_UPDATE_BLOCK`: bit of `struct __ptxrt_update`'s `to_device`: the
/// item stands for the present block containing its first byte.
pub const UPDATE_BLOCK: c_int = 2;
/// `PTXRT_ASYNC_NONE`: no async clause (also `acc_async_sync`).
pub const ASYNC_NONE: c_int = -2;

/// `struct __ptxrt_async`: the `async` and `wait` clauses of a construct
/// (a null pointer: synchronous, no wait).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct Async {
    /// The queue: `PTXRT_ASYNC_NONE`, an `acc_async_t` value or n >= 0.
    pub async_: c_int,
    /// `wait(devnum: d: …)`: the device of the queues; -1: the current one.
    pub wait_dev: c_int,
    /// -1: `wait` alone (every queue); 0: no wait clause; else the length
    /// of `waits`.
    pub nwaits: c_int,
    pub waits: *const c_int,
}

impl Async {
    /// The struct behind `p` (null: `None`).
    ///
    /// # Safety
    /// `p` is null or points at a valid `struct __ptxrt_async`.
    pub unsafe fn from_c<'a>(p: *const Async) -> Option<&'a Async> {
        // SAFETY: per the caller.
        unsafe { p.as_ref() }
    }
}
/// `PTXRT_DECLARE_LINK`: kind of a `declare link` global.
pub const DECLARE_LINK: c_int = 100;

/// `PTXRT_DEVICE_ANY`: `device_type(*)` of an init, shutdown or set directive.
pub const DEVICE_ANY: c_int = -100;
/// `PTXRT_DEVICE_OTHER`: a device type accc drives no devices of.
pub const DEVICE_OTHER: c_int = -101;

impl Image {
    /// Whether the image must be linked with the other relocatable images
    /// (only an image of this ABI version has the field).
    pub fn is_relocatable(&self) -> bool {
        self.abi_version == PTXRT_ABI_VERSION && self.relocatable != 0
    }
    /// Whether the image's device code has recursion
    /// ([`PTXRT_IMAGE_RECURSIVE`]; only an image of this ABI version has the
    /// field).
    pub fn is_recursive(&self) -> bool {
        self.abi_version == PTXRT_ABI_VERSION && self.flags & PTXRT_IMAGE_RECURSIVE != 0
    }
    /// Its code entries (none for an image of another ABI version, whose
    /// layout differs).
    pub fn code(&self) -> &[Code] {
        if self.abi_version != PTXRT_ABI_VERSION || self.code.is_null() || self.ncode == 0 {
            return &[];
        }
        // SAFETY: the image holds ncode entries at code (ptxrt.h).
        unsafe { std::slice::from_raw_parts(self.code, self.ncode) }
    }
    /// The bytes of its first entry of kind `kind` (`CODE_*`), if any.
    pub fn code_bytes(&self, kind: u32) -> Option<&[u8]> {
        self.code()
            .iter()
            .filter(|c| c.kind == kind)
            .find_map(Code::bytes)
    }
    /// The PTX text without its NUL, or `None` when there is none.
    pub fn ptx_bytes(&self) -> Option<&[u8]> {
        self.code_bytes(ptxrt_plugin_abi::CODE_PTX)
    }
    /// The cubins, with their archs.
    pub fn cubins(&self) -> Vec<(String, &[u8])> {
        self.code()
            .iter()
            .filter(|c| c.kind == ptxrt_plugin_abi::CODE_CUBIN)
            .filter_map(|c| c.bytes().map(|b| (c.arch_name(), b)))
            .collect()
    }
    /// The device address cells (none for another ABI version).
    pub fn cells_slice(&self) -> &[Cell] {
        if self.abi_version != PTXRT_ABI_VERSION || self.cells.is_null() || self.ncells == 0 {
            return &[];
        }
        // SAFETY: the image holds ncells cells at cells (ptxrt.h).
        unsafe { std::slice::from_raw_parts(self.cells, self.ncells) }
    }
    /// The .c file the image was compiled from.
    pub fn source_name(&self) -> String {
        // SAFETY: an image's strings are NUL-terminated or null (ptxrt.h).
        unsafe { cstr_or(self.source, "<unknown>") }
    }
    /// accc's lib directory at compile time, or "" (also for an image of
    /// another ABI version).
    pub fn plugin_dir_name(&self) -> String {
        if self.abi_version != PTXRT_ABI_VERSION {
            return String::new();
        }
        // SAFETY: as above.
        unsafe { cstr_or(self.plugin_dir, "") }
    }
}

/// A leaked image of `source` with code entries `code` ((kind, arch or
/// "", bytes); empty bytes leave an entry out), for tests.
#[cfg(test)]
pub fn test_image(
    source: &'static CStr,
    code: &[(u32, &'static CStr, &'static [u8])],
    relocatable: bool,
) -> Image {
    let entries: Vec<Code> = code
        .iter()
        .filter(|(_, _, b)| !b.is_empty())
        .map(|&(kind, arch, b)| Code {
            kind,
            arch: if arch.is_empty() {
                std::ptr::null()
            } else {
                arch.as_ptr()
            },
            bytes: b.as_ptr(),
            len: b.len(),
        })
        .collect();
    let entries: &'static [Code] = Box::leak(entries.into_boxed_slice());
    Image {
        abi_version: PTXRT_ABI_VERSION,
        relocatable: u32::from(relocatable),
        flags: 0,
        source: source.as_ptr(),
        code: entries.as_ptr(),
        ncode: entries.len(),
        plugin_dir: std::ptr::null(),
        runtime_state: std::ptr::null_mut(),
        cells: std::ptr::null(),
        ncells: 0,
    }
}

/// `struct __ptxrt_loc`.
#[repr(C)]
pub struct Loc {
    pub file: *const c_char,
    pub line: c_int,
    pub col: c_int,
    pub construct: *const c_char,
}

/// `struct __ptxrt_map`.
#[repr(C)]
pub struct Map {
    pub name: *const c_char,
    pub host: *const c_void,
    pub bytes: usize,
    pub kind: c_int,
    /// `PTXRT_MAP_ZERO | PTXRT_MAP_READONLY | PTXRT_MAP_ALWAYSIN |
    /// PTXRT_MAP_ALWAYSOUT | PTXRT_MAP_BLOCK | PTXRT_MAP_NO_EXTENT`.
    pub flags: c_int,
}

impl Map {
    /// The item as written in the clause.
    pub fn name_str(&self) -> String {
        // SAFETY: a map's name is NUL-terminated or null (ptxrt.h).
        unsafe { cstr_or(self.name, "<unnamed>") }
    }
}

/// `enum __ptxrt_map_kind` (ptxrt.h says what each does).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MapKind {
    Copy,
    Copyin,
    Copyout,
    Create,
    Present,
    NoCreate,
    Delete,
    Attach,
    Detach,
    Deviceptr,
    /// The rows of a section of pointers (pointer-to-pointer sub-arrays,
    /// `a[0:n][0:m]`): `host` is the byte offset of each row's section from
    /// where its pointer points, `bytes` its length.
    Rows,
}

impl MapKind {
    pub fn from_c(k: c_int) -> Option<MapKind> {
        Some(match k {
            0 => MapKind::Copy,
            1 => MapKind::Copyin,
            2 => MapKind::Copyout,
            3 => MapKind::Create,
            4 => MapKind::Present,
            5 => MapKind::NoCreate,
            6 => MapKind::Delete,
            7 => MapKind::Attach,
            8 => MapKind::Detach,
            9 => MapKind::Deviceptr,
            10 => MapKind::Rows,
            _ => return None,
        })
    }
    /// Copies host → device when it allocates.
    pub fn copies_in(self) -> bool {
        matches!(self, MapKind::Copy | MapKind::Copyin)
    }
    /// Copies device → host when the last reference goes.
    pub fn copies_out(self) -> bool {
        matches!(self, MapKind::Copy | MapKind::Copyout)
    }
    /// The clause's name, for messages.
    pub fn clause(self) -> &'static str {
        match self {
            MapKind::Copy => "copy",
            MapKind::Copyin => "copyin",
            MapKind::Copyout => "copyout",
            MapKind::Create => "create",
            MapKind::Present => "present",
            MapKind::NoCreate => "no_create",
            MapKind::Delete => "delete",
            MapKind::Attach => "attach",
            MapKind::Detach => "detach",
            MapKind::Deviceptr => "deviceptr",
            MapKind::Rows => "rows",
        }
    }
}

/// `struct __ptxrt_update`: one item of an update directive.
#[repr(C)]
pub struct Update {
    pub name: *const c_char,
    pub host: *const c_void,
    pub bytes: usize,
    /// Bit 0: 1 `device(...)`, 0 `self(...)` / `host(...)`; bit 1
    /// ([`UPDATE_BLOCK`]): a bare pointer, the present block containing `host`.
    pub to_device: c_int,
}

impl Update {
    /// The item as written in the clause.
    pub fn name_str(&self) -> String {
        // SAFETY: an item's name is NUL-terminated or null (ptxrt.h).
        unsafe { cstr_or(self.name, "<unnamed>") }
    }
}

/// `struct __ptxrt_declare`: a global in an `acc declare` directive.
#[repr(C)]
pub struct Declare {
    pub name: *const c_char,
    pub host: *const c_void,
    pub bytes: usize,
    /// `PTXRT_MAP_CREATE`, `PTXRT_MAP_COPYIN` or [`DECLARE_LINK`].
    pub kind: c_int,
    pub loc: Loc,
}

/// The `n` elements at `p` as a slice (empty when `p` is null or `n <= 0`).
///
/// # Safety
/// When `p` is not null and `n > 0`, `p` must point at `n` valid elements
/// that outlive the returned slice.
pub unsafe fn slice_of<'a, T>(p: *const T, n: c_int) -> &'a [T] {
    match usize::try_from(n) {
        Ok(n) if n > 0 && !p.is_null() => {
            // SAFETY: the caller guarantees n elements at p.
            unsafe { std::slice::from_raw_parts(p, n) }
        }
        _ => &[],
    }
}

/// A C string as a Rust string; `default` when null.
///
/// # Safety
/// `p` must be null or point at a NUL-terminated string.
pub unsafe fn cstr_or(p: *const c_char, default: &str) -> String {
    if p.is_null() {
        default.to_string()
    } else {
        // SAFETY: the caller passes a NUL-terminated string.
        unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned()
    }
}

/// A source location copied out of a `__ptxrt_loc` (which may be null).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SrcLoc {
    pub file: String,
    pub line: i32,
    pub construct: String,
}

impl SrcLoc {
    /// A location naming an API routine instead of a construct (no file).
    pub fn routine(name: &str) -> SrcLoc {
        SrcLoc {
            file: String::new(),
            line: 0,
            construct: name.to_string(),
        }
    }

    /// # Safety
    /// `loc` must be null or point at a valid `__ptxrt_loc`.
    pub unsafe fn from_c(loc: *const Loc) -> SrcLoc {
        // SAFETY: the compiler passes a pointer to a static __ptxrt_loc or null.
        match unsafe { loc.as_ref() } {
            // SAFETY: the strings of a __ptxrt_loc are NUL-terminated or null.
            Some(l) => unsafe {
                SrcLoc {
                    file: cstr_or(l.file, "<unknown>"),
                    line: l.line,
                    construct: cstr_or(l.construct, "construct"),
                }
            },
            None => SrcLoc {
                file: "<unknown>".into(),
                line: 0,
                construct: "construct".into(),
            },
        }
    }
}
