//! Device images (one per translation unit, registered by constructors that
//! accc emits) and their modules, loaded lazily per device.
//!
//! Owns: the list of registered images (`__ptxrt_register_image`), the choice
//! of code to load (the cubin when its arch matches the device's compute
//! capability, else the PTX, which the driver JIT-compiles; a cubin that fails
//! to load falls back to the PTX), and the per-device cache of loaded modules
//! and kernel handles. Images are static data of the program; they are
//! identified by address.
//! May call: [`crate::plugin`] (through the device state), [`crate::error`].

use crate::abi::{Image, PTXRT_ABI_VERSION};
use crate::device::{lock, DeviceState};
use crate::error::{fatal, guard};
use std::collections::HashMap;
use std::ffi::{c_void, CStr};
use std::path::PathBuf;

/// The registered images (addresses of `struct __ptxrt_image`).
#[derive(Debug, Default)]
pub struct Images {
    list: Vec<usize>,
}

impl Images {
    pub const fn new() -> Images {
        Images { list: Vec::new() }
    }

    pub fn register(&mut self, img: *mut Image) {
        let a = img as usize;
        if !self.list.contains(&a) {
            self.list.push(a);
        }
    }

    pub fn len(&self) -> usize {
        self.list.len()
    }

    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// The distinct `plugin_dir`s of the registered images, in order.
    pub fn plugin_dirs(&self) -> Vec<PathBuf> {
        let mut out: Vec<PathBuf> = Vec::new();
        for &a in &self.list {
            // SAFETY: registered images are static objects of the program.
            let img = unsafe { &*(a as *const Image) };
            if !img.plugin_dir.is_null() {
                let d = PathBuf::from(img.plugin_dir_name());
                if !d.as_os_str().is_empty() && !out.contains(&d) {
                    out.push(d);
                }
            }
        }
        out
    }
}

/// Whether a cubin for `arch` ("sm_90", "sm_90a") runs on compute capability major.minor.
pub fn cubin_matches(arch: &str, major: i32, minor: i32) -> bool {
    let Some(num) = arch.trim().strip_prefix("sm_") else {
        return false;
    };
    let num = num.trim_end_matches(['a', 'f']);
    num == format!("{major}{minor}")
}

/// One module loaded on the device, with the kernels looked up so far.
struct Loaded {
    module: usize,
    functions: HashMap<String, usize>,
}

/// Modules loaded on one device, by image address.
#[derive(Default)]
pub struct ModuleCache {
    loaded: HashMap<usize, Loaded>,
}

impl ModuleCache {
    pub fn new() -> ModuleCache {
        ModuleCache::default()
    }
}

/// The code of `img` to try, in order: ("cubin sm_90", bytes) and/or ("PTX", bytes).
fn code_to_try(img: &Image, major: i32, minor: i32) -> Vec<(String, &[u8])> {
    let mut out = Vec::new();
    if !img.cubin.is_null() && img.cubin_len > 0 {
        let arch = img.cubin_arch_name();
        if cubin_matches(&arch, major, minor) {
            // SAFETY: the image holds cubin_len bytes at cubin.
            out.push((format!("cubin {arch}"), unsafe {
                std::slice::from_raw_parts(img.cubin, img.cubin_len)
            }));
        }
    }
    if !img.ptx.is_null() {
        let len = if img.ptx_len > 0 {
            img.ptx_len
        } else {
            // SAFETY: the PTX text is NUL-terminated.
            unsafe { CStr::from_ptr(img.ptx) }.to_bytes().len()
        };
        if len > 0 {
            // SAFETY: the image holds ptx_len bytes (plus a NUL) at ptx.
            out.push(("PTX".to_string(), unsafe {
                std::slice::from_raw_parts(img.ptx.cast::<u8>(), len)
            }));
        }
    }
    out
}

fn load_module(dev: &DeviceState, img: &Image) -> Result<usize, String> {
    if img.abi_version != PTXRT_ABI_VERSION {
        return Err(format!(
            "the image of {} was compiled for runtime ABI version {}, this libptxrt implements {} (recompile it with this accc)",
            img.source_name(),
            img.abi_version,
            PTXRT_ABI_VERSION
        ));
    }
    let code = code_to_try(img, dev.info.cc_major, dev.info.cc_minor);
    if code.is_empty() {
        return Err(format!(
            "the device image of {} has no PTX and no cubin for sm_{}{}",
            img.source_name(),
            dev.info.cc_major,
            dev.info.cc_minor
        ));
    }
    let mut errors = Vec::new();
    for (what, bytes) in code {
        match dev.plugin.module_load(dev.ordinal, bytes) {
            Ok(m) => return Ok(m as usize),
            Err(e) => errors.push(format!("loading the {what} of {}: {e}", img.source_name())),
        }
    }
    Err(errors.join("; "))
}

