//! The runtime's global state: the device plugin, the devices (each with its
//! present table, memory and loaded modules), the registered images and
//! declared globals.
//!
//! Owns: [`RUNTIME`], lazy initialisation (the plugin is loaded and the
//! driver initialised once; each device is opened the first time a thread
//! whose device number names it needs it, and then gets the create/copyin
//! `declare` globals), host fallback, shutdown, `__ptxrt_use_device`, and
//! the plugin directories recorded at link time
//! (`__ptxrt_register_plugin_dir`). Selection (per thread, [`crate::icv`]):
//! device type host or multicore → host; nvidia or not_host → the device is
//! required (a fatal error says why it is not usable); default → the device
//! when usable, else the host fallback, silently (`PTXRT_DEBUG=1` says which
//! plugin paths were tried and where constructs run, and why).
//!
//! Lock order: [`RUNTIME`] is the lock of libptxrt's state. Every entry
//! point takes it once, never nested, and calls back into C while holding it
//! only through the plugin. Below it, as leaves (taken while it is held, never
//! holding another): the plugin's driver state (libptxrt-cuda), the queue
//! lock of the host copy pool ([`crate::hostcopy`]), the string table of
//! `acc_get_property_string`, the last `PTXRT_DEBUG` choice line
//! ([`crate::notify::debug_choice`]), and the profile of `PTXRT_TIME`
//! ([`crate::profile::PROFILE`], also taken without [`RUNTIME`]). A kernel
//! launch releases [`RUNTIME`] while the kernel runs. The exit report of
//! `PTXRT_TIME` ([`crate::timing`]) takes [`RUNTIME`] only with `try_lock`.
//! May call: [`crate::plugin`], [`crate::present`], [`crate::image`],
//! [`crate::declare`], [`crate::devmem`], [`crate::icv`], [`crate::error`],
//! [`crate::notify`], [`crate::timing`] / [`crate::profile`] (device
//! opened, exit report armed, timings read at shutdown).

use crate::alloc::Allocator;
use crate::asyncmem::AsyncMem;
use crate::declare::{self, Declares};
use crate::devmem::Staging;
use crate::error::{fatal, guard};
use crate::icv::{self, Selected};
use crate::image::{Images, ModuleCache};
use crate::notify;
use crate::plugin::{self, Plugin};
use crate::present::PresentTable;
use crate::queue::{Queue, Queues};
use crate::timing::{self, Timing};
use ptxrt_plugin_abi::DeviceInfo;
use std::collections::{BTreeMap, HashSet};
use std::ffi::{c_char, c_int, CStr};
use std::path::PathBuf;
use std::sync::{Mutex, MutexGuard};

/// One open device.
pub struct DeviceState {
    pub plugin: &'static Plugin,
    /// Driver ordinal (the OpenACC device number).
    pub ordinal: i32,
    pub info: DeviceInfo,
    pub present: PresentTable,
    pub modules: ModuleCache,
    /// Every device allocation of the runtime.
    pub alloc: Allocator,
    /// The blocks `acc_malloc` handed out (and `acc_free` may take back).
    pub user_blocks: HashSet<u64>,
    /// Pinned buffers for large transfers.
    pub staging: Staging,
    /// Device address cells of the loaded modules: host global → the cells
    /// (device addresses of pointer-sized globals) that must hold its device
    /// address ([`crate::declare`]).
    pub cells: BTreeMap<usize, Vec<u64>>,
    /// Which opening of the device this is (a region begun before a
    /// shutdown does not touch the device opened after it).
    pub epoch: u64,
    /// The scratch memory lent to launches that reduce across gangs, one
    /// per queue (address, bytes): zeroed when made; kernels leave their
    /// counters at zero ([`crate::launch`]).
    pub scratch: BTreeMap<Queue, (u64, usize)>,
    /// The queue the work in progress goes to ([`crate::queue::run`]).
    pub queue: Queue,
    /// The async queues' streams and events.
    pub queues: Queues,
    /// The pinned ring and the pending frees of async work.
    pub asyncmem: AsyncMem,
    /// Timed events of `PTXRT_TIME` around async work, not read yet.
    pub timing: Timing,
}

impl DeviceState {
    /// A device without data or modules. The allocator's cache holds at
    /// most a quarter of the device's memory (1 GiB when unknown).
    pub fn new(plugin: &'static Plugin, ordinal: i32, info: DeviceInfo, epoch: u64) -> DeviceState {
        let cap = match info.total_mem {
            0 => 1 << 30,
            t => usize::try_from(t / 4).unwrap_or(usize::MAX),
        };
        DeviceState {
            plugin,
            ordinal,
            info,
            present: PresentTable::new(),
            modules: ModuleCache::new(),
            alloc: Allocator::new(cap),
            user_blocks: HashSet::new(),
            staging: Staging::default(),
            cells: BTreeMap::new(),
            epoch,
            scratch: BTreeMap::new(),
            queue: Queue::Sync,
            queues: Queues::default(),
            asyncmem: AsyncMem::default(),
            timing: Timing::default(),
        }
    }

