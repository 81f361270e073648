//! Modules: loading one device image (`module_load_data`), linking several
//! relocatable images into one (`link_module`), kernel and global lookup,
//! a kernel's limits (`function_limits`) and unloading.
//!
//! Owns: the driver calls on modules, their functions and on the JIT linker
//! (`cuModule*`, `cuFuncGetAttribute`, `cuOccupancy*`, `cuLink*`), and the JIT log buffers whose text is appended to a failing
//! call's error (the error log names an undefined symbol and the input that
//! refers to it). cust's `Linker` passes no log buffers, so the raw `cuLink*`
//! calls are used.
//! May call: the crate root's helpers (`entry`, `make_current`, `check`, `out`).

use crate::{check, entry, make_current, out, R};
use cust::sys as cu;
use ptxrt_plugin_abi::{FunctionLimits, LinkInput, LINK_INPUT_CUBIN, LINK_INPUT_PTX};
use std::borrow::Cow;
use std::ffi::{c_char, c_uint, c_void, CStr, CString};
use std::ptr;

const LOG_BYTES: usize = 16 * 1024;

/// Text of a JIT log buffer, one line (newlines become "; ").
fn log_text(buf: &[u8], filled: usize) -> String {
    let n = filled.min(buf.len());
    let s = String::from_utf8_lossy(&buf[..n]);
    let s = s.trim_end_matches('\0').trim();
    s.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("; ")
}

/// The info and error log buffers of one JIT compilation or link, as the
/// driver's option arrays. The driver writes the logs' lengths back into
/// `vals`; for a link the arrays and buffers must stay where they are until
/// the link state is destroyed, so a `JitLogs` is a local that is never moved
/// while the driver holds its pointers.
struct JitLogs {
    info: Vec<u8>,
    error: Vec<u8>,
    opts: [cu::CUjit_option; 4],
    vals: [*mut c_void; 4],
}

impl JitLogs {
    fn new() -> JitLogs {
        let mut info = vec![0u8; LOG_BYTES];
        let mut error = vec![0u8; LOG_BYTES];
        use cu::CUjit_option::*;
        // Sizes are passed by value in the pointer slot and written back there.
        let vals = [
            info.as_mut_ptr().cast(),
            LOG_BYTES as *mut c_void,
            error.as_mut_ptr().cast(),
            LOG_BYTES as *mut c_void,
        ];
        JitLogs {
            info,
            error,
            opts: [
                CU_JIT_INFO_LOG_BUFFER,
                CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
                CU_JIT_ERROR_LOG_BUFFER,
                CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
            ],
            vals,
        }
    }

    /// `msg` followed by the non-empty logs, "<what> error log: ..." first.
    fn append_to(&self, mut msg: String, what: &str) -> String {
        let err = log_text(&self.error, (self.vals[3] as usize) & 0xffff_ffff);
        let info = log_text(&self.info, (self.vals[1] as usize) & 0xffff_ffff);
        if !err.is_empty() {
            msg.push_str(&format!("; {what} error log: {err}"));
        }
        if !info.is_empty() {
            msg.push_str(&format!("; {what} info log: {info}"));
        }
        msg
    }
}

/// PTX text with a terminating NUL, as the driver requires (borrowed when it
/// already has one).
fn nul_terminated(bytes: &[u8]) -> Cow<'_, [u8]> {
    if bytes.last() == Some(&0) {
        Cow::Borrowed(bytes)
    } else {
        Cow::Owned([bytes, &[0u8]].concat())
    }
}

pub(crate) unsafe extern "C" fn module_load_data(
    dev: i32,
    image: *const u8,
    len: usize,
    module: *mut *mut c_void,
) -> i32 {
    entry(|| {
        make_current(dev)?;
        let module = out(module, "module")?;
        if image.is_null() || len == 0 {
            return Err("libptxrt-cuda: empty device image".to_string());
        }
        // SAFETY: libptxrt passes the image's bytes and their length.
        let bytes = unsafe { std::slice::from_raw_parts(image, len) };
        let is_cubin = bytes.starts_with(b"\x7fELF");
        let data = if is_cubin {
            Cow::Borrowed(bytes)
        } else {
            nul_terminated(bytes)
        };
        let mut logs = JitLogs::new();
        let mut m: cu::CUmodule = ptr::null_mut();
        // SAFETY: data is a NUL-terminated PTX text or a cubin; the option
        // arrays have 4 entries and the log buffers LOG_BYTES bytes.
        let r = unsafe {
            cu::cuModuleLoadDataEx(
                &mut m,
                data.as_ptr().cast(),
                logs.opts.len() as c_uint,
                logs.opts.as_mut_ptr(),
                logs.vals.as_mut_ptr(),
            )
        };
        let call = if is_cubin {
            "cuModuleLoadDataEx(cubin)"
        } else {
            "cuModuleLoadDataEx(PTX)"
        };
        check(call, r).map_err(|msg| logs.append_to(msg, "JIT"))?;
        *module = m.cast();
        Ok(())
    })
}

