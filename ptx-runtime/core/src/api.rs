//! The OpenACC runtime API of `include/openacc.h` (`acc_*`).
//!
//! Owns: the `acc_device_t` values and the meaning of each `acc_*` call on
//! top of the runtime state. The host code of a program only ever runs on the
//! host, so `acc_on_device` is true for `acc_device_host` only (device code
//! gets its own `acc_on_device` from the compiler).
//! May call: [`crate::device`], [`crate::error`].

use crate::device::{lock, Selected};
use crate::error::{fatal, guard};
use std::ffi::c_int;

pub const ACC_DEVICE_NONE: c_int = 0;
pub const ACC_DEVICE_DEFAULT: c_int = 1;
pub const ACC_DEVICE_HOST: c_int = 2;
pub const ACC_DEVICE_NOT_HOST: c_int = 4;
pub const ACC_DEVICE_NVIDIA: c_int = 5;
pub const ACC_DEVICE_CURRENT: c_int = -1;

fn type_name(t: c_int) -> String {
    match t {
        ACC_DEVICE_NONE => "acc_device_none".into(),
        ACC_DEVICE_DEFAULT => "acc_device_default".into(),
        ACC_DEVICE_HOST => "acc_device_host".into(),
        ACC_DEVICE_NOT_HOST => "acc_device_not_host".into(),
        ACC_DEVICE_NVIDIA => "acc_device_nvidia".into(),
        ACC_DEVICE_CURRENT => "acc_device_current".into(),
        _ => format!("device type {t}"),
    }
}

/// `int acc_get_num_devices(acc_device_t)`: 0 for NVIDIA when no device is usable.
#[no_mangle]
pub extern "C" fn acc_get_num_devices(devicetype: c_int) -> c_int {
    guard(|| match devicetype {
        ACC_DEVICE_HOST => 1,
        ACC_DEVICE_NVIDIA | ACC_DEVICE_NOT_HOST | ACC_DEVICE_DEFAULT | ACC_DEVICE_CURRENT => {
            let mut rt = lock();
            let _ = rt.ensure_device();
            rt.device_count.unwrap_or(0).max(0)
        }
        _ => 0,
    })
}

/// `void acc_init(acc_device_t)`: for NVIDIA, a fatal error when no device is usable.
#[no_mangle]
pub extern "C" fn acc_init(devicetype: c_int) {
    guard(|| {
        let mut rt = lock();
        match devicetype {
            ACC_DEVICE_HOST => *rt.selected_mut() = Selected::Host,
            ACC_DEVICE_NVIDIA | ACC_DEVICE_NOT_HOST => {
                if let Err(why) = rt.ensure_device() {
                    fatal(&format!(
                        "acc_init({}): no NVIDIA device is usable: {why}",
                        type_name(devicetype)
                    ));
                }
            }
            ACC_DEVICE_DEFAULT | ACC_DEVICE_CURRENT => {
                let _ = rt.use_device(true);
            }
            _ => fatal(&format!(
                "acc_init: {} is not a device type accc supports",
                type_name(devicetype)
            )),
        }
    })
}

/// `void acc_shutdown(acc_device_t)`: release the device (free its data, unload code).
#[no_mangle]
pub extern "C" fn acc_shutdown(devicetype: c_int) {
    guard(|| {
        if devicetype != ACC_DEVICE_HOST {
            lock().shutdown();
        }
    })
}

/// `int acc_on_device(acc_device_t)`: host code runs on the host.
#[no_mangle]
pub extern "C" fn acc_on_device(devicetype: c_int) -> c_int {
    c_int::from(devicetype == ACC_DEVICE_HOST)
}

/// `acc_device_t acc_get_device_type(void)`: the type constructs run on now.
#[no_mangle]
pub extern "C" fn acc_get_device_type() -> c_int {
    guard(|| {
        if lock().use_device(true) {
            ACC_DEVICE_NVIDIA
        } else {
            ACC_DEVICE_HOST
        }
    })
}

/// `void acc_set_device_type(acc_device_t)`.
#[no_mangle]
pub extern "C" fn acc_set_device_type(devicetype: c_int) {
    guard(|| {
        let mut rt = lock();
        let sel = match devicetype {
            ACC_DEVICE_HOST => Selected::Host,
            ACC_DEVICE_NVIDIA | ACC_DEVICE_NOT_HOST => Selected::Nvidia {
                origin: format!("acc_set_device_type({})", type_name(devicetype)),
            },
            ACC_DEVICE_DEFAULT => Selected::Default,
            _ => fatal(&format!(
                "acc_set_device_type: {} is not a device type accc supports",
                type_name(devicetype)
            )),
        };
        *rt.selected_mut() = sel;
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn on_device_on_the_host() {
        assert_eq!(acc_on_device(ACC_DEVICE_HOST), 1);
        assert_eq!(acc_on_device(ACC_DEVICE_NOT_HOST), 0);
        assert_eq!(acc_on_device(ACC_DEVICE_NVIDIA), 0);
        assert_eq!(acc_on_device(ACC_DEVICE_NONE), 0);
    }
}
