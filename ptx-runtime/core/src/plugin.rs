//! Finding and loading the device plugin (`libptxrt-cuda.so`).
//!
//! Owns: the plugin search order, the dlopen/dlsym calls (a tiny extern
//! block: no dependency), the loaded plugin's vtable ([`Plugin`]) and turning
//! its status codes into error text (the plugin's `last_error`).
//! Search order, first success wins (like libgomp / LLVM offload):
//!   1. `$PTXRT_PLUGIN` (full path of the .so);
//!   2. the directory of the running executable (`/proc/self/exe`), so a
//!      bundle folder holding the program and the plugin works;
//!   3. the directories recorded when the program was linked by accc
//!      (`__ptxrt_register_plugin_dir`: accc's lib dir), so every program
//!      accc links finds the plugin, with or without compute regions;
//!   4. the `plugin_dir` of each registered image (accc's lib dir at compile
//!      time: objects accc compiled but another driver linked);
//!   5. plain `dlopen` by name (LD_LIBRARY_PATH, the system's search path).
//!
//! In each directory both `libptxrt-cuda.so` and `libptxrt_cuda.so` (cargo's
//! name for the cdylib) are tried. Every attempt is reported to a trace
//! callback (`PTXRT_DEBUG` prints it: the path, where it came from, and why
//! it was skipped or failed), and every failure is kept with the dlerror
//! text for messages. The plugin is never unloaded.
//! May call: `ptxrt-plugin-abi`, libc (dlopen, dlsym, dlerror).

use ptxrt_plugin_abi::{DeviceInfo, LinkInput, PluginFns};
use std::ffi::{c_char, c_int, c_void, CStr, CString};
use std::path::{Path, PathBuf};

/// File names of the plugin, in the order tried.
pub const PLUGIN_NAMES: [&str; 2] = ["libptxrt-cuda.so", "libptxrt_cuda.so"];

extern "C" {
    fn dlopen(filename: *const c_char, flag: c_int) -> *mut c_void;
    fn dlsym(handle: *mut c_void, symbol: *const c_char) -> *mut c_void;
    fn dlerror() -> *mut c_char;
}
const RTLD_NOW: c_int = 2;

/// Where a place to try comes from (for `PTXRT_DEBUG`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// `$PTXRT_PLUGIN`.
    Env,
    /// The running executable's directory.
    ExeDir,
    /// Recorded by accc when it linked the program.
    Linked,
    /// Recorded by accc when it compiled a device image.
    Image,
    /// The dynamic loader's own search (LD_LIBRARY_PATH, ld.so.cache, …).
    Loader,
}

impl Source {
    fn describe(self) -> &'static str {
        match self {
            Source::Env => "PTXRT_PLUGIN",
            Source::ExeDir => "next to the program",
            Source::Linked => "recorded when accc linked the program",
            Source::Image => "recorded when accc compiled device code",
            Source::Loader => "the dynamic loader's search path",
        }
    }
}

/// One place to try.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Candidate {
    /// A file path: tried only if the file exists (explicit ones always).
    Path {
        path: PathBuf,
        explicit: bool,
        from: Source,
    },
    /// A bare file name for the dynamic loader's own search.
    Name(&'static str),
}