/// A JIT link state, destroyed when dropped (also on every error path).
struct LinkState(cu::CUlinkState);

impl Drop for LinkState {
    fn drop(&mut self) {
        // SAFETY: created by cuLinkCreate and destroyed once, here.
        unsafe { cu::cuLinkDestroy(self.0) };
    }
}

/// The name of a link input for messages: its `name`, or "input <i>".
fn input_name(input: &LinkInput, i: usize) -> String {
    if input.name.is_null() {
        format!("input {i}")
    } else {
        // SAFETY: libptxrt passes a NUL-terminated name or null.
        unsafe { CStr::from_ptr(input.name) }
            .to_string_lossy()
            .into_owned()
    }
}

/// Link `inputs` with the driver's JIT linker; the linked cubin is loaded as
/// a module before the link state (which owns the cubin) is destroyed.
fn link(inputs: &[LinkInput]) -> R<cu::CUmodule> {
    if inputs.is_empty() {
        return Err("libptxrt-cuda: nothing to link".to_string());
    }
    // Declared before the state so they outlive it (locals drop in reverse):
    // the logs, and each input's bytes and name (the driver is documented to
    // copy them, but the link's messages name the inputs until the end).
    let mut logs = JitLogs::new();
    let mut kept: Vec<(Cow<'_, [u8]>, CString)> = Vec::with_capacity(inputs.len());
    let mut raw: cu::CUlinkState = ptr::null_mut();
    // SAFETY: 4 options with their values; the arrays and the log buffers
    // stay in place (logs is not moved) until the state is destroyed.
    check("cuLinkCreate", unsafe {
        cu::cuLinkCreate_v2(
            logs.opts.len() as c_uint,
            logs.opts.as_mut_ptr(),
            logs.vals.as_mut_ptr(),
            &mut raw,
        )
    })?;
    let state = LinkState(raw);
    for (i, input) in inputs.iter().enumerate() {
        let name = input_name(input, i);
        if input.data.is_null() || input.len == 0 {
            return Err(format!("libptxrt-cuda: empty link input {name}"));
        }
        // SAFETY: libptxrt passes `len` bytes at `data`.
        let bytes = unsafe { std::slice::from_raw_parts(input.data, input.len) };
        let (kind, what, data) = match input.kind {
            LINK_INPUT_PTX => (
                cu::CUjitInputType::CU_JIT_INPUT_PTX,
                "PTX",
                nul_terminated(bytes),
            ),
            LINK_INPUT_CUBIN => (
                cu::CUjitInputType::CU_JIT_INPUT_CUBIN,
                "cubin",
                Cow::Borrowed(bytes),
            ),
            k => {
                return Err(format!(
                    "libptxrt-cuda: link input {name} has unknown kind {k}"
                ))
            }
        };
        kept.push((data, CString::new(name.clone()).unwrap_or_default()));
        let Some((data, cname)) = kept.last() else {
            continue;
        };
        // SAFETY: the state is live; data holds data.len() bytes (PTX with its
        // NUL) and the name is NUL-terminated, both kept until the state is
        // destroyed; no per-input options.
        let r = unsafe {
            cu::cuLinkAddData_v2(
                state.0,
                kind,
                data.as_ptr() as *mut c_void,
                data.len(),
                cname.as_ptr(),
                0,
                ptr::null_mut(),
                ptr::null_mut(),
            )
        };
        check(&format!("cuLinkAddData({what} of {name})"), r)
            .map_err(|msg| logs.append_to(msg, "linker"))?;
    }
    let mut cubin: *mut c_void = ptr::null_mut();
    let mut size: usize = 0;
    // SAFETY: the state is live; out-pointers to locals.
    let r = unsafe { cu::cuLinkComplete(state.0, &mut cubin, &mut size) };
    check("cuLinkComplete", r).map_err(|msg| logs.append_to(msg, "linker"))?;
    let mut m: cu::CUmodule = ptr::null_mut();
    // SAFETY: cubin is the linked image owned by the live state.
    check("cuModuleLoadData(linked cubin)", unsafe {
        cu::cuModuleLoadData(&mut m, cubin)
    })?;
    drop(state);
    Ok(m)
}

pub(crate) unsafe extern "C" fn link_module(
    dev: i32,
    inputs: *const LinkInput,
    n: usize,
    module: *mut *mut c_void,
) -> i32 {
    entry(|| {
        make_current(dev)?;
        let module = out(module, "module")?;
        if inputs.is_null() {
            return Err("libptxrt-cuda: null link inputs".to_string());
        }
        // SAFETY: libptxrt passes an array of n inputs.
        let inputs = unsafe { std::slice::from_raw_parts(inputs, n) };
        *module = link(inputs)?.cast();
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn module_get_function(
    dev: i32,
    module: *mut c_void,
    name: *const c_char,
    func: *mut *mut c_void,
) -> i32 {
    entry(|| {
        make_current(dev)?;
        let func = out(func, "function")?;
        if name.is_null() {
            return Err("libptxrt-cuda: null kernel name".to_string());
        }
        let mut f: cu::CUfunction = ptr::null_mut();
        // SAFETY: module came from module_load_data or link_module; name is
        // NUL-terminated.
        check("cuModuleGetFunction", unsafe {
            cu::cuModuleGetFunction(&mut f, module.cast(), name)
        })?;
        *func = f.cast();
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn module_get_global(
    dev: i32,
    module: *mut c_void,
    name: *const c_char,
    p: *mut u64,
    bytes: *mut usize,
) -> i32 {
    entry(|| {
        make_current(dev)?;
        let p = out(p, "global pointer")?;
        let bytes = out(bytes, "global size")?;
        if name.is_null() {
            return Err("libptxrt-cuda: null global name".to_string());
        }
        let (mut d, mut n): (cu::CUdeviceptr, usize) = (0, 0);
        // SAFETY: module came from module_load_data or link_module; name is
        // NUL-terminated; out-pointers to locals.
        let r = unsafe { cu::cuModuleGetGlobal_v2(&mut d, &mut n, module.cast(), name) };
        // SAFETY: checked non-null above.
        let sym = unsafe { CStr::from_ptr(name) }.to_string_lossy();
        check(&format!("cuModuleGetGlobal({sym})"), r)?;
        *p = d;
        *bytes = n;
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn function_limits(
    dev: i32,
    func: *mut c_void,
    threads: u32,
    limits: *mut FunctionLimits,
) -> i32 {
    entry(|| {
        make_current(dev)?;
        let limits = out(limits, "limits")?;
        let f: cu::CUfunction = func.cast();
        let attr = |a: cu::CUfunction_attribute, name: &str| -> R<i32> {
            let mut v = 0;
            // SAFETY: func came from module_get_function; out-pointer to a local.
            check(&format!("cuFuncGetAttribute({name})"), unsafe {
                cu::cuFuncGetAttribute(&mut v, a, f)
            })?;
            Ok(v)
        };
        use cu::CUfunction_attribute::*;
        let mut l = FunctionLimits {
            regs: attr(CU_FUNC_ATTRIBUTE_NUM_REGS, "NUM_REGS")?,
            static_shared: attr(CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, "SHARED_SIZE_BYTES")?,
            local_bytes: attr(CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, "LOCAL_SIZE_BYTES")?,
            max_threads: attr(
                CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
                "MAX_THREADS_PER_BLOCK",
            )?,
            blocks_per_sm: 0,
        };
        if threads > 0 {
            let threads = i32::try_from(threads).unwrap_or(i32::MAX);
            // SAFETY: as above.
            check("cuOccupancyMaxActiveBlocksPerMultiprocessor", unsafe {
                cu::cuOccupancyMaxActiveBlocksPerMultiprocessor(&mut l.blocks_per_sm, f, threads, 0)
            })?;
        }
        *limits = l;
        Ok(())
    })
}

pub(crate) unsafe extern "C" fn module_unload(dev: i32, module: *mut c_void) -> i32 {
    entry(|| {
        make_current(dev)?;
        // SAFETY: module came from module_load_data or link_module.
        check("cuModuleUnload", unsafe {
            cu::cuModuleUnload(module.cast())
        })
    })
}

/// Pure helpers only: a test that reaches a driver call would make the test
/// binary need libcuda.so.1, which machines without CUDA lack.
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn logs_become_one_line() {
        let buf = b"error   : Undefined reference to 'add_one' in 'b.c'\n\ninfo x\n\0\0";
        assert_eq!(
            log_text(buf, buf.len()),
            "error   : Undefined reference to 'add_one' in 'b.c'; info x"
        );
        assert_eq!(log_text(buf, 0), "");
    }

    #[test]
    fn ptx_gets_one_nul() {
        assert_eq!(&*nul_terminated(b"ptx"), b"ptx\0");
        assert!(matches!(nul_terminated(b"ptx\0"), Cow::Borrowed(_)));
    }

    #[test]
    fn inputs_are_named() {
        let i = LinkInput {
            kind: LINK_INPUT_PTX,
            data: ptr::null(),
            len: 0,
            name: c"b.c".as_ptr(),
        };
        assert_eq!(input_name(&i, 3), "b.c");
        let i = LinkInput {
            name: ptr::null(),
            ..i
        };
        assert_eq!(input_name(&i, 3), "input 3");
    }
}
