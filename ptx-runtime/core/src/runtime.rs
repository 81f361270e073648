//! The runtime's global state: the devices (the host device and the
//! NVIDIA devices of the loaded plugin, each a [`DeviceState`] with its
//! present table, memory, queues, timings and loaded modules), the
//! registered images and declared globals.
//!
//! Owns: [`RUNTIME`], lazy initialisation (the plugin is loaded and the
//! driver initialised once; each NVIDIA device is opened the first time a
//! thread whose device number names it needs it, and then gets the
//! create/copyin `declare` globals), which device constructs use, shutdown,
//! `__ptxrt_use_device`, the host waits that release the lock
//! ([`host_wait_unlocked`]), the exit report's settling of every device,
//! and the plugin directories recorded at link time
//! (`__ptxrt_register_plugin_dir`). Selection (per thread, [`crate::icv`]):
//! device type host → the host device; multicore → the multicore device
//! when the program carries host code of its kernels ([`crate::multicore`]),
//! else the host device; nvidia or not_host →
//! the NVIDIA device is required (a fatal error says why it is not
//! usable); default → the NVIDIA device when usable, else the host device,
//! silently (`PTXRT_DEBUG=1` says which plugin paths were tried and where
//! constructs run, and why). The host is a device like the others
//! ([`crate::host`]): callers get a [`DeviceState`] and ask it what it is
//! ([`DeviceState::shares_memory`], [`DeviceState::runs_kernels`],
//! [`DeviceState::async_queues`]), never "no device".
//!
//! Lock order (the one place it is written down): [`RUNTIME`] is the lock
//! of libptxrt's state. Every entry point takes it once, never nested, and
//! calls back into C while holding it only through the plugin. The parts of
//! a device ([`crate::present`], [`crate::alloc`], [`crate::devmem`],
//! [`crate::queue`], [`crate::asyncmem`], [`crate::timing`]) are given the
//! device state they work on and never take [`RUNTIME`] themselves. Below
//! it, as leaves (taken while it is held, never holding another): the
//! plugin's driver state (libptxrt-cuda), the queue lock of the host copy
//! pool ([`crate::hostcopy`]), the string table of
//! `acc_get_property_string`, the last `PTXRT_DEBUG` choice line
//! ([`crate::notify::debug_choice`]), and the profile of `PTXRT_TIME`
//! ([`crate::profile::PROFILE`], also taken without [`RUNTIME`]). A kernel
//! launch and a host wait ([`host_wait_unlocked`]) release [`RUNTIME`]
//! while the device works. The pending synchronous launches
//! ([`crate::deferred`]) are a leaf too, also taken without [`RUNTIME`]
//! ([`lock`] settles them before taking it). The exit report of `PTXRT_TIME` takes
//! [`RUNTIME`] only with `try_lock` (`settle_all`).
//! May call: [`crate::plugin`], [`crate::host`], [`crate::present`],
//! [`crate::image`], [`crate::declare`], [`crate::devmem`],
//! [`crate::queue`], [`crate::icv`], [`crate::error`], [`crate::notify`],
//! [`crate::deferred`],
//! [`crate::timing`] / [`crate::profile`] (device opened, exit report
//! armed, timings read at shutdown and exit).

use crate::abi::SrcLoc;
use crate::declare::{self, Declares};
use crate::device::{DeviceId, DeviceState};
use crate::error::{fatal, guard, Failure};
use crate::icv::{self, Selected};
use crate::image::Images;
use crate::notify;
use crate::plugin::{self, Plugin};
use crate::queue::{self, Queue};
use crate::timing;
use std::ffi::{c_char, c_int, CStr};
use std::path::PathBuf;
use std::sync::{Mutex, MutexGuard, TryLockError};
use std::time::Duration;

/// Whether a device has been opened.
pub enum Slot {
    NotTried,
    Open(Box<DeviceState>),
    /// Why the device is not usable.
    Failed(String),
}