/// The ordered list of places to try (pure: unit-tested): `env_plugin`,
/// then the plugin names in `exe_dir`, each of `linked_dirs` and each of
/// `image_dirs` (a directory once), then the names alone.
pub fn candidates(
    env_plugin: Option<&str>,
    exe_dir: Option<&Path>,
    linked_dirs: &[PathBuf],
    image_dirs: &[PathBuf],
) -> Vec<Candidate> {
    let mut out = Vec::new();
    if let Some(p) = env_plugin.filter(|p| !p.is_empty()) {
        out.push(Candidate::Path {
            path: PathBuf::from(p),
            explicit: true,
            from: Source::Env,
        });
    }
    let mut dirs: Vec<(&Path, Source)> = Vec::new();
    let listed = exe_dir.map(|d| (d, Source::ExeDir)).into_iter().chain(
        linked_dirs
            .iter()
            .map(|d| (d.as_path(), Source::Linked))
            .chain(image_dirs.iter().map(|d| (d.as_path(), Source::Image))),
    );
    for (d, from) in listed {
        if !d.as_os_str().is_empty() && !dirs.iter().any(|(x, _)| *x == d) {
            dirs.push((d, from));
        }
    }
    for (d, from) in dirs {
        for n in PLUGIN_NAMES {
            out.push(Candidate::Path {
                path: d.join(n),
                explicit: false,
                from,
            });
        }
    }
    for n in PLUGIN_NAMES {
        out.push(Candidate::Name(n));
    }
    out
}

fn last_dlerror() -> String {
    // SAFETY: dlerror returns null or a NUL-terminated thread-local string.
    let e = unsafe { dlerror() };
    if e.is_null() {
        "unknown dlopen error".to_string()
    } else {
        // SAFETY: as above.
        unsafe { CStr::from_ptr(e) }.to_string_lossy().into_owned()
    }
}

/// A loaded plugin.
pub struct Plugin {
    pub fns: PluginFns,
    /// Where it was loaded from (for PTXRT_DEBUG).
    pub origin: String,
}

// SAFETY: the plugin's entry points are thread-safe (it guards its state).
unsafe impl Send for Plugin {}
unsafe impl Sync for Plugin {}

/// dlopen one file name or path and resolve its entry points.
fn open(spec: &str) -> Result<Plugin, String> {
    let c = CString::new(spec).map_err(|_| format!("{spec}: path contains a NUL byte"))?;
    // SAFETY: c is a valid C string; clear any stale error first.
    let handle = unsafe {
        dlerror();
        dlopen(c.as_ptr(), RTLD_NOW)
    };
    if handle.is_null() {
        return Err(last_dlerror());
    }
    // SAFETY: the symbols are the plugin ABI's, with the declared signatures
    // (checked by the version function first).
    let fns = unsafe { PluginFns::load(|sym| dlsym(handle, sym.as_ptr())) }
        .map_err(|e| format!("{spec}: {e}"))?;
    Ok(Plugin {
        fns,
        origin: spec.to_string(),
    })
}

/// Try every candidate in order; on failure, the reasons (one per attempt).
/// `trace` hears of every candidate: tried and loaded, tried and failed
/// (why), or skipped (no such file).
pub fn load(cands: &[Candidate], trace: &mut dyn FnMut(String)) -> Result<Plugin, Vec<String>> {
    let mut why = Vec::new();
    for c in cands {
        let (spec, from) = match c {
            Candidate::Path {
                path,
                explicit,
                from,
            } => {
                if !explicit && !path.exists() {
                    trace(format!(
                        "plugin {} ({}): no such file",
                        path.display(),
                        from.describe()
                    ));
                    continue;
                }
                (path.to_string_lossy().into_owned(), *from)
            }
            Candidate::Name(n) => (n.to_string(), Source::Loader),
        };
        match open(&spec) {
            Ok(p) => {
                trace(format!("plugin {spec} ({}): loaded", from.describe()));
                return Ok(p);
            }
            Err(e) => {
                // dlerror names the file itself when the plugin is missing, but
                // not the plugin when one of its own dependencies is (libcuda.so.1).
                let e = e
                    .strip_prefix(spec.as_str())
                    .map_or(e.as_str(), |r| r.trim_start_matches(':').trim_start());
                trace(format!("plugin {spec} ({}): {e}", from.describe()));
                why.push(format!("{spec}: {e}"));
            }
        }
    }
    Err(why)
}

/// Directory of the running executable.
pub fn exe_dir() -> Option<PathBuf> {
    std::fs::read_link("/proc/self/exe")
        .ok()
        .and_then(|p| p.parent().map(Path::to_path_buf))
}

