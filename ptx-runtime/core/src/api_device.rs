//! The device management routines of `include/openacc.h` (OpenACC 3.3
//! 3.2.1-3.2.8, 3.2.13): device types and numbers, properties, init and
//! shutdown, `acc_on_device`.
//!
//! Owns: the `acc_device_t` and `acc_device_property_t` values and what each
//! of these routines means on top of the runtime state. Device types and
//! numbers are the calling thread's ICVs ([`crate::icv`]). The host code of a
//! program only ever runs on the host, so `acc_on_device` is true for
//! `acc_device_host` (and `acc_device_multicore` while that is the device
//! type; device code gets its own from the compiler). `acc_device_multicore`
//! is a host kind for every routine (one device, 0, sharing memory),
//! remembered as such by `acc_get_device_type`; its constructs run on the
//! multicore device when the program has host code of its kernels.
//! Init, shutdown and the device number are also the work of the `init`,
//! `shutdown` and `set` directives ([`crate::device_directives`]): those
//! helpers take the location to report errors at (a routine's, or a
//! directive's). Several NVIDIA devices are told apart by number: each has
//! its own state ([`crate::device::DeviceState`]: present table, queues),
//! and the thread's device number chooses which one constructs and routines
//! use.
//! May call: [`crate::runtime`], [`crate::device`], [`crate::icv`], [`crate::error`].

use crate::abi::SrcLoc;
use crate::device::DeviceState;
use crate::error::{fatal_at, guard, report, Failure};
use crate::icv::{self, Selected};
use crate::runtime::lock;
use std::collections::HashMap;
use std::ffi::{c_char, c_int, CString};
use std::sync::Mutex;

pub const ACC_DEVICE_NONE: c_int = 0;
pub const ACC_DEVICE_DEFAULT: c_int = 1;
pub const ACC_DEVICE_HOST: c_int = 2;
pub const ACC_DEVICE_NOT_HOST: c_int = 4;
pub const ACC_DEVICE_NVIDIA: c_int = 5;
/// A multicore CPU: the host's cores ([`crate::multicore`]).
pub const ACC_DEVICE_MULTICORE: c_int = 9;
pub const ACC_DEVICE_CURRENT: c_int = -1;

pub const ACC_PROPERTY_MEMORY: c_int = 1;
pub const ACC_PROPERTY_FREE_MEMORY: c_int = 2;
pub const ACC_PROPERTY_SHARED_MEMORY_SUPPORT: c_int = 3;
pub const ACC_PROPERTY_NAME: c_int = 0x10001;
pub const ACC_PROPERTY_VENDOR: c_int = 0x10002;
pub const ACC_PROPERTY_DRIVER: c_int = 0x10003;

pub fn type_name(t: c_int) -> String {
    match t {
        ACC_DEVICE_NONE => "acc_device_none".into(),
        ACC_DEVICE_DEFAULT => "acc_device_default".into(),
        ACC_DEVICE_HOST => "acc_device_host".into(),
        ACC_DEVICE_NOT_HOST => "acc_device_not_host".into(),
        ACC_DEVICE_NVIDIA => "acc_device_nvidia".into(),
        ACC_DEVICE_MULTICORE => "acc_device_multicore".into(),
        ACC_DEVICE_CURRENT => "acc_device_current".into(),
        _ => format!("device type {t}"),
    }
}

/// The kinds of device a type argument names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// The host type (also `acc_device_multicore`: one device sharing memory).
    Host,
    Nvidia,
    /// NVIDIA when usable, else the host.
    Default,
}

/// The kind `t` names for the calling thread (`acc_device_current`: the
/// thread's device type); a type accc does not support is a fatal error
/// at `at` (a routine or a directive).
pub(crate) fn kind_of(at: &SrcLoc, t: c_int) -> Kind {
    match t {
        ACC_DEVICE_HOST | ACC_DEVICE_MULTICORE => Kind::Host,
        ACC_DEVICE_NVIDIA | ACC_DEVICE_NOT_HOST => Kind::Nvidia,
        ACC_DEVICE_DEFAULT => Kind::Default,
        ACC_DEVICE_CURRENT => match icv::device_type() {
            Selected::Host | Selected::Multicore => Kind::Host,
            Selected::Nvidia { .. } => Kind::Nvidia,
            Selected::Default => Kind::Default,
        },
        _ => fatal_at(
            at,
            &format!("{} is not a device type accc supports", type_name(t)),
            None,
            None,
        ),
    }
}

