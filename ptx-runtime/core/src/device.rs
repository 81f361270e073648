//! One device: [`DeviceState`] owns the parts of a device — its plugin
//! handle ([`Dev`]), description, present table, caching allocator, user
//! blocks, staging buffers, module cache and address cells, its
//! kernels' limits ([`crate::occupancy`]), reduction scratch, async queues and their memory, and pending timings — and says
//! what the device is ([`DeviceKind`]: the host device or an NVIDIA one;
//! [`DeviceState::shares_memory`], [`DeviceState::runs_kernels`],
//! [`DeviceState::async_queues`]). The parts never take the runtime lock
//! ([`crate::runtime`] owns it): they are given the device state, or the
//! part and the [`Dev`] handle, they work on.
//!
//! Owns: the device state and its lifetime ([`DeviceState::new`],
//! [`DeviceState::host`], [`DeviceState::multicore`], [`DeviceState::close`]). The methods on the state
//! live with the part they use: memory and copies in [`crate::devmem`],
//! work of an async queue in [`crate::asyncmem`], queue waits in
//! [`crate::queue`], timings in [`crate::timing`], modules in
//! [`crate::image`].
//! May call: [`crate::plugin`] (through [`Dev`]), [`crate::host`],
//! [`crate::present`], [`crate::alloc`], [`crate::devmem`],
//! [`crate::asyncmem`], [`crate::queue`], [`crate::timing`],
//! [`crate::image`], [`crate::occupancy`].

use crate::alloc::Allocator;
use crate::asyncmem::AsyncMem;
use crate::devmem::Staging;
use crate::image::ModuleCache;
use crate::plugin::Plugin;
use crate::present::PresentTable;
use crate::queue::{Queue, Queues};
use crate::timing::{self, Timing};
use ptxrt_plugin_abi::DeviceInfo;
use std::collections::{BTreeMap, HashSet};

/// What a device is: the host (shares the program's memory, runs
/// constructs through their host fallback; [`crate::host`]), the host's
/// cores (shares the program's memory, runs the kernels compiled as host
/// code on threads; [`crate::multicore`]) or an NVIDIA device of the
/// loaded plugin (a GPU, or the emulated one).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeviceKind {
    Host,
    Multicore,
    Nvidia,
}

/// Which device: the host device, the multicore device, or NVIDIA device
/// n (the driver ordinal).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeviceId {
    Host,
    Multicore,
    Nvidia(i32),
}

/// One open device.
pub struct DeviceState {
    pub plugin: &'static Plugin,
    pub kind: DeviceKind,
    /// Driver ordinal (the OpenACC device number; 0 for the host).
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
    /// What limits the launches of its loaded kernels, as the plugin said.
    pub occupancy: crate::occupancy::Cache,
    /// The queue the work in progress goes to ([`crate::queue::run`]).
    pub queue: Queue,
    /// The async queues' streams and events.
    pub queues: Queues,
    /// The pinned ring and the pending frees of async work.
    pub asyncmem: AsyncMem,
    /// Timed events of `PTXRT_TIME` around async work, not read yet.
    pub timing: Timing,
    /// The stack of each device thread the runtime last set
    /// ([`crate::stack`]); `None`: the driver's default.
    pub stack: Option<usize>,
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
            kind: DeviceKind::Nvidia,
            ordinal,
            info,
            present: PresentTable::new(),
            modules: ModuleCache::new(),
            stack: None,
            alloc: Allocator::new(cap),
            user_blocks: HashSet::new(),
            staging: Staging::default(),
            cells: BTreeMap::new(),
            epoch,
            scratch: BTreeMap::new(),
            occupancy: Default::default(),
            queue: Queue::Sync,
            queues: Queues::default(),
            asyncmem: AsyncMem::default(),
            timing: Timing::default(),
        }
    }

    /// The host device (device 0 of the host type, [`crate::host`]).
    pub fn host() -> DeviceState {
        let plugin = crate::host::plugin();
        // SAFETY: plain value.
        let info = unsafe { plugin.device_info(0) }.unwrap_or_default();
        DeviceState {
            kind: DeviceKind::Host,
            ..DeviceState::new(plugin, 0, info, 0)
        }
    }

    /// The multicore device (device 0 of the multicore type,
    /// [`crate::multicore`]).
    pub fn multicore() -> DeviceState {
        let plugin = crate::multicore::plugin();
        // SAFETY: plain value.
        let info = unsafe { plugin.device_info(0) }.unwrap_or_default();
        DeviceState {
            kind: DeviceKind::Multicore,
            ..DeviceState::new(plugin, 0, info, 0)
        }
    }

    /// Which device this is.
    pub fn id(&self) -> DeviceId {
        match self.kind {
            DeviceKind::Host => DeviceId::Host,
            DeviceKind::Multicore => DeviceId::Multicore,
            DeviceKind::Nvidia => DeviceId::Nvidia(self.ordinal),
        }
    }

    /// Whether the device's memory is the program's (the host): its present
    /// table maps every range to itself, data clauses do not copy, a
    /// device address is the host address, `acc_*` copies are `memmove`s
    /// (OpenACC's shared-memory semantics, [`crate::mapping`]).
    pub fn shares_memory(&self) -> bool {
        self.kind != DeviceKind::Nvidia
    }

    /// The vendor (`acc_property_vendor`).
    pub fn vendor(&self) -> &'static str {
        match self.kind {
            DeviceKind::Host | DeviceKind::Multicore => "accc",
            DeviceKind::Nvidia => "NVIDIA",
        }
    }

    /// The driver (`acc_property_driver`): libptxrt for the host, the CUDA
    /// driver's version for an NVIDIA device.
    pub fn driver(&self) -> String {
        match self.kind {
            DeviceKind::Host | DeviceKind::Multicore => {
                format!("libptxrt {}", env!("CARGO_PKG_VERSION"))
            }
            DeviceKind::Nvidia => {
                let v = self.info.driver_version;
                format!("CUDA {}.{}", v / 1000, (v % 1000) / 10)
            }
        }
    }

    /// Whether work can wait on the device's queues (else every queue is
    /// synchronous, as the host's and the multicore device's: waits and
    /// tests find them idle).
    pub fn async_queues(&self) -> bool {
        self.kind == DeviceKind::Nvidia
    }

    /// Whether constructs run on the device as kernels (else through their
    /// host fallback, which the compiled program runs itself).
    pub fn runs_kernels(&self) -> bool {
        self.kind != DeviceKind::Host
    }

    /// The device's plugin handle.
    pub fn dev(&self) -> Dev<'static> {
        Dev {
            plugin: self.plugin,
            ordinal: self.ordinal,
        }
    }

    /// Release everything the device holds (shutdown): wait for it, free
    /// all device copies and the allocator's memory, unload the modules.
    pub fn close(&mut self) {
        // SAFETY: plain value.
        let _ = unsafe { self.plugin.synchronize(self.ordinal) };
        crate::deferred::forget(self.plugin, self.ordinal);
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
        self.occupancy.clear();
    }
}

/// A device's plugin and ordinal: what the parts of a device need to call
/// the plugin for it.
#[derive(Clone, Copy)]
pub struct Dev<'a> {
    pub plugin: &'a Plugin,
    pub ordinal: i32,
}
