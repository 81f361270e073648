//! The internal control variables of OpenACC 3.3 (2.3): the current device
//! type, the current device number and the default async queue.
//!
//! Owns: reading `ACC_DEVICE_TYPE` and `ACC_DEVICE_NUM` (once, before the
//! first construct or routine needs them; a value accc does not understand is
//! a fatal error naming it) and the per-thread copies of the ICVs. The spec
//! gives every host thread its own copy, initialised from the environment;
//! `acc_set_device_type`, `acc_set_device_num` and `acc_set_default_async`
//! change only the calling thread's (so each OpenMP thread can drive its own
//! GPU). Environment names are case-insensitive.
//! May call: [`crate::error`].

use crate::error::fatal;
use std::cell::Cell;
use std::sync::{Arc, OnceLock};

/// The device type the program asked for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Selected {
    /// Device when usable, else host.
    Default,
    /// Host only.
    Host,
    /// A multicore CPU: the multicore device when the program has host
    /// code of its kernels (`accc -acc=multicore`), else the host (one
    /// thread); reported as `acc_device_multicore`.
    Multicore,
    /// NVIDIA device required; `origin` says who asked ("ACC_DEVICE_TYPE=nvidia").
    /// Shared, not owned: the selection is read (cloned) at every construct.
    Nvidia { origin: Arc<str> },
}

impl Selected {
    /// Whether constructs run on the host (host or multicore).
    pub fn on_host(&self) -> bool {
        matches!(self, Selected::Host | Selected::Multicore)
    }
}

/// Parse an `ACC_DEVICE_TYPE` value: a device type as nvc spells it, in
/// any case (`NVIDIA`, `host`, `Multicore`), or as the `acc_device_t`
/// constant of `openacc.h` (`acc_device_nvidia`).
pub fn parse_device_type(v: &str) -> Result<Selected, String> {
    let lower = v.trim().to_ascii_lowercase();
    let name = lower
        .strip_prefix("acc_device_")
        .filter(|n| !n.is_empty())
        .unwrap_or(&lower);
    match name {
        "" | "default" => Ok(Selected::Default),
        "host" => Ok(Selected::Host),
        "multicore" => Ok(Selected::Multicore),
        "nvidia" | "not_host" => Ok(Selected::Nvidia {
            origin: format!("ACC_DEVICE_TYPE={}", v.trim()).into(),
        }),
        _ => Err(format!(
            "ACC_DEVICE_TYPE={v} is not a device type accc knows (host, multicore, nvidia, not_host, default; any case, also as acc_device_nvidia...)"
        )),
    }
}

/// Parse an `ACC_DEVICE_NUM` value (unset or empty → None).
pub fn parse_device_num(v: Option<&str>) -> Result<Option<i32>, String> {
    match v.map(str::trim) {
        None | Some("") => Ok(None),
        Some(s) => s
            .parse::<i32>()
            .ok()
            .filter(|n| *n >= 0)
            .map(Some)
            .ok_or_else(|| format!("ACC_DEVICE_NUM={s} is not a device number")),
    }
}

/// The initial values of the ICVs, from the environment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Env {
    pub device_type: Selected,
    pub device_num: Option<i32>,
}

/// The environment's ICV values (read once; a bad value is fatal).
pub fn env() -> &'static Env {
    static ENV: OnceLock<Env> = OnceLock::new();
    ENV.get_or_init(|| {
        let device_type = match std::env::var("ACC_DEVICE_TYPE") {
            Ok(v) => parse_device_type(&v).unwrap_or_else(|e| fatal(&e)),
            Err(_) => Selected::Default,
        };
        let num = std::env::var("ACC_DEVICE_NUM").ok();
        let device_num = parse_device_num(num.as_deref()).unwrap_or_else(|e| fatal(&e));
        Env {
            device_type,
            device_num,
        }
    })
}

/// The initial default async queue (`acc_get_default_async` before any
/// `acc_set_default_async`).
pub const INITIAL_DEFAULT_ASYNC: i32 = 0;

thread_local! {
    /// This thread's device type, when set by a routine (else the environment's).
    static DEVICE_TYPE: std::cell::RefCell<Option<Selected>> = const { std::cell::RefCell::new(None) };
    /// This thread's device number, when set by a routine.
    static DEVICE_NUM: Cell<Option<i32>> = const { Cell::new(None) };
    /// This thread's default async queue.
    static DEFAULT_ASYNC: Cell<i32> = const { Cell::new(INITIAL_DEFAULT_ASYNC) };
}