pub struct Runtime {
    pub images: Images,
    /// Where accc saw the plugin when it linked the program
    /// (`__ptxrt_register_plugin_dir`), in order.
    linked_dirs: Vec<PathBuf>,
    pub declares: Declares,
    /// The loaded plugin, or why none could be loaded (tried once).
    plugin: Option<Result<&'static Plugin, String>>,
    /// The number of devices after the driver's initialisation, or why it
    /// failed (tried once).
    driver: Option<Result<i32, String>>,
    /// The NVIDIA devices, by ordinal.
    devices: Vec<Slot>,
    /// The host device, made on first use (never fails, never closed).
    host: Option<Box<DeviceState>>,
    /// The multicore device, made on first use (never fails, never closed).
    multicore: Option<Box<DeviceState>>,
    /// Openings so far.
    epoch: u64,
}

pub static RUNTIME: Mutex<Runtime> = Mutex::new(Runtime {
    images: Images::new(),
    linked_dirs: Vec::new(),
    declares: Declares::new(),
    plugin: None,
    driver: None,
    devices: Vec::new(),
    host: None,
    multicore: None,
    epoch: 0,
});

/// A runtime over `plugin` whose driver found `count` devices (tests: the
/// fake plugin in place of the one `PTXRT_PLUGIN` would load).
#[cfg(test)]
pub fn runtime_with(plugin: &'static Plugin, count: i32) -> Runtime {
    Runtime {
        images: Images::new(),
        linked_dirs: Vec::new(),
        declares: Declares::new(),
        plugin: Some(Ok(plugin)),
        driver: Some(Ok(count)),
        devices: Vec::new(),
        host: None,
        multicore: None,
        epoch: 0,
    }
}

/// Take the runtime lock (a poisoned lock is still usable: no invariant
/// spans a panic, and panics end the program anyway), once the host has
/// waited for the synchronous kernels it did not wait for at their
/// constructs' ends ([`crate::deferred`]): every entry point that may
/// observe the device or queue work off the null stream takes it so.
pub fn lock() -> MutexGuard<'static, Runtime> {
    crate::deferred::settle();
    lock_deferred()
}

/// Take the runtime lock leaving deferred synchronous kernels running: only
/// for the entry points of a synchronous compute construct, which queue
/// their work behind those kernels on the null stream (and settle where
/// they copy to the host or free memory).
pub fn lock_deferred() -> MutexGuard<'static, Runtime> {
    RUNTIME.lock().unwrap_or_else(|e| e.into_inner())
}

