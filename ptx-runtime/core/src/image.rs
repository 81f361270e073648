//! Device images (one per translation unit, registered by constructors that
//! accc emits) and their modules, loaded lazily per device.
//!
//! Owns: the list of registered images (`__ptxrt_register_image`), the choice
//! of code to load for an image that loads alone, among the kinds the
//! device's plugin takes (`DeviceInfo::code_kinds`): on a GPU the cubin
//! when its arch matches the device's compute capability, else the PTX,
//! which the driver JIT-compiles (a cubin that fails to load falls back to
//! the PTX); on the emulated device the SIMT bytecode; the
//! grouping of relocatable images (all of them, linked into one module per
//! device the first time a kernel of any is needed, from the code
//! [`crate::link::plan`] chooses), and the per-device cache of loaded and
//! linked modules and kernel handles. Images are static data of the program;
//! they are identified by address.
//! When a module is loaded or linked, the device address cells of its images
//! are bound ([`crate::declare::bind_cells`]) and the device's stack is
//! made big enough for it ([`crate::stack::ensure`]) before any kernel of it
//! runs.
//! May call: [`crate::plugin`] (through the device state), [`crate::link`],
//! [`crate::declare`], [`crate::stack`], [`crate::error`], [`crate::notify`].

use crate::abi::{Image, PTXRT_ABI_VERSION};
use crate::device::DeviceState;
use crate::error::{fatal, guard};
use crate::link;
use crate::notify;
use crate::plugin::Plugin;
use crate::runtime::lock;
use ptxrt_plugin_abi::{
    DeviceInfo, LinkInput, CODE_CUBIN, CODE_CUDA, CODE_HOST, CODE_PTX, CODE_SIMT,
};
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

    /// The relocatable images (of this ABI version), in registration order:
    /// the group linked into one module on a device.
    pub fn relocatable(&self) -> Vec<usize> {
        self.list
            .iter()
            .copied()
            // SAFETY: registered images are static objects of the program.
            .filter(|&a| unsafe { &*(a as *const Image) }.is_relocatable())
            .collect()
    }

    /// Whether a registered image carries host code of its kernels
    /// (`accc -acc=multicore`): then the multicore device runs them.
    pub fn has_host_code(&self) -> bool {
        self.list.iter().any(|&a| {
            // SAFETY: registered images are static objects of the program.
            unsafe { &*(a as *const Image) }
                .code_bytes(CODE_HOST)
                .is_some()
        })
    }

    /// The distinct `plugin_dir`s of the registered images, in order.
    pub fn plugin_dirs(&self) -> Vec<PathBuf> {
        let mut out: Vec<PathBuf> = Vec::new();
        for &a in &self.list {
            // SAFETY: registered images are static objects of the program.
            let img = unsafe { &*(a as *const Image) };
            let d = PathBuf::from(img.plugin_dir_name());
            if !d.as_os_str().is_empty() && !out.contains(&d) {
                out.push(d);
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

/// Whether a device of `info` takes code of kind `kind` (`CODE_*`).
pub fn takes(info: &DeviceInfo, kind: u32) -> bool {
    info.code_kinds & (1 << kind) != 0
}

/// The cubin of `img` that runs on a device of `info`, with its arch.
pub fn cubin_for<'a>(img: &'a Image, info: &DeviceInfo) -> Option<(String, &'a [u8])> {
    if !takes(info, CODE_CUBIN) {
        return None;
    }
    img.cubins()
        .into_iter()
        .find(|(arch, _)| cubin_matches(arch, info.cc_major, info.cc_minor))
}

/// The SIMT bytecode of `img`, when a device of `info` runs it.
pub fn simt_for<'a>(img: &'a Image, info: &DeviceInfo) -> Option<&'a [u8]> {
    takes(info, CODE_SIMT)
        .then(|| img.code_bytes(CODE_SIMT))
        .flatten()
}

/// The PTX of `img`, when a device of `info` takes PTX.
pub fn ptx_for<'a>(img: &'a Image, info: &DeviceInfo) -> Option<&'a [u8]> {
    takes(info, CODE_PTX).then(|| img.ptx_bytes()).flatten()
}

