//! The device management directives (OpenACC 3.3 2.14.1-2.14.3):
//! `__ptxrt_init`, `__ptxrt_shutdown` and `__ptxrt_set`, one call per
//! device type of the directive's `device_type` clause (the compiler
//! evaluates the `if` clause and the argument expressions).
//!
//! Owns: what each directive means in terms of the routines it stands for
//! (`init` = `acc_init_device`, `shutdown` = `acc_shutdown[_device]`, `set`
//! = `acc_set_device_type` + `acc_set_device_num` +
//! `acc_set_default_async`), the device types a directive may name that are
//! not `acc_device_t` values (`*`, and names of devices accc does not drive:
//! `radeon`, …), and the text of their errors: one line at the
//! directive, naming its clauses with their values
//! (`f.c:12: error: set: no such device: the driver found 1: 'device_num(7)'`).
//! `init` and `shutdown` of a type accc has no devices of do nothing (such
//! devices are never available); `set device_type` to one is an error.
//! `multicore` is an `acc_device_t` value: the host's cores (the
//! multicore device, [`crate::multicore`]).
//! May call: [`crate::api_device`], [`crate::api_async`], [`crate::abi`],
//! [`crate::error`], [`crate::notify`].

use crate::abi::{cstr_or, Loc, SrcLoc, DEVICE_ANY, DEVICE_OTHER};
use crate::api_async;
use crate::api_device::{self, ACC_DEVICE_CURRENT, ACC_DEVICE_DEFAULT};
use crate::error::{fatal_at, guard};
use crate::notify;
use std::ffi::{c_char, c_int};

/// The clauses of a directive with their values, for messages:
/// `device_type(nvidia) device_num(1)`.
fn clauses(dev_type: c_int, name: &str, num: Option<c_int>) -> String {
    let mut parts = vec![];
    if dev_type != ACC_DEVICE_CURRENT {
        parts.push(format!("device_type({name})"));
    }
    if let Some(n) = num {
        parts.push(format!("device_num({n})"));
    }
    parts.join(" ")
}

/// The directive's location, device type name and device number, read
/// from C, and its clauses as text.
///
/// # Safety
/// `loc` is null or a valid `__ptxrt_loc`; `type_name` null or NUL-terminated.
unsafe fn args(
    loc: *const Loc,
    dev_type: c_int,
    type_name: *const c_char,
    has_num: c_int,
    dev_num: c_int,
) -> (SrcLoc, String, Option<c_int>, String) {
    // SAFETY: as the caller promises.
    let at = unsafe { SrcLoc::from_c(loc) };
    // SAFETY: as the caller promises.
    let name = unsafe { cstr_or(type_name, "?") };
    let num = (has_num != 0).then_some(dev_num);
    let text = clauses(dev_type, &name, num);
    (at, name, num, text)
}

/// `void __ptxrt_init(loc, dev_type, type_name, has_num, dev_num)`.
///
/// # Safety
/// As ptxrt.h says: `loc` is null or a valid `__ptxrt_loc`, `type_name`
/// null or NUL-terminated.
#[no_mangle]
pub unsafe extern "C" fn __ptxrt_init(
    loc: *const Loc,
    dev_type: c_int,
    type_name: *const c_char,
    has_num: c_int,
    dev_num: c_int,
) {
    guard(|| {
        // SAFETY: as the caller promises.
        let (at, _, num, text) = unsafe { args(loc, dev_type, type_name, has_num, dev_num) };
        match dev_type {
            DEVICE_OTHER => notify::debug(&format!(
                "{}:{}: {} {text}: accc has no such devices: nothing to do",
                at.file, at.line, at.construct
            )),
            // Every type: the NVIDIA device when usable (the host needs nothing).
            DEVICE_ANY => api_device::init(&at, &text, ACC_DEVICE_DEFAULT, num),
            t => api_device::init(&at, &text, t, num),
        }
    })
}

/// `void __ptxrt_shutdown(loc, dev_type, type_name, has_num, dev_num)`.
///
/// # Safety
/// As [`__ptxrt_init`].
#[no_mangle]
pub unsafe extern "C" fn __ptxrt_shutdown(
    loc: *const Loc,
    dev_type: c_int,
    type_name: *const c_char,
    has_num: c_int,
    dev_num: c_int,
) {
    guard(|| {
        // SAFETY: as the caller promises.
        let (at, _, num, text) = unsafe { args(loc, dev_type, type_name, has_num, dev_num) };
        match dev_type {
            DEVICE_OTHER => {}
            DEVICE_ANY => api_device::shutdown(&at, &text, ACC_DEVICE_DEFAULT, num),
            t => api_device::shutdown(&at, &text, t, num),
        }
    })
}

/// `void __ptxrt_set(loc, dev_type, type_name, has_num, dev_num, has_async,
/// async)`: the device type first, then the device number (of that type),
/// then the default queue.
///
/// # Safety
/// As [`__ptxrt_init`].
#[no_mangle]
pub unsafe extern "C" fn __ptxrt_set(
    loc: *const Loc,
    dev_type: c_int,
    type_name: *const c_char,
    has_num: c_int,
    dev_num: c_int,
    has_async: c_int,
    async_arg: c_int,
) {
    guard(|| {
        // SAFETY: as the caller promises.
        let (at, name, num, text) = unsafe { args(loc, dev_type, type_name, has_num, dev_num) };
        match dev_type {
            DEVICE_OTHER | DEVICE_ANY => fatal_at(
                &at,
                "not a device type accc can run constructs on (host, multicore, nvidia, not_host, default)",
                Some(&clauses(dev_type, &name, None)),
                None,
            ),
            t => api_device::set_device_type(&at, t, || api_device::origin(&at, &text)),
        }
        if let Some(n) = num {
            api_device::set_device_num(&at, &text, n, ACC_DEVICE_CURRENT);
        }
        if has_async != 0 {
            api_async::set_default_async(&at, &format!("default_async({async_arg})"), async_arg);
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clause_text() {
        assert_eq!(clauses(ACC_DEVICE_CURRENT, "?", Some(3)), "device_num(3)");
        assert_eq!(
            clauses(api_device::ACC_DEVICE_NVIDIA, "nvidia", Some(0)),
            "device_type(nvidia) device_num(0)"
        );
        assert_eq!(clauses(DEVICE_ANY, "*", None), "device_type(*)");
    }
}