/// The device function `kernel` of `img`, loading the module on first use.
///
/// # Safety
/// `img` must be null or point at a valid `__ptxrt_image` that lives as long
/// as the program.
pub unsafe fn function(
    dev: &mut DeviceState,
    img: *mut Image,
    kernel: &CStr,
) -> Result<*mut c_void, String> {
    // SAFETY: the compiler passes the address of a static image (or null).
    let Some(image) = (unsafe { img.as_ref() }) else {
        return Err("null device image".to_string());
    };
    let key = img as usize;
    if !dev.modules.loaded.contains_key(&key) {
        let module = load_module(dev, image)?;
        dev.modules.loaded.insert(
            key,
            Loaded {
                module,
                functions: HashMap::new(),
            },
        );
    }
    let name = kernel.to_string_lossy();
    if let Some(f) = dev
        .modules
        .loaded
        .get(&key)
        .and_then(|l| l.functions.get(name.as_ref()))
    {
        return Ok(*f as *mut c_void);
    }
    let module = dev.modules.loaded.get(&key).map(|l| l.module).unwrap_or(0);
    // SAFETY: module was loaded on this device by load_module.
    let f = unsafe {
        dev.plugin
            .get_function(dev.ordinal, module as *mut c_void, kernel)
    }?;
    if let Some(l) = dev.modules.loaded.get_mut(&key) {
        l.functions.insert(name.into_owned(), f as usize);
    }
    Ok(f)
}

/// Unload every module of `dev` (shutdown); errors are ignored.
pub fn unload_all(dev: &mut DeviceState) {
    for (_, l) in dev.modules.loaded.drain() {
        // SAFETY: loaded on this device by load_module, unloaded once (drained).
        let _ = unsafe {
            dev.plugin
                .module_unload(dev.ordinal, l.module as *mut c_void)
        };
    }
}

/// `void __ptxrt_register_image(struct __ptxrt_image *img)`.
///
/// # Safety
/// `img` must point at a `struct __ptxrt_image` that lives as long as the program.
#[no_mangle]
pub unsafe extern "C" fn __ptxrt_register_image(img: *mut Image) {
    guard(|| {
        if img.is_null() {
            fatal("__ptxrt_register_image: null image");
        }
        lock().images.register(img);
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ptr;

    #[test]
    fn cubin_arch_matching() {
        assert!(cubin_matches("sm_90", 9, 0));
        assert!(cubin_matches("sm_90a", 9, 0));
        assert!(cubin_matches("sm_80", 8, 0));
        assert!(!cubin_matches("sm_80", 9, 0));
        assert!(!cubin_matches("sm_90", 10, 0));
        assert!(cubin_matches("sm_100", 10, 0));
        assert!(!cubin_matches("compute_90", 9, 0));
        assert!(!cubin_matches("", 9, 0));
    }

    fn image(ptx: &'static CStr, cubin: &'static [u8], arch: *const std::ffi::c_char) -> Image {
        Image {
            abi_version: PTXRT_ABI_VERSION,
            relocatable: 0,
            source: c"t.c".as_ptr(),
            ptx: ptx.as_ptr(),
            ptx_len: ptx.to_bytes().len(),
            cubin: if cubin.is_empty() {
                ptr::null()
            } else {
                cubin.as_ptr()
            },
            cubin_len: cubin.len(),
            cubin_arch: arch,
            plugin_dir: c"/opt/accc/lib".as_ptr(),
            runtime_state: ptr::null_mut(),
        }
    }

    #[test]
    fn prefers_matching_cubin_then_ptx() {
        let img = image(c".version 8.0", b"\x7fELFcubin", c"sm_90".as_ptr());
        let kinds: Vec<String> = code_to_try(&img, 9, 0).into_iter().map(|c| c.0).collect();
        assert_eq!(kinds, ["cubin sm_90", "PTX"]);
        let kinds: Vec<String> = code_to_try(&img, 8, 0).into_iter().map(|c| c.0).collect();
        assert_eq!(kinds, ["PTX"]);
        let img = image(c".version 8.0", b"", ptr::null());
        assert_eq!(code_to_try(&img, 9, 0)[0].1, b".version 8.0");
    }

    #[test]
    fn plugin_dirs_of_images() {
        let a = Box::leak(Box::new(image(c"x", b"", ptr::null())));
        let b = Box::leak(Box::new(image(c"y", b"", ptr::null())));
        let mut imgs = Images::new();
        imgs.register(a);
        imgs.register(b);
        imgs.register(a);
        assert_eq!(imgs.len(), 2);
        assert_eq!(imgs.plugin_dirs(), [PathBuf::from("/opt/accc/lib")]);
    }
}