impl Plugin {
    /// The plugin's error text for its last failing call on this thread.
    pub fn last_error(&self) -> String {
        let mut buf = vec![0 as c_char; 4096];
        // SAFETY: buffer of the stated length.
        let n = unsafe { (self.fns.last_error)(buf.as_mut_ptr(), buf.len()) };
        if n >= buf.len() {
            buf = vec![0 as c_char; n + 1];
            // SAFETY: as above.
            unsafe { (self.fns.last_error)(buf.as_mut_ptr(), buf.len()) };
        }
        // SAFETY: the plugin NUL-terminates within the buffer.
        let s = unsafe { CStr::from_ptr(buf.as_ptr()) }
            .to_string_lossy()
            .into_owned();
        if s.is_empty() {
            "unknown device plugin error".to_string()
        } else {
            s
        }
    }

    /// Status of a plugin call → `Ok` or its error text.
    pub fn check(&self, status: i32) -> Result<(), String> {
        if status == 0 {
            Ok(())
        } else {
            Err(self.last_error())
        }
    }

    pub fn init(&self) -> Result<(), String> {
        // SAFETY: no arguments.
        self.check(unsafe { (self.fns.init)() })
    }

    pub fn device_count(&self) -> Result<i32, String> {
        let mut n = 0;
        // SAFETY: out-pointer to a local.
        self.check(unsafe { (self.fns.device_count)(&mut n) })?;
        Ok(n)
    }

    pub fn device_info(&self, dev: i32) -> Result<DeviceInfo, String> {
        let mut info = DeviceInfo::default();
        // SAFETY: out-pointer to a local.
        self.check(unsafe { (self.fns.device_info)(dev, &mut info) })?;
        Ok(info)
    }

    pub fn set_device(&self, dev: i32) -> Result<(), String> {
        // SAFETY: plain value.
        self.check(unsafe { (self.fns.set_device)(dev) })
    }

    pub fn module_load(&self, dev: i32, image: &[u8]) -> Result<*mut c_void, String> {
        let mut m = std::ptr::null_mut();
        // SAFETY: slice pointer and length; out-pointer to a local.
        self.check(unsafe {
            (self.fns.module_load_data)(dev, image.as_ptr(), image.len(), &mut m)
        })?;
        Ok(m)
    }

    /// Link relocatable images into one module (its inputs' bytes and names
    /// must be valid for the call).
    pub fn link_module(&self, dev: i32, inputs: &[LinkInput]) -> Result<*mut c_void, String> {
        let mut m = std::ptr::null_mut();
        // SAFETY: array pointer and length of valid inputs; out-pointer to a local.
        self.check(unsafe { (self.fns.link_module)(dev, inputs.as_ptr(), inputs.len(), &mut m) })?;
        Ok(m)
    }

    /// # Safety
    /// `module` must come from [`Plugin::module_load`] or
    /// [`Plugin::link_module`] on `dev`.
    pub unsafe fn get_function(
        &self,
        dev: i32,
        module: *mut c_void,
        name: &CStr,
    ) -> Result<*mut c_void, String> {
        let mut f = std::ptr::null_mut();
        // SAFETY: module from module_load; NUL-terminated name; out-pointer.
        self.check(unsafe { (self.fns.module_get_function)(dev, module, name.as_ptr(), &mut f) })?;
        Ok(f)
    }

    /// # Safety
    /// `module` must come from [`Plugin::module_load`] or
    /// [`Plugin::link_module`] on `dev`, unloaded once.
    pub unsafe fn module_unload(&self, dev: i32, module: *mut c_void) -> Result<(), String> {
        // SAFETY: module from module_load.
        self.check(unsafe { (self.fns.module_unload)(dev, module) })
    }