/// What one code entry is, for messages: "PTX", "cubin sm_80", "SIMT
/// bytecode", "CUDA C", or a kind this libptxrt does not know (skipped).
pub fn entry_name(kind: u32, arch: &str) -> String {
    match kind {
        CODE_PTX => "PTX".to_string(),
        CODE_CUBIN if arch.is_empty() => "cubin".to_string(),
        CODE_CUBIN => format!("cubin {arch}"),
        CODE_SIMT => "SIMT bytecode".to_string(),
        CODE_CUDA => "CUDA C".to_string(),
        CODE_HOST => "host code".to_string(),
        k => format!("code of unknown kind {k}"),
    }
}

/// The entries of `img`, for messages ("PTX, cubin sm_80"; "no code").
pub fn entries(img: &Image) -> String {
    let names: Vec<String> = img
        .code()
        .iter()
        .filter(|c| c.bytes().is_some())
        .map(|c| entry_name(c.kind, &c.arch_name()))
        .collect();
    match names.is_empty() {
        true => "no code".to_string(),
        false => names.join(", "),
    }
}

/// What image `img` lacks to run on a device of `info`, and what it holds
/// ("no PTX and no cubin for sm_90 (it holds: cubin sm_80)").
pub fn missing_code(img: &Image, info: &DeviceInfo) -> String {
    let needs = if takes(info, CODE_SIMT) {
        "no SIMT bytecode for the emulated device (compile it with accc -gpu=emu)".to_string()
    } else if takes(info, CODE_HOST) {
        "no host code for the multicore device (compile it with accc -acc=multicore)".to_string()
    } else {
        format!(
            "no PTX and no cubin for sm_{}{}",
            info.cc_major, info.cc_minor
        )
    };
    format!("{needs} (it holds: {})", entries(img))
}

/// One module loaded on the device, with the kernels looked up so far.
struct Loaded {
    module: usize,
    functions: HashMap<String, usize>,
    /// The functions by the address of the name the launch passes (a
    /// static string of the program), with the name's bytes to check:
    /// found without reading the name as UTF-8 and hashing it.
    by_name_ptr: HashMap<usize, (Box<[u8]>, usize)>,
}

impl Loaded {
    fn new(module: usize) -> Loaded {
        Loaded {
            module,
            functions: HashMap::new(),
            by_name_ptr: HashMap::new(),
        }
    }

    /// The device function `kernel` of this module (looked up once).
    fn function(
        &mut self,
        plugin: &Plugin,
        ordinal: i32,
        kernel: &CStr,
    ) -> Result<*mut c_void, String> {
        let at = kernel.as_ptr() as usize;
        if let Some((bytes, f)) = self.by_name_ptr.get(&at) {
            if **bytes == *kernel.to_bytes() {
                return Ok(*f as *mut c_void);
            }
        }
        let name = kernel.to_string_lossy();
        if let Some(&f) = self.functions.get(name.as_ref()) {
            self.by_name_ptr.insert(at, (kernel.to_bytes().into(), f));
            return Ok(f as *mut c_void);
        }
        // SAFETY: the module was loaded (or linked) on this device.
        let f = unsafe {
            plugin.module_get_function(ordinal, self.module as *mut c_void, kernel.as_ptr())
        }?;
        self.functions.insert(name.into_owned(), f as usize);
        self.by_name_ptr
            .insert(at, (kernel.to_bytes().into(), f as usize));
        Ok(f)
    }
}

/// The module linked from the relocatable images, and which images it holds.
struct Linked {
    members: Vec<usize>,
    loaded: Loaded,
}

/// Modules loaded on one device: one per image that loads alone (by image
/// address), and the one linked from all relocatable images. When an image
/// registers after that link (a library opened later), the group is linked
/// again; the old module is kept (a kernel of it may be running) and
/// unloaded at shutdown.
#[derive(Default)]
pub struct ModuleCache {
    loaded: HashMap<usize, Loaded>,
    linked: Option<Linked>,
    retired: Vec<usize>,
}