    /// Release everything the device holds (shutdown): wait for it, free
    /// all device copies and the allocator's memory, unload the modules.
    pub fn close(&mut self) {
        let _ = self.plugin.synchronize(self.ordinal);
        timing::close(self);
        self.queue = Queue::Sync;
        let d = self.dev();
        let mut pending = vec![];
        self.asyncmem
            .close(d, &mut self.queues, &mut |p| pending.push(p));
        for p in pending {
            let _ = self.release_block(p);
        }
        self.queues.close(d);
        self.scratch.clear();
        self.present.drain();
        self.user_blocks.clear();
        self.cells.clear();
        self.release_memory();
        crate::image::unload_all(self);
    }
}

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
    /// The devices, by ordinal.
    devices: Vec<Slot>,
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
        epoch: 0,
    }
}

/// Take the runtime lock (a poisoned lock is still usable: no invariant
/// spans a panic, and panics end the program anyway).
pub fn lock() -> MutexGuard<'static, Runtime> {
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
            plugin.init().map_err(drv)?;
            let n = plugin.device_count().map_err(drv)?;
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
            self.devices[i] = match self.open_device(ordinal) {
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

    /// Whether a construct whose if clause is `cond` runs on the device, for
    /// the calling thread (opening its device on first use).
    pub fn use_device(&mut self, cond: bool) -> bool {
        let r = self.choose_device(cond);
        // The exit report is registered after the driver was loaded (so it
        // runs before the driver's own exit handlers), or for a run on the host.
        if crate::profile::enabled() && (self.driver.is_some() || icv::device_type().on_host()) {
            timing::arm(self.driver.is_some());
        }
        r
    }

    fn choose_device(&mut self, cond: bool) -> bool {
        if !cond {
            return false;
        }
        let num = icv::device_num();
        match icv::device_type() {
            Selected::Host => {
                notify::debug_choice(|| {
                    "constructs run on the host: the device type is host".into()
                });
                false
            }
            Selected::Multicore => {
                notify::debug_choice(|| {
                    "constructs run on the host: the device type is multicore (accc runs it on the host)".into()
                });
                false
            }
            Selected::Default => match self.open(num) {
                Ok(_) => {
                    notify::debug_choice(|| format!("constructs run on NVIDIA device {num}"));
                    true
                }
                Err(why) => {
                    notify::debug_choice(|| {
                        format!("constructs run on the host: no NVIDIA device is usable ({why})")
                    });
                    false
                }
            },
            Selected::Nvidia { origin } => match self.open(num) {
                Ok(_) => {
                    notify::debug_choice(|| {
                        format!("constructs run on NVIDIA device {num} ({origin})")
                    });
                    true
                }
                Err(why) => fatal(&format!("{origin} but no NVIDIA device is usable: {why}")),
            },
        }
    }

    /// The calling thread's device, opening it if needed; `None` when
    /// constructs run on the host.
    pub fn current(&mut self) -> Option<&mut DeviceState> {
        if self.use_device(true) {
            self.device(icv::device_num())
        } else {
            None
        }
    }

    /// The calling thread's device when it is open and selected (never opens it).
    pub fn active(&mut self) -> Option<&mut DeviceState> {
        self.active_with_images().map(|(d, _)| d)
    }

    /// [`Runtime::active`] with the registered images (to load modules).
    pub fn active_with_images(&mut self) -> Option<(&mut DeviceState, &Images)> {
        if icv::device_type().on_host() {
            return None;
        }
        let i = usize::try_from(icv::device_num()).ok()?;
        match self.devices.get_mut(i) {
            Some(Slot::Open(d)) => Some((d, &self.images)),
            _ => None,
        }
    }

    /// Close device `ordinal` if open (acc_shutdown_device): its data is
    /// freed; a later use opens it again.
    pub fn shutdown_device(&mut self, ordinal: i32) {
        if let Some(slot) = usize::try_from(ordinal)
            .ok()
            .and_then(|i| self.devices.get_mut(i))
        {
            if let Slot::Open(d) = slot {
                d.close();
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

/// `void __ptxrt_register_plugin_dir(const char *dir)`: accc links every
/// program with a constructor that records where the plugin was at link
/// time (searched after the program's own directory).
///
/// # Safety
/// `dir` is null or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn __ptxrt_register_plugin_dir(dir: *const c_char) {
    guard(|| {
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
    guard(|| c_int::from(lock().use_device(cond != 0)))
}