    pub fn mem_alloc(&self, dev: i32, bytes: usize) -> Result<u64, String> {
        let mut p = 0u64;
        // SAFETY: out-pointer to a local.
        self.check(unsafe { (self.fns.mem_alloc)(dev, bytes, &mut p) })?;
        Ok(p)
    }

    pub fn mem_free(&self, dev: i32, p: u64) -> Result<(), String> {
        // SAFETY: p from mem_alloc.
        self.check(unsafe { (self.fns.mem_free)(dev, p) })
    }

    /// # Safety
    /// `src` must be readable for `bytes` bytes.
    pub unsafe fn htod(
        &self,
        dev: i32,
        dst: u64,
        src: *const c_void,
        bytes: usize,
    ) -> Result<(), String> {
        self.check((self.fns.memcpy_htod)(dev, dst, src, bytes))
    }

    /// # Safety
    /// `dst` must be writable for `bytes` bytes.
    pub unsafe fn dtoh(
        &self,
        dev: i32,
        dst: *mut c_void,
        src: u64,
        bytes: usize,
    ) -> Result<(), String> {
        self.check((self.fns.memcpy_dtoh)(dev, dst, src, bytes))
    }

    /// Queue a launch on `stream` (null: the legacy default stream).
    ///
    /// # Safety
    /// `args` must hold one pointer per kernel parameter; `stream` null or
    /// a stream of `dev`.
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn launch(
        &self,
        dev: i32,
        func: *mut c_void,
        grid: [u32; 3],
        block: [u32; 3],
        shared: u32,
        args: *mut *mut c_void,
        stream: *mut c_void,
    ) -> Result<(), String> {
        self.check((self.fns.launch)(
            dev,
            func,
            grid.as_ptr(),
            block.as_ptr(),
            shared,
            args,
            stream,
        ))
    }

    pub fn synchronize(&self, dev: i32) -> Result<(), String> {
        // SAFETY: plain value.
        self.check(unsafe { (self.fns.synchronize)(dev) })
    }

    /// (free, total) device memory in bytes.
    pub fn mem_get_info(&self, dev: i32) -> Result<(u64, u64), String> {
        let (mut free, mut total) = (0u64, 0u64);
        // SAFETY: out-pointers to locals.
        self.check(unsafe { (self.fns.mem_get_info)(dev, &mut free, &mut total) })?;
        Ok((free, total))
    }

    pub fn memset_zero(&self, dev: i32, dst: u64, bytes: usize) -> Result<(), String> {
        // SAFETY: plain values (the device range is the caller's).
        self.check(unsafe { (self.fns.memset_zero)(dev, dst, bytes) })
    }

    pub fn dtod(&self, dev: i32, dst: u64, src: u64, bytes: usize) -> Result<(), String> {
        // SAFETY: plain values (the device ranges are the caller's).
        self.check(unsafe { (self.fns.memcpy_dtod)(dev, dst, src, bytes) })
    }

    /// Device address and size of global `name` of `module`.
    ///
    /// # Safety
    /// `module` must come from [`Plugin::module_load`] or
    /// [`Plugin::link_module`] on `dev`.
    pub unsafe fn module_get_global(
        &self,
        dev: i32,
        module: *mut c_void,
        name: &CStr,
    ) -> Result<(u64, usize), String> {
        let (mut p, mut n) = (0u64, 0usize);
        // SAFETY: module per the caller; NUL-terminated name; out-pointers.
        self.check(unsafe {
            (self.fns.module_get_global)(dev, module, name.as_ptr(), &mut p, &mut n)
        })?;
        Ok((p, n))
    }

    /// `bytes` of page-locked host memory.
    pub fn host_alloc(&self, dev: i32, bytes: usize) -> Result<*mut c_void, String> {
        let mut p = std::ptr::null_mut();
        // SAFETY: out-pointer to a local.
        self.check(unsafe { (self.fns.host_alloc)(dev, bytes, &mut p) })?;
        Ok(p)
    }