impl ModuleCache {
    pub fn new() -> ModuleCache {
        ModuleCache::default()
    }
}

/// The code of `img` to try on a device of `info`, in order: ("SIMT
/// bytecode", bytes), or ("cubin sm_90", bytes) and/or ("PTX", bytes).
fn code_to_try<'a>(img: &'a Image, info: &DeviceInfo) -> Vec<(String, &'a [u8])> {
    let mut out = Vec::new();
    if let Some(bytes) = takes(info, CODE_HOST)
        .then(|| img.code_bytes(CODE_HOST))
        .flatten()
    {
        out.push(("host code".to_string(), bytes));
    }
    if let Some(bytes) = simt_for(img, info) {
        out.push(("SIMT bytecode".to_string(), bytes));
    }
    if let Some((arch, bytes)) = cubin_for(img, info) {
        out.push((format!("cubin {arch}"), bytes));
    }
    if let Some(bytes) = ptx_for(img, info) {
        out.push(("PTX".to_string(), bytes));
    }
    out
}

fn check_version(img: &Image) -> Result<(), String> {
    if img.abi_version != PTXRT_ABI_VERSION {
        return Err(format!(
            "the image of {} was compiled for runtime ABI version {}, this libptxrt implements {} (recompile it with this accc)",
            img.source_name(),
            img.abi_version,
            PTXRT_ABI_VERSION
        ));
    }
    Ok(())
}

fn load_module(dev: &DeviceState, img: &Image) -> Result<usize, String> {
    let code = code_to_try(img, &dev.info);
    if code.is_empty() {
        return Err(format!(
            "the device image of {} has {}",
            img.source_name(),
            missing_code(img, &dev.info)
        ));
    }
    let mut errors = Vec::new();
    for (what, bytes) in code {
        // SAFETY: the slice's pointer and length.
        match unsafe {
            dev.plugin
                .module_load_data(dev.ordinal, bytes.as_ptr(), bytes.len())
        } {
            Ok(m) => return Ok(m as usize),
            Err(e) => errors.push(format!("loading the {what} of {}: {e}", img.source_name())),
        }
    }
    Err(errors.join("; "))
}

/// Link the relocatable images at `members` (addresses of static images)
/// into one module, trying the attempts of [`link::plan`] in order.
fn link_module(dev: &DeviceState, members: &[usize]) -> Result<usize, String> {
    // SAFETY: members are registered (or launched) images: static objects.
    let images: Vec<&Image> = members
        .iter()
        .map(|&a| unsafe { &*(a as *const Image) })
        .collect();
    let attempts = link::plan(&images, &dev.info)?;
    let names = link::names(&images);
    let mut errors = Vec::new();
    for a in attempts {
        let inputs: Vec<LinkInput> = a
            .inputs
            .iter()
            .map(|i| LinkInput {
                kind: i.kind,
                data: i.bytes.as_ptr(),
                len: i.bytes.len(),
                name: i.image.source,
            })
            .collect();
        // SAFETY: valid inputs (their bytes and names live in the images).
        match unsafe {
            dev.plugin
                .link_module(dev.ordinal, inputs.as_ptr(), inputs.len())
        } {
            Ok(m) => {
                notify::debug(&format!("linked the {} of {names} into one module", a.what));
                return Ok(m as usize);
            }
            Err(e) => errors.push(format!("linking the {} of {names}: {e}", a.what)),
        }
    }
    Err(errors.join("; "))
}

