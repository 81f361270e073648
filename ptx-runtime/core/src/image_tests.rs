//! Tests of [`crate::image`]'s module loading and linking without a device:
//! a fake plugin (a `PluginFns` of Rust functions) records every call on the
//! calling thread, so each test sees only its own calls. Checks which images
//! are linked together, from which code, that kernels are looked up in the
//! linked module, that images that are not relocatable still load alone, the
//! fallback from cubins to PTX, the error text, relinking when an image
//! registers late, and that shutdown unloads every module.

use super::{function, unload_all, Images};
use crate::abi::Image;
use crate::device::DeviceState;
use ptxrt_plugin_abi::{LinkInput, PluginFns, LINK_INPUT_CUBIN};
use std::cell::{Cell, RefCell};
use std::ffi::{c_char, c_void, CStr};
use std::ptr;

thread_local! {
    static CALLS: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
    static NEXT_MODULE: Cell<usize> = const { Cell::new(1) };
    /// Number of coming link_module calls that fail.
    static FAILING_LINKS: Cell<u32> = const { Cell::new(0) };
    static ERROR: RefCell<String> = const { RefCell::new(String::new()) };
}

fn log(s: String) {
    CALLS.with(|c| c.borrow_mut().push(s));
}

fn calls() -> Vec<String> {
    CALLS.with(|c| std::mem::take(&mut *c.borrow_mut()))
}

fn new_module(out: *mut *mut c_void) -> usize {
    let m = NEXT_MODULE.with(|n| n.replace(n.get() + 1));
    // SAFETY: libptxrt passes a valid out-pointer.
    unsafe { *out = m as *mut c_void };
    m
}

unsafe extern "C" fn load(_: i32, image: *const u8, len: usize, out: *mut *mut c_void) -> i32 {
    // SAFETY: libptxrt passes len bytes.
    let bytes = unsafe { std::slice::from_raw_parts(image, len) };
    let m = new_module(out);
    log(format!("load {} -> m{m}", String::from_utf8_lossy(bytes)));
    0
}
unsafe extern "C" fn link(
    _: i32,
    inputs: *const LinkInput,
    n: usize,
    out: *mut *mut c_void,
) -> i32 {
    // SAFETY: libptxrt passes n inputs with valid bytes and names.
    let inputs = unsafe { std::slice::from_raw_parts(inputs, n) };
    let text: Vec<String> = inputs
        .iter()
        .map(|i| {
            let name = unsafe { CStr::from_ptr(i.name) }.to_string_lossy();
            let kind = if i.kind == LINK_INPUT_CUBIN {
                "cubin"
            } else {
                "ptx"
            };
            let bytes = unsafe { std::slice::from_raw_parts(i.data, i.len) };
            format!("{name}:{kind}:{}", String::from_utf8_lossy(bytes))
        })
        .collect();
    if FAILING_LINKS.with(|f| f.get()) > 0 {
        FAILING_LINKS.with(|f| f.set(f.get() - 1));
        log(format!("link {} -> failed", text.join(" ")));
        ERROR.with(|e| {
            *e.borrow_mut() =
                "cuLinkComplete: CUDA_ERROR_INVALID_IMAGE; linker error log: Undefined reference to 'add_one'".into()
        });
        return 1;
    }
    let m = new_module(out);
    log(format!("link {} -> m{m}", text.join(" ")));
    0
}
unsafe extern "C" fn get(
    _: i32,
    module: *mut c_void,
    name: *const c_char,
    f: *mut *mut c_void,
) -> i32 {
    // SAFETY: NUL-terminated name, valid out-pointer.
    let name = unsafe { CStr::from_ptr(name) }.to_string_lossy();
    log(format!("get m{} {name}", module as usize));
    unsafe { *f = module };
    0
}
unsafe extern "C" fn unload(_: i32, module: *mut c_void) -> i32 {
    log(format!("unload m{}", module as usize));
    0
}
unsafe extern "C" fn last_error(buf: *mut c_char, len: usize) -> usize {
    ERROR.with(|e| {
        let e = e.borrow();
        let n = e.len().min(len - 1);
        // SAFETY: buf holds len bytes.
        unsafe {
            ptr::copy_nonoverlapping(e.as_ptr(), buf.cast::<u8>(), n);
            *buf.add(n) = 0;
        }
        e.len()
    })
}

fn device() -> DeviceState {
    let fns = PluginFns {
        module_load_data: load,
        link_module: link,
        module_get_function: get,
        module_unload: unload,
        last_error,
        ..crate::fake::fns()
    };
    crate::fake::device_with(fns)
}

/// A leaked image of `source` whose PTX is `ptx`, with cubin `cubin` for sm_90 unless empty.
fn image(
    source: &'static CStr,
    ptx: &'static CStr,
    cubin: &'static CStr,
    relocatable: bool,
) -> *mut Image {
    use ptxrt_plugin_abi::{CODE_CUBIN, CODE_PTX};
    Box::leak(Box::new(crate::abi::test_image(
        source,
        &[
            (CODE_PTX, c"", ptx.to_bytes()),
            (CODE_CUBIN, c"sm_90", cubin.to_bytes()),
        ],
        relocatable,
    )))
}