impl Runtime {
    fn load_plugin(&mut self) -> Result<&'static Plugin, String> {
        if let Some(r) = &self.plugin {
            return r.clone();
        }
        let env = std::env::var("PTXRT_PLUGIN").ok();
        let cands = plugin::candidates(
            env.as_deref(),
            plugin::exe_dir().as_deref(),
            &self.linked_dirs,
            &self.images.plugin_dirs(),
        );
        let r = match plugin::load(&cands, &mut |m| notify::debug(&m)) {
            Ok(p) => Ok(&*Box::leak(Box::new(p))),
            Err(why) => Err(format!(
                "cannot load the device plugin ({})",
                why.join("; ")
            )),
        };
        self.plugin = Some(r.clone());
        r
    }

    /// The number of NVIDIA devices (loading the plugin and initialising
    /// the driver once), or why there are none.
    pub fn device_count(&mut self) -> Result<i32, String> {
        if let Some(r) = &self.driver {
            return r.clone();
        }
        let r = self.load_plugin().and_then(|plugin| {
            let drv = |e: String| format!("the CUDA driver reported: {e}");
            // SAFETY: no pointers.
            unsafe { plugin.init() }.map_err(drv)?;
            // SAFETY: no pointers.
            let n = unsafe { plugin.device_count() }.map_err(drv)?;
            if n <= 0 {
                return Err("the CUDA driver found no device".to_string());
            }
            Ok(n)
        });
        if let Err(why) = &r {
            notify::debug(&format!("no device: {why}"));
        }
        self.driver = Some(r.clone());
        r
    }

    fn open_device(&mut self, ordinal: i32) -> Result<DeviceState, String> {
        let plugin = self.load_plugin()?;
        let drv = |e: String| format!("the CUDA driver reported: {e}");
        // SAFETY: plain value.
        let info = unsafe { plugin.device_info(ordinal) }.map_err(drv)?;
        // SAFETY: plain value.
        unsafe { plugin.set_device(ordinal) }.map_err(drv)?;
        notify::debug(&format!(
            "using device {ordinal}: {} (sm_{}{}, {} SMs, {} MiB)",
            info.name_str(),
            info.cc_major,
            info.cc_minor,
            info.sm_count,
            info.total_mem >> 20
        ));
        self.epoch += 1;
        Ok(DeviceState::new(plugin, ordinal, info, self.epoch))
    }

    /// Device `ordinal`, opened on first use (with the declared globals
    /// made present), or why it is not usable.
    pub fn open(&mut self, ordinal: i32) -> Result<&mut DeviceState, String> {
        let count = self.device_count()?;
        let i = usize::try_from(ordinal)
            .ok()
            .filter(|_| ordinal < count)
            .ok_or_else(|| {
                format!(
                    "device number {ordinal} asked for (ACC_DEVICE_NUM or acc_set_device_num), but the driver found {count} device(s)"
                )
            })?;
        if self.devices.len() <= i {
            self.devices.resize_with(i + 1, || Slot::NotTried);
        }
        if let Slot::NotTried = self.devices[i] {
            crate::prof::init();
            let ctx = crate::prof::Ctx::device(ordinal);
            let span = crate::prof::Span::start(crate::prof::ev::DEVICE_INIT_START, &ctx, true);
            let opened = self.open_device(ordinal);
            span.end(crate::prof::ev::DEVICE_INIT_END, &ctx, true);
            self.devices[i] = match opened {
                Ok(mut d) => {
                    crate::profile::device_opened(ordinal, &d.info.name_str());
                    declare::establish(&mut d, &self.declares);
                    Slot::Open(Box::new(d))
                }
                Err(why) => {
                    notify::debug(&format!("device {ordinal} not usable: {why}"));
                    Slot::Failed(why)
                }
            };
        }
        match &mut self.devices[i] {
            Slot::Open(d) => Ok(d),
            Slot::Failed(why) => Err(why.clone()),
            Slot::NotTried => Err("device not initialised".to_string()),
        }
    }

    /// Device `ordinal` if it is open (never opens it).
    pub fn device(&mut self, ordinal: i32) -> Option<&mut DeviceState> {
        match usize::try_from(ordinal)
            .ok()
            .and_then(|i| self.devices.get_mut(i))
        {
            Some(Slot::Open(d)) => Some(d),
            _ => None,
        }
    }

    /// The open devices.
    pub fn open_devices(&mut self) -> impl Iterator<Item = &mut DeviceState> {
        self.devices.iter_mut().filter_map(|s| match s {
            Slot::Open(d) => Some(&mut **d),
            _ => None,
        })
    }

    /// Whether a construct whose if clause is `cond` runs as kernels on a
    /// device, for the calling thread (opening its device on first use);
    /// else it runs through its host fallback, on the host device.
    pub fn use_device(&mut self, cond: bool) -> bool {
        let id = self.select(cond);
        self.get_or_host(id).runs_kernels()
    }

    /// The device constructs whose if clause is `cond` run on, for the
    /// calling thread (opening its NVIDIA device on first use).
    fn select(&mut self, cond: bool) -> DeviceId {
        let id = self.choose(cond);
        // The exit report is registered after the driver was loaded (so it
        // runs before the driver's own exit handlers), or for a run on the host.
        if crate::profile::enabled() && (self.driver.is_some() || icv::device_type().on_host()) {
            timing::arm(self.driver.is_some(), settle_all);
        }
        id
    }

    fn choose(&mut self, cond: bool) -> DeviceId {
        if !cond {
            return DeviceId::Host;
        }
        let num = icv::device_num();
        match icv::device_type() {
            Selected::Host => {
                notify::debug_choice(|| {
                    "constructs run on the host: the device type is host".into()
                });
                DeviceId::Host
            }
            Selected::Multicore if self.images.has_host_code() => {
                notify::debug_choice(|| {
                    format!(
                        "constructs run on the multicore device ({} threads)",
                        crate::multicore::threads()
                    )
                });
                DeviceId::Multicore
            }
            Selected::Multicore => {
                notify::debug_choice(|| {
                    "constructs run on the host: the device type is multicore, but the program has no host code of its kernels (accc -acc=multicore makes it)".into()
                });
                DeviceId::Host
            }
            Selected::Default => match self.open(num) {
                Ok(_) => {
                    notify::debug_choice(|| format!("constructs run on NVIDIA device {num}"));
                    DeviceId::Nvidia(num)
                }
                Err(why) => {
                    notify::debug_choice(|| {
                        format!("constructs run on the host: no NVIDIA device is usable ({why})")
                    });
                    DeviceId::Host
                }
            },
            Selected::Nvidia { origin } => match self.open(num) {
                Ok(_) => {
                    notify::debug_choice(|| {
                        format!("constructs run on NVIDIA device {num} ({origin})")
                    });
                    DeviceId::Nvidia(num)
                }
                Err(why) => fatal(&format!("{origin} but no NVIDIA device is usable: {why}")),
            },
        }
    }

    /// The host device.
    pub fn host(&mut self) -> &mut DeviceState {
        self.host
            .get_or_insert_with(|| Box::new(DeviceState::host()))
    }

    /// Device `id` if it is open (the host and multicore devices always are).
    pub fn get(&mut self, id: DeviceId) -> Option<&mut DeviceState> {
        match id {
            DeviceId::Host | DeviceId::Multicore => Some(self.get_or_host(id)),
            DeviceId::Nvidia(n) => self.device(n),
        }
    }

    /// Device `id` if it is open, else the host device (where constructs
    /// run while no NVIDIA device is open).
    fn get_or_host(&mut self, id: DeviceId) -> &mut DeviceState {
        let Runtime {
            devices,
            host,
            multicore,
            ..
        } = self;
        open_or_host(devices, host, multicore, id)
    }

    /// The calling thread's device, opening it if needed: the host device
    /// when constructs run on the host.
    pub fn current(&mut self) -> &mut DeviceState {
        let id = self.select(true);
        self.get_or_host(id)
    }

    /// The calling thread's device when it is open and selected, else the
    /// host device (never opens a device).
    pub fn active(&mut self) -> &mut DeviceState {
        self.active_with_images().0
    }

    /// [`Runtime::active`] with the registered images (to load modules).
    pub fn active_with_images(&mut self) -> (&mut DeviceState, &Images) {
        let host_code = self.images.has_host_code();
        let id = icv::with_device_type(|t| match t {
            Selected::Multicore if host_code => DeviceId::Multicore,
            t if t.on_host() => DeviceId::Host,
            _ => DeviceId::Nvidia(icv::device_num()),
        });
        let Runtime {
            devices,
            host,
            multicore,
            images,
            ..
        } = self;
        (open_or_host(devices, host, multicore, id), images)
    }

    /// Close device `ordinal` if open (acc_shutdown_device): its data is
    /// freed; a later use opens it again.
    pub fn shutdown_device(&mut self, ordinal: i32) {
        if let Some(slot) = usize::try_from(ordinal)
            .ok()
            .and_then(|i| self.devices.get_mut(i))
        {
            if let Slot::Open(d) = slot {
                let ctx = crate::prof::Ctx::device(ordinal);
                let span =
                    crate::prof::Span::start(crate::prof::ev::DEVICE_SHUTDOWN_START, &ctx, false);
                d.close();
                span.end(crate::prof::ev::DEVICE_SHUTDOWN_END, &ctx, false);
            }
            if !matches!(slot, Slot::Failed(_)) {
                *slot = Slot::NotTried;
            }
        }
    }

    /// Close every open device (acc_shutdown).
    pub fn shutdown(&mut self) {
        for i in 0..self.devices.len() {
            self.shutdown_device(i as i32);
        }
    }
}