/// The module of `img` on `dev`, loading or linking it on first use.
fn module_of<'d>(
    dev: &'d mut DeviceState,
    images: &Images,
    img: &Image,
    key: usize,
) -> Result<&'d mut Loaded, String> {
    if img.is_relocatable() {
        let current = dev.modules.linked.as_ref();
        if !current.is_some_and(|l| l.members.contains(&key)) {
            let mut members = images.relocatable();
            if !members.contains(&key) {
                members.push(key);
            }
            let module = link_module(dev, &members)?;
            // SAFETY: members are registered (or launched) images: static objects.
            let imgs: Vec<&Image> = members
                .iter()
                .map(|&a| unsafe { &*(a as *const Image) })
                .collect();
            if let Err(e) = crate::declare::bind_cells(dev, module, &imgs) {
                dev.modules.retired.push(module);
                return Err(e);
            }
            let recursive = imgs.iter().any(|i| i.is_recursive());
            if let Err(e) = crate::stack::ensure(dev, recursive) {
                dev.modules.retired.push(module);
                return Err(e);
            }
            let linked = Linked {
                members,
                loaded: Loaded::new(module),
            };
            if let Some(old) = dev.modules.linked.replace(linked) {
                dev.modules.retired.push(old.loaded.module);
            }
        }
        return dev
            .modules
            .linked
            .as_mut()
            .map(|l| &mut l.loaded)
            .ok_or_else(|| "internal error: no linked module".to_string());
    }
    if !dev.modules.loaded.contains_key(&key) {
        let module = load_module(dev, img)?;
        dev.modules.loaded.insert(key, Loaded::new(module));
        crate::declare::bind_cells(dev, module, &[img])?;
        crate::stack::ensure(dev, img.is_recursive())?;
    }
    dev.modules
        .loaded
        .get_mut(&key)
        .ok_or_else(|| "internal error: module not cached".to_string())
}

/// The device function `kernel` of `img`, loading the image's module (or
/// linking all relocatable `images`) on first use.
///
/// # Safety
/// `img` must be null or point at a valid `__ptxrt_image` that lives as long
/// as the program.
pub unsafe fn function(
    dev: &mut DeviceState,
    images: &Images,
    img: *mut Image,
    kernel: &CStr,
) -> Result<*mut c_void, String> {
    // SAFETY: the compiler passes the address of a static image (or null).
    let Some(image) = (unsafe { img.as_ref() }) else {
        return Err("null device image".to_string());
    };
    check_version(image)?;
    let (plugin, ordinal) = (dev.plugin, dev.ordinal);
    module_of(dev, images, image, img as usize)?.function(plugin, ordinal, kernel)
}