fn launch_kernel(
    dev: &mut DeviceState,
    images: &Images,
    img: *mut Image,
    k: &CStr,
) -> Result<usize, String> {
    // SAFETY: img is a leaked image.
    unsafe { function(dev, images, img, k) }.map(|f| f as usize)
}

#[test]
fn relocatable_images_are_linked_once_others_load_alone() {
    let mut dev = device();
    let a = image(c"a.c", c"PA", c"CA", true);
    let alone = image(c"x.c", c"PX", c"CX", false);
    let b = image(c"b.c", c"PB", c"CB", true);
    let mut images = Images::new();
    for i in [a, alone, b] {
        images.register(i);
    }
    assert_eq!(launch_kernel(&mut dev, &images, b, c"kb"), Ok(1));
    assert_eq!(
        calls(),
        ["link a.c:cubin:CA b.c:cubin:CB -> m1", "get m1 kb"]
    );
    // Another kernel of the group, and the same one again: the linked module.
    assert_eq!(launch_kernel(&mut dev, &images, a, c"ka"), Ok(1));
    assert_eq!(launch_kernel(&mut dev, &images, b, c"kb"), Ok(1));
    assert_eq!(calls(), ["get m1 ka"]);
    // An image that is not relocatable loads alone, as before.
    assert_eq!(launch_kernel(&mut dev, &images, alone, c"kx"), Ok(2));
    assert_eq!(calls(), ["load CX -> m2", "get m2 kx"]);
    unload_all(&mut dev);
    let mut unloaded = calls();
    unloaded.sort();
    assert_eq!(unloaded, ["unload m1", "unload m2"]);
}

#[test]
fn ptx_when_an_image_has_no_cubin_for_the_device() {
    let mut dev = device();
    let a = image(c"a.c", c"PA", c"CA", true);
    let b = image(c"b.c", c"PB", c"", true);
    let mut images = Images::new();
    images.register(a);
    images.register(b);
    assert!(launch_kernel(&mut dev, &images, a, c"k").is_ok());
    assert_eq!(calls(), ["link a.c:ptx:PA b.c:ptx:PB -> m1", "get m1 k"]);
}

#[test]
fn failed_cubin_link_falls_back_to_ptx_and_errors_name_the_images() {
    let mut dev = device();
    let a = image(c"a.c", c"PA", c"CA", true);
    let b = image(c"b.c", c"PB", c"CB", true);
    let mut images = Images::new();
    images.register(a);
    images.register(b);
    FAILING_LINKS.with(|f| f.set(1));
    assert!(launch_kernel(&mut dev, &images, a, c"k").is_ok());
    assert_eq!(
        calls(),
        [
            "link a.c:cubin:CA b.c:cubin:CB -> failed",
            "link a.c:ptx:PA b.c:ptx:PB -> m1",
            "get m1 k"
        ]
    );
    let mut dev = device();
    FAILING_LINKS.with(|f| f.set(2));
    let e = launch_kernel(&mut dev, &images, b, c"k").unwrap_err();
    let why = "cuLinkComplete: CUDA_ERROR_INVALID_IMAGE; linker error log: Undefined reference to 'add_one'";
    assert_eq!(
        e,
        format!("linking the cubins sm_90 of a.c, b.c: {why}; linking the PTX of a.c, b.c: {why}")
    );
    // Nothing was cached: the next launch links again.
    calls();
    assert!(launch_kernel(&mut dev, &images, b, c"k").is_ok());
    assert_eq!(calls().len(), 2);
}

#[test]
fn late_image_relinks_the_group_and_keeps_the_old_module() {
    let mut dev = device();
    let a = image(c"a.c", c"PA", c"CA", true);
    let b = image(c"b.c", c"PB", c"CB", true);
    let mut images = Images::new();
    images.register(a);
    assert!(launch_kernel(&mut dev, &images, a, c"ka").is_ok());
    images.register(b);
    assert!(launch_kernel(&mut dev, &images, b, c"kb").is_ok());
    assert!(launch_kernel(&mut dev, &images, a, c"ka").is_ok());
    assert_eq!(
        calls(),
        [
            "link a.c:cubin:CA -> m1",
            "get m1 ka",
            "link a.c:cubin:CA b.c:cubin:CB -> m2",
            "get m2 kb",
            "get m2 ka"
        ]
    );
    unload_all(&mut dev);
    let mut unloaded = calls();
    unloaded.sort();
    assert_eq!(unloaded, ["unload m1", "unload m2"]);
}

#[test]
fn image_of_another_abi_is_refused() {
    let mut dev = device();
    let a = image(c"old.c", c"PA", c"", false);
    // SAFETY: leaked above.
    unsafe { (*a).abi_version = 1 };
    let images = Images::new();
    let e = launch_kernel(&mut dev, &images, a, c"k").unwrap_err();
    assert!(
        e.starts_with("the image of old.c was compiled for runtime ABI version 1"),
        "{e}"
    );
    assert_eq!(calls(), Vec::<String>::new());
}