/// The host waits for queue `w` (`None`: every queue) of device `id`
/// without holding the runtime lock (other threads go on queueing work),
/// then the device takes back what completed work held. A device not open
/// has nothing to wait for, nor has the host (its queues are synchronous).
pub fn host_wait_unlocked(loc: &SrcLoc, id: DeviceId, w: Option<u32>) -> Result<(), Failure> {
    let (d, streams) = {
        let mut rt = lock();
        let Some(dev) = rt.get(id) else {
            return Ok(());
        };
        (dev.dev(), queue::streams_to_wait(dev, w))
    };
    let q = w.map_or(Queue::Sync, Queue::Id);
    let ctx = crate::prof::Ctx::on(loc, id, q);
    let span = crate::prof::Span::start(crate::prof::ev::WAIT_START, &ctx, false);
    let waited = queue::wait_streams(d, &streams);
    span.end(crate::prof::ev::WAIT_END, &ctx, false);
    if let Err((q, e)) = waited {
        return Err(match lock().get(id) {
            Some(dev) => dev.queues.failed(q, e),
            None => Failure::with(format!("async queue {q} failed"), e),
        });
    }
    match lock().get(id) {
        Some(dev) => queue::after_wait(dev),
        None => Ok(()),
    }
}

/// The exit report's first step ([`timing::arm`]): wait for every open
/// device and read its pending timings, if the runtime lock can be had
/// soon (once only after a fatal error, whose thread may hold it: async
/// work not read by then is shown untimed).
fn settle_all() {
    let tries = if crate::error::exiting_on_error() {
        1
    } else {
        1000
    };
    for _ in 0..tries {
        let mut rt = match RUNTIME.try_lock() {
            Ok(g) => g,
            Err(TryLockError::Poisoned(e)) => e.into_inner(),
            Err(TryLockError::WouldBlock) => {
                std::thread::sleep(Duration::from_millis(1));
                continue;
            }
        };
        for dev in rt.open_devices() {
            if dev.timing.pending() > 0 {
                // SAFETY: plain value.
                let _ = unsafe { dev.plugin.synchronize(dev.ordinal) };
                timing::settle(dev, true);
            }
        }
        return;
    }
}