fn unusable(at: &SrcLoc, args: &str, why: String) -> ! {
    report(at, args, &Failure::with("no NVIDIA device is usable", why))
}

/// Who made NVIDIA the device type, for the error when none is usable:
/// `acc_init(dev_type=acc_device_nvidia)`, or `set device_type(nvidia) at
/// f.c:12` for a directive.
pub(crate) fn origin(at: &SrcLoc, args: &str) -> String {
    if at.file.is_empty() {
        format!("{}({args})", at.construct)
    } else {
        format!("{} {args} at {}:{}", at.construct, at.file, at.line)
    }
}

/// Device number `dev_num` must name a device of `kind` when the driver
/// found devices (the host is device 0; without a driver the default type
/// runs on the host and any number is accepted, as ACC_DEVICE_NUM is);
/// else a fatal error at `at` naming `args`.
fn check_num(
    rt: &mut crate::runtime::Runtime,
    at: &SrcLoc,
    args: &str,
    kind: Kind,
    dev_num: c_int,
) {
    if kind == Kind::Host || dev_num < 0 {
        return;
    }
    match rt.device_count() {
        Ok(n) if dev_num < n => {}
        Ok(n) => report(
            at,
            args,
            &Failure::new(format!("no such device: the driver found {n}")),
        ),
        Err(why) if kind == Kind::Nvidia => unusable(at, args, why),
        Err(_) => {}
    }
}

/// `int acc_get_num_devices(acc_device_t)`.
#[no_mangle]
pub extern "C" fn acc_get_num_devices(devicetype: c_int) -> c_int {
    guard(|| {
        if devicetype == ACC_DEVICE_NONE {
            return 0;
        }
        let nvidia = || lock().device_count().unwrap_or(0).max(0);
        match kind_of(&SrcLoc::routine("acc_get_num_devices"), devicetype) {
            Kind::Host => 1,
            Kind::Nvidia => nvidia(),
            // The default type is NVIDIA when a device is usable, else the host.
            Kind::Default => match nvidia() {
                0 => 1,
                n => n,
            },
        }
    })
}

/// Make `devicetype` the calling thread's device type (`origin` names who
/// asked, for the error when an NVIDIA device is required but not usable);
/// `acc_device_current` keeps it.
pub(crate) fn set_device_type(at: &SrcLoc, devicetype: c_int, origin: impl FnOnce() -> String) {
    let sel = match devicetype {
        ACC_DEVICE_CURRENT => return,
        ACC_DEVICE_NVIDIA | ACC_DEVICE_NOT_HOST => Selected::Nvidia {
            origin: origin().into(),
        },
        ACC_DEVICE_DEFAULT => Selected::Default,
        t => match host_selection(t) {
            Some(sel) => sel,
            None => {
                kind_of(at, devicetype);
                return;
            }
        },
    };
    icv::set_device_type(sel);
}

/// The device type that host type `t` selects (`None`: not a host type).
fn host_selection(t: c_int) -> Option<Selected> {
    match t {
        ACC_DEVICE_HOST => Some(Selected::Host),
        ACC_DEVICE_MULTICORE => Some(Selected::Multicore),
        _ => None,
    }
}

/// `void acc_set_device_type(acc_device_t)`.
#[no_mangle]
pub extern "C" fn acc_set_device_type(devicetype: c_int) {
    guard(|| {
        set_device_type(&SrcLoc::routine("acc_set_device_type"), devicetype, || {
            format!("acc_set_device_type({})", type_name(devicetype))
        })
    })
}