    /// # Safety
    /// `p` must come from [`Plugin::host_alloc`], freed once.
    pub unsafe fn host_free(&self, dev: i32, p: *mut c_void) -> Result<(), String> {
        // SAFETY: p from host_alloc (the caller's contract).
        self.check(unsafe { (self.fns.host_free)(dev, p) })
    }

    /// Whether host address `addr` is page-locked.
    pub fn host_is_pinned(&self, dev: i32, addr: usize) -> Result<bool, String> {
        let mut pinned = 0;
        // SAFETY: the address is only looked up; out-pointer to a local.
        self.check(unsafe { (self.fns.host_is_pinned)(dev, addr as *const c_void, &mut pinned) })?;
        Ok(pinned != 0)
    }

    /// A stream of `dev`; `nonblocking`: not ordered with the legacy
    /// default stream.
    pub fn stream_create(&self, dev: i32, nonblocking: bool) -> Result<*mut c_void, String> {
        let mut s = std::ptr::null_mut();
        // SAFETY: out-pointer to a local.
        self.check(unsafe { (self.fns.stream_create)(dev, i32::from(nonblocking), &mut s) })?;
        Ok(s)
    }

    /// Whether all work queued on `s` has completed.
    ///
    /// # Safety
    /// `s` must be a stream of `dev`.
    pub unsafe fn stream_query(&self, dev: i32, s: *mut c_void) -> Result<bool, String> {
        let mut done = 0;
        // SAFETY: s per the caller; out-pointer to a local.
        self.check(unsafe { (self.fns.stream_query)(dev, s, &mut done) })?;
        Ok(done != 0)
    }

    /// Work queued on `s` from now on waits for event `e`.
    ///
    /// # Safety
    /// `s` a stream of `dev`, `e` an event from [`Plugin::event_create`].
    pub unsafe fn stream_wait_event(
        &self,
        dev: i32,
        s: *mut c_void,
        e: *mut c_void,
    ) -> Result<(), String> {
        // SAFETY: per the caller.
        self.check(unsafe { (self.fns.stream_wait_event)(dev, s, e) })
    }

    /// Queue `func(data)` on `s`.
    ///
    /// # Safety
    /// `s` a stream of `dev`; `func` must not call the driver and must
    /// accept `data` when it runs (on a driver thread).
    pub unsafe fn launch_host_func(
        &self,
        dev: i32,
        s: *mut c_void,
        func: ptxrt_plugin_abi::HostFn,
        data: *mut c_void,
    ) -> Result<(), String> {
        // SAFETY: per the caller.
        self.check(unsafe { (self.fns.launch_host_func)(dev, s, func, data) })
    }

    /// Queue the zeroing of `bytes` at `dst` on `s`.
    ///
    /// # Safety
    /// `s` a stream of `dev`.
    pub unsafe fn memset_zero_async(
        &self,
        dev: i32,
        dst: u64,
        bytes: usize,
        s: *mut c_void,
    ) -> Result<(), String> {
        // SAFETY: per the caller (the device range is the caller's).
        self.check(unsafe { (self.fns.memset_zero_async)(dev, dst, bytes, s) })
    }

    /// Queue a device-to-device copy on `s`.
    ///
    /// # Safety
    /// `s` a stream of `dev`.
    pub unsafe fn dtod_async(
        &self,
        dev: i32,
        dst: u64,
        src: u64,
        bytes: usize,
        s: *mut c_void,
    ) -> Result<(), String> {
        // SAFETY: per the caller (the device ranges are the caller's).
        self.check(unsafe { (self.fns.memcpy_dtod_async)(dev, dst, src, bytes, s) })
    }

    /// # Safety
    /// `s` must come from [`Plugin::stream_create`] on `dev`, destroyed once.
    pub unsafe fn stream_destroy(&self, dev: i32, s: *mut c_void) -> Result<(), String> {
        // SAFETY: s from stream_create (the caller's contract).
        self.check(unsafe { (self.fns.stream_destroy)(dev, s) })
    }

