//! Finding and loading the device plugin (`libptxrt-cuda.so`).
//!
//! Owns: the plugin search order, the dlopen/dlsym calls (a tiny extern
//! block: no dependency), the loaded plugin's vtable ([`Plugin`]) and turning
//! its status codes into error text (the plugin's `last_error`): one checked
//! call per entry point, generated from the plugin ABI's entry list
//! (`ptxrt_plugin_abi::checked_calls!`), so an entry point added there is
//! callable here with no code of its own.
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

use ptxrt_plugin_abi::{checked_calls, PluginFns};
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
}

// One checked call per entry point of the plugin ABI (`unsafe fn name(&self,
// inputs) -> Result<outputs, String>`), generated from its entry list.
ptxrt_plugin_abi::for_each_entry!(checked_calls);

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