/// `acc_device_t acc_get_device_type(void)`: the type constructs run on now.
#[no_mangle]
pub extern "C" fn acc_get_device_type() -> c_int {
    guard(|| match icv::device_type() {
        Selected::Host => ACC_DEVICE_HOST,
        Selected::Multicore => ACC_DEVICE_MULTICORE,
        Selected::Nvidia { .. } => ACC_DEVICE_NVIDIA,
        Selected::Default if lock().use_device(true) => ACC_DEVICE_NVIDIA,
        Selected::Default => ACC_DEVICE_HOST,
    })
}

/// Use device `dev_num` of `devicetype` from now on in the calling thread
/// (an explicit type also becomes the thread's device type, as OpenACC
/// says `acc_set_device_num` implies `acc_set_device_type`); a negative
/// number reverts to the default (`ACC_DEVICE_NUM`, else 0). The host has
/// device 0 only, and other numbers leave the host's alone. A number the
/// driver does not have is a fatal error at `at` naming `args`. Type 0
/// (`acc_device_none`: "every type" in OpenACC 2.x) is the current type.
pub(crate) fn set_device_num(at: &SrcLoc, args: &str, dev_num: c_int, devicetype: c_int) {
    let devicetype = match devicetype {
        ACC_DEVICE_NONE => ACC_DEVICE_CURRENT,
        t => t,
    };
    let kind = kind_of(at, devicetype);
    check_num(&mut lock(), at, args, kind, dev_num);
    set_device_type(at, devicetype, || origin(at, args));
    if dev_num < 0 {
        icv::set_device_num(None);
    } else if kind != Kind::Host {
        icv::set_device_num(Some(dev_num));
    }
}

/// `void acc_set_device_num(int dev_num, acc_device_t)`.
#[no_mangle]
pub extern "C" fn acc_set_device_num(dev_num: c_int, devicetype: c_int) {
    guard(|| {
        let args = format!("dev_num={dev_num}, dev_type={}", type_name(devicetype));
        set_device_num(
            &SrcLoc::routine("acc_set_device_num"),
            &args,
            dev_num,
            devicetype,
        )
    })
}

/// `int acc_get_device_num(acc_device_t)`.
#[no_mangle]
pub extern "C" fn acc_get_device_num(devicetype: c_int) -> c_int {
    guard(
        || match kind_of(&SrcLoc::routine("acc_get_device_num"), devicetype) {
            Kind::Host => 0,
            _ => icv::device_num(),
        },
    )
}

/// Device `dev_num` of `kind` for a property query: the host device (only
/// device 0), or the NVIDIA device, opened (`None`: not usable).
fn property_device(
    rt: &mut crate::runtime::Runtime,
    kind: Kind,
    dev_num: c_int,
) -> Option<&mut DeviceState> {
    let on_nvidia = kind == Kind::Nvidia || (kind == Kind::Default && rt.device_count().is_ok());
    if on_nvidia {
        rt.open(dev_num).ok()
    } else {
        (dev_num == 0).then(|| rt.host())
    }
}

/// A numeric property of device `dev_num` of `kind` (0 when unknown).
fn numeric_property(kind: Kind, dev_num: c_int, property: c_int) -> usize {
    let mut rt = lock();
    let Some(dev) = property_device(&mut rt, kind, dev_num) else {
        return 0;
    };
    match property {
        ACC_PROPERTY_MEMORY => usize::try_from(dev.info.total_mem).unwrap_or(usize::MAX),
        ACC_PROPERTY_FREE_MEMORY => dev
            .mem_info()
            .map_or(0, |(free, _)| usize::try_from(free).unwrap_or(usize::MAX)),
        ACC_PROPERTY_SHARED_MEMORY_SUPPORT => usize::from(dev.shares_memory()),
        _ => 0,
    }
}

/// A string property of device `dev_num` of `kind`, or None.
fn string_property(kind: Kind, dev_num: c_int, property: c_int) -> Option<String> {
    let mut rt = lock();
    let dev = property_device(&mut rt, kind, dev_num)?;
    match property {
        ACC_PROPERTY_NAME => Some(dev.info.name_str()),
        ACC_PROPERTY_VENDOR => Some(dev.vendor().to_string()),
        ACC_PROPERTY_DRIVER => Some(dev.driver()),
        _ => None,
    }
}

