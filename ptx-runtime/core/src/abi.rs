//! The C structs of `include/ptxrt.h` (`__ptxrt_image`, `__ptxrt_loc`,
//! `__ptxrt_map`) and safe readers for their string fields.
//! May call: nothing else in the crate.

use std::ffi::{c_char, c_int, c_void, CStr};

/// `PTXRT_ABI_VERSION` of ptxrt.h.
pub const PTXRT_ABI_VERSION: u32 = 1;

/// `struct __ptxrt_image`.
#[repr(C)]
pub struct Image {
    pub abi_version: u32,
    pub source: *const c_char,
    pub ptx: *const c_char,
    pub ptx_len: usize,
    pub cubin: *const u8,
    pub cubin_len: usize,
    pub cubin_arch: *const c_char,
    pub plugin_dir: *const c_char,
    pub runtime_state: *mut c_void,
}

impl Image {
    /// The .c file the image was compiled from.
    pub fn source_name(&self) -> String {
        // SAFETY: an image's strings are NUL-terminated or null (ptxrt.h).
        unsafe { cstr_or(self.source, "<unknown>") }
    }
    /// The cubin's arch ("sm_90"), or "".
    pub fn cubin_arch_name(&self) -> String {
        // SAFETY: as above.
        unsafe { cstr_or(self.cubin_arch, "") }
    }
    /// accc's lib directory at compile time, or "".
    pub fn plugin_dir_name(&self) -> String {
        // SAFETY: as above.
        unsafe { cstr_or(self.plugin_dir, "") }
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
}

impl Map {
    /// The item as written in the clause.
    pub fn name_str(&self) -> String {
        // SAFETY: a map's name is NUL-terminated or null (ptxrt.h).
        unsafe { cstr_or(self.name, "<unnamed>") }
    }
}

/// `enum __ptxrt_map_kind`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MapKind {
    Copy,
    Copyin,
    Copyout,
    Create,
    Present,
}

impl MapKind {
    pub fn from_c(k: c_int) -> Option<MapKind> {
        Some(match k {
            0 => MapKind::Copy,
            1 => MapKind::Copyin,
            2 => MapKind::Copyout,
            3 => MapKind::Create,
            4 => MapKind::Present,
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