/// Device `id` of `devices` if it is open, the multicore device for
/// [`DeviceId::Multicore`], else the host device (each made on first use).
fn open_or_host<'a>(
    devices: &'a mut [Slot],
    host: &'a mut Option<Box<DeviceState>>,
    multicore: &'a mut Option<Box<DeviceState>>,
    id: DeviceId,
) -> &'a mut DeviceState {
    match id {
        DeviceId::Nvidia(n) => {
            if let Some(Slot::Open(d)) = usize::try_from(n).ok().and_then(|i| devices.get_mut(i)) {
                return d;
            }
        }
        DeviceId::Multicore => {
            return multicore.get_or_insert_with(|| Box::new(DeviceState::multicore()))
        }
        DeviceId::Host => {}
    }
    host.get_or_insert_with(|| Box::new(DeviceState::host()))
}

/// `void __ptxrt_register_plugin_dir(const char *dir)`: accc links every
/// program with a constructor that records where the plugin was at link
/// time (searched after the program's own directory).
///
/// # Safety
/// `dir` is null or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn __ptxrt_register_plugin_dir(dir: *const c_char) {
    guard(|| {
        crate::prof::init();
        if dir.is_null() {
            return;
        }
        // SAFETY: NUL-terminated, as the caller promises.
        let d = PathBuf::from(
            unsafe { CStr::from_ptr(dir) }
                .to_string_lossy()
                .into_owned(),
        );
        let mut rt = lock();
        if !d.as_os_str().is_empty() && !rt.linked_dirs.contains(&d) {
            rt.linked_dirs.push(d);
        }
    })
}

/// `int __ptxrt_use_device(int cond)`.
#[no_mangle]
pub extern "C" fn __ptxrt_use_device(cond: c_int) -> c_int {
    guard(|| {
        if cond == 0 {
            // The host fallback runs after the kernels before it.
            crate::deferred::settle();
        }
        c_int::from(lock_deferred().use_device(cond != 0))
    })
}