/// `size_t acc_get_property(int dev_num, acc_device_t, acc_device_property_t)`:
/// 0 for a string property, an unknown one, or a device that is not usable.
#[no_mangle]
pub extern "C" fn acc_get_property(dev_num: c_int, devicetype: c_int, property: c_int) -> usize {
    guard(|| {
        let kind = kind_of(&SrcLoc::routine("acc_get_property"), devicetype);
        numeric_property(kind, dev_num, property)
    })
}

/// `const char *acc_get_property_string(int dev_num, acc_device_t, acc_device_property_t)`:
/// null for a numeric property, an unknown one, or a device that is not
/// usable. The string lives as long as the program.
#[no_mangle]
pub extern "C" fn acc_get_property_string(
    dev_num: c_int,
    devicetype: c_int,
    property: c_int,
) -> *const c_char {
    static STRINGS: Mutex<Option<HashMap<String, &'static CString>>> = Mutex::new(None);
    guard(|| {
        let kind = kind_of(&SrcLoc::routine("acc_get_property_string"), devicetype);
        let Some(s) = string_property(kind, dev_num, property) else {
            return std::ptr::null();
        };
        let mut strings = STRINGS.lock().unwrap_or_else(|e| e.into_inner());
        let map = strings.get_or_insert_with(HashMap::new);
        let c = *map.entry(s).or_insert_with_key(|s| {
            Box::leak(Box::new(
                CString::new(s.replace('\0', "")).unwrap_or_default(),
            ))
        });
        c.as_ptr()
    })
}

/// Initialise device `dev_num` (`None`: the thread's device number) of
/// `devicetype` (acc_init, acc_init_device, the init directive): open it, so
/// later constructs do not pay for it. An explicit host or NVIDIA type also
/// becomes the thread's device type (`acc_device_default` and
/// `acc_device_current` leave it). NVIDIA: a fatal error when no device is
/// usable; default: nothing then (constructs run on the host).
pub(crate) fn init(at: &SrcLoc, args: &str, devicetype: c_int, dev_num: Option<c_int>) {
    let kind = kind_of(at, devicetype);
    if kind == Kind::Host {
        if let Some(sel) = host_selection(devicetype) {
            icv::set_device_type(sel);
        }
        return;
    }
    let mut rt = lock();
    if let Some(n) = dev_num {
        check_num(&mut rt, at, args, kind, n);
    }
    let n = dev_num.unwrap_or_else(icv::device_num);
    match rt.open(n) {
        Ok(_) if kind == Kind::Nvidia && devicetype != ACC_DEVICE_CURRENT => {
            icv::set_device_type(Selected::Nvidia {
                origin: origin(at, args).into(),
            });
        }
        Ok(_) => {}
        Err(why) if kind == Kind::Nvidia => unusable(at, args, why),
        Err(_) => {}
    }
}

fn type_args(dev_num: Option<c_int>, devicetype: c_int) -> String {
    match dev_num {
        Some(n) => format!("dev_num={n}, dev_type={}", type_name(devicetype)),
        None => format!("dev_type={}", type_name(devicetype)),
    }
}

/// `void acc_init(acc_device_t)`: for NVIDIA, a fatal error when no device is usable.
#[no_mangle]
pub extern "C" fn acc_init(devicetype: c_int) {
    guard(|| {
        init(
            &SrcLoc::routine("acc_init"),
            &type_args(None, devicetype),
            devicetype,
            None,
        )
    })
}

/// `void acc_init_device(int dev_num, acc_device_t)`.
#[no_mangle]
pub extern "C" fn acc_init_device(dev_num: c_int, devicetype: c_int) {
    guard(|| {
        init(
            &SrcLoc::routine("acc_init_device"),
            &type_args(Some(dev_num), devicetype),
            devicetype,
            Some(dev_num),
        )
    })
}

