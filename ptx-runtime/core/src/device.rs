//! The runtime's global state: which device type is selected, the one device
//! in use (its plugin, properties, present table and loaded modules), and the
//! registered images.
//!
//! Owns: [`RUNTIME`] (one `Mutex`; every entry point takes it once, never
//! nested, and never calls back into C while holding it except plugin calls),
//! `ACC_DEVICE_TYPE` / `ACC_DEVICE_NUM`, lazy initialisation, host fallback,
//! and `__ptxrt_use_device`.
//! Selection: `ACC_DEVICE_TYPE=host` → host; `nvidia`/`not_host` → the device
//! is required (a fatal error says why it is not usable); unset/`default` →
//! the device when usable, else the host fallback, silently (`PTXRT_DEBUG=1`
//! says why). Names are case-insensitive.
//! May call: [`crate::plugin`], [`crate::present`], [`crate::image`],
//! [`crate::error`], [`crate::notify`].

use crate::error::{fatal, guard};
use crate::image::{Images, ModuleCache};
use crate::notify;
use crate::plugin::{self, Plugin};
use crate::present::PresentTable;
use ptxrt_plugin_abi::DeviceInfo;
use std::ffi::c_int;
use std::sync::{Mutex, MutexGuard};

/// The device type the program asked for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Selected {
    /// Device when usable, else host.
    Default,
    /// Host only.
    Host,
    /// NVIDIA device required; `origin` says who asked ("ACC_DEVICE_TYPE=nvidia").
    Nvidia { origin: String },
}

/// Parse an `ACC_DEVICE_TYPE` value.
pub fn parse_device_type(v: &str) -> Result<Selected, String> {
    match v.trim().to_ascii_lowercase().as_str() {
        "" | "default" => Ok(Selected::Default),
        "host" => Ok(Selected::Host),
        "nvidia" | "not_host" => Ok(Selected::Nvidia {
            origin: format!("ACC_DEVICE_TYPE={}", v.trim()),
        }),
        _ => Err(format!(
            "ACC_DEVICE_TYPE={v} is not a device type accc knows (host, nvidia, not_host, default)"
        )),
    }
}

/// Parse an `ACC_DEVICE_NUM` value (unset → 0).
pub fn parse_device_num(v: Option<&str>) -> Result<i32, String> {
    match v.map(str::trim) {
        None | Some("") => Ok(0),
        Some(s) => s
            .parse::<i32>()
            .ok()
            .filter(|n| *n >= 0)
            .ok_or_else(|| format!("ACC_DEVICE_NUM={s} is not a device number")),
    }
}

/// The device in use.
pub struct DeviceState {
    pub plugin: &'static Plugin,
    /// Driver ordinal.
    pub ordinal: i32,
    pub info: DeviceInfo,
    pub present: PresentTable,
    pub modules: ModuleCache,
}

/// Whether the device has been opened.
pub enum Slot {
    NotTried,
    Open(Box<DeviceState>),
    /// Why no device is usable.
    Failed(String),
}

pub struct Runtime {
    env_read: bool,
    pub selected: Selected,
    pub slot: Slot,
    pub images: Images,
    /// The loaded plugin, or why none could be loaded (tried once).
    plugin: Option<Result<&'static Plugin, String>>,
    /// Number of devices the driver reported, once known.
    pub device_count: Option<i32>,
}

pub static RUNTIME: Mutex<Runtime> = Mutex::new(Runtime {
    env_read: false,
    selected: Selected::Default,
    slot: Slot::NotTried,
    images: Images::new(),
    plugin: None,
    device_count: None,
});

/// Take the runtime lock (a poisoned lock is still usable: no invariant
/// spans a panic, and panics end the program anyway).
pub fn lock() -> MutexGuard<'static, Runtime> {
    RUNTIME.lock().unwrap_or_else(|e| e.into_inner())
}

impl Runtime {
    fn read_env(&mut self) {
        if self.env_read {
            return;
        }
        self.env_read = true;
        if let Ok(v) = std::env::var("ACC_DEVICE_TYPE") {
            match parse_device_type(&v) {
                Ok(s) => self.selected = s,
                Err(e) => fatal(&e),
            }
        }
    }