/// Unload every module of `dev` (shutdown); errors are ignored.
pub fn unload_all(dev: &mut DeviceState) {
    let cache = std::mem::take(&mut dev.modules);
    let linked = cache.linked.map(|l| l.loaded.module);
    let modules = cache.loaded.into_values().map(|l| l.module);
    for m in modules.chain(linked).chain(cache.retired) {
        // SAFETY: loaded or linked on this device, unloaded once (taken).
        let _ = unsafe { dev.plugin.module_unload(dev.ordinal, m as *mut c_void) };
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

    fn image(ptx: &'static CStr, cubin: &'static [u8], arch: &'static CStr) -> Image {
        let mut i = crate::abi::test_image(
            c"t.c",
            &[(CODE_PTX, c"", ptx.to_bytes()), (CODE_CUBIN, arch, cubin)],
            false,
        );
        i.plugin_dir = c"/opt/accc/lib".as_ptr();
        i
    }

    fn gpu(major: i32, minor: i32) -> DeviceInfo {
        let mut d = DeviceInfo::default();
        (d.cc_major, d.cc_minor) = (major, minor);
        d
    }

    #[test]
    fn prefers_matching_cubin_then_ptx() {
        let img = image(c".version 8.0", b"\x7fELFcubin", c"sm_90");
        let kinds = |info: &DeviceInfo| -> Vec<String> {
            code_to_try(&img, info).into_iter().map(|c| c.0).collect()
        };
        assert_eq!(kinds(&gpu(9, 0)), ["cubin sm_90", "PTX"]);
        assert_eq!(kinds(&gpu(8, 0)), ["PTX"]);
        let img = image(c".version 8.0", b"", c"");
        assert_eq!(code_to_try(&img, &gpu(9, 0))[0].1, b".version 8.0");
    }

    #[test]
    fn the_emulated_device_gets_the_simt_bytecode_only() {
        let emu = DeviceInfo {
            code_kinds: 1 << CODE_SIMT,
            ..gpu(9, 0)
        };
        let with = crate::abi::test_image(
            c"t.c",
            &[
                (CODE_PTX, c"", b".version 8.0"),
                (CODE_CUBIN, c"sm_90", b"\x7fELF"),
                (CODE_SIMT, c"", b"ACCSIMT\0..."),
            ],
            false,
        );
        let got: Vec<(String, &[u8])> = code_to_try(&with, &emu);
        assert_eq!(got, [("SIMT bytecode".to_string(), &b"ACCSIMT\0..."[..])]);
        // A GPU never gets it.
        let kinds: Vec<String> = code_to_try(&with, &gpu(9, 0))
            .into_iter()
            .map(|c| c.0)
            .collect();
        assert_eq!(kinds, ["cubin sm_90", "PTX"]);
        let without = image(c".version 8.0", b"", c"");
        assert!(code_to_try(&without, &emu).is_empty());
        assert_eq!(
            missing_code(&without, &emu),
            "no SIMT bytecode for the emulated device (compile it with accc -gpu=emu) (it holds: PTX)"
        );
    }

    #[test]
    fn a_gpu_without_its_cubin_or_ptx_is_told_what_the_image_holds() {
        // A cubin of another arch, the emulator's code and CUDA C (which no
        // plugin loads yet): nothing a sm_90 GPU runs.
        let img = crate::abi::test_image(
            c"t.c",
            &[
                (CODE_CUBIN, c"sm_80", b"\x7fELF"),
                (CODE_SIMT, c"", b"ACCSIMT\0..."),
                (CODE_CUDA, c"", b"__global__ void k() {}"),
                (9, c"", b"?"),
            ],
            false,
        );
        assert!(code_to_try(&img, &gpu(9, 0)).is_empty());
        assert_eq!(
            missing_code(&img, &gpu(9, 0)),
            "no PTX and no cubin for sm_90 (it holds: cubin sm_80, SIMT bytecode, CUDA C, code of unknown kind 9)"
        );
        // Kinds it does not know do not stop it from loading the ones it does.
        let with_ptx = crate::abi::test_image(
            c"t.c",
            &[(9, c"", b"?"), (CODE_PTX, c"", b".version 8.0")],
            false,
        );
        let got: Vec<String> = code_to_try(&with_ptx, &gpu(8, 6))
            .into_iter()
            .map(|c| c.0)
            .collect();
        assert_eq!(got, ["PTX"]);
        let none = crate::abi::test_image(c"t.c", &[], false);
        assert_eq!(entries(&none), "no code");
    }

    #[test]
    fn plugin_dirs_of_images() {
        let a = Box::leak(Box::new(image(c"x", b"", c"")));
        let b = Box::leak(Box::new(image(c"y", b"", c"")));
        let mut imgs = Images::new();
        imgs.register(a);
        imgs.register(b);
        imgs.register(a);
        assert_eq!(imgs.len(), 2);
        assert_eq!(imgs.plugin_dirs(), [PathBuf::from("/opt/accc/lib")]);
    }

    #[test]
    fn relocatable_images_form_one_group() {
        let leak = |relocatable, abi_version| {
            let mut i = image(c"x", b"", c"");
            i.relocatable = relocatable;
            i.abi_version = abi_version;
            Box::leak(Box::new(i)) as *mut Image
        };
        let alone = leak(0, PTXRT_ABI_VERSION);
        let a = leak(1, PTXRT_ABI_VERSION);
        let old = leak(1, 1); // another ABI: never relocatable
        let b = leak(1, PTXRT_ABI_VERSION);
        let mut imgs = Images::new();
        for i in [alone, a, old, b, a] {
            imgs.register(i);
        }
        assert_eq!(imgs.relocatable(), [a as usize, b as usize]);
        // SAFETY: leaked above.
        assert!(!unsafe { &*old }.is_relocatable());
        assert!(check_version(unsafe { &*old })
            .unwrap_err()
            .contains("runtime ABI version 1"));
    }
}

#[cfg(test)]
#[path = "image_tests.rs"]
mod fake_plugin_tests;