    /// # Safety
    /// `s` must come from [`Plugin::stream_create`] on `dev`.
    pub unsafe fn stream_synchronize(&self, dev: i32, s: *mut c_void) -> Result<(), String> {
        // SAFETY: s from stream_create (the caller's contract).
        self.check(unsafe { (self.fns.stream_synchronize)(dev, s) })
    }

    /// # Safety
    /// `src` must stay readable for `bytes` bytes until the stream has run the copy.
    pub unsafe fn htod_async(
        &self,
        dev: i32,
        dst: u64,
        src: *const c_void,
        bytes: usize,
        stream: *mut c_void,
    ) -> Result<(), String> {
        self.check((self.fns.memcpy_htod_async)(dev, dst, src, bytes, stream))
    }

    /// # Safety
    /// `dst` must stay writable for `bytes` bytes until the stream has run the copy.
    pub unsafe fn dtoh_async(
        &self,
        dev: i32,
        dst: *mut c_void,
        src: u64,
        bytes: usize,
        stream: *mut c_void,
    ) -> Result<(), String> {
        self.check((self.fns.memcpy_dtoh_async)(dev, dst, src, bytes, stream))
    }

    pub fn event_create(&self, dev: i32) -> Result<*mut c_void, String> {
        let mut e = std::ptr::null_mut();
        // SAFETY: out-pointer to a local.
        self.check(unsafe { (self.fns.event_create)(dev, &mut e) })?;
        Ok(e)
    }

    /// # Safety
    /// `e` must come from [`Plugin::event_create`] on `dev`, destroyed once.
    pub unsafe fn event_destroy(&self, dev: i32, e: *mut c_void) -> Result<(), String> {
        // SAFETY: e from event_create (the caller's contract).
        self.check(unsafe { (self.fns.event_destroy)(dev, e) })
    }

    /// # Safety
    /// `e` and `s` must come from [`Plugin::event_create`] and [`Plugin::stream_create`] on `dev`.
    pub unsafe fn event_record(
        &self,
        dev: i32,
        e: *mut c_void,
        s: *mut c_void,
    ) -> Result<(), String> {
        // SAFETY: e and s from event_create / stream_create.
        self.check(unsafe { (self.fns.event_record)(dev, e, s) })
    }

    /// # Safety
    /// `e` must come from [`Plugin::event_create`] on `dev`.
    pub unsafe fn event_synchronize(&self, dev: i32, e: *mut c_void) -> Result<(), String> {
        // SAFETY: e from event_create.
        self.check(unsafe { (self.fns.event_synchronize)(dev, e) })
    }

    /// Whether event `e` has completed.
    ///
    /// # Safety
    /// `e` must come from [`Plugin::event_create`] on `dev`.
    pub unsafe fn event_query(&self, dev: i32, e: *mut c_void) -> Result<bool, String> {
        let mut done = 0;
        // SAFETY: e from event_create; out-pointer to a local.
        self.check(unsafe { (self.fns.event_query)(dev, e, &mut done) })?;
        Ok(done != 0)
    }

    /// An event that records the time it completes (destroyed with
    /// [`Plugin::event_destroy`]).
    pub fn event_create_timed(&self, dev: i32) -> Result<*mut c_void, String> {
        let mut e = std::ptr::null_mut();
        // SAFETY: out-pointer to a local.
        self.check(unsafe { (self.fns.event_create_timed)(dev, &mut e) })?;
        Ok(e)
    }

