//! The machine a module is compiled for: its limits on launch sizes, which
//! scheduling (the launch geometry and its remarks) reads instead of constants
//! of their own. It lives in `ir` so every stage may name it.
//!
//! Owns: [`Target`], [`Gpu`] and [`HostCpu`]. May call: nothing.
//!
//! Two targets: an NVIDIA GPU ([`Target::Gpu`]), built from the driver's
//! `-gpu=ccXY` (`--gpu-arch=sm_XY`) with [`Target::for_arch`], and the
//! host's cores ([`Target::Host`], OpenACC's `-acc=multicore`): every
//! gang is a block of one thread that one of the runtime's host threads
//! runs, so worker and vector loops run sequentially within their gang.
//! `schedule` maps loops by the variant it is given.

/// What scheduling is for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// An NVIDIA GPU (PTX).
    Gpu(Gpu),
    /// The host's cores (host C compiled by the host cc): gangs on host
    /// threads, one thread a gang.
    Host(HostCpu),
}

/// The host-multicore target's limits on a launch: blocks of one thread
/// (worker and vector loops are sequential), and a grid whose size the
/// runtime bounds by nothing but the 32-bit launch arguments (it runs the
/// gangs on its threads, as many gangs at a time as it has threads).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HostCpu {
    /// Blocks a grid may have along x, y and z.
    pub max_grid: [u32; 3],
}

/// An NVIDIA GPU's limits on a launch (CUDA's "compute capability"
/// tables); the same for every architecture accc emits PTX for (sm_35 and
/// later), kept per target so that a later architecture may differ.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Gpu {
    /// The architecture's number: 90 for `sm_90` (`-gpu=cc90`).
    pub sm: u32,
    /// Threads a block may have in all.
    pub max_threads_per_block: u32,
    /// Threads a block may have along x, y and z.
    pub max_block: [u32; 3],
    /// Blocks a grid may have along x, y and z.
    pub max_grid: [u32; 3],
    /// Threads of a warp. The reductions' shuffle code (`reduce.rs`) is
    /// written for PTX's 32-lane warps (full masks, `lane = tid & 31`).
    pub warp: u32,
    /// Named barriers a block has (`bar.sync` 0–15); barrier 0 is the
    /// block's, the others synchronise rows of workers.
    pub named_barriers: u32,
}

impl Gpu {
    /// The limits of `sm_<sm>`.
    pub fn new(sm: u32) -> Gpu {
        Gpu {
            sm,
            max_threads_per_block: 1024,
            max_block: [1024, 1024, 64],
            max_grid: [i32::MAX as u32, 65535, 65535],
            warp: 32,
            named_barriers: 16,
        }
    }
}

impl Target {
    /// What `acc_on_device(t)` answers in code compiled for this target
    /// (`t` an `acc_device_t` of `openacc.h`): on a GPU, true for
    /// `acc_device_not_host` (4) and `acc_device_nvidia` (5); on the host's
    /// cores, for `acc_device_host` (2) and `acc_device_multicore` (9), as
    /// nvc's `-acc=multicore` answers. Every other value is false.
    pub fn on_device(&self, t: u8) -> bool {
        match self {
            Target::Gpu(_) => matches!(t, 4 | 5),
            Target::Host(_) => matches!(t, 2 | 9),
        }
    }

    /// The GPU `sm_<sm>`.
    pub fn gpu(sm: u32) -> Target {
        Target::Gpu(Gpu::new(sm))
    }

    /// The GPU an architecture name gives (`sm_90`, `sm_90a`, `sm_80`);
    /// a name without a number (ptxas refuses it later) has the limits of
    /// every GPU accc knows, with `sm` 0.
    pub fn for_arch(arch: &str) -> Target {
        let digits: String = arch
            .strip_prefix("sm_")
            .unwrap_or(arch)
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        Target::gpu(digits.parse().unwrap_or(0))
    }

    /// The host's cores.
    pub fn host() -> Target {
        Target::Host(HostCpu {
            max_grid: [i32::MAX as u32, 65535, 65535],
        })
    }

    /// The GPU's limits (`None` for the host).
    pub fn gpu_limits(&self) -> Option<&Gpu> {
        match self {
            Target::Gpu(g) => Some(g),
            Target::Host(_) => None,
        }
    }

    /// Threads a block may have in all (1 on the host: a gang is one
    /// thread).
    pub fn max_threads_per_block(&self) -> u32 {
        match self {
            Target::Gpu(g) => g.max_threads_per_block,
            Target::Host(_) => 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arch_names() {
        let sm = |a: &str| Target::for_arch(a).gpu_limits().map(|g| g.sm);
        assert_eq!(sm("sm_90a"), Some(90));
        assert_eq!(sm("sm_80"), Some(80));
        assert_eq!(sm("bogus"), Some(0));
        let g = Target::gpu(70);
        assert_eq!(g.max_threads_per_block(), 1024);
        assert_eq!(g.gpu_limits().map(|g| g.max_grid[1]), Some(65535));
        assert_eq!(Target::host().max_threads_per_block(), 1);
        assert_eq!(Target::host().gpu_limits(), None);
    }
}