/// The calling thread's device type.
pub fn device_type() -> Selected {
    with_device_type(Selected::clone)
}

/// `f` of the calling thread's device type, without copying it (asked at
/// every construct). `f` must not set the device type.
pub fn with_device_type<T>(f: impl FnOnce(&Selected) -> T) -> T {
    DEVICE_TYPE.with(|t| match &*t.borrow() {
        Some(s) => f(s),
        None => f(&env().device_type),
    })
}

/// Set the calling thread's device type.
pub fn set_device_type(s: Selected) {
    DEVICE_TYPE.with(|t| *t.borrow_mut() = Some(s));
}

/// The calling thread's device number (driver ordinal).
pub fn device_num() -> i32 {
    DEVICE_NUM.with(Cell::get).or(env().device_num).unwrap_or(0)
}

/// Set the calling thread's device number; `None` reverts to the
/// environment's (or 0).
pub fn set_device_num(n: Option<i32>) {
    DEVICE_NUM.with(|c| c.set(n));
}

/// The calling thread's default async queue.
pub fn default_async() -> i32 {
    DEFAULT_ASYNC.with(Cell::get)
}

/// Set the calling thread's default async queue.
pub fn set_default_async(q: i32) {
    DEFAULT_ASYNC.with(|c| c.set(q));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn device_types() {
        assert_eq!(parse_device_type("host"), Ok(Selected::Host));
        assert_eq!(parse_device_type("HOST"), Ok(Selected::Host));
        assert_eq!(parse_device_type("multicore"), Ok(Selected::Multicore));
        assert_eq!(parse_device_type("MULTICORE"), Ok(Selected::Multicore));
        assert!(Selected::Multicore.on_host() && Selected::Host.on_host());
        assert!(!Selected::Default.on_host());
        assert_eq!(parse_device_type(""), Ok(Selected::Default));
        assert_eq!(parse_device_type("Default"), Ok(Selected::Default));
        assert_eq!(
            parse_device_type("NVIDIA"),
            Ok(Selected::Nvidia {
                origin: "ACC_DEVICE_TYPE=NVIDIA".into()
            })
        );
        assert_eq!(
            parse_device_type("not_host"),
            Ok(Selected::Nvidia {
                origin: "ACC_DEVICE_TYPE=not_host".into()
            })
        );
        assert!(parse_device_type("radeon")
            .unwrap_err()
            .contains("ACC_DEVICE_TYPE=radeon"));
    }

    /// nvc's spellings: any case, and the `acc_device_t` constants.
    #[test]
    fn device_types_as_nvc_spells_them() {
        for (v, want) in [
            ("Host", Selected::Host),
            ("acc_device_host", Selected::Host),
            ("ACC_DEVICE_HOST", Selected::Host),
            ("Multicore", Selected::Multicore),
            ("acc_device_multicore", Selected::Multicore),
            ("acc_device_default", Selected::Default),
        ] {
            assert_eq!(parse_device_type(v), Ok(want), "{v}");
        }
        for v in [
            "nvidia",
            "Nvidia",
            " NVIDIA ",
            "acc_device_nvidia",
            "acc_device_not_host",
        ] {
            assert_eq!(
                parse_device_type(v),
                Ok(Selected::Nvidia {
                    origin: format!("ACC_DEVICE_TYPE={}", v.trim()).into()
                }),
                "{v}"
            );
        }
        for bad in ["acc_device_radeon", "acc_device_", "nvidia0"] {
            assert!(parse_device_type(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn device_numbers() {
        assert_eq!(parse_device_num(None), Ok(None));
        assert_eq!(parse_device_num(Some("")), Ok(None));
        assert_eq!(parse_device_num(Some(" 2 ")), Ok(Some(2)));
        assert!(parse_device_num(Some("-1")).is_err());
        assert!(parse_device_num(Some("x")).is_err());
    }

    #[test]
    fn icvs_are_per_thread() {
        set_device_num(Some(3));
        set_default_async(7);
        set_device_type(Selected::Host);
        assert_eq!((device_num(), default_async()), (3, 7));
        std::thread::spawn(|| {
            assert_eq!(default_async(), INITIAL_DEFAULT_ASYNC);
            assert_eq!(device_type(), env().device_type);
        })
        .join()
        .unwrap();
        set_device_num(None);
        assert_eq!(device_num(), env().device_num.unwrap_or(0));
    }
}