    /// Milliseconds from `start` to `end`.
    ///
    /// # Safety
    /// `start` and `end` must come from [`Plugin::event_create_timed`] on
    /// `dev` and have completed.
    pub unsafe fn event_elapsed(
        &self,
        dev: i32,
        start: *mut c_void,
        end: *mut c_void,
    ) -> Result<f32, String> {
        let mut ms = 0f32;
        // SAFETY: timed events of dev; out-pointer to a local.
        self.check(unsafe { (self.fns.event_elapsed)(dev, start, end, &mut ms) })?;
        Ok(ms)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths(c: &[Candidate]) -> Vec<String> {
        c.iter()
            .map(|c| match c {
                Candidate::Path {
                    path,
                    explicit,
                    from,
                } => {
                    format!(
                        "{}{} {from:?}",
                        if *explicit { "!" } else { "" },
                        path.display()
                    )
                }
                Candidate::Name(n) => format!("name:{n}"),
            })
            .collect()
    }

    #[test]
    fn search_order() {
        let c = candidates(
            Some("/opt/x/libptxrt-cuda.so"),
            Some(Path::new("/bundle")),
            &[PathBuf::from("/opt/accc/lib"), PathBuf::from("/bundle")],
            &[
                PathBuf::from("/usr/lib/accc"),
                PathBuf::from("/bundle"),
                PathBuf::from("/opt/accc/lib"),
                PathBuf::new(),
            ],
        );
        assert_eq!(
            paths(&c),
            [
                "!/opt/x/libptxrt-cuda.so Env",
                "/bundle/libptxrt-cuda.so ExeDir",
                "/bundle/libptxrt_cuda.so ExeDir",
                "/opt/accc/lib/libptxrt-cuda.so Linked",
                "/opt/accc/lib/libptxrt_cuda.so Linked",
                "/usr/lib/accc/libptxrt-cuda.so Image",
                "/usr/lib/accc/libptxrt_cuda.so Image",
                "name:libptxrt-cuda.so",
                "name:libptxrt_cuda.so",
            ]
        );
    }

    #[test]
    fn search_without_env_or_dirs() {
        let c = candidates(Some(""), None, &[], &[]);
        assert_eq!(
            paths(&c),
            ["name:libptxrt-cuda.so", "name:libptxrt_cuda.so"]
        );
    }

    #[test]
    fn load_failures_are_recorded_and_traced() {
        let c = vec![
            Candidate::Path {
                path: PathBuf::from("/nonexistent/libptxrt-cuda.so"),
                explicit: true,
                from: Source::Env,
            },
            Candidate::Path {
                path: PathBuf::from("/nonexistent/skip.so"),
                explicit: false,
                from: Source::Linked,
            },
            Candidate::Name("libptxrt-no-such-plugin.so"),
        ];
        let mut trace = vec![];
        let why = load(&c, &mut |m| trace.push(m)).err().unwrap();
        assert_eq!(why.len(), 2, "{why:?}");
        assert!(
            why[0].starts_with("/nonexistent/libptxrt-cuda.so: "),
            "{why:?}"
        );
        assert!(why[1].contains("libptxrt-no-such-plugin.so"), "{why:?}");
        assert!(why[1].contains("cannot open shared object file"), "{why:?}");
        assert_eq!(trace.len(), 3, "{trace:?}");
        assert!(
            trace[0].starts_with("plugin /nonexistent/libptxrt-cuda.so (PTXRT_PLUGIN): "),
            "{trace:?}"
        );
        assert_eq!(
            trace[1],
            "plugin /nonexistent/skip.so (recorded when accc linked the program): no such file"
        );
        assert!(
            trace[2].starts_with(
                "plugin libptxrt-no-such-plugin.so (the dynamic loader's search path): "
            ) && trace[2].contains("cannot open shared object file"),
            "{trace:?}"
        );
    }

    #[test]
    fn library_without_the_abi_names_the_symbol() {
        // libm is a real shared library that is not a plugin.
        let why = load(&[Candidate::Name("libm.so.6")], &mut |_| {})
            .err()
            .unwrap();
        assert_eq!(why.len(), 1);
        assert!(why[0].contains("__ptxrt_plugin_abi_version"), "{why:?}");
    }
}