    fn load_plugin(&mut self) -> Result<&'static Plugin, String> {
        if let Some(r) = &self.plugin {
            return r.clone();
        }
        let env = std::env::var("PTXRT_PLUGIN").ok();
        let cands = plugin::candidates(
            env.as_deref(),
            plugin::exe_dir().as_deref(),
            &self.images.plugin_dirs(),
        );
        let r = match plugin::load(&cands) {
            Ok(p) => {
                notify::debug(&format!("loaded device plugin {}", p.origin));
                Ok(&*Box::leak(Box::new(p)))
            }
            Err(why) => Err(format!(
                "cannot load the device plugin ({})",
                why.join("; ")
            )),
        };
        self.plugin = Some(r.clone());
        r
    }

    fn open_device(&mut self) -> Result<DeviceState, String> {
        let plugin = self.load_plugin()?;
        let drv = |e: String| format!("the CUDA driver reported: {e}");
        plugin.init().map_err(drv)?;
        let count = plugin.device_count().map_err(drv)?;
        self.device_count = Some(count);
        if count <= 0 {
            return Err("the CUDA driver found no device".to_string());
        }
        let ordinal = match parse_device_num(std::env::var("ACC_DEVICE_NUM").ok().as_deref()) {
            Ok(n) => n,
            Err(e) => fatal(&e),
        };
        if ordinal >= count {
            return Err(format!(
                "ACC_DEVICE_NUM={ordinal} but the driver found {count} device(s)"
            ));
        }
        let info = plugin.device_info(ordinal).map_err(drv)?;
        plugin.set_device(ordinal).map_err(drv)?;
        notify::debug(&format!(
            "using device {ordinal}: {} (sm_{}{}, {} SMs, {} MiB)",
            info.name_str(),
            info.cc_major,
            info.cc_minor,
            info.sm_count,
            info.total_mem >> 20
        ));
        Ok(DeviceState {
            plugin,
            ordinal,
            info,
            present: PresentTable::new(),
            modules: ModuleCache::new(),
        })
    }

    /// Open the device if not tried yet; the device or why there is none.
    pub fn ensure_device(&mut self) -> Result<&mut DeviceState, String> {
        self.read_env();
        if let Slot::NotTried = self.slot {
            self.slot = match self.open_device() {
                Ok(d) => Slot::Open(Box::new(d)),
                Err(why) => {
                    notify::debug(&format!("no device: {why}"));
                    Slot::Failed(why)
                }
            };
        }
        match &mut self.slot {
            Slot::Open(d) => Ok(d),
            Slot::Failed(why) => Err(why.clone()),
            Slot::NotTried => Err("device not initialised".to_string()),
        }
    }

    /// The device, when constructs run on it now (never initialises).
    pub fn active(&mut self) -> Option<&mut DeviceState> {
        self.active_with_images().map(|(d, _)| d)
    }

    /// [`Runtime::active`] with the registered images (to load modules).
    pub fn active_with_images(&mut self) -> Option<(&mut DeviceState, &Images)> {
        if self.selected == Selected::Host {
            return None;
        }
        match &mut self.slot {
            Slot::Open(d) => Some((d, &self.images)),
            _ => None,
        }
    }

    /// Whether a construct whose if clause is `cond` runs on the device.
    pub fn use_device(&mut self, cond: bool) -> bool {
        if !cond {
            return false;
        }
        self.read_env();
        match self.selected.clone() {
            Selected::Host => false,
            Selected::Default => self.ensure_device().is_ok(),
            Selected::Nvidia { origin } => match self.ensure_device() {
                Ok(_) => true,
                Err(why) => fatal(&format!("{origin} but no NVIDIA device is usable: {why}")),
            },
        }
    }

    /// Release the device (acc_shutdown): wait, free all device copies,
    /// unload modules. A later use opens it again.
    pub fn shutdown(&mut self) {
        if let Slot::Open(d) = &mut self.slot {
            let _ = d.plugin.synchronize(d.ordinal);
            for e in d.present.drain() {
                let _ = d.plugin.mem_free(d.ordinal, e.device);
            }
            crate::image::unload_all(d);
        }
        if let Slot::Open(_) = self.slot {
            self.slot = Slot::NotTried;
        }
    }

    pub fn selected_mut(&mut self) -> &mut Selected {
        self.read_env();
        &mut self.selected
    }
}

/// `int __ptxrt_use_device(int cond)`.
#[no_mangle]
pub extern "C" fn __ptxrt_use_device(cond: c_int) -> c_int {
    guard(|| c_int::from(lock().use_device(cond != 0)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn device_types() {
        assert_eq!(parse_device_type("host"), Ok(Selected::Host));
        assert_eq!(parse_device_type("HOST"), Ok(Selected::Host));
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

    #[test]
    fn device_numbers() {
        assert_eq!(parse_device_num(None), Ok(0));
        assert_eq!(parse_device_num(Some(" 2 ")), Ok(2));
        assert!(parse_device_num(Some("-1")).is_err());
        assert!(parse_device_num(Some("x")).is_err());
    }
}