/// Shut down device `dev_num` (`None`: every device) of `devicetype`
/// (acc_shutdown, acc_shutdown_device, the shutdown directive): wait for
/// it, free its data, unload its code; a later use opens it again. The
/// host has nothing to shut down. A number the driver does not have is a
/// fatal error at `at` naming `args`.
pub(crate) fn shutdown(at: &SrcLoc, args: &str, devicetype: c_int, dev_num: Option<c_int>) {
    let kind = kind_of(at, devicetype);
    let mut rt = lock();
    if kind == Kind::Host {
        // The host device lets go of its present table and cells, as any
        // device does (its memory is the program's: nothing is freed).
        rt.host().close();
        return;
    }
    match dev_num {
        Some(n) => {
            if rt.device_count().is_ok() {
                check_num(&mut rt, at, args, kind, n);
            }
            rt.shutdown_device(n);
        }
        None => rt.shutdown(),
    }
}

/// `void acc_shutdown(acc_device_t)`: release every device of the type.
#[no_mangle]
pub extern "C" fn acc_shutdown(devicetype: c_int) {
    guard(|| {
        shutdown(
            &SrcLoc::routine("acc_shutdown"),
            &type_args(None, devicetype),
            devicetype,
            None,
        )
    })
}

/// `void acc_shutdown_device(int dev_num, acc_device_t)`.
#[no_mangle]
pub extern "C" fn acc_shutdown_device(dev_num: c_int, devicetype: c_int) {
    guard(|| {
        shutdown(
            &SrcLoc::routine("acc_shutdown_device"),
            &type_args(Some(dev_num), devicetype),
            devicetype,
            Some(dev_num),
        )
    })
}

/// `int acc_on_device(acc_device_t)`: host code runs on the host, which is
/// also the multicore device when that is the thread's device type.
#[no_mangle]
pub extern "C" fn acc_on_device(devicetype: c_int) -> c_int {
    c_int::from(
        devicetype == ACC_DEVICE_HOST
            || (devicetype == ACC_DEVICE_MULTICORE && icv::device_type() == Selected::Multicore),
    )
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

    #[test]
    fn multicore_is_the_host() {
        let at = SrcLoc::routine("t");
        assert_eq!(kind_of(&at, ACC_DEVICE_MULTICORE), Kind::Host);
        assert_eq!(acc_get_num_devices(ACC_DEVICE_MULTICORE), 1);
        std::thread::spawn(|| {
            acc_set_device_type(ACC_DEVICE_MULTICORE);
            assert_eq!(acc_get_device_type(), ACC_DEVICE_MULTICORE);
            assert_eq!(
                kind_of(&SrcLoc::routine("t"), ACC_DEVICE_CURRENT),
                Kind::Host
            );
            assert_eq!(acc_on_device(ACC_DEVICE_MULTICORE), 1);
            assert_eq!(acc_on_device(ACC_DEVICE_HOST), 1);
            assert_eq!(acc_get_device_num(ACC_DEVICE_MULTICORE), 0);
            assert!(!crate::runtime::lock().use_device(true));
            acc_init(ACC_DEVICE_HOST);
            assert_eq!(acc_get_device_type(), ACC_DEVICE_HOST);
            assert_eq!(acc_on_device(ACC_DEVICE_MULTICORE), 0);
            acc_init(ACC_DEVICE_MULTICORE);
            assert_eq!(acc_get_device_type(), ACC_DEVICE_MULTICORE);
        })
        .join()
        .unwrap();
    }

    #[test]
    fn host_properties() {
        assert!(numeric_property(Kind::Host, 0, ACC_PROPERTY_MEMORY) > 0);
        assert_eq!(
            numeric_property(Kind::Host, 0, ACC_PROPERTY_SHARED_MEMORY_SUPPORT),
            1
        );
        assert_eq!(numeric_property(Kind::Host, 1, ACC_PROPERTY_MEMORY), 0);
        assert_eq!(numeric_property(Kind::Host, 0, ACC_PROPERTY_NAME), 0);
        assert_eq!(
            string_property(Kind::Host, 0, ACC_PROPERTY_VENDOR).as_deref(),
            Some("accc")
        );
        assert_eq!(string_property(Kind::Host, 0, ACC_PROPERTY_MEMORY), None);
    }
}
